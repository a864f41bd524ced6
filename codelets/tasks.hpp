// Typed task insertion: one function per tile kernel. Tile sizes come from the handles.
// The tile algorithms call only these; each submits one StarPU task with the given priority.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "kernels/opencl/tensor_format.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// While an object of this class lives, the tasks the calling thread submits ask for tensor-core
/// products in `format` (one process; tasks of submit_distributed ignore it): their OpenCL
/// implementations run inside ocl::TensorProducts, so that the float GEMMs they launch (gemm and
/// syrk tasks, and those inside trsm, trmm, potrf and trtri tasks) take NVIDIA's tensor cores where
/// the device has them (kernels/opencl/gemm_nv_tf32.cl: TF32 or FP16 operands, unit roundoff 2^-11
/// instead of 2^-24; with Fp16 the caller keeps the operands below 65504). Such tasks get perfmodel
/// footprints of their own; CPU implementations and other precisions are unchanged. For the
/// low-precision factorization of a mixed-precision solver, whose refinement restores the high
/// precision's accuracy. Scopes nest.
class TensorScope {
public:
    explicit TensorScope(ocl::TensorFormat format);
    ~TensorScope();
    TensorScope(const TensorScope&) = delete;
    TensorScope& operator=(const TensorScope&) = delete;
    /// The calling thread's format (the innermost scope's; None outside every scope).
    static ocl::TensorFormat active();

private:
    ocl::TensorFormat saved_;
};

/// C = alpha·op(A)·op(B) + beta·C on tiles (RW C).
template <class T>
void gemm(Trans ta, Trans tb, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C, int prio = 0);
/// C1 += alpha·A·B1 and C2 += alpha·op(A)·B2 (op Trans, or ConjTrans for complex T), A m×k, B1 k×n,
/// B2 m×n, C1 m×n, C2 k×n (R A, B1, B2; RW C1, C2): the two products of a symmetric or Hermitian
/// matrix's off-diagonal tile A(i, j), into block rows i and j. On an OpenCL device with n = 1 one
/// read of A (ocl::gemm_narrow_pair), otherwise two gemms. C1 and C2 must be different tiles.
template <class T>
void gemm_pair(Trans op, T alpha, TileHandle A, TileHandle B1, TileHandle B2, TileHandle C1, TileHandle C2,
               int prio = 0);
/// Y = op(W)·(B − Σ_j op(F_j)·X_j), B left holding the bracket: one block row of a triangular solve
/// by its diagonal tile's inverse W (detail::DiagonalInverseSolves), as one task (R W, F_j, X_j;
/// RW B; W Y; F.size() == X.size(), possibly 0). The same products in the same order as one gemm
/// task per tile on a CPU worker; on an OpenCL device with a narrow B (ocl::gemm_narrow_sum) one
/// launch per F_j and one sum of all their partials.
template <class T>
void solve_row(Trans op, TileHandle W, const std::vector<TileHandle>& F, const std::vector<TileHandle>& X,
               TileHandle B, TileHandle Y, int prio = 0);
/// C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle of a diagonal tile (RW C).
template <class T>
void syrk(Uplo uplo, Trans trans, T alpha, TileHandle A, T beta, TileHandle C, int prio = 0);
/// C = alpha·op(A)·op(A)ᴴ + beta·C, alpha and beta real, on the uplo triangle of a diagonal tile
/// (RW C): zherk/cherk; syrk for real T.
template <class T>
void herk(Uplo uplo, Trans trans, real_t<T> alpha, TileHandle A, real_t<T> beta, TileHandle C, int prio = 0);
/// B = alpha·op(A)⁻¹·B or alpha·B·op(A)⁻¹ (RW B).
template <class T>
void trsm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio = 0);
/// B = alpha·op(A)·B or alpha·B·op(A), A triangular (RW B). `zeroed`: A's other triangle holds
/// zeros (an inverse from trtri or potrf_inverse), which a device's products then read as stored
/// instead of a copy of A's triangle (ocl::trmm; diag NonUnit).
template <class T>
void trmm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio = 0,
          bool zeroed = false);
/// C = alpha·A·B + beta·C (side Left) or alpha·B·A + beta·C (Right), A a diagonal tile referenced
/// through its uplo triangle, symmetric, or Hermitian with `hermitian` and complex T (R A, R B, RW C;
/// xSYMM / xHEMM; CPU and OpenCL).
template <class T>
void symm(bool hermitian, Side side, Uplo uplo, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C,
          int prio = 0);
/// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the uplo triangle of a diagonal tile, or
/// with `hermitian` ᴴ and conj(alpha) on the second term and beta real (R A, R B, RW C; xSYR2K /
/// xHER2K; CPU and OpenCL).
template <class T>
void syr2k(bool hermitian, Uplo uplo, Trans trans, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C,
           int prio = 0);
/// W = A⁻¹ for the triangular tile A (zeros in W's other triangle); W is written, A only read.
template <class T>
void trtri(Uplo uplo, Diag diag, TileHandle A, TileHandle W, int prio = 0);
/// Cholesky of a diagonal tile (RW A); the kernel's local info (0 or 1-based column) goes to *info.
template <class T>
void potrf(Uplo uplo, TileHandle A, int* info, int prio = 0);
/// potrf, and W = the factor's inverse as trtri writes it (W written; unspecified after a failure):
/// on an OpenCL device one recursion makes both (ocl::potrf with an inverse), on the device's panel
/// queue where it has one (runtime_internal.hpp, PanelQueue), beside the updates on its own.
template <class T>
void potrf_inverse(Uplo uplo, TileHandle A, TileHandle W, int* info, int prio = 0);
/// B = A on B's rows × columns, or on its uplo trapezoid (R A, W B; A at least as large as B).
template <class T>
void lacpy(Uplo uplo, TileHandle A, TileHandle B, int prio = 0);
/// B = A as lacpy (General), one of them a region of a caller's array in pageable host memory
/// (TileMatrix::fill_from_lapack, to_lapack): the same codelet and perfmodel, but on a CPU worker
/// when the Runtime has one and the placement allows it. On a device, the region crossed the bus
/// through the driver's staging of pageable memory, both ways: dposv at n = 32768 on an H200 copied
/// 8.6 GB in 4.6–5.3 s and out in 7.0–7.7 s that way (bench/gpu_notes.md); a CPU copy into the tile's
/// pinned storage leaves the bus to the tiles at 54 GB/s.
template <class T>
void lacpy_host(TileHandle A, TileHandle B, int prio = 0);
/// The partial `part` of a norm of tile A (R A) into W (W), a rows×1 tile of real_t<T> of length
/// cpu::norm_part_length (kernels/cpu/norms.hpp: `part` and `tile` are cpu::NormPart and
/// cpu::NormTile as ints; `unit`: a trapezoid's diagonal as ones; `herm`: a symmetric tile's diagonal
/// by its real part). CPU and OpenCL give the same bits for the max and the sums.
template <class T>
void norm_tile(int part, int tile, bool unit, bool herm, TileHandle A, TileHandle W, int prio = 0);
/// Fill the tile with f(i0, j0, rows, cols, tile, ld) on a CPU worker (W A); what f throws fails
/// the task (its sequence's wait throws TaskError).
template <class T>
using TileFunction = std::function<void(int64_t, int64_t, int64_t, int64_t, T*, int64_t)>;
template <class T>
void generate(std::shared_ptr<const TileFunction<T>> f, int64_t i0, int64_t j0, TileHandle A, int prio = 0);

/// A = alpha·A on the tile or its uplo trapezoid (RW A; CPU). alpha = 1 submits nothing.
template <class T>
void scale(T alpha, TileHandle A, Uplo uplo = Uplo::General, int prio = 0);

/// Prefetch plan of an algorithm for the OpenCL devices: each call starts an asynchronous copy of
/// a tile to a device (StarPU's prefetch, below the priority of every task, in the order of the
/// calls), so that transfers stream from the start instead of when each task becomes ready. The
/// device is the only one, or with several (runtime/device_map.hpp) the one owning the tile, or
/// the one owning `written` (the tile a task reading h writes). Each tile goes to a device once
/// per plan; a device's plan stops at half its memory, counting the plans of the sequences still
/// running (other application threads'; the submitting sequence keeps its reservation until it
/// drains). Nothing is prefetched without an OpenCL device, or distributed (StarPU-MPI's transfers
/// bring a rank its tiles). The copies are StarPU idle prefetches (a device's link carries them
/// only while no other copy to or from it is pending), or with TESSERA_IDLE_PREFETCH=0 StarPU's
/// prefetches (up to 10 queued per device, which the copies of ready tasks then wait behind).
/// Call it before submitting the tasks that use the tiles.
/// DevicePrefetch(Ahead) instead starts StarPU prefetches at the highest task priority, so that its
/// copies go before those requested after them: small operands a task will need while a larger
/// plan streams (a copy requested later queues behind up to 10 prefetches per device).
class DevicePrefetch {
public:
    enum class Mode { Plan, Ahead };
    explicit DevicePrefetch(Mode mode = Mode::Plan);
    ~DevicePrefetch();
    DevicePrefetch(const DevicePrefetch&) = delete;
    DevicePrefetch& operator=(const DevicePrefetch&) = delete;
    void operator()(TileHandle h);
    void operator()(TileHandle h, TileHandle written);

private:
    struct Device {
        int node;         // StarPU memory node
        size_t budget;    // bytes: half the device's memory (SIZE_MAX: unknown, no limit)
        size_t reserved;  // bytes this plan reserved on it
        bool full;        // the budget ran out: the plan stopped for this device
    };
    void to_device(TileHandle h, int device);
    std::vector<Device> devices_;
    std::set<std::pair<TileHandle, int>> sent_;
    bool idle_;  // TESSERA_IDLE_PREFETCH
    int priority_;
};

}  // namespace tessera::tasks

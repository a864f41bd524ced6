// Run-time choice of the NVIDIA GEMM path (gemm_nv.cl) for devices of compute capability ≥ 8.0.
// StarPU-free, like launch.hpp: enqueues on the given in-order queue and returns without waiting.
#pragma once

#include <cstdint>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/tensor_format.hpp"

namespace tessera::ocl {

/// True when the device qualifies (NVIDIA compute capability ≥ 8.0) and its program holds the
/// tessera_nvgemm_* kernels (built because build_options() defined TESSERA_NV_SM).
bool nv_gemm_available(const DeviceKernels& dk);

/// While an object of this class lives with a format other than None, float products that nv_gemm
/// runs on this thread take the tensor-core kernels of that format (gemm_nv_tf32.cl: operands
/// rounded to TF32 or FP16, unit roundoff 2^-11; products accumulated in FP32) where the device's
/// program has them (NVIDIA, compute capability ≥ 8.0); everything else is unchanged. Fp16 takes
/// the TF32 kernel for the forms that have no FP16 one (NN and TT, where FP16 is slower). An
/// OpenCL codelet opens one around its launches when its task was submitted in a
/// tasks::TensorScope (codelets/tasks.hpp), so that the GEMMs inside a trsm, trmm or potrf launch
/// follow too. Scopes nest; None restores exact float products inside an outer scope.
class TensorProducts {
public:
    explicit TensorProducts(TensorFormat format);
    ~TensorProducts();
    TensorProducts(const TensorProducts&) = delete;
    TensorProducts& operator=(const TensorProducts&) = delete;
    /// The calling thread's format (the innermost scope's; None outside every scope).
    static TensorFormat active();

private:
    TensorFormat saved_;
};

/// C = alpha·op(A)·op(B) + beta·C through gemm_nv.cl (double: FP64 tensor cores; float: FP32 FMA).
/// tri: 0 = all of C, 1 = only its lower triangle (i ≥ j), 2 = only its upper triangle (xSYRK).
/// Products with too few blocks of C to occupy the device, or whose last round of blocks would
/// leave most compute units idle (a syrk's triangle of 2048), split k (at least 128 deep, at most
/// TESSERA_NV_SPLITK ways, a kernel parameter; split_k in gemm_select.cpp): the partial products go to
/// dk.scratch(S·m·n·sizeof(T), Workspace::SplitK) and a second launch adds them to beta·C, in a
/// fixed order (results do not depend on scheduling).
/// Returns false, enqueuing nothing, when !nv_gemm_available(dk): the caller then uses the portable
/// kernel. Throws tessera::Error on a bad argument, as launch.hpp's functions do.
/// T is real; dk may be the program of T's precision or of the complex one above it (c, z), which
/// holds the same real kernels.
template <class T>
bool nv_gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
             int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, int tri = 0);

/// The same for complex T (gemm_complex.cpp): one real product of gemm_nv.cl on the real forms of
/// the operands (gemm_complex.cl), op(A) packed with alpha into dk.scratch(…, Workspace::Gemm)
/// (4·m·k reals), op(B) copied there when transposed (k·n scalars), and with tri (xSYRK, xHERK:
/// tri | 4 keeps the diagonal real) the full m×n product computed there too (m·n scalars) and its
/// triangle added to beta·C. k = 0 or alpha = 0 returns false (the portable kernel does it without
/// reading A or B).
template <class T>
bool nv_gemm_complex(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                     int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, int tri = 0);

/// nv_gemm or nv_gemm_complex, by T.
template <class T>
bool nv_gemm_any(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                 int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, int tri) {
    if constexpr (is_complex_v<T>)
        return nv_gemm_complex<T>(dk, q, transA, transB, m, n, k, alpha, A, B, beta, C, tri);
    else
        return nv_gemm<T>(dk, q, transA, transB, m, n, k, alpha, A, B, beta, C, tri);
}

}  // namespace tessera::ocl

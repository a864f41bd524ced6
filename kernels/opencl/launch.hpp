// Host launchers of Tessera's OpenCL tile kernels. StarPU-free: each enqueues on the given in-order
// queue and returns without waiting (StarPU's STARPU_OPENCL_ASYNC contract). Column-major tiles;
// `off` is in elements (StarPU's byte offset divided by sizeof(T)); `ld` ≥ rows.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/opencl/device.hpp"
#include "tessera/types.hpp"

namespace tessera::ocl {

/// A column-major matrix inside an OpenCL buffer.
struct Mat {
    cl_mem mem;
    size_t off;  ///< offset of element (0,0), in elements
    int64_t ld;  ///< leading dimension, in elements
};

/// The view of M from its element (i, j) on (same buffer and leading dimension).
inline Mat at(const Mat& M, int64_t i, int64_t j) { return {M.mem, M.off + size_t(i + j * M.ld), M.ld}; }

/// C = alpha·op(A)·op(B) + beta·C; C m×n, op(A) m×k, op(B) k×n (BLAS xGEMM; op may be ConjTrans).
/// Every launcher here takes T = float, double, std::complex<float> or std::complex<double>, and
/// throws tessera::Error when dk was built for another precision.
/// Products of at most TESSERA_GEMM_NARROW columns and k ≥ kNarrowMinK run gemm_narrow().
template <class T>
void gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
          int64_t k, T alpha, Mat A, Mat B, T beta, Mat C);

/// The least k for which gemm() takes gemm_narrow(): below it the product is too small to matter.
constexpr int64_t kNarrowMinK = 128;

/// The part of A a narrow product reads (gemm_narrow's `part`).
enum class NarrowPart : int { All = 0, LowerDiag = 1, Lower = 2, UpperDiag = 3, Upper = 4 };

/// gemm() for a narrow C (gemm_narrow.cl; launch_narrow.cpp): n ≤ dk.params().gemm_narrow (the
/// TESSERA_GEMM_NARROW kernel parameter, at most 8) and k ≥ kNarrowMinK, as the mixed-precision
/// solvers' residuals and solves with one right-hand side. Reads each element of A once, coalesced
/// (memory-bound), with k split over work-groups until the device's compute units hold
/// four groups each (each range at least 128 deep): the ranges' partial sums go to
/// dk.scratch(S·m·n·sizeof(T), Workspace::SplitK) and a second launch adds them to beta·C in a
/// fixed order (results do not depend on scheduling). Exact arithmetic of T: no TF32 or FP16 inside TensorProducts.
/// With `part` other than All only one triangle of A as stored is read (entry (i, j) of A with i ≥ j:
/// LowerDiag, i > j: Lower, i ≤ j: UpperDiag, i < j: Upper; the others taken as zeros), and with
/// real_diagonal the imaginary parts of A's diagonal as zeros: symm()'s products with a triangle.
/// Returns false, enqueuing nothing, when the shape does not qualify or the program lacks the
/// kernels. Throws tessera::Error as gemm() does.
template <class T>
bool gemm_narrow(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                 int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, NarrowPart part = NarrowPart::All,
                 bool real_diagonal = false);

/// One product op(A)·B of gemm_narrow_sum: A as stored (k columns of op(A)), B k×n.
struct NarrowTerm {
    Mat A, B;
    int64_t k;
};

/// C = alpha·Σ_t op(A_t)·B_t + beta·C over the terms, each op(A_t) m×k_t and B_t k_t×n with the
/// shapes gemm_narrow() takes: one narrow launch per term, whose partial sums all go to
/// dk.scratch(Workspace::SplitK), and one tessera_gemm_narrow_sum that adds them to beta·C in the
/// terms' order (results do not depend on scheduling). A block row of a triangular solve with one
/// right-hand side (tasks::solve_row): one pass over the partials instead of one per tile. Returns
/// false, enqueuing nothing, when alpha = 0, there is no term, a term's shape does not qualify or
/// the program lacks the kernels (the caller then uses gemm() per term). C must not overlap a term.
/// Throws tessera::Error as gemm() does.
template <class T>
bool gemm_narrow_sum(const DeviceKernels& dk, cl_command_queue q, Trans transA, int64_t m, int64_t n, T alpha,
                     const std::vector<NarrowTerm>& terms, T beta, Mat C);

/// P += alpha·A·U and Q += alpha·op(A)·V, op(A) = Aᵀ (or Aᴴ with conj and complex T), for the m×k A,
/// U k×1, V m×1, P m×1 and Q k×1, A read once (gemm_narrow_pair.cl): the two products of a symmetric
/// or Hermitian matrix's off-diagonal tile with one right-hand side. Work-groups of 32 columns and a
/// range of rows; each writes its partial sums (alpha applied) to dk.scratch(Workspace::SplitK) for
/// P and dk.scratch() for Q, which two launches of tessera_gemm_narrow_sum add in a fixed order (results
/// do not depend on scheduling). alpha = 0 enqueues nothing. Returns false, enqueuing nothing, when
/// the program lacks the kernel. P and Q must not overlap A, U, V or each other. Throws
/// tessera::Error for a precision other than dk's or sizes out of range.
template <class T>
bool gemm_narrow_pair(const DeviceKernels& dk, cl_command_queue q, bool conj, int64_t m, int64_t k, T alpha, Mat A,
                      Mat U, Mat V, Mat P, Mat Q);

/// C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle of the n×n C, op(A) n×k (BLAS xSYRK;
/// complex symmetric for complex T). trans: NoTrans or Trans (ConjTrans is Trans).
template <class T>
void syrk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha,
          Mat A, T beta, Mat C);

/// C = alpha·op(A)·op(A)ᴴ + beta·C on the uplo triangle of the n×n Hermitian C, op(A) n×k, alpha
/// and beta real (BLAS xHERK: the imaginary parts of C's diagonal are not read, and set to 0); syrk
/// for real T.
/// Throws tessera::Error if uplo is General, or for complex T if trans is Trans.
template <class T>
void herk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k,
          real_t<T> alpha, Mat A, real_t<T> beta, Mat C);

/// C = alpha·A·B + beta·C (Left, A m×m) or alpha·B·A + beta·C (Right, A n×n), A symmetric (xSYMM,
/// complex symmetric for complex T) or with hermitian Hermitian (xHEMM: the imaginary parts of its
/// diagonal are not used), read from its uplo triangle; B, C m×n. Left with a narrow C (gemm_narrow()'s
/// shapes): two narrow products, one with A's triangle and one with its strict triangle transposed,
/// reading nothing else; otherwise two triangular GEMMs on a scratch copy of A's strict triangle plus
/// half its diagonal (for hemm, half its real parts; launch_tri.cpp).
template <class T>
void symm(const DeviceKernels& dk, cl_command_queue q, bool hermitian, Side side, Uplo uplo, int64_t m, int64_t n,
          T alpha, Mat A, Mat B, T beta, Mat C);

/// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the uplo triangle of the n×n C, op(A),
/// op(B) n×k (BLAS xSYR2K, complex symmetric for complex T); with hermitian and complex T, ᴴ and
/// conj(alpha) on the second term, beta real and C's diagonal kept real (xHER2K). Two GEMMs masked
/// to the triangle. Throws tessera::Error if uplo is General, or for her2k if trans is Trans.
template <class T>
void syr2k(const DeviceKernels& dk, cl_command_queue q, bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k,
           T alpha, Mat A, Mat B, T beta, Mat C);

/// B = alpha·op(A)⁻¹·B (Left, A m×m) or alpha·B·op(A)⁻¹ (Right, A n×n); B m×n (BLAS xTRSM).
/// Reads only the uplo triangle of A, not its diagonal when diag is Unit; alpha = 0 sets B = 0
/// reading neither A nor B. A singular A is not detected (Inf/NaN in B, as in BLAS). Algorithm:
/// the diagonal blocks of op(A) (TESSERA_TRSM_BS rows) are inverted in one launch, LAPACK
/// xTRTI2-style; each leaf of TESSERA_TRSM_LEAF rows is solved in one launch with those inverses,
/// and the updates between leaves are GEMMs through gemm()'s dispatch (MAGMA's trsm); the
/// inverses live in dk.scratch().
/// Throws tessera::Error if uplo is General or a size is out of range.
template <class T>
void trsm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag,
          int64_t m, int64_t n, T alpha, Mat A, Mat B);

/// Cholesky factorization in place of the n×n tile A (uplo triangle; A = L·Lᴴ or Uᴴ·U, Hermitian
/// for complex T: the imaginary parts of the diagonal are not read), LAPACK xPOTRF semantics: after a failure at column info the leading info−1 columns hold the factor
/// and the rest is unspecified. Recursive on halves (Gustavson & Jonsson 2000) with the triangular
/// solves done as GEMMs with the inverses of the left halves, leaves of TESSERA_POTRF_BS columns
/// in one work-group each (launch_potrf.cpp); scratch: dk.scratch(), about 1.5·n² elements. Enqueues a non-blocking read of the info (0, or the 1-based column of the first pivot that is
/// not > 0, NaN included) into *host_info, which must stay valid until the queue has drained.
/// With `inverse` (n×n, not overlapping A), also writes L⁻¹ (Upper: U⁻¹) there as trtri() does (zeros
/// in the other triangle): the recursion's inverses of the left halves, completed along its right
/// spine by two GEMMs per level instead of trtri's own recursion (bench/gpu_notes.md); unspecified
/// after a failure.
template <class T>
void potrf(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t n, Mat A, int* host_info,
           const Mat* inverse = nullptr);

/// B = alpha·op(A)·B (Left, A m×m) or alpha·B·op(A) (Right, A n×n); B m×n, A triangular (BLAS
/// xTRMM): reads only the uplo triangle of A, not its diagonal when diag is Unit. The triangle is
/// copied into dk.scratch() with zeros in the other one, B next to it, and gemm() writes B in up to
/// 4 row (Left) or column (Right) blocks of at least 1024, each over the k-range where op(A) is
/// nonzero (from twice xTRMM's m·n·k flops with one block down to 1.25× with four, at the GEMM
/// kernel's speed). alpha = 0 sets B = 0 reading neither. With `zeroed` and diag NonUnit, A's other
/// triangle holds zeros (an inverse from trtri or potrf's recursion) and the products read A as
/// stored: no copy of its triangle.
/// Throws tessera::Error if uplo is General or a size is out of range.
template <class T>
void trmm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag,
          int64_t m, int64_t n, T alpha, Mat A, Mat B, bool zeroed = false);
/// C = alpha·op(S)·B + beta·C (Left: S m×m, B m×n) or alpha·B·op(S) + beta·C (Right: S n×n, B m×n);
/// C m×n. S is uplo triangular and read in full: its other triangle must hold zeros (and its diagonal
/// ones for a unit S). C is written in up to 4 row (Left) or column (Right) blocks of at least 1024,
/// each one gemm() over the k-range where op(S) is nonzero (trmm's core). C must not overlap B or S.
template <class T>
void gemm_triangular(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, int64_t m,
                     int64_t n, T alpha, Mat S, Mat B, T beta, Mat C);
/// W = A⁻¹ for the n×n triangular A (uplo triangle, unit diagonal when diag is Unit; LAPACK
/// xTRTRI), written in full: the inverse in the uplo triangle, zeros in the other. W must not
/// overlap A. Recursive on halves: the diagonal blocks of TESSERA_TRSM_BS inverted in one launch,
/// then W21 = −W22·A21·W11 by GEMMs (launch_potrf.cpp; scratch: dk.scratch(), about n²/2
/// elements). A singular A is not
/// detected (Inf/NaN in W). Throws tessera::Error if uplo is General or n is out of range.
template <class T>
void trtri(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Diag diag, int64_t n, Mat A, Mat W);
/// B(i, j) = beta for i = j, alpha otherwise, on the m×n B (LAPACK xLASET, uplo General).
template <class T>
void laset(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, T alpha, T beta, Mat B);
/// The starting point of tridiag_bisect for the n×n real symmetric tridiagonal (d[0..n), e[0..n−1)),
/// n ≥ 1, as LAPACK's xSTEBZ sets it: Gershgorin's interval [lo, hi] widened by 2.1·(n·ulp·‖T‖ +
/// 2·pivmin), pivmin = safe minimum·max(1, max e²) and the absolute tolerance ulp·‖T‖. Host only.
template <class R>
struct BisectBounds {
    R lo, hi, pivmin, abstol;
};
template <class R>
BisectBounds<R> bisect_bounds(int64_t n, const R* d, const R* e);

/// w[0..n) = the eigenvalues of the real symmetric tridiagonal with diagonal d[0..n) and off-diagonal
/// e[0..n−1) in ascending order, by bisection on Sturm counts (tridiag.cl, LAPACK xSTEBZ's method),
/// from bisect_bounds' interval with its pivmin, to an interval of max(abstol, 2·ulp·|λ|). R: float or
/// double (the s or d program). Throws tessera::Error for n beyond int.
template <class R>
void tridiag_bisect(const DeviceKernels& dk, cl_command_queue q, int64_t n, Mat d, Mat e, const BisectBounds<R>& b,
                    Mat w);
/// The widest band band_chase takes (band_chase.cl's CHASE_MAXKD).
inline constexpr int64_t kBandChaseMaxKd = 256;
/// Stage 2 of the two-stage Hermitian eigensolver on the device: the n×n Hermitian band of bandwidth
/// kd (0 ≤ kd ≤ min(n − 1, kBandChaseMaxKd)) in `band`, LAPACK xSYTRD_SB2ST's lower working band
/// (full(i, j) at band(i − j, j) for 0 ≤ i − j ≤ kd, zeros in rows kd+1 … 2kd, ld ≥ 2·kd + 1, the
/// diagonal real), reduced in place to real symmetric tridiagonal form by LAPACK 3.7's bulge-chasing
/// kernels (xSB2ST_KERNELS / xHB2ST_KERNELS, as kernels/cpu/band_tridiag.hpp's hb2st runs them; Haidar,
/// Ltaief, Dongarra, SC11), the sweeps concurrent on the device's compute units (band_chase.cl). The
/// diagonal is then in band(0, j), the subdiagonal in band(1, j), real. v.mem null: values only;
/// else every reflector into v and tau as hb2st keeps them (sweep s's vector starting at row r at
/// v[s·(n−1) − s·(s−1)/2 + r − (s+1)], its τ at tau[(s / kd)·n + r]). Blocks until the kernel has
/// run (it reads the kernel's failure flag). Throws tessera::Error for kd or ld out of range, n
/// beyond int, or when a work-group gave up waiting for the sweep before its own (band_chase.cl's
/// spin limit; the band is then not reduced).
template <class T>
void band_chase(const DeviceKernels& dk, cl_command_queue q, int64_t n, int64_t kd, Mat band, Mat v, Mat tau);
/// One merge of the tridiagonal divide and conquer after LAPACK's xLAED2 has deflated it (the shape of
/// xLAED3's arguments): k ≥ 1 roots, n1 + n2 rows (the two halves), Q2's column groups n12 = CTOT(1)
/// + CTOT(2) and n23 = CTOT(2) + CTOT(3) wide, the second group starting at row ctot1 = CTOT(1) of
/// S, and rho > 0 (xLAED2's, doubled).
struct SecularMerge {
    int64_t k, n1, n2, n12, n23, ctot1;
    double rho;
};
/// xLAED3 on the device (secular.cl, then two gemm() calls): vec holds DLAMDA[0..k), W[0..k) and INDXC
/// − 1 as reals [0..k) one after the other; lam[0..k) = the roots of the secular equation (ascending;
/// bisection to adjacent floating-point numbers where xLAED4 iterates); q ((n1 + n2)×k): its first n1
/// rows = Q2's first block (n1×n12, leading dimension n1, from q2's start) · S(0:n12, :), the other n2
/// = its second block (n2×n23, leading dimension n2, after the first) · S(ctot1:ctot1+n23, :), S the
/// eigenvectors of the rank-one update from Gu and Eisenstat's zhat. scratch: at least k·(2k + 1)
/// elements. R: float or double (the s or d program). Throws tessera::Error for sizes beyond int and
/// as gemm().
template <class R>
void secular_merge(const DeviceKernels& dk, cl_command_queue q, const SecularMerge& m, Mat vec, Mat lam, Mat q2,
                   Mat qk, Mat scratch);
/// One block reflector of apply_block_reflectors: I − V·T·Vᴴ on rows row … row+m−1, k reflectors,
/// V (m×k, leading dimension m) at element v_off of the V buffer, T (k×k upper triangular with
/// zeros below, leading dimension k) at element t_off of the T buffer, its τs (larft_blocks) at
/// element tau_off of theirs.
struct BlockReflector {
    int64_t row, m, k, v_off, t_off, tau_off;
};
/// The widest block larft_blocks takes (larft_blocks.cl's LARFT_WG).
inline constexpr int64_t kLarftBlocksMaxK = 64;
/// Every block's T from its V and τs (LAPACK xLARFT, DIRECT = 'F', STOREV = 'C'; V(i, i) taken as
/// 1), one work-group a block (larft_blocks.cl), into Tf at t_off: upper triangular, zeros below.
/// Blocking: the blocks' table goes to dk.scratch() first. Throws tessera::Error for a block wider
/// than kLarftBlocksMaxK.
template <class T>
void larft_blocks(const DeviceKernels& dk, cl_command_queue q, const std::vector<BlockReflector>& blocks, Mat V,
                  Mat taus, Mat Tf);
/// For each block in the order given, Z(rows) −= V·(T·(Vᴴ·Z(rows)))
/// (LAPACK xLARFB's product as three gemm() calls; cpu::BandReflectors::apply_left's loop), Z with
/// ncols columns. W: a workspace of at least 2·kmax·ncols elements (kmax the largest k), not
/// overlapping the others. Throws tessera::Error as gemm().
template <class T>
void apply_block_reflectors(const DeviceKernels& dk, cl_command_queue q, const std::vector<BlockReflector>& blocks,
                            int64_t ncols, Mat V, Mat Tf, Mat Z, Mat W);
/// B = alpha·A + beta·B on the m×n region (ScaLAPACK PxGEADD, PLASMA's geadd).
template <class T>
void geadd(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, T alpha, Mat A, T beta, Mat B);
/// B = A on the m×n region (uplo General), or on its lower/upper trapezoid (LAPACK xLACPY).
template <class T>
void lacpy(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t m, int64_t n, Mat A, Mat B);
/// B (n×m) = Aᴴ (Aᵀ for real T), A m×n.
template <class T>
void conj_transpose(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, Mat A, Mat B);
/// B = alpha·A rounded to T's low precision (float for double, float2 for complex double) on the m×n
/// region or its uplo trapezoid (LAPACK xLAG2S / xLAT2S / xLAG2C; alpha a power of 2, 1 for LAPACK's
/// conversion); B's offset and ld in low-precision elements. *host_info (read back on q,
/// non-blocking as ocl::potrf's) becomes 1 when an entry of alpha·A lies outside ±FLT_MAX, else 0:
/// cpu::lag2_down's value (kernels/cpu/lag2.hpp). With host_info null nothing is tested or read
/// back (the flag's clear and read-back cost about 0.05 ms of a 4096 tile's 0.12 on an H200). T:
/// double, complex double.
template <class T>
void lag2_down(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t m, int64_t n, double alpha, Mat A,
               Mat B, int* host_info);
/// B = A (accumulate false) or B + A, A m×n in T's low precision widened to T (xLAG2D, then xAXPY);
/// A's offset and ld in low-precision elements.
template <class T>
void lag2_up(const DeviceKernels& dk, cl_command_queue q, bool accumulate, int64_t m, int64_t n, Mat A, Mat B);
/// The partial `part` of a norm of the m×n tile A into the real vector `out` (buffer and offset in
/// real elements): the device form of cpu::norm_tile (kernels/cpu/norms.hpp: `part` and `tile` are
/// cpu::NormPart and cpu::NormTile as ints), bit-for-bit its results for the max and the sums
/// (kernels/opencl/norms.cl; launch_norms.cpp).
template <class T>
void norm_tile(const DeviceKernels& dk, cl_command_queue q, int part, int tile, bool unit, bool herm, int64_t m,
               int64_t n, Mat A, cl_mem out, size_t out_off);

}  // namespace tessera::ocl

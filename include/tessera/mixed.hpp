// Mixed-precision solvers: FP64 accuracy at FP32 speed. The matrix is factored in the low
// precision (float for double, std::complex<float> for std::complex<double>) and the solution
// refined in the high one until its normwise backward error is the high precision's (LAPACK's
// DSPOSV, DSGESV, ZCPOSV, ZCGESV; Langou, Langou, Luszczek, Kurzak, Buttari and Dongarra,
// "Exploiting the performance of 32 bit floating point arithmetic in obtaining 64 bit accuracy",
// SC 2006). Instantiated for T = double and std::complex<double>.
//
// Iterative refinement, as LAPACK: B and A are rounded to the low precision (xLAG2S, xLAT2S), the
// copy of A is factored (tile potrf or getrf) and X₀ solved from it; then, up to ITERMAX = 30
// times, R = B − A·X in the high precision (tile gemm, and xSYMM/xHEMM on the diagonal tiles of a
// symmetric A), the correction solved from R rounded to the low precision, and X += correction. It
// stops once every column j satisfies ‖r_j‖∞ ≤ ‖x_j‖∞ · ‖A‖∞ · eps · sqrt(n) · BWDMAX (BWDMAX = 1,
// eps the high precision's, ‖·‖∞ of a vector LAPACK's I?AMAX: |re| + |im| for complex).
// Otherwise it falls back to the high-precision solver (tile posv or gesv) and reports why in iter:
//   iter ≥ 0: the refinement converged after iter corrections; A (and ipiv's contents aside) is unchanged.
//   iter = −2: an entry of B or A (or of a residual) overflows the low precision;
//   iter = −3: the low-precision factorization failed (info > 0: not positive definite, or an exact
//              zero pivot);
//   iter = −31 (−ITERMAX − 1): no convergence after ITERMAX corrections (A too ill-conditioned for
//              the low precision: roughly κ(A) ≳ 1/eps_low ≈ 1e7); with LowFactorization::Tf32 or
//              Fp16 also as soon as two corrections in a row were too slow to pass the test within
//              ITERMAX at their rate (r's ratio to the test's bound shrinking by less than it needs),
//              so that a matrix beyond the tensor-core factors' reach falls back after a few
//              corrections, not thirty.
// (LAPACK's −1, "fell back for implementation-specific reasons", is never returned.) After a
// fallback A holds the high-precision factors, as LAPACK's xPOSV / xGESV leave them.
// Every task, the precision conversions and the products with the diagonal tiles of a symmetric A
// included, runs wherever its codelet does (CPU workers, OpenCL devices). One process only (the convergence test
// reads the residual's tiles in host memory): distributed, the calls throw Error.
// Failures: invalid arguments throw Error before anything is submitted; a task failing on its
// worker throws TaskError (see Sequence in tile_matrix.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// How a mixed-precision solver's low-precision factorization multiplies (the last argument of
/// posv_mixed, gesv_mixed and their GMRES-IR forms).
enum class LowFactorization {
    /// In the low precision's own arithmetic (float for double, std::complex<float> for
    /// std::complex<double>), as LAPACK's DSPOSV / DSGESV.
    Low,
    /// T = double: the float factorization's GEMMs (those of its gemm and syrk tasks and inside its
    /// trsm, trmm, potrf and trtri tasks; the first solve's too) on NVIDIA tensor cores in TF32
    /// (operands rounded to 10-bit mantissas, unit roundoff 2^-11; FP32 accumulation;
    /// kernels/opencl/gemm_nv_tf32.cl), where an OpenCL device has them (compute capability ≥ 8.0);
    /// CPU workers, other devices and std::complex<double> factor as Low. The refinement's
    /// corrections use the factors in float. Faster, less accurate factors: the classic refinement
    /// then converges for κ(A) up to about 1e3–1e4 instead of 1e7 (iter = −31 and the fallback
    /// beyond: a slower solve, never a wrong one); GMRES-IR (posv_mixed_gmres, gesv_mixed_gmres)
    /// goes further (MAGMA's and cuSOLVER's IRS do the same with FP16 and TF32).
    Tf32,
    /// T = double, Cholesky only (posv_mixed, posv_mixed_gmres; the LU solvers throw Error): as
    /// Tf32, but the GEMMs' operands are rounded to FP16 (the same unit roundoff 2^-11; twice the
    /// tensor-core work per instruction: products of the NT form, the trailing updates', about 1.4×
    /// TF32's rate on an H200) where the device's FP16 kernel beats its TF32 one, TF32 elsewhere.
    /// FP16 is finite only up to 65504 and subnormal below 2^-14, so A is factored as σ·A with σ a
    /// power of 2 that brings its largest diagonal entry into [2^14, 2^15) (every entry of A is then
    /// below 2^15 and of its factor below 2^7.5; each right-hand side is scaled alike, so X is
    /// unchanged). σ is read from A's diagonal tiles in host memory; an A without host storage
    /// (TileMatrix::workspace) factors as Tf32. Refinement steps as Tf32's (H200, n = 16384,
    /// `--cond`: 5 at κ = 1e4, 15 at 1e6; at 1e8 the float Cholesky fails either way, iter = −3);
    /// an operand that overflowed FP16 would end the same way (a NaN pivot, or no convergence):
    /// the fallback, never a wrong answer. CPU workers and other devices factor as Low.
    Fp16,
};

/// Solve A·X = B for the symmetric (d) or Hermitian (z) positive definite n×n A, referenced through
/// its uplo triangle (the other is not read), by Cholesky in the low precision and iterative
/// refinement in T (LAPACK DSPOSV / ZCPOSV). B and X are n×nrhs; A, B and X share one tile size nb.
/// Returns info: 0, or k > 0 from the high-precision fallback's potrf when the leading minor of order
/// k is not positive definite (X then holds B, as LAPACK's). iter as described above. A is unchanged
/// when iter ≥ 0 and holds potrf's factor otherwise; B is only read. Throws Error if uplo is General,
/// A is not square, B's rows are not n, X's shape is not B's, the tile sizes differ, or the Runtime is
/// distributed. `factorization`: how the low-precision Cholesky multiplies (LowFactorization).
template <class T>
int64_t posv_mixed(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter,
                   LowFactorization factorization = LowFactorization::Low);

/// Solve A·X = B for the general n×n A by LU with partial pivoting in the low precision and iterative
/// refinement in T (LAPACK DSGESV / ZCGESV). B and X are n×nrhs, all three with one tile size nb.
/// ipiv is resized to n and holds the pivots (1-based, getrf's convention) of the factorization used:
/// the low-precision one when iter ≥ 0 (A then unchanged), the high-precision gesv's when iter < 0
/// (A then holds its L and U). Returns info: 0, or i > 0 from the fallback's getrf when U(i, i) is
/// exactly zero (X then holds B). Throws Error as posv_mixed (but takes no uplo). `factorization`:
/// how the low-precision LU multiplies (LowFactorization).
template <class T>
int64_t gesv_mixed(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                   int64_t& iter, LowFactorization factorization = LowFactorization::Low);

/// GMRES-based iterative refinement (GMRES-IR; Carson and Higham, SIAM J. Sci. Comput. 40(2), 2018;
/// SLATE's posv_mixed_gmres / gesv_mixed_gmres): as posv_mixed and gesv_mixed (the low-precision
/// factorization, X₀ from it, LAPACK's residual and convergence test, the fallback and its codes), but
/// each correction solves A·d = r by restarted GMRES(30) in T, left-preconditioned by the low-precision
/// factors (M⁻¹ = round down, tile potrs / getrs in the low precision, round up), until the
/// preconditioned residual ‖M⁻¹(r − A·d)‖₂ ≤ 1e-4 · ‖M⁻¹r‖₂, the iterations run out or the Krylov space
/// is exhausted; then X += d and the residual is tested again. The Arnoldi basis is an n×31 TileMatrix;
/// A·v, M⁻¹, the block classical Gram–Schmidt with one reorthogonalization and X += V·y are tile
/// tasks, the Hessenberg matrix's Givens rotations and its triangular solve O(30²) host work.
/// It converges where the classic refinement does not (posv_mixed / gesv_mixed: iter = −31 from
/// κ(A) ≈ 1e9): dgesv_mixed_gmres up to κ(A) ≈ 1e10 (n = 1000: 22 to 32 iterations, by nb), posv_mixed_gmres until
/// the float Cholesky itself fails (iter = −3, near κ ≈ 1e9–1e10).
/// One right-hand side: B and X are n×1 (nrhs ≠ 1 throws Error naming 'nrhs').
/// iter ≥ 0: converged after iter GMRES iterations in all (each one product with A and one
/// low-precision solve; iter = 0: X₀ passed the test), counted as SLATE counts them, at most 90 (three
/// restart cycles; SLATE stops at 30, which κ = 1e10 at n = 1000 needed all or more of);
/// iter = −2, −3 as posv_mixed / gesv_mixed, −31 (the classic refinement's code kept): not converged
/// within 90 GMRES iterations; each fell back to the double solver.
/// Returns info, leaves A, ipiv and X, and throws, as posv_mixed / gesv_mixed; `factorization` as theirs.
template <class T>
int64_t posv_mixed_gmres(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter,
                         LowFactorization factorization = LowFactorization::Low);
/// gesv_mixed with GMRES-IR (above): LU with partial pivoting in the low precision as the preconditioner.
template <class T>
int64_t gesv_mixed_gmres(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                         int64_t& iter, LowFactorization factorization = LowFactorization::Low);

namespace lapack {
/// LAPACK-layout forms with LAPACK's names and arguments (its WORK and SWORK are allocated inside):
/// a is n×n column-major with lda ≥ max(1, n); b (read only) and x are n×nrhs with ldb, ldx ≥ max(1, n);
/// ipiv has n entries. uplo is 'L' or 'U'. Tiles of opts.nb (0: the tuned potrf / getrf tile size),
/// on the arrays in place or on copies (Options::layout). Return info and set iter as posv_mixed and
/// gesv_mixed; a is left as they leave A. Invalid arguments throw Error naming the argument ('uplo',
/// 'n', 'nrhs', 'lda', 'ldb', 'ldx', 'ipiv'), a task failing on its worker TaskError.
int64_t dsposv(char uplo, int64_t n, int64_t nrhs, double* a, int64_t lda, const double* b, int64_t ldb, double* x,
               int64_t ldx, int64_t& iter, const Options& opts = {});
int64_t zcposv(char uplo, int64_t n, int64_t nrhs, std::complex<double>* a, int64_t lda, const std::complex<double>* b,
               int64_t ldb, std::complex<double>* x, int64_t ldx, int64_t& iter, const Options& opts = {});
int64_t dsgesv(int64_t n, int64_t nrhs, double* a, int64_t lda, int64_t* ipiv, const double* b, int64_t ldb, double* x,
               int64_t ldx, int64_t& iter, const Options& opts = {});
int64_t zcgesv(int64_t n, int64_t nrhs, std::complex<double>* a, int64_t lda, int64_t* ipiv,
               const std::complex<double>* b, int64_t ldb, std::complex<double>* x, int64_t ldx, int64_t& iter,
               const Options& opts = {});
}  // namespace lapack

}  // namespace tessera

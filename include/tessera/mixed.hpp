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
//              the low precision: roughly κ(A) ≳ 1/eps_low ≈ 1e7).
// (LAPACK's −1, "fell back for implementation-specific reasons", is never returned.) After a
// fallback A holds the high-precision factors, as LAPACK's xPOSV / xGESV leave them.
// The products with the diagonal tiles of a symmetric A are a CPU-only codelet; everything else,
// the precision conversions included, runs wherever its codelets do (CPU workers, OpenCL devices). One process only (the convergence test
// reads the residual's tiles in host memory): distributed, the calls throw Error.
// Failures: invalid arguments throw Error before anything is submitted; a task failing on its
// worker throws TaskError (see Sequence in tile_matrix.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// Solve A·X = B for the symmetric (d) or Hermitian (z) positive definite n×n A, referenced through
/// its uplo triangle (the other is not read), by Cholesky in the low precision and iterative
/// refinement in T (LAPACK DSPOSV / ZCPOSV). B and X are n×nrhs; A, B and X share one tile size nb.
/// Returns info: 0, or k > 0 from the high-precision fallback's potrf when the leading minor of order
/// k is not positive definite (X then holds B, as LAPACK's). iter as described above. A is unchanged
/// when iter ≥ 0 and holds potrf's factor otherwise; B is only read. Throws Error if uplo is General,
/// A is not square, B's rows are not n, X's shape is not B's, the tile sizes differ, or the Runtime is
/// distributed.
template <class T>
int64_t posv_mixed(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter);

/// Solve A·X = B for the general n×n A by LU with partial pivoting in the low precision and iterative
/// refinement in T (LAPACK DSGESV / ZCGESV). B and X are n×nrhs, all three with one tile size nb.
/// ipiv is resized to n and holds the pivots (1-based, getrf's convention) of the factorization used:
/// the low-precision one when iter ≥ 0 (A then unchanged), the high-precision gesv's when iter < 0
/// (A then holds its L and U). Returns info: 0, or i > 0 from the fallback's getrf when U(i, i) is
/// exactly zero (X then holds B). Throws Error as posv_mixed (but takes no uplo).
template <class T>
int64_t gesv_mixed(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                   int64_t& iter);

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

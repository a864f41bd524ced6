// Condition number estimates: gecon, pocon, trcon (LAPACK xGECON, xPOCON, xTRCON).
//
// Each returns rcond = 1 / (‖A‖ · ‖A⁻¹‖) in the 1-norm (Norm::One) or the ∞-norm (Norm::Inf), the
// reciprocal of the condition number κ(A), in T's real type. ‖A⁻¹‖ is estimated, never formed, by
// Higham's estimator as LAPACK implements it (xLACN2, reverse communication; Higham, "FORTRAN codes
// for estimating the one-norm of a real or complex matrix", ACM TOMS 14, 1988): a few products of A⁻¹
// or A⁻ᴴ with an n-vector (usually 4 or 5, at most 11: xLACN2 iterates at most 5 times), each one or two
// triangular solves with the factors. The estimate is a lower bound on ‖A⁻¹‖ (so rcond is at least
// the true 1/κ, up to rounding) and almost always within a factor 3 of it.
//
// Each product is one tile trsm per triangular factor on an n×1 TileMatrix (a view of a host
// vector) submitted as tasks, so the factor's tiles may live on an OpenCL device; the estimator
// waits for each product (it needs the vector on the host between steps): O(n²) work per step,
// synchronous. LAPACK solves with xLATRS, scaling the vector to avoid overflow; these solves are
// plain trsm: when a solve gives a non-finite vector (an overflow, or an exactly singular factor)
// the estimate is taken as ‖A⁻¹‖ = ∞ and rcond = 0 is returned. rcond = 0 also when anorm = 0 or
// the estimate ‖A⁻¹‖ overflows; n = 0 gives rcond = 1 (LAPACK's quick returns).
//
// One process only (a distributed Runtime throws Error). Invalid arguments throw Error naming the
// argument before anything is submitted; a task failing on its worker throws TaskError.
#pragma once

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// rcond of the n×n A from its LU factors as getrf leaves them (tessera/lu.hpp: L unit lower below
/// the diagonal, U upper on and above it; the pivots are not needed, P does not change the norms,
/// as xGECON takes no ipiv). norm One or Inf (the norm anorm was computed in, e.g. by lange on A
/// before factoring); anorm ≥ 0. A NaN anorm gives rcond = NaN (propagated, as xGECON since
/// Reference-LAPACK PR 765).
/// Each estimator step solves with L then U (A⁻¹·x) or with Uᴴ then Lᴴ (A⁻ᴴ·x).
/// Throws Error if A is not square, norm is not One or Inf, or anorm < 0.
template <class T>
real_t<T> gecon(Norm norm, const TileMatrix<T>& A, real_t<T> anorm);

/// rcond (1-norm, which for a Hermitian A equals the ∞-norm one) of the n×n Hermitian positive
/// definite A from its Cholesky factor as potrf leaves it (A = L·Lᴴ in the Lower triangle, Uᴴ·U in
/// the Upper; the other triangle is not referenced); anorm = ‖A‖₁ ≥ 0 (lanhe/lansy before
/// factoring). A NaN anorm gives NaN. Each step solves with both triangular factors (potrs).
/// Throws Error if A is not square, uplo is General, or anorm < 0.
template <class T>
real_t<T> pocon(Uplo uplo, const TileMatrix<T>& A, real_t<T> anorm);

/// rcond of the n×n triangular A (uplo Lower or Upper; diag Unit: its diagonal is taken as ones and
/// not referenced) in norm One or Inf: ‖A‖ by lantr, ‖A⁻¹‖ estimated with trsm solves. A = 0 (or
/// ‖A‖ NaN) gives 0, as xTRCON. Throws Error if A is not square, norm is not One or Inf, uplo is
/// General.
template <class T>
real_t<T> trcon(Norm norm, Uplo uplo, Diag diag, const TileMatrix<T>& A);

namespace lapack {
/// LAPACK-layout forms: a is the caller's n×n column-major array (lda ≥ max(1, n)), only read,
/// holding the factors of getrf / potrf (or the triangle for trcon); norm is 'O' or '1' or 'I'
/// (either case), uplo 'L' or 'U', diag 'N' or 'U'. The estimate is written to *rcond. Tiles of
/// opts.nb (0: the tuned getrf / potrf / gemm tile size), on the array in place or on a copy
/// (Options::layout). Return LAPACK's info: 0, or −5 for a NaN anorm (gecon, pocon: *rcond = NaN, as
/// xGECON after Reference-LAPACK PR 765, merged after 3.11.0, whose library returns 0 with NaN).
/// Invalid arguments throw Error naming the argument (norm, uplo, diag, n, lda, anorm, a, rcond,
/// nb); a task failing on its worker throws TaskError; one process only.
template <class T>
int64_t gecon(char norm, int64_t n, const T* a, int64_t lda, real_t<T> anorm, real_t<T>* rcond,
              const Options& opts = {});
template <class T>
int64_t pocon(char uplo, int64_t n, const T* a, int64_t lda, real_t<T> anorm, real_t<T>* rcond,
              const Options& opts = {});
template <class T>
int64_t trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t lda, real_t<T>* rcond,
              const Options& opts = {});
}  // namespace lapack

}  // namespace tessera

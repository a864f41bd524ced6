// Numerical checks of tile QR and least squares (docs/architecture.md#numerical-checks), on LAPACK
// column-major arrays, computed with CBLAS/LAPACKE in the working precision. Each returns a scaled
// residual that passes when ≤ check::kThreshold.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks.hpp"

namespace tessera::check {

/// geqrf: ‖A − Q·R‖ / (m · ‖A‖ · eps). A is m×n, q the explicit m×k Q (k = min(m, n)), f the
/// factored A whose upper trapezoid (its first k rows) is R.
template <class T>
double qr_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* q, int64_t ldq, const T* f, int64_t ldf);
/// Orthogonality of the m×k Q: ‖I − Qᵀ·Q‖ / (m · eps).
template <class T>
double orthogonality_residual(int64_t m, int64_t k, const T* q, int64_t ldq);
/// unmqr: ‖C − C_ref‖ / (m · ‖C₀‖ · eps) with C_ref = op(Q)·C₀ (Left) or C₀·op(Q) (Right), q the full
/// explicit m×m Q; C₀ and C are rows×cols (rows = m for Left, cols = m for Right).
template <class T>
double unmqr_residual(Side side, Trans trans, int64_t m, const T* q, int64_t ldq, int64_t rows, int64_t cols,
                      const T* c0, const T* c, int64_t ldc);
/// Least squares: ‖op(A)ᵀ·(B − op(A)·X)‖ / (‖A‖ · ‖B − op(A)·X‖ · n · eps), A m×n, op(A) rows×n
/// with n its column count, X n×nrhs, B rows×nrhs (docs/architecture.md's normal-equation residual).
template <class T>
double least_squares_residual(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x,
                              int64_t ldx, const T* b, int64_t ldb);
/// Agreement of two solutions: ‖X − X_ref‖ / (‖X_ref‖ · scale · eps), X rows×cols.
template <class T>
double agreement(int64_t rows, int64_t cols, const T* x, int64_t ldx, const T* xref, int64_t ldref, int64_t scale);
/// LAPACKE's xGELS on copies: returns the max(m, n)×nrhs result array (leading dimension ldb) and
/// its info in *info.
template <class T>
std::vector<T> lapacke_gels(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* b,
                            int64_t ldb, int* info);

}  // namespace tessera::check

// Numerical checks of the inverses (trtri, lauum, potri, getri; docs/architecture.md#numerical-checks),
// LAPACK's ratios on LAPACK column-major arrays. Shared by tessera-tester and the tests.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks.hpp"

namespace tessera::check {

/// A well-conditioned n×n test matrix for the triangular inverses: a_ij = random_scalar(seed, i, j) / n
/// off the diagonal (entries in [-0.5, 0.5] / n), 1 + |random_scalar| on it; both triangles set, so
/// that I + E with ‖E‖∞ ≤ 1/2 whichever triangle and diag are used (a random unit triangular matrix
/// of order n has an exponentially large inverse).
template <class T>
std::vector<T> random_triangular(int64_t n, int64_t lda, uint64_t seed);
/// The same matrix generated in A's tiles (one CPU task per tile; submit-only, like generate_random).
template <class T>
void generate_random_triangular(TileMatrix<T>& A, uint64_t seed);

/// trtri (LAPACK xTRT01): ‖A·X − I‖₁ / (n · ‖A‖₁ · ‖X‖₁ · eps), A the uplo triangle of a (unit
/// diagonal with diag Unit) and X that of x, the computed inverse (1-norms of the triangles).
template <class T>
double trtri_residual(Uplo uplo, Diag diag, int64_t n, const T* a, int64_t lda, const T* x, int64_t ldx);

/// potri and getri (LAPACK xPOT03 / xGET03): ‖I − A·X‖₁ / (n · ‖A‖₁ · ‖X‖₁ · eps), A and X full
/// n×n arrays (hermitian_full makes potri's).
template <class T>
double inverse_residual(int64_t n, const T* a, int64_t lda, const T* x, int64_t ldx);

/// The n×n array (leading dimension n) of the Hermitian (symmetric for real T) matrix stored in the
/// uplo triangle of a, with a real diagonal.
template <class T>
std::vector<T> hermitian_full(Uplo uplo, int64_t n, const T* a, int64_t lda);

/// lauum: ‖F − R‖₁ / (n · ‖A‖₁² · eps) on the uplo triangle, R = Lᴴ·L (Lower) or U·Uᴴ (Upper) of the
/// uplo triangle of a by CBLAS xGEMM, F that of f, the computed product.
template <class T>
double lauum_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf);

}  // namespace tessera::check

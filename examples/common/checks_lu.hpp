// Numerical checks of the LU family (docs/architecture.md#numerical-checks) and its test matrices, on LAPACK
// column-major arrays. Shared by tessera-tester, the tests and the benchmarks.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks.hpp"

namespace tessera::check {

/// m×n array (lda ≥ m), entries uniform in [-0.5, 0.5] from a seed, plus `shift` on the diagonal:
/// diagonally dominant (so LU without pivoting is stable) when shift ≥ max(m, n) / 2.
template <class T>
std::vector<T> random_shifted(int64_t m, int64_t n, int64_t lda, uint64_t seed, double shift);
/// The same m×n matrix generated in A's tiles, entry for entry: random_shifted(m, n, m, seed, shift).
/// One CPU task per tile; submit-only, like generate_random (checks.hpp).
template <class T>
void generate_random_shifted(TileMatrix<T>& A, uint64_t seed, double shift);

/// getrf: ‖P·A − L·U‖ / (n · ‖A‖ · eps) (1-norms). f holds the factors as xGETRF leaves them (L unit
/// lower m×min(m,n) below the diagonal, U upper min(m,n)×n on and above); ipiv holds LAPACK's
/// 1-based interchanges (min(m,n) entries), or is null for a factorization without pivoting.
template <class T>
double getrf_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf, const int64_t* ipiv);

}  // namespace tessera::check

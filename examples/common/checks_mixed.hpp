// Checks and test matrices of the mixed-precision solvers (tessera/mixed.hpp): matrices of a chosen
// 2-norm condition number, and the normwise backward error the refinement aims at.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::check {

/// n×n array (leading dimension lda ≥ n) of 2-norm condition number `cond` (≥ 1): A = U·Σ·Vᴴ with
/// σ_i = cond^(−i/(n−1)) geometrically spaced from 1 to 1/cond, U = I − τ·u·uᴴ and V = I − τ'·v·vᴴ
/// Householder reflectors of seeded random vectors (unitary, so the singular values are exactly Σ's;
/// O(n²) to form). `hermitian`: V = U, so A is symmetric (Hermitian) positive definite with
/// eigenvalues Σ, both triangles set and the diagonal real.
template <class T>
std::vector<T> random_cond(int64_t n, int64_t lda, double cond, bool hermitian, uint64_t seed);

/// Fill the n×n A with the tester's matrix of an operation taking --cond: random_cond(n, n, cond,
/// spd, seed) when cond > 0 (built on the host, O(n²)), else the default SPD (generate_random_spd)
/// or random (generate_random) matrix of the other operations. Waits for A's tiles.
template <class T>
void generate_cond_or_default(TileMatrix<T>& A, double cond, bool spd, uint64_t seed);

/// Normwise backward error of X as a solution of A·X = B: ‖B − A·X‖₁ / (‖A‖₁ · ‖X‖₁ · n · eps), A n×n
/// (both triangles set), X and B n×nrhs. A backward stable solve keeps it O(1); check::passes decides.
template <class T>
double backward_error(int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x, int64_t ldx, const T* b,
                      int64_t ldb);

}  // namespace tessera::check

// Randomized residuals (Freivalds' test) of gemm, potrf, getrf and geqrf: the scaled residuals of
// DESIGN.md applied to k = 4 random vectors X instead of formed in full, O(n²) flops instead of
// O(n³), for the large problems of the GPU benchmark. ‖(F − G)·X‖∞ / ‖X‖∞ ≤ ‖F − G‖∞, so each is
// at most the full residual in the ∞-norm and passes under the same threshold (kThreshold); an
// error in the factors larger than rounding shows with probability 1 over X. Column-major arrays;
// ∞-norms (‖·‖ below), which for the symmetric A of potrf equal the 1-norms.
#pragma once

#include <cstdint>

#include "tessera/types.hpp"

namespace tessera::check {

/// gemm: ‖C·X − α·op(A)·(op(B)·X) − β·C0·X‖ / ((|α|·‖op(A)‖·‖op(B)‖ + |β|·‖C0‖) · k · ‖X‖ · eps); C is
/// m×n, op(A) m×k, op(B) k×n.
template <class T>
double gemm_residual_random(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                            const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc);

/// potrf: ‖A·X − L·(Lᵀ·X)‖ / (n · ‖A‖ · ‖X‖ · eps) (U instead of Lᵀ for uplo Upper); f holds the
/// factor in the uplo triangle as xPOTRF leaves it.
template <class T>
double potrf_residual_random(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf);

/// getrf of a square n×n A: ‖P·A·X − L·(U·X)‖ / (n · ‖A‖ · ‖X‖ · eps); f and ipiv as xGETRF
/// leaves them (ipiv 1-based, null for no pivoting).
template <class T>
double getrf_residual_random(int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf, const int64_t* ipiv);

/// geqrf of an m×n A, m ≥ n: ‖Aᵀ·(A·X) − Rᵀ·(R·X)‖ / (m · max(‖A‖₁, ‖A‖∞)² · ‖X‖ · eps), R the upper triangle
/// of f's leading n×n block (AᵀA = RᵀR when A = Q·R with Q orthonormal).
template <class T>
double geqrf_residual_random(int64_t m, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf);

}  // namespace tessera::check

// Numerical checks of DESIGN.md ("Numerical checks") on LAPACK column-major arrays, and seeded test
// matrices. Shared by tessera-tester, the tests, the benchmarks and the applications.
// A check passes when its scaled residual is ≤ kThreshold (60, as Chameleon's tester).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/types.hpp"

namespace tessera::check {

constexpr double kThreshold = 60.0;

/// Unit roundoff of T: std::numeric_limits<real>::epsilon() / 2.
template <class T>
double eps();

/// LAPACK xLANGE: norm '1', 'I', 'F' or 'M' of the m×n array a (lda ≥ m). 0 for an empty matrix.
template <class T>
double lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda);

/// m×n array with leading dimension lda ≥ m, entries uniform in [-0.5, 0.5], from a seed.
template <class T>
std::vector<T> random_matrix(int64_t m, int64_t n, int64_t lda, uint64_t seed);
/// Symmetric positive definite n×n array (random symmetric + n on the diagonal), both triangles set.
template <class T>
std::vector<T> random_spd(int64_t n, int64_t lda, uint64_t seed);

/// gemm: ‖C − C_ref‖ / ((|α|·‖A‖·‖B‖ + |β|·‖C₀‖) · k · eps), C_ref = α·op(A)·op(B) + β·C₀ via CBLAS.
template <class T>
double gemm_residual(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                     const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc);
/// syrk: like gemm's on the uplo triangle of the n×n C, with ‖A‖² for ‖A‖·‖B‖.
template <class T>
double syrk_residual(Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta,
                     const T* c0, const T* c, int64_t ldc);
/// trsm: ‖α·B₀ − op(A)·X‖ / ((‖A‖·‖X‖ + |α|·‖B₀‖) · n · eps) (Left; B₀·op(A) for Right), A triangular.
template <class T>
double trsm_residual(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
                     int64_t lda, const T* b0, const T* x, int64_t ldb);
/// potrf: ‖A − L·Lᵀ‖ / (n · ‖A‖ · eps) (‖A − Uᵀ·U‖ for Upper); f holds the factor in its uplo triangle.
template <class T>
double potrf_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf);
/// Solves: ‖B − A·X‖ / ((‖A‖·‖X‖ + ‖B‖) · n · eps), A m×n (op(A) with trans), X n×nrhs, B m×nrhs.
template <class T>
double solve_residual(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x,
                      int64_t ldx, const T* b, int64_t ldb);

}  // namespace tessera::check

// CPU tile kernels: thin typed wrappers over CBLAS and LAPACKE (column-major). No StarPU here.
// Each dispatches on T at compile time; complex types are added by extending the if-constexpr chains.
#pragma once

#include <cblas.h>
#include <lapacke.h>

#include <cmath>
#include <cstdint>

#include "tessera/types.hpp"

namespace tessera::cpu {

inline CBLAS_TRANSPOSE cblas(Trans t) {
    return t == Trans::NoTrans ? CblasNoTrans : t == Trans::Trans ? CblasTrans : CblasConjTrans;
}
inline CBLAS_UPLO cblas(Uplo u) { return u == Uplo::Lower ? CblasLower : CblasUpper; }
inline CBLAS_SIDE cblas(Side s) { return s == Side::Left ? CblasLeft : CblasRight; }
inline CBLAS_DIAG cblas(Diag d) { return d == Diag::Unit ? CblasUnit : CblasNonUnit; }

/// C = alpha·op(A)·op(B) + beta·C (xGEMM), C m×n.
template <class T>
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t lda, const T* B,
          int64_t ldb, T beta, T* C, int64_t ldc) {
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasColMajor, cblas(ta), cblas(tb), int(m), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else
        cblas_dgemm(CblasColMajor, cblas(ta), cblas(tb), int(m), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
}

/// C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle (xSYRK), C n×n.
template <class T>
void syrk(Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* A, int64_t lda, T beta, T* C, int64_t ldc) {
    if constexpr (std::is_same_v<T, float>)
        cblas_ssyrk(CblasColMajor, cblas(uplo), cblas(trans), int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
    else
        cblas_dsyrk(CblasColMajor, cblas(uplo), cblas(trans), int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
}

/// B = alpha·op(A)⁻¹·B or alpha·B·op(A)⁻¹ (xTRSM), B m×n.
template <class T>
void trsm(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, T* B,
          int64_t ldb) {
    if constexpr (std::is_same_v<T, float>)
        cblas_strsm(CblasColMajor, cblas(side), cblas(uplo), cblas(trans), cblas(diag), int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else
        cblas_dtrsm(CblasColMajor, cblas(side), cblas(uplo), cblas(trans), cblas(diag), int(m), int(n), alpha, A, int(lda), B, int(ldb));
}

/// B = alpha·op(A)·B or alpha·B·op(A) (xTRMM), B m×n, A triangular.
template <class T>
void trmm(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, T* B,
          int64_t ldb) {
    if constexpr (std::is_same_v<T, float>)
        cblas_strmm(CblasColMajor, cblas(side), cblas(uplo), cblas(trans), cblas(diag), int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else
        cblas_dtrmm(CblasColMajor, cblas(side), cblas(uplo), cblas(trans), cblas(diag), int(m), int(n), alpha, A, int(lda), B, int(ldb));
}

/// Cholesky of the n×n A (xPOTRF). Returns LAPACK's info, and also the 1-based column of the first
/// NaN on the factor's diagonal, which some LAPACK implementations let through.
template <class T>
int potrf(Uplo uplo, int64_t n, T* A, int64_t lda) {
    const char u = uplo == Uplo::Lower ? 'L' : 'U';
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    else info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    if (info != 0) return info;
    for (int64_t j = 0; j < n; ++j)
        if (std::isnan(A[j + j * lda])) return int(j + 1);
    return 0;
}

/// B = A on the m×n region or its uplo trapezoid (xLACPY; Uplo::General copies everything).
template <class T>
void lacpy(Uplo uplo, int64_t m, int64_t n, const T* A, int64_t lda, T* B, int64_t ldb) {
    const char u = uplo == Uplo::Lower ? 'L' : uplo == Uplo::Upper ? 'U' : 'G';
    if constexpr (std::is_same_v<T, float>) LAPACKE_slacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
    else LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
}

/// W = A⁻¹ for the n×n triangular A (xTRTRI on a copy): the inverse in W's uplo triangle, zeros in
/// the other. Returns LAPACK's info (> 0: A(info, info) is exactly zero, W unspecified).
template <class T>
int trtri(Uplo uplo, Diag diag, int64_t n, const T* A, int64_t lda, T* W, int64_t ldw) {
    const char u = uplo == Uplo::Lower ? 'L' : 'U', d = diag == Diag::Unit ? 'U' : 'N';
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) W[i + j * ldw] = (uplo == Uplo::Lower ? i >= j : i <= j) ? A[i + j * lda] : T(0);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_strtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
    else return LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
}

}  // namespace tessera::cpu

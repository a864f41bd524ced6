// CPU tile kernels: thin typed wrappers over CBLAS and LAPACKE (column-major), in the four
// precisions s, d, c, z. Each dispatches on T at compile time. No StarPU here.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "kernels/cpu/cblas_lapacke.hpp"
#include "tessera/types.hpp"

namespace tessera::cpu {

/// CBLAS's op for T: ConjTrans is Trans for real T (LAPACK's convention).
template <class T>
CBLAS_TRANSPOSE cblas_trans(Trans t) {
    if (t == Trans::NoTrans) return CblasNoTrans;
    return t == Trans::Trans || !is_complex_v<T> ? CblasTrans : CblasConjTrans;
}
inline CBLAS_UPLO cblas(Uplo u) { return u == Uplo::Lower ? CblasLower : CblasUpper; }
inline CBLAS_SIDE cblas(Side s) { return s == Side::Left ? CblasLeft : CblasRight; }
inline CBLAS_DIAG cblas(Diag d) { return d == Diag::Unit ? CblasUnit : CblasNonUnit; }
/// LAPACK's character for an op of T: 'N', 'T', or 'C' ('T' for ConjTrans on real T).
template <class T>
char lapack_trans(Trans t) {
    return t == Trans::NoTrans ? 'N' : t == Trans::Trans || !is_complex_v<T> ? 'T' : 'C';
}

/// C = alpha·op(A)·op(B) + beta·C (xGEMM), C m×n.
template <class T>
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t lda, const T* B,
          int64_t ldb, T beta, T* C, int64_t ldc) {
    const auto a = cblas_trans<T>(ta), b = cblas_trans<T>(tb);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasColMajor, a, b, int(m), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dgemm(CblasColMajor, a, b, int(m), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_cgemm(CblasColMajor, a, b, int(m), int(n), int(k), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
    else
        cblas_zgemm(CblasColMajor, a, b, int(m), int(n), int(k), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
}

/// C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle (xSYRK; complex symmetric for c/z), C n×n.
/// trans: NoTrans or Trans (ConjTrans accepted as Trans for real T).
template <class T>
void syrk(Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* A, int64_t lda, T beta, T* C, int64_t ldc) {
    const auto t = cblas_trans<T>(trans);
    if constexpr (std::is_same_v<T, float>)
        cblas_ssyrk(CblasColMajor, cblas(uplo), t, int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dsyrk(CblasColMajor, cblas(uplo), t, int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_csyrk(CblasColMajor, cblas(uplo), t, int(n), int(k), &alpha, A, int(lda), &beta, C, int(ldc));
    else
        cblas_zsyrk(CblasColMajor, cblas(uplo), t, int(n), int(k), &alpha, A, int(lda), &beta, C, int(ldc));
}

/// C = alpha·op(A)·op(A)ᴴ + beta·C on the uplo triangle, alpha and beta real (xHERK; xSYRK for
/// real T), C n×n Hermitian. trans: NoTrans or ConjTrans (Trans for real T).
template <class T>
void herk(Uplo uplo, Trans trans, int64_t n, int64_t k, real_t<T> alpha, const T* A, int64_t lda, real_t<T> beta, T* C,
          int64_t ldc) {
    if constexpr (!is_complex_v<T>) syrk<T>(uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
    else {
        const auto t = trans == Trans::NoTrans ? CblasNoTrans : CblasConjTrans;
        if constexpr (std::is_same_v<T, std::complex<float>>)
            cblas_cherk(CblasColMajor, cblas(uplo), t, int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
        else
            cblas_zherk(CblasColMajor, cblas(uplo), t, int(n), int(k), alpha, A, int(lda), beta, C, int(ldc));
    }
}

/// C = alpha·A·B + beta·C (side Left) or alpha·B·A + beta·C (side Right), A symmetric (s, d) or
/// Hermitian (c, z) referenced through its uplo triangle, C m×n (xSYMM for real T, xHEMM for complex).
template <class T>
void hemm(Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb,
          T beta, T* C, int64_t ldc) {
    const CBLAS_SIDE s = cblas(side);
    const CBLAS_UPLO u = cblas(uplo);
    if constexpr (std::is_same_v<T, float>)
        cblas_ssymm(CblasColMajor, s, u, int(m), int(n), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dsymm(CblasColMajor, s, u, int(m), int(n), alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_chemm(CblasColMajor, s, u, int(m), int(n), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
    else
        cblas_zhemm(CblasColMajor, s, u, int(m), int(n), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
}

/// B = alpha·op(A)⁻¹·B or alpha·B·op(A)⁻¹ (xTRSM), B m×n.
/// C = alpha·A·B + beta·C (side Left) or alpha·B·A + beta·C (side Right), A referenced through its
/// uplo triangle: symmetric (xSYMM, also for c/z) or, with hermitian and complex T, Hermitian (xHEMM).
template <class T>
void symm(bool hermitian, Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, const T* B,
          int64_t ldb, T beta, T* C, int64_t ldc) {
    const CBLAS_SIDE s = cblas(side);
    const CBLAS_UPLO u = cblas(uplo);
    if constexpr (!is_complex_v<T>) hemm<T>(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
    else if (hermitian) hemm<T>(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_csymm(CblasColMajor, s, u, int(m), int(n), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
    else
        cblas_zsymm(CblasColMajor, s, u, int(m), int(n), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
}

/// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the uplo triangle of the n×n C (xSYR2K;
/// complex symmetric for c/z), or with hermitian and complex T C = alpha·op(A)·op(B)ᴴ +
/// conj(alpha)·op(B)·op(A)ᴴ + beta·C, beta real (xHER2K). trans: NoTrans, or Trans (syr2k) /
/// ConjTrans (her2k); both for real T.
template <class T>
void syr2k(bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* A, int64_t lda, const T* B,
           int64_t ldb, T beta, T* C, int64_t ldc) {
    const CBLAS_UPLO u = cblas(uplo);
    if constexpr (std::is_same_v<T, float>)
        cblas_ssyr2k(CblasColMajor, u, cblas_trans<T>(trans), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C,
                     int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dsyr2k(CblasColMajor, u, cblas_trans<T>(trans), int(n), int(k), alpha, A, int(lda), B, int(ldb), beta, C,
                     int(ldc));
    else {
        const auto t = trans == Trans::NoTrans ? CblasNoTrans : hermitian ? CblasConjTrans : CblasTrans;
        if (hermitian) {
            if constexpr (std::is_same_v<T, std::complex<float>>)
                cblas_cher2k(CblasColMajor, u, t, int(n), int(k), &alpha, A, int(lda), B, int(ldb), std::real(beta), C,
                             int(ldc));
            else
                cblas_zher2k(CblasColMajor, u, t, int(n), int(k), &alpha, A, int(lda), B, int(ldb), std::real(beta), C,
                             int(ldc));
        } else if constexpr (std::is_same_v<T, std::complex<float>>)
            cblas_csyr2k(CblasColMajor, u, t, int(n), int(k), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
        else
            cblas_zsyr2k(CblasColMajor, u, t, int(n), int(k), &alpha, A, int(lda), B, int(ldb), &beta, C, int(ldc));
    }
}

template <class T>
void trsm(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, T* B,
          int64_t ldb) {
    const CBLAS_SIDE s = cblas(side);
    const CBLAS_UPLO u = cblas(uplo);
    const CBLAS_TRANSPOSE t = cblas_trans<T>(trans);
    const CBLAS_DIAG d = cblas(diag);
    if constexpr (std::is_same_v<T, float>)
        cblas_strsm(CblasColMajor, s, u, t, d, int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dtrsm(CblasColMajor, s, u, t, d, int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_ctrsm(CblasColMajor, s, u, t, d, int(m), int(n), &alpha, A, int(lda), B, int(ldb));
    else
        cblas_ztrsm(CblasColMajor, s, u, t, d, int(m), int(n), &alpha, A, int(lda), B, int(ldb));
}

/// B = alpha·op(A)·B or alpha·B·op(A) (xTRMM), B m×n, A triangular.
template <class T>
void trmm(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, T* B,
          int64_t ldb) {
    const CBLAS_SIDE s = cblas(side);
    const CBLAS_UPLO u = cblas(uplo);
    const CBLAS_TRANSPOSE t = cblas_trans<T>(trans);
    const CBLAS_DIAG d = cblas(diag);
    if constexpr (std::is_same_v<T, float>)
        cblas_strmm(CblasColMajor, s, u, t, d, int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dtrmm(CblasColMajor, s, u, t, d, int(m), int(n), alpha, A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_ctrmm(CblasColMajor, s, u, t, d, int(m), int(n), &alpha, A, int(lda), B, int(ldb));
    else
        cblas_ztrmm(CblasColMajor, s, u, t, d, int(m), int(n), &alpha, A, int(lda), B, int(ldb));
}

/// Cholesky of the n×n A, symmetric or Hermitian positive definite (xPOTRF). Returns LAPACK's
/// info, and also the 1-based column of the first NaN on the factor's diagonal, which some LAPACK
/// implementations let through.
template <class T>
int potrf(Uplo uplo, int64_t n, T* A, int64_t lda) {
    const char u = uplo == Uplo::Lower ? 'L' : 'U';
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    else if constexpr (std::is_same_v<T, double>) info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    else if constexpr (std::is_same_v<T, std::complex<float>>) info = LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    else info = LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, u, int(n), A, int(lda));
    if (info != 0) return info;
    for (int64_t j = 0; j < n; ++j)
        if (std::isnan(std::real(A[j + j * lda]))) return int(j + 1);
    return 0;
}

/// B = A on the m×n region or its uplo trapezoid (xLACPY; Uplo::General copies everything).
template <class T>
void lacpy(Uplo uplo, int64_t m, int64_t n, const T* A, int64_t lda, T* B, int64_t ldb) {
    const char u = uplo == Uplo::Lower ? 'L' : uplo == Uplo::Upper ? 'U' : 'G';
    if constexpr (std::is_same_v<T, float>) LAPACKE_slacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_clacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
    else LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, u, int(m), int(n), A, int(lda), B, int(ldb));
}

/// W = A⁻¹ for the n×n triangular A (xTRTRI on a copy): the inverse in W's uplo triangle, zeros in
/// the other. Returns LAPACK's info (> 0: A(info, info) is exactly zero, W unspecified).
template <class T>
int trtri(Uplo uplo, Diag diag, int64_t n, const T* A, int64_t lda, T* W, int64_t ldw) {
    const char u = uplo == Uplo::Lower ? 'L' : 'U', d = diag == Diag::Unit ? 'U' : 'N';
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) W[i + j * ldw] = (uplo == Uplo::Lower ? i >= j : i <= j) ? A[i + j * lda] : T(0);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_strtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_ctrtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
    else return LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, u, d, int(n), W, int(ldw));
}

/// One step of Higham's 1-norm estimator of an n×n operator B (xLACN2, reverse communication):
/// call with kase = 0 first; on return kase = 1 asks for x := B·x, kase = 2 for x := Bᴴ·x, then
/// call again; kase = 0 on return means est holds the estimate (a lower bound on ‖B‖₁). v (n) and
/// isave (3) are its state; isgn (n) is used for real T only.
template <class T>
void lacn2(int64_t n, T* v, T* x, int* isgn, real_t<T>& est, int& kase, int* isave) {
    if constexpr (std::is_same_v<T, float>) LAPACKE_slacn2_work(int(n), v, x, isgn, &est, &kase, isave);
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dlacn2_work(int(n), v, x, isgn, &est, &kase, isave);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_clacn2_work(int(n), v, x, &est, &kase, isave);
    else LAPACKE_zlacn2_work(int(n), v, x, &est, &kase, isave);
    (void)isgn;
}

/// A := A⁻¹ in place on the uplo triangle (LAPACK xTRTRI; with diag Unit the diagonal is neither
/// read nor written). Returns LAPACK's info (i > 0: A(i, i) is exactly zero, A unchanged).
template <class T>
int trtri(Uplo uplo, Diag diag, int64_t n, T* A, int64_t lda) {
    const char u = uplo == Uplo::Lower ? 'L' : 'U', d = diag == Diag::Unit ? 'U' : 'N';
    if constexpr (std::is_same_v<T, float>) return LAPACKE_strtri_work(LAPACK_COL_MAJOR, u, d, int(n), A, int(lda));
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, u, d, int(n), A, int(lda));
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_ctrtri_work(LAPACK_COL_MAJOR, u, d, int(n), A, int(lda));
    else return LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, u, d, int(n), A, int(lda));
}

/// A := Lᴴ·L (Lower) or U·Uᴴ (Upper) in place on the uplo triangle (xLAUUM's result): the
/// triangle copied, with zeros in the other one, into a per-thread n×n scratch, then one xHERK
/// (xSYRK) from it into A's triangle, twice xLAUUM's n³/3 flops on GEMM kernels, the same
/// formulation as the OpenCL codelet's. Not xLAUUM itself: Debian 12's OpenBLAS 0.3.21 (gcc 12)
/// computes its diagonal entries with a ZDOTC kernel that reads out of bounds (OpenBLAS issue 3740,
/// fixed by PRs 3745 and 4014 after 0.3.21) and crashed about one test_inverse run in 25 on an
/// Intel Xeon (zlauu2_U → zdotc_k_SKYLAKEX).
template <class T>
void lauum(Uplo uplo, int64_t n, T* A, int64_t lda) {
    thread_local std::vector<T> scratch;
    if (n == 0) return;
    scratch.assign(size_t(n * n), T(0));
    lacpy<T>(uplo, n, n, A, lda, scratch.data(), n);
    herk<T>(uplo, uplo == Uplo::Lower ? Trans::ConjTrans : Trans::NoTrans, n, n, real_t<T>(1), scratch.data(), n,
            real_t<T>(0), A, lda);
}

}  // namespace tessera::cpu

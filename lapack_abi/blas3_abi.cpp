// BLAS 3's Fortran ABI, xGEMM, xTRSM, xTRMM, xSYMM, xSYRK, xSYR2K (s, d, c, z) and xHEMM, xHERK,
// xHER2K (c, z), on Tessera's lapack::gemm / trsm / trmm / symm / hemm / syrk / herk / syr2k / her2k
// above their thresholds (the smallest dimension: min(m, n, k); min(m, n) for trsm, trmm, symm and
// hemm; min(n, k) for the rank-k and rank-2k updates). Argument numbering as the reference BLAS
// (dgemm.f, dtrsm.f, dtrmm.f, dsymm.f, zhemm.f, dsyrk.f, zsyrk.f, zherk.f, dsyr2k.f, zsyr2k.f,
// zher2k.f): xerbla gets the positive number of the first invalid argument; BLAS has no INFO.
// For real T the character 'C' means 'T', as in the reference BLAS. alpha = 0 (and the quick
// returns) go to the next library, which then need not read A or B.
#include "lapack_abi/intercept.hpp"
#include "tessera/blas3.hpp"

namespace tessera_lapack {
namespace {

template <class T>
char trans_char(const char* t) {  // 'N', 'T' or 'C' ('C' is 'T' for real T)
    const char c = upper(t);
    return (!tessera::is_complex_v<T> && c == 'C') ? 'T' : c;
}
inline bool is_trans(const char* t) { return lsame(t, 'N') || lsame(t, 'T') || lsame(t, 'C'); }

template <class T>
void gemm(const char* ta, const char* tb, const int* m, const int* n, const int* k, const T* alpha, const T* a,
          const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, size_t la, size_t lb) {
    const std::string name = routine_name<T>("gemm");
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, const int*, const int*, const T*, const T*,
                           const int*, const T*, const int*, const T*, T*, const int*, size_t, size_t)>(
            (name + "_").c_str(), ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);
    };
    const int64_t size = std::min({*m, *n, *k});
    if (!use_tessera(name.c_str(), size) || *alpha == T(0)) return pass_through(name, size, nullptr, next);
    const int nrowa = lsame(ta, 'N') ? *m : *k, nrowb = lsame(tb, 'N') ? *k : *n;
    int info = 0;
    if (!is_trans(ta)) info = 1;
    else if (!is_trans(tb)) info = 2;
    else if (*lda < std::max(1, nrowa)) info = 8;  // m, n, k >= the threshold >= 0: arguments 3-5 valid
    else if (*ldb < std::max(1, nrowb)) info = 10;
    else if (*ldc < std::max(1, *m)) info = 13;
    if (info != 0) return xerbla(routine_name<T>("gemm", true).c_str(), -info);
    int unused = 0;
    intercept<T>(name, size, &unused, {}, next, [&] {
        tessera::lapack::gemm<T>(trans_char<T>(ta), trans_char<T>(tb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta,
                                 c, *ldc, on_copies());
        return int64_t(0);
    });
}

// xTRSM (Trmm = false: B = alpha·op(A)⁻¹·B or alpha·B·op(A)⁻¹) and xTRMM (B = alpha·op(A)·B or
// alpha·B·op(A)): the same arguments and numbering (dtrsm.f, dtrmm.f).
template <class T, bool Trmm>
void triangular(const char* side, const char* uplo, const char* ta, const char* diag, const int* m, const int* n,
                const T* alpha, const T* a, const int* lda, T* b, const int* ldb, size_t ls, size_t lu, size_t lt,
                size_t ld) {
    const char* routine = Trmm ? "trmm" : "trsm";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const char*, const char*, const int*, const int*, const T*,
                           const T*, const int*, T*, const int*, size_t, size_t, size_t, size_t)>(
            (name + "_").c_str(), side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);
    };
    const int64_t size = std::min(*m, *n);
    if (!use_tessera(name.c_str(), size) || *alpha == T(0)) return pass_through(name, size, nullptr, next);
    const bool left = lsame(side, 'L');
    int info = 0;
    if (!left && !lsame(side, 'R')) info = 1;
    else if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) info = 2;
    else if (!is_trans(ta)) info = 3;
    else if (!lsame(diag, 'U') && !lsame(diag, 'N')) info = 4;
    else if (*lda < std::max(1, left ? *m : *n)) info = 9;
    else if (*ldb < std::max(1, *m)) info = 11;
    if (info != 0) return xerbla(routine_name<T>(routine, true).c_str(), -info);
    int unused = 0;
    intercept<T>(name, size, &unused, {}, next, [&] {
        const char s = upper(side);
        const char u = upper(uplo);
        const char d = upper(diag);
        if constexpr (Trmm)
            tessera::lapack::trmm<T>(s, u, trans_char<T>(ta), d, *m, *n, *alpha, a, *lda, b, *ldb, on_copies());
        else
            tessera::lapack::trsm<T>(s, u, trans_char<T>(ta), d, *m, *n, *alpha, a, *lda, b, *ldb, on_copies());
        return int64_t(0);
    });
}

// xSYMM (Hemm = false; complex symmetric A for c, z) and xHEMM (Hemm, complex T only): C = alpha·A·B +
// beta·C (side 'L', A m×m) or alpha·B·A + beta·C ('R', A n×n), A read from its uplo triangle.
template <class T, bool Hemm>
void symmetric(const char* side, const char* uplo, const int* m, const int* n, const T* alpha, const T* a,
               const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, size_t ls, size_t lu) {
    const char* routine = Hemm ? "hemm" : "symm";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
                           const T*, const int*, const T*, T*, const int*, size_t, size_t)>(
            (name + "_").c_str(), side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);
    };
    const int64_t size = std::min(*m, *n);
    if (!use_tessera(name.c_str(), size) || *alpha == T(0)) return pass_through(name, size, nullptr, next);
    const bool left = lsame(side, 'L');
    int info = 0;
    if (!left && !lsame(side, 'R')) info = 1;
    else if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) info = 2;
    else if (*lda < std::max(1, left ? *m : *n)) info = 7;  // m, n >= the threshold >= 0: arguments 3-4 valid
    else if (*ldb < std::max(1, *m)) info = 9;
    else if (*ldc < std::max(1, *m)) info = 12;
    if (info != 0) return xerbla(routine_name<T>(routine, true).c_str(), -info);
    int unused = 0;
    intercept<T>(name, size, &unused, {}, next, [&] {
        const char s = upper(side);
        const char u = upper(uplo);
        if constexpr (Hemm)
            tessera::lapack::hemm<T>(s, u, *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc, on_copies());
        else
            tessera::lapack::symm<T>(s, u, *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc, on_copies());
        return int64_t(0);
    });
}

// The trans of the rank-k and rank-2k updates: 'N', or 'T' (xSYRK, xSYR2K; also 'C' for real T) or
// 'C' (xHERK, xHER2K).
template <class T>
bool rank_trans_ok(const char* trans, bool hermitian) {
    return lsame(trans, 'N') ||
           (hermitian ? lsame(trans, 'C') : (lsame(trans, 'T') || (!tessera::is_complex_v<T> && lsame(trans, 'C'))));
}

// xSYRK (S = T) and xHERK (S = the real type, complex T only): C = alpha·op(A)·op(A)ᵀ/ᴴ + beta·C.
template <class T, class S, bool Herk>
void rank_k(const char* uplo, const char* trans, const int* n, const int* k, const S* alpha, const T* a,
            const int* lda, const S* beta, T* c, const int* ldc, size_t lu, size_t lt) {
    const char* routine = Herk ? "herk" : "syrk";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, const int*, const S*, const T*, const int*,
                           const S*, T*, const int*, size_t, size_t)>((name + "_").c_str(), uplo, trans, n, k,
                                                                      alpha, a, lda, beta, c, ldc, lu, lt);
    };
    const int64_t size = std::min(*n, *k);
    if (!use_tessera(name.c_str(), size) || *alpha == S(0)) return pass_through(name, size, nullptr, next);
    const bool trans_ok = rank_trans_ok<T>(trans, Herk);
    int info = 0;
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) info = 1;
    else if (!trans_ok) info = 2;
    else if (*lda < std::max(1, lsame(trans, 'N') ? *n : *k)) info = 7;
    else if (*ldc < std::max(1, *n)) info = 10;
    if (info != 0) return xerbla(routine_name<T>(routine, true).c_str(), -info);
    int unused = 0;
    intercept<T>(name, size, &unused, {}, next, [&] {
        const char u = upper(uplo);
        if constexpr (Herk)
            tessera::lapack::herk<T>(u, trans_char<T>(trans), *n, *k, *alpha, a, *lda, *beta, c, *ldc, on_copies());
        else
            tessera::lapack::syrk<T>(u, trans_char<T>(trans), *n, *k, *alpha, a, *lda, *beta, c, *ldc, on_copies());
        return int64_t(0);
    });
}

// xSYR2K (S = T) and xHER2K (S = the real type of beta, complex T only): C = alpha·op(A)·op(B)ᵀ/ᴴ +
// conj(alpha)·op(B)·op(A)ᴴ (alpha for xSYR2K) + beta·C on C's uplo triangle (dsyr2k.f, zher2k.f).
template <class T, class S, bool Her2k>
void rank_2k(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha, const T* a,
             const int* lda, const T* b, const int* ldb, const S* beta, T* c, const int* ldc, size_t lu, size_t lt) {
    const char* routine = Her2k ? "her2k" : "syr2k";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
                           const T*, const int*, const S*, T*, const int*, size_t, size_t)>(
            (name + "_").c_str(), uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);
    };
    const int64_t size = std::min(*n, *k);
    if (!use_tessera(name.c_str(), size) || *alpha == T(0)) return pass_through(name, size, nullptr, next);
    const int nrowa = std::max(1, lsame(trans, 'N') ? *n : *k);
    int info = 0;
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) info = 1;
    else if (!rank_trans_ok<T>(trans, Her2k)) info = 2;
    else if (*lda < nrowa) info = 7;  // n, k >= the threshold >= 0: arguments 3-4 valid
    else if (*ldb < nrowa) info = 9;
    else if (*ldc < std::max(1, *n)) info = 12;
    if (info != 0) return xerbla(routine_name<T>(routine, true).c_str(), -info);
    int unused = 0;
    intercept<T>(name, size, &unused, {}, next, [&] {
        const char u = upper(uplo);
        if constexpr (Her2k)
            tessera::lapack::her2k<T>(u, trans_char<T>(trans), *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc,
                                      on_copies());
        else
            tessera::lapack::syr2k<T>(u, trans_char<T>(trans), *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc,
                                      on_copies());
        return int64_t(0);
    });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_BLAS3_ABI(x, T)                                                                                   \
    TESSERA_LAPACK_API void x##gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,    \
                                     const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,      \
                                     const T* beta, T* c, const int* ldc, size_t la, size_t lb) {                 \
        tessera_lapack::gemm<T>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);                   \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##trsm_(const char* side, const char* uplo, const char* ta, const char* diag,        \
                                     const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b, \
                                     const int* ldb, size_t ls, size_t lu, size_t lt, size_t ld) {                \
        tessera_lapack::triangular<T, false>(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);              \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##syrk_(const char* uplo, const char* trans, const int* n, const int* k,             \
                                     const T* alpha, const T* a, const int* lda, const T* beta, T* c,             \
                                     const int* ldc, size_t lu, size_t lt) {                                      \
        tessera_lapack::rank_k<T, T, false>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);             \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##trmm_(const char* side, const char* uplo, const char* ta, const char* diag,        \
                                     const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b, \
                                     const int* ldb, size_t ls, size_t lu, size_t lt, size_t ld) {                \
        tessera_lapack::triangular<T, true>(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);  \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##symm_(const char* side, const char* uplo, const int* m, const int* n,              \
                                     const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,      \
                                     const T* beta, T* c, const int* ldc, size_t ls, size_t lu) {                 \
        tessera_lapack::symmetric<T, false>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);      \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##syr2k_(const char* uplo, const char* trans, const int* n, const int* k,            \
                                      const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,     \
                                      const T* beta, T* c, const int* ldc, size_t lu, size_t lt) {                \
        tessera_lapack::rank_2k<T, T, false>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);    \
    }
#define TESSERA_HERK_ABI(x, T, R)                                                                                 \
    TESSERA_LAPACK_API void x##herk_(const char* uplo, const char* trans, const int* n, const int* k,             \
                                     const R* alpha, const T* a, const int* lda, const R* beta, T* c,             \
                                     const int* ldc, size_t lu, size_t lt) {                                      \
        tessera_lapack::rank_k<T, R, true>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);              \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##hemm_(const char* side, const char* uplo, const int* m, const int* n,              \
                                     const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,      \
                                     const T* beta, T* c, const int* ldc, size_t ls, size_t lu) {                 \
        tessera_lapack::symmetric<T, true>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);       \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##her2k_(const char* uplo, const char* trans, const int* n, const int* k,            \
                                      const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,     \
                                      const R* beta, T* c, const int* ldc, size_t lu, size_t lt) {                \
        tessera_lapack::rank_2k<T, R, true>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);     \
    }

TESSERA_BLAS3_ABI(s, float)
TESSERA_BLAS3_ABI(d, double)
TESSERA_BLAS3_ABI(c, std::complex<float>)
TESSERA_BLAS3_ABI(z, std::complex<double>)
TESSERA_HERK_ABI(c, std::complex<float>, float)
TESSERA_HERK_ABI(z, std::complex<double>, double)

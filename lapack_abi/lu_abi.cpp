// LAPACK's Fortran ABI for the LU routines with partial pivoting, xGETRF, xGETRS, xGESV in s, d, c,
// z, on Tessera's lapack::getrf / getrs / gesv above their thresholds (getrf: min(m, n)). Argument
// numbering as LAPACK 3.11's dgetrf.f, dgetrs.f, dgesv.f. Tessera's int64 pivots are converted to
// and from the caller's 32-bit INTEGER IPIV (1-based, LAPACK's row interchanges).
#include "lapack_abi/intercept.hpp"
#include "tessera/lu.hpp"

namespace tessera_lapack {
namespace {

template <class T>
void getrf(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {
    const std::string name = routine_name<T>("getrf");
    auto next = [&] {
        call_next<void (*)(const int*, const int*, T*, const int*, int*, int*)>((name + "_").c_str(), m, n, a, lda,
                                                                                ipiv, info);
    };
    if (!use_tessera(name.c_str(), std::min(*m, *n))) return pass_through(name, std::min(*m, *n), info, next);
    *info = 0;
    if (*m < 0) *info = -1;
    else if (*n < 0) *info = -2;
    else if (*lda < std::max(1, *m)) *info = -4;
    if (*info != 0) return xerbla(routine_name<T>("getrf", true).c_str(), *info);
    intercept<T>(name, std::min(*m, *n), info, {}, next, [&] {
        std::vector<int64_t> piv(static_cast<size_t>(std::min(*m, *n)));
        const int64_t r = tessera::lapack::getrf<T>(*m, *n, a, *lda, piv.data(), on_copies());
        copy_pivots(piv, ipiv);
        return r;
    });
}

template <class T>
void getrs(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda, const int* ipiv, T* b,
           const int* ldb, int* info, size_t trans_len) {
    const std::string name = routine_name<T>("getrs");
    auto next = [&] {
        call_next<void (*)(const char*, const int*, const int*, const T*, const int*, const int*, T*, const int*, int*,
                           size_t)>((name + "_").c_str(), trans, n, nrhs, a, lda, ipiv, b, ldb, info, trans_len);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (!lsame(trans, 'N') && !lsame(trans, 'T') && !lsame(trans, 'C')) *info = -1;
    else if (*n < 0) *info = -2;
    else if (*nrhs < 0) *info = -3;
    else if (*lda < std::max(1, *n)) *info = -5;
    else if (*ldb < std::max(1, *n)) *info = -8;
    if (*info != 0) return xerbla(routine_name<T>("getrs", true).c_str(), *info);
    if (*nrhs == 0) return;  // LAPACK's quick return
    intercept<T>(name, *n, info, {}, next, [&] {
        const std::vector<int64_t> piv(ipiv, ipiv + *n);
        const char t = upper(trans);
        tessera::lapack::getrs<T>(t, *n, *nrhs, a, *lda, piv.data(), b, *ldb, on_copies());
        return int64_t(0);
    });
}

template <class T>
void gesv(const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b, const int* ldb, int* info) {
    const std::string name = routine_name<T>("gesv");
    auto next = [&] {
        call_next<void (*)(const int*, const int*, T*, const int*, int*, T*, const int*, int*)>(
            (name + "_").c_str(), n, nrhs, a, lda, ipiv, b, ldb, info);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (*n < 0) *info = -1;
    else if (*nrhs < 0) *info = -2;
    else if (*lda < std::max(1, *n)) *info = -4;
    else if (*ldb < std::max(1, *n)) *info = -7;
    if (*info != 0) return xerbla(routine_name<T>("gesv", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next, [&] {
        std::vector<int64_t> piv(static_cast<size_t>(*n));
        const int64_t r = tessera::lapack::gesv<T>(*n, *nrhs, a, *lda, piv.data(), b, *ldb, on_copies());
        copy_pivots(piv, ipiv);
        return r;
    });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_LU_ABI(x, T)                                                                                      \
    TESSERA_LAPACK_API void x##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {          \
        tessera_lapack::getrf<T>(m, n, a, lda, ipiv, info);                                                      \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda,       \
                              const int* ipiv, T* b, const int* ldb, int* info, size_t trans_len) {               \
        tessera_lapack::getrs<T>(trans, n, nrhs, a, lda, ipiv, b, ldb, info, trans_len);                         \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##gesv_(const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b, const int* ldb, \
                             int* info) {                                                                         \
        tessera_lapack::gesv<T>(n, nrhs, a, lda, ipiv, b, ldb, info);                                            \
    }

TESSERA_LU_ABI(s, float)
TESSERA_LU_ABI(d, double)
TESSERA_LU_ABI(c, std::complex<float>)
TESSERA_LU_ABI(z, std::complex<double>)

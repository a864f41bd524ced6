// LAPACK's Fortran ABI for the Cholesky routines, xPOTRF, xPOTRS, xPOSV in s, d, c, z, on Tessera's
// lapack::potrf / potrs / posv above their thresholds. Argument numbering as LAPACK 3.11's
// dpotrf.f, dpotrs.f, dposv.f (zpotrf.f, ... identical).
#include "lapack_abi/intercept.hpp"
#include "tessera/cholesky.hpp"

namespace tessera_lapack {
namespace {

template <class T>
void potrf(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t uplo_len) {
    const std::string name = routine_name<T>("potrf");
    auto next = [&] { call_next<void (*)(const char*, const int*, T*, const int*, int*, size_t)>(
                          (name + "_").c_str(), uplo, n, a, lda, info, uplo_len); };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) *info = -1;
    else if (*lda < std::max(1, *n)) *info = -4;  // n >= the threshold >= 0: argument 2 is valid
    if (*info != 0) return xerbla(routine_name<T>("potrf", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next, [&] { return tessera::lapack::potrf<T>(*uplo, *n, a, *lda, on_copies()); });
}

// xPOTRS and xPOSV share their arguments and LAPACK's numbering (1 uplo, 2 n, 3 nrhs, 5 lda, 7 ldb).
template <class T>
int check_solve(const char* uplo, const int* n, const int* nrhs, const int* lda, const int* ldb) {
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return -1;
    if (*n < 0) return -2;
    if (*nrhs < 0) return -3;
    if (*lda < std::max(1, *n)) return -5;
    if (*ldb < std::max(1, *n)) return -7;
    return 0;
}

template <class T>
void potrs(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda, T* b, const int* ldb,
           int* info, size_t uplo_len) {
    const std::string name = routine_name<T>("potrs");
    auto next = [&] {
        call_next<void (*)(const char*, const int*, const int*, const T*, const int*, T*, const int*, int*, size_t)>(
            (name + "_").c_str(), uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    if ((*info = check_solve<T>(uplo, n, nrhs, lda, ldb)) != 0)
        return xerbla(routine_name<T>("potrs", true).c_str(), *info);
    if (*nrhs == 0) return;  // LAPACK's quick return
    intercept<T>(name, *n, info, {}, next, [&] {
        tessera::lapack::potrs<T>(*uplo, *n, *nrhs, a, *lda, b, *ldb, on_copies());
        return int64_t(0);
    });
}

template <class T>
void posv(const char* uplo, const int* n, const int* nrhs, T* a, const int* lda, T* b, const int* ldb, int* info,
          size_t uplo_len) {
    const std::string name = routine_name<T>("posv");
    auto next = [&] {
        call_next<void (*)(const char*, const int*, const int*, T*, const int*, T*, const int*, int*, size_t)>(
            (name + "_").c_str(), uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    if ((*info = check_solve<T>(uplo, n, nrhs, lda, ldb)) != 0)
        return xerbla(routine_name<T>("posv", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next,
                 [&] { return tessera::lapack::posv<T>(*uplo, *n, *nrhs, a, *lda, b, *ldb, on_copies()); });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_CHOLESKY_ABI(x, T)                                                                              \
    TESSERA_LAPACK_API void x##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t uplo_len) { \
        tessera_lapack::potrf<T>(uplo, n, a, lda, info, uplo_len);                                             \
    }                                                                                                           \
    TESSERA_LAPACK_API void x##potrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda, T* b, \
                              const int* ldb, int* info, size_t uplo_len) {                                     \
        tessera_lapack::potrs<T>(uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);                               \
    }                                                                                                           \
    TESSERA_LAPACK_API void x##posv_(const char* uplo, const int* n, const int* nrhs, T* a, const int* lda, T* b,        \
                             const int* ldb, int* info, size_t uplo_len) {                                      \
        tessera_lapack::posv<T>(uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);                                \
    }

TESSERA_CHOLESKY_ABI(s, float)
TESSERA_CHOLESKY_ABI(d, double)
TESSERA_CHOLESKY_ABI(c, std::complex<float>)
TESSERA_CHOLESKY_ABI(z, std::complex<double>)

// LAPACK's Fortran ABI for the inverses, xTRTRI, xLAUUM, xPOTRI, xGETRI in s, d, c, z, on Tessera's
// lapack::trtri / lauum / potri / getri above their thresholds. Argument numbering and minimal LWORK
// as LAPACK 3.11's dtrtri.f, dlauum.f, dpotri.f, dgetri.f (ztrtri.f, ... identical). A singular
// triangle gives LAPACK's info > 0 with A unchanged, as LAPACK's. xGETRI's workspace query
// (LWORK = -1) goes to the next library, which checks the arguments and answers with its own
// optimal size; Tessera allocates its own workspace (WORK is never written except WORK(1) of a
// query), and its int64 pivots are the caller's 32-bit IPIV converted.
#include "lapack_abi/intercept.hpp"
#include "tessera/inverse.hpp"

namespace tessera_lapack {
namespace {

template <class T>
void trtri(const char* uplo, const char* diag, const int* n, T* a, const int* lda, int* info, size_t lu, size_t ld) {
    const std::string name = routine_name<T>("trtri");
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, T*, const int*, int*, size_t, size_t)>(
            (name + "_").c_str(), uplo, diag, n, a, lda, info, lu, ld);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) *info = -1;
    else if (!lsame(diag, 'N') && !lsame(diag, 'U')) *info = -2;
    else if (*lda < std::max(1, *n)) *info = -5;  // n >= the threshold >= 0: argument 3 is valid
    if (*info != 0) return xerbla(routine_name<T>("trtri", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next,
                 [&] { return tessera::lapack::trtri<T>(upper(uplo), upper(diag), *n, a, *lda, on_copies()); });
}

// xLAUUM (Potri = false: U·Uᴴ or Lᴴ·L of the triangle) and xPOTRI (Potri: A⁻¹ from potrf's factor)
// share their arguments and numbering (1 uplo, 2 n, 4 lda).
template <class T, bool Potri>
void lauum_potri(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t lu) {
    const char* routine = Potri ? "potri" : "lauum";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const int*, T*, const int*, int*, size_t)>((name + "_").c_str(), uplo, n, a,
                                                                                   lda, info, lu);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) *info = -1;
    else if (*lda < std::max(1, *n)) *info = -4;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next, [&] {
        if constexpr (Potri) return tessera::lapack::potri<T>(upper(uplo), *n, a, *lda, on_copies());
        else {
            tessera::lapack::lauum<T>(upper(uplo), *n, a, *lda, on_copies());
            return int64_t(0);
        }
    });
}

template <class T>
void getri(const int* n, T* a, const int* lda, const int* ipiv, T* work, const int* lwork, int* info) {
    const std::string name = routine_name<T>("getri");
    auto next = [&] {
        call_next<void (*)(const int*, T*, const int*, const int*, T*, const int*, int*)>((name + "_").c_str(), n, a,
                                                                                        lda, ipiv, work, lwork, info);
    };
    if (*lwork == -1) return next();  // the query (and its argument checks): the next library's answer
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (*lda < std::max(1, *n)) *info = -3;  // n >= the threshold >= 0: argument 1 is valid
    else if (*lwork < std::max(1, *n)) *info = -6;
    if (*info != 0) return xerbla(routine_name<T>("getri", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next, [&] {
        const std::vector<int64_t> piv(ipiv, ipiv + *n);
        return tessera::lapack::getri<T>(*n, a, *lda, piv.data(), on_copies());
    });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_INVERSE_ABI(x, T)                                                                                 \
    TESSERA_LAPACK_API void x##trtri_(const char* uplo, const char* diag, const int* n, T* a, const int* lda,     \
                                      int* info, size_t lu, size_t ld) {                                          \
        tessera_lapack::trtri<T>(uplo, diag, n, a, lda, info, lu, ld);                                            \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##lauum_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t lu) { \
        tessera_lapack::lauum_potri<T, false>(uplo, n, a, lda, info, lu);                                         \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##potri_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t lu) { \
        tessera_lapack::lauum_potri<T, true>(uplo, n, a, lda, info, lu);                                          \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##getri_(const int* n, T* a, const int* lda, const int* ipiv, T* work,               \
                                      const int* lwork, int* info) {                                              \
        tessera_lapack::getri<T>(n, a, lda, ipiv, work, lwork, info);                                             \
    }

TESSERA_INVERSE_ABI(s, float)
TESSERA_INVERSE_ABI(d, double)
TESSERA_INVERSE_ABI(c, std::complex<float>)
TESSERA_INVERSE_ABI(z, std::complex<double>)

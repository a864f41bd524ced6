// LAPACK's Fortran ABI for the condition estimates, xGECON, xPOCON, xTRCON in s, d, c, z, on
// Tessera's lapack::gecon / pocon / trcon above their thresholds (those of the solves, potrs and
// getrs: the estimator makes one or two triangular solves per step). Argument numbering as LAPACK
// 3.11's dgecon.f, dpocon.f, dtrcon.f (zgecon.f, ... identical). Tessera's estimator keeps its
// vectors itself: WORK and IWORK (RWORK for complex T) are never written. An ANORM that is zero,
// infinite or NaN goes to the next library (its quick returns; LAPACK 3.11 and later releases
// differ on NaN), as does every call Tessera fails on.
#include <cmath>

#include "lapack_abi/intercept.hpp"
#include "tessera/condition.hpp"

namespace tessera_lapack {
namespace {

using tessera::real_t;

inline bool is_norm(const char* norm) { return *norm == '1' || lsame(norm, 'O') || lsame(norm, 'I'); }

// xGECON (Po = false: norm, the getrf factors) and xPOCON (Po: uplo, the potrf factor) share their
// arguments and numbering (1 norm / uplo, 2 n, 4 lda, 5 anorm); W is IWORK's int (real T) or
// RWORK's real type (complex T).
template <class T, class W, bool Po>
void factored_con(const char* c, const int* n, const T* a, const int* lda, const real_t<T>* anorm, real_t<T>* rcond,
                  T* work, W* w, int* info, size_t c_len) {
    const char* routine = Po ? "pocon" : "gecon";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const int*, const T*, const int*, const real_t<T>*, real_t<T>*, T*, W*, int*,
                           size_t)>((name + "_").c_str(), c, n, a, lda, anorm, rcond, work, w, info, c_len);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (Po ? (!lsame(c, 'U') && !lsame(c, 'L')) : !is_norm(c)) *info = -1;
    else if (*lda < std::max(1, *n)) *info = -4;  // n >= the threshold >= 0: argument 2 is valid
    else if (*anorm < 0) *info = -5;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (!(std::isfinite(*anorm) && *anorm > 0)) return next();  // zero, infinite or NaN: LAPACK's quick returns
    intercept<T>(name, *n, info, {}, next, [&] {
        if constexpr (Po) return tessera::lapack::pocon<T>(*c, *n, a, *lda, *anorm, rcond, on_copies());
        else return tessera::lapack::gecon<T>(*c, *n, a, *lda, *anorm, rcond, on_copies());
    });
}

template <class T, class W>
void trcon(const char* norm, const char* uplo, const char* diag, const int* n, const T* a, const int* lda,
           real_t<T>* rcond, T* work, W* w, int* info, size_t ln, size_t lu, size_t ld) {
    const std::string name = routine_name<T>("trcon");
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const char*, const int*, const T*, const int*, real_t<T>*, T*,
                           W*, int*, size_t, size_t, size_t)>((name + "_").c_str(), norm, uplo, diag, n, a, lda,
                                                              rcond, work, w, info, ln, lu, ld);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    *info = 0;
    if (!is_norm(norm)) *info = -1;
    else if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) *info = -2;
    else if (!lsame(diag, 'N') && !lsame(diag, 'U')) *info = -3;
    else if (*lda < std::max(1, *n)) *info = -6;  // n >= the threshold >= 0: argument 4 is valid
    if (*info != 0) return xerbla(routine_name<T>("trcon", true).c_str(), *info);
    intercept<T>(name, *n, info, {}, next,
                 [&] { return tessera::lapack::trcon<T>(*norm, *uplo, *diag, *n, a, *lda, rcond, on_copies()); });
}

}  // namespace
}  // namespace tessera_lapack

// W: IWORK (int) for s, d; RWORK (the real type) for c, z.
#define TESSERA_CONDITION_ABI(x, T, R, W)                                                                         \
    TESSERA_LAPACK_API void x##gecon_(const char* norm, const int* n, const T* a, const int* lda, const R* anorm, \
                                      R* rcond, T* work, W* w, int* info, size_t norm_len) {                      \
        tessera_lapack::factored_con<T, W, false>(norm, n, a, lda, anorm, rcond, work, w, info, norm_len);        \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##pocon_(const char* uplo, const int* n, const T* a, const int* lda, const R* anorm, \
                                      R* rcond, T* work, W* w, int* info, size_t uplo_len) {                      \
        tessera_lapack::factored_con<T, W, true>(uplo, n, a, lda, anorm, rcond, work, w, info, uplo_len);         \
    }                                                                                                             \
    TESSERA_LAPACK_API void x##trcon_(const char* norm, const char* uplo, const char* diag, const int* n,         \
                                      const T* a, const int* lda, R* rcond, T* work, W* w, int* info, size_t ln,  \
                                      size_t lu, size_t ld) {                                                     \
        tessera_lapack::trcon<T, W>(norm, uplo, diag, n, a, lda, rcond, work, w, info, ln, lu, ld);               \
    }

TESSERA_CONDITION_ABI(s, float, float, int)
TESSERA_CONDITION_ABI(d, double, double, int)
TESSERA_CONDITION_ABI(c, std::complex<float>, float, float)
TESSERA_CONDITION_ABI(z, std::complex<double>, double, double)

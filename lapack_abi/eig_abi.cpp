// LAPACK's Fortran ABI for the symmetric / Hermitian eigensolvers, xSYEVD (s, d) and xHEEVD (c, z),
// on Tessera's lapack::syevd / heevd above their thresholds. Argument numbering, minimal workspace
// sizes and workspace queries (LWORK, LRWORK or LIWORK = -1) as LAPACK 3.11's dsyevd.f and zheevd.f;
// a query is answered with the minimal sizes (Tessera allocates its own workspace, so any arrays
// of at least those sizes are accepted and left untouched).
#include "lapack_abi/intercept.hpp"
#include "tessera/eig.hpp"

namespace tessera_lapack {
namespace {

template <class T>
using Real = tessera::real_t<T>;

// LAPACK's minimal LWORK, LRWORK (complex only) and LIWORK for order n.
struct Workspace {
    int64_t lwork, lrwork, liwork;
};
template <class T>
Workspace minimal_workspace(int64_t n, bool wantz) {
    if (n <= 1) return {1, 1, 1};
    if constexpr (tessera::is_complex_v<T>)
        return wantz ? Workspace{2 * n + n * n, 1 + 5 * n + 2 * n * n, 3 + 5 * n} : Workspace{n + 1, n, 1};
    else
        return wantz ? Workspace{1 + 6 * n + 2 * n * n, 0, 3 + 5 * n} : Workspace{2 * n + 1, 0, 1};
}

// rwork and lrwork are null for real T (xSYEVD has none).
template <class T>
void eigd(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, Real<T>* w, T* work, const int* lwork,
          Real<T>* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, size_t jobz_len,
          size_t uplo_len) {
    constexpr bool complex = tessera::is_complex_v<T>;
    const char* routine = complex ? "heevd" : "syevd";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        if constexpr (complex)
            call_next<void (*)(const char*, const char*, const int*, T*, const int*, Real<T>*, T*, const int*,
                               Real<T>*, const int*, int*, const int*, int*, size_t, size_t)>(
                (name + "_").c_str(), jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork, info,
                jobz_len, uplo_len);
        else
            call_next<void (*)(const char*, const char*, const int*, T*, const int*, T*, T*, const int*, int*,
                               const int*, int*, size_t, size_t)>((name + "_").c_str(), jobz, uplo, n, a, lda, w,
                                                                  work, lwork, iwork, liwork, info, jobz_len,
                                                                  uplo_len);
    };
    if (!use_tessera(name.c_str(), *n)) return pass_through(name, *n, info, next);
    const bool wantz = lsame(jobz, 'V');
    const bool lquery = *lwork == -1 || *liwork == -1 || (complex && *lrwork == -1);
    *info = 0;
    if (!wantz && !lsame(jobz, 'N')) *info = -1;
    else if (!lsame(uplo, 'L') && !lsame(uplo, 'U')) *info = -2;
    else if (*n < 0) *info = -3;
    else if (*lda < std::max(1, *n)) *info = -5;
    const Workspace min = minimal_workspace<T>(*n, wantz);
    auto answer = [&] {  // WORK(1), RWORK(1), IWORK(1): LAPACK's LOPT, LROPT, LIOPT (here the minima)
        work[0] = T(Real<T>(min.lwork));
        if constexpr (complex) rwork[0] = Real<T>(min.lrwork);
        iwork[0] = int(min.liwork);
    };
    if (*info == 0) {
        answer();
        if (*lwork < min.lwork && !lquery) *info = -8;
        else if (complex && *lrwork < min.lrwork && !lquery) *info = -10;
        else if (*liwork < min.liwork && !lquery) *info = complex ? -12 : -10;
    }
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (lquery) return;
    intercept<T>(name, *n, info, {}, next, [&] {
        if constexpr (complex)
            return tessera::lapack::heevd<T>(*jobz, *uplo, *n, a, *lda, w, on_copies());
        else
            return tessera::lapack::syevd<T>(*jobz, *uplo, *n, a, *lda, w, on_copies());
    });
    if (*info >= 0) answer();
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_SYEVD_ABI(x, T)                                                                                  \
    TESSERA_LAPACK_API void x##syevd_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, T* w,      \
                              T* work, const int* lwork, int* iwork, const int* liwork, int* info,               \
                              size_t jobz_len, size_t uplo_len) {                                                \
        tessera_lapack::eigd<T>(jobz, uplo, n, a, lda, w, work, lwork, nullptr, nullptr, iwork, liwork, info,    \
                                jobz_len, uplo_len);                                                             \
    }
#define TESSERA_HEEVD_ABI(x, T, R)                                                                               \
    TESSERA_LAPACK_API void x##heevd_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, R* w,      \
                              T* work, const int* lwork, R* rwork, const int* lrwork, int* iwork,                \
                              const int* liwork, int* info, size_t jobz_len, size_t uplo_len) {                  \
        tessera_lapack::eigd<T>(jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork, info,       \
                                jobz_len, uplo_len);                                                             \
    }

TESSERA_SYEVD_ABI(s, float)
TESSERA_SYEVD_ABI(d, double)
TESSERA_HEEVD_ABI(c, std::complex<float>, float)
TESSERA_HEEVD_ABI(z, std::complex<double>, double)

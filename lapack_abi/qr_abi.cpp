// LAPACK's Fortran ABI for QR, xGEQRF, xORMQR/xUNMQR, xORGQR/xUNGQR and xGELS in s, d, c, z, on
// Tessera's lapack::geqrf / unmqr / ungqr / gels above their thresholds (geqrf, gels: min(m, n);
// ormqr: min(m, n, k); orgqr: k, the reflectors). Argument numbering and minimal LWORK as LAPACK
// 3.11's dgeqrf.f, dormqr.f (zunmqr.f: 'C' for 'T'), dorgqr.f and dgels.f. Tessera allocates its own
// workspace: WORK is never written except WORK(1) of a query. A workspace query (LWORK = -1) goes
// to the next library, which checks the arguments as LAPACK does and answers with its own optimal
// size, which it then accepts if Tessera fails and it runs the call. xGELS runs on Tessera for both
// shapes, leaving A as LAPACK's does: xGEQRF's layout for m >= n, xGELQF's for m < n (lapack::gels
// factors Aᴴ by the ColumnPanel QR, lq.hpp); a rank-deficient A (info > 0) and an all-zero A
// (LAPACK returns X = 0 and info = 0) are redone by the next library.
#include "lapack_abi/intercept.hpp"
#include "tessera/qr.hpp"

namespace tessera_lapack {
namespace {

template <class T>
void geqrf(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork, int* info) {
    const std::string name = routine_name<T>("geqrf");
    auto next = [&] {
        call_next<void (*)(const int*, const int*, T*, const int*, T*, T*, const int*, int*)>(
            (name + "_").c_str(), m, n, a, lda, tau, work, lwork, info);
    };
    const int64_t size = std::min(*m, *n);
    if (*lwork == -1) return next();  // the query (and its argument checks): the next library's answer
    if (!use_tessera(name.c_str(), size)) return pass_through(name, size, info, next);
    *info = 0;
    if (*m < 0) *info = -1;
    else if (*n < 0) *info = -2;
    else if (*lda < std::max(1, *m)) *info = -4;
    else if (*lwork <= 0 || (*m > 0 && *lwork < std::max(1, *n))) *info = -7;
    if (*info != 0) return xerbla(routine_name<T>("geqrf", true).c_str(), *info);
    if (size == 0) return void(work[0] = T(1));  // LAPACK's quick return
    intercept<T>(name, size, info, {{tau, size, 1, size}}, next,  // tau is written by tasks, a through a copy
                 [&] { return tessera::lapack::geqrf<T>(*m, *n, a, *lda, tau, on_copies()); });
}

// xORMQR (real) / xUNMQR (complex): trans 'T' for real T, 'C' for complex T, besides 'N'.
template <class T>
void unmqr(const char* side, const char* trans, const int* m, const int* n, const int* k, const T* a, const int* lda,
           const T* tau, T* c, const int* ldc, T* work, const int* lwork, int* info, size_t side_len, size_t trans_len) {
    constexpr bool complex = tessera::is_complex_v<T>;
    const char* routine = complex ? "unmqr" : "ormqr";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const char*, const char*, const int*, const int*, const int*, const T*, const int*,
                           const T*, T*, const int*, T*, const int*, int*, size_t, size_t)>(
            (name + "_").c_str(), side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info, side_len, trans_len);
    };
    const int64_t size = std::min({*m, *n, *k});
    if (*lwork == -1) return next();
    if (!use_tessera(name.c_str(), size)) return pass_through(name, size, info, next);
    const bool left = lsame(side, 'L');
    const int nq = left ? *m : *n, nw = std::max(1, left ? *n : *m);
    *info = 0;
    if (!left && !lsame(side, 'R')) *info = -1;
    else if (!lsame(trans, 'N') && !lsame(trans, complex ? 'C' : 'T')) *info = -2;
    else if (*m < 0) *info = -3;
    else if (*n < 0) *info = -4;
    else if (*k < 0 || *k > nq) *info = -5;
    else if (*lda < std::max(1, nq)) *info = -7;
    else if (*ldc < std::max(1, *m)) *info = -10;
    else if (*lwork < nw) *info = -12;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (*m == 0 || *n == 0 || *k == 0) return void(work[0] = T(1));
    intercept<T>(name, size, info, {}, next, [&] {
        tessera::lapack::unmqr<T>(upper(side), upper(trans), *m, *n, *k, a, *lda, tau, c, *ldc, on_copies());
        return int64_t(0);
    });
}

// xORGQR (real) / xUNGQR (complex).
template <class T>
void ungqr(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau, T* work, const int* lwork,
           int* info) {
    const char* routine = tessera::is_complex_v<T> ? "ungqr" : "orgqr";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const int*, const int*, const int*, T*, const int*, const T*, T*, const int*, int*)>(
            (name + "_").c_str(), m, n, k, a, lda, tau, work, lwork, info);
    };
    if (*lwork == -1) return next();
    if (!use_tessera(name.c_str(), *k)) return pass_through(name, *k, info, next);
    *info = 0;
    if (*m < 0) *info = -1;
    else if (*n < 0 || *n > *m) *info = -2;
    else if (*k < 0 || *k > *n) *info = -3;
    else if (*lda < std::max(1, *m)) *info = -5;
    else if (*lwork < std::max(1, *n)) *info = -8;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (*n <= 0) return void(work[0] = T(1));
    intercept<T>(name, *k, info, {}, next, [&] {
        tessera::lapack::ungqr<T>(*m, *n, *k, a, *lda, tau, on_copies());
        return int64_t(0);
    });
}

template <class T>
void gels(const char* trans, const int* m, const int* n, const int* nrhs, T* a, const int* lda, T* b, const int* ldb,
          T* work, const int* lwork, int* info, size_t trans_len) {
    const std::string name = routine_name<T>("gels");
    auto next = [&] {
        call_next<void (*)(const char*, const int*, const int*, const int*, T*, const int*, T*, const int*, T*,
                           const int*, int*, size_t)>((name + "_").c_str(), trans, m, n, nrhs, a, lda, b, ldb, work,
                                                      lwork, info, trans_len);
    };
    const int64_t size = std::min(*m, *n);
    if (*lwork == -1) return next();
    if (!use_tessera(name.c_str(), size)) return pass_through(name, size, info, next);
    const int mn = int(size);
    *info = 0;
    if (!lsame(trans, 'N') && !lsame(trans, tessera::is_complex_v<T> ? 'C' : 'T')) *info = -1;
    else if (*m < 0) *info = -2;
    else if (*n < 0) *info = -3;
    else if (*nrhs < 0) *info = -4;
    else if (*lda < std::max(1, *m)) *info = -6;
    else if (*ldb < std::max({1, *m, *n})) *info = -8;
    else if (*lwork < std::max(1, mn + std::max(mn, *nrhs))) *info = -10;
    if (*info != 0) return xerbla(routine_name<T>("gels", true).c_str(), *info);
    if (std::min({*m, *n, *nrhs}) == 0) return next();  // B = 0 (LAPACK's quick return)
    // In place with a backup: lapack::gels writes a and b back also when it returns info > 0. B is
    // max(m, n)×nrhs (m < n: the minimum-norm solution's n rows, or the n rows of Aᴴ·b's input).
    intercept<T>(name, size, info, {{a, *m, *n, *lda}, {b, std::max(*m, *n), *nrhs, *ldb}}, next, [&] {
        const int64_t r = tessera::lapack::gels<T>(*trans, *m, *n, *nrhs, a, *lda, b, *ldb);
        if (r > 0)  // A rank deficient, or zero (LAPACK: X = 0, info = 0): LAPACK's answer, restored A and B
            throw tessera::Error(std::string(*m >= *n ? "R(" : "L(") + std::to_string(r) + ", " + std::to_string(r) +
                                 ") = 0: the next LAPACK decides (rank deficient or zero A)");
        return r;
    });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_QR_ABI(x, T, orm, org)                                                                           \
    TESSERA_LAPACK_API void x##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,         \
                                      const int* lwork, int* info) {                                             \
        tessera_lapack::geqrf<T>(m, n, a, lda, tau, work, lwork, info);                                          \
    }                                                                                                            \
    TESSERA_LAPACK_API void x##orm##_(const char* side, const char* trans, const int* m, const int* n,           \
                                      const int* k, const T* a, const int* lda, const T* tau, T* c,              \
                                      const int* ldc, T* work, const int* lwork, int* info, size_t side_len,     \
                                      size_t trans_len) {                                                        \
        tessera_lapack::unmqr<T>(side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info, side_len,         \
                                 trans_len);                                                                     \
    }                                                                                                            \
    TESSERA_LAPACK_API void x##org##_(const int* m, const int* n, const int* k, T* a, const int* lda,            \
                                      const T* tau, T* work, const int* lwork, int* info) {                      \
        tessera_lapack::ungqr<T>(m, n, k, a, lda, tau, work, lwork, info);                                       \
    }                                                                                                            \
    TESSERA_LAPACK_API void x##gels_(const char* trans, const int* m, const int* n, const int* nrhs, T* a,       \
                                     const int* lda, T* b, const int* ldb, T* work, const int* lwork, int* info, \
                                     size_t trans_len) {                                                         \
        tessera_lapack::gels<T>(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info, trans_len);                \
    }

TESSERA_QR_ABI(s, float, ormqr, orgqr)
TESSERA_QR_ABI(d, double, ormqr, orgqr)
TESSERA_QR_ABI(c, std::complex<float>, unmqr, ungqr)
TESSERA_QR_ABI(z, std::complex<double>, unmqr, ungqr)

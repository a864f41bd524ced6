// LAPACK's Fortran ABI for LQ, xGELQF, xORMLQ/xUNMLQ and xORGLQ/xUNGLQ in s, d, c, z, on Tessera's
// lapack::gelqf / unmlq / unglq above their thresholds (gelqf: min(m, n); ormlq: min(m, n, k);
// orglq: k, the reflectors). Argument numbering and minimal LWORK as LAPACK 3.11's dgelqf.f,
// dormlq.f (zunmlq.f: 'C' for 'T') and dorglq.f. As in qr_abi.cpp, Tessera allocates its own
// workspace (WORK is never written except WORK(1) of a query), and a workspace query (LWORK = -1)
// goes to the next library, which checks the arguments and answers with its own optimal size.
// Tessera's lapack:: LQ forms leave xGELQF's layout exactly, so the factors pass between the two.
#include "lapack_abi/intercept.hpp"
#include "tessera/lq.hpp"

namespace tessera_lapack {
namespace {

template <class T>
void gelqf(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork, int* info) {
    const std::string name = routine_name<T>("gelqf");
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
    else if (*lwork <= 0 || (*n > 0 && *lwork < std::max(1, *m))) *info = -7;
    if (*info != 0) return xerbla(routine_name<T>("gelqf", true).c_str(), *info);
    if (size == 0) return void(work[0] = T(1));  // LAPACK's quick return
    intercept<T>(name, size, info, {{tau, size, 1, size}}, next,  // tau is written directly, a through a copy
                 [&] { return tessera::lapack::gelqf<T>(*m, *n, a, *lda, tau, on_copies()); });
}

// xORMLQ (real) / xUNMLQ (complex): trans 'T' for real T, 'C' for complex T, besides 'N'.
template <class T>
void unmlq(const char* side, const char* trans, const int* m, const int* n, const int* k, const T* a, const int* lda,
           const T* tau, T* c, const int* ldc, T* work, const int* lwork, int* info, size_t side_len, size_t trans_len) {
    constexpr bool complex = tessera::is_complex_v<T>;
    const char* routine = complex ? "unmlq" : "ormlq";
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
    else if (*lda < std::max(1, *k)) *info = -7;  // the reflectors are a's k rows
    else if (*ldc < std::max(1, *m)) *info = -10;
    else if (*lwork < nw) *info = -12;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (*m == 0 || *n == 0 || *k == 0) return void(work[0] = T(1));
    intercept<T>(name, size, info, {}, next, [&] {
        tessera::lapack::unmlq<T>(upper(side), upper(trans), *m, *n, *k, a, *lda, tau, c, *ldc, on_copies());
        return int64_t(0);
    });
}

// xORGLQ (real) / xUNGLQ (complex).
template <class T>
void unglq(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau, T* work, const int* lwork,
           int* info) {
    const char* routine = tessera::is_complex_v<T> ? "unglq" : "orglq";
    const std::string name = routine_name<T>(routine);
    auto next = [&] {
        call_next<void (*)(const int*, const int*, const int*, T*, const int*, const T*, T*, const int*, int*)>(
            (name + "_").c_str(), m, n, k, a, lda, tau, work, lwork, info);
    };
    if (*lwork == -1) return next();
    if (!use_tessera(name.c_str(), *k)) return pass_through(name, *k, info, next);
    *info = 0;
    if (*m < 0) *info = -1;
    else if (*n < *m) *info = -2;
    else if (*k < 0 || *k > *m) *info = -3;
    else if (*lda < std::max(1, *m)) *info = -5;
    else if (*lwork < std::max(1, *m)) *info = -8;
    if (*info != 0) return xerbla(routine_name<T>(routine, true).c_str(), *info);
    if (*m <= 0) return void(work[0] = T(1));
    intercept<T>(name, *k, info, {}, next, [&] {
        tessera::lapack::unglq<T>(*m, *n, *k, a, *lda, tau, on_copies());
        return int64_t(0);
    });
}

}  // namespace
}  // namespace tessera_lapack

#define TESSERA_LQ_ABI(x, T, orm, org)                                                                           \
    TESSERA_LAPACK_API void x##gelqf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,         \
                                      const int* lwork, int* info) {                                             \
        tessera_lapack::gelqf<T>(m, n, a, lda, tau, work, lwork, info);                                          \
    }                                                                                                            \
    TESSERA_LAPACK_API void x##orm##_(const char* side, const char* trans, const int* m, const int* n,           \
                                      const int* k, const T* a, const int* lda, const T* tau, T* c,              \
                                      const int* ldc, T* work, const int* lwork, int* info, size_t side_len,     \
                                      size_t trans_len) {                                                        \
        tessera_lapack::unmlq<T>(side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info, side_len,         \
                                 trans_len);                                                                     \
    }                                                                                                            \
    TESSERA_LAPACK_API void x##org##_(const int* m, const int* n, const int* k, T* a, const int* lda,            \
                                      const T* tau, T* work, const int* lwork, int* info) {                      \
        tessera_lapack::unglq<T>(m, n, k, a, lda, tau, work, lwork, info);                                       \
    }

TESSERA_LQ_ABI(s, float, ormlq, orglq)
TESSERA_LQ_ABI(d, double, ormlq, orglq)
TESSERA_LQ_ABI(c, std::complex<float>, unmlq, unglq)
TESSERA_LQ_ABI(z, std::complex<double>, unmlq, unglq)

// Randomized residuals: see checks_random.hpp.
#include "examples/common/checks_random.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera::check {
namespace {

constexpr int64_t kVectors = 4;

/// n×kVectors random matrix (leading dimension n), entries in [0.5, 1.5): no cancellation in ‖X‖.
template <class T>
std::vector<T> random_vectors(int64_t n) {
    std::vector<T> x = random_matrix<T>(n, kVectors, std::max<int64_t>(n, 1), 7);
    for (T& v : x) v += T(1);
    return x;
}

/// Y = op(tri(A))·X for the uplo triangle of the n×n A (Diag::Unit: unit diagonal), in place.
template <class T>
void trmm(Uplo uplo, Trans trans, Diag diag, int64_t n, const T* a, int64_t lda, std::vector<T>& x) {
    if (n == 0) return;
    if constexpr (std::is_same_v<T, float>)
        cblas_strmm(CblasColMajor, CblasLeft, cpu::cblas(uplo), cpu::cblas(trans), cpu::cblas(diag), int(n),
                    int(kVectors), 1.0f, a, int(lda), x.data(), int(n));
    else
        cblas_dtrmm(CblasColMajor, CblasLeft, cpu::cblas(uplo), cpu::cblas(trans), cpu::cblas(diag), int(n),
                    int(kVectors), 1.0, a, int(lda), x.data(), int(n));
}

/// Y = op(A)·X, A m×k (op(A) rows×k), X k×kVectors.
template <class T>
std::vector<T> times(Trans trans, int64_t rows, int64_t k, const T* a, int64_t lda, const std::vector<T>& x) {
    std::vector<T> y(size_t(std::max<int64_t>(rows, 1) * kVectors));
    if (rows > 0) cpu::gemm<T>(trans, Trans::NoTrans, rows, kVectors, k, T(1), a, lda, x.data(), std::max<int64_t>(k, 1), T(0), y.data(), rows);
    return y;
}

/// ‖Y − Z‖∞ / (scale · ‖X‖∞ · eps), Y and Z rows × kVectors. The ∞-norm keeps an error confined to
/// a few entries of the factors visible: ‖E·X‖∞ ≈ ‖E‖∞·‖X‖∞ for X with entries of one size.
template <class T>
double scaled(const std::vector<T>& y, const std::vector<T>& z, int64_t rows, const std::vector<T>& x, int64_t xrows,
              double scale) {
    std::vector<T> d(y.size());
    for (size_t i = 0; i < y.size(); ++i) d[i] = y[i] - z[i];
    const double num = lange('I', rows, kVectors, d.data(), std::max<int64_t>(rows, 1));
    const double den = scale * lange('I', xrows, kVectors, x.data(), std::max<int64_t>(xrows, 1)) * eps<T>();
    return num == 0 ? 0 : den == 0 ? INFINITY : num / den;
}

}  // namespace

template <class T>
double gemm_residual_random(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                            const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc) {
    const auto x = random_vectors<T>(n);
    auto lhs = times<T>(Trans::NoTrans, m, n, c, ldc, x);
    auto bx = times<T>(tb, k, n, b, ldb, x);
    auto abx = times<T>(ta, m, k, a, lda, bx), c0x = times<T>(Trans::NoTrans, m, n, c0, ldc, x);
    for (size_t i = 0; i < abx.size(); ++i) abx[i] = alpha * abx[i] + beta * c0x[i];
    const double na = ta == Trans::NoTrans ? lange('I', m, k, a, lda) : lange('1', k, m, a, lda);
    const double nb = tb == Trans::NoTrans ? lange('I', k, n, b, ldb) : lange('1', n, k, b, ldb);
    const double scale = (std::abs(double(alpha)) * na * nb + std::abs(double(beta)) * lange('I', m, n, c0, ldc)) *
                         double(std::max<int64_t>(k, 1));
    return scaled(lhs, abx, m, x, n, scale);
}

template <class T>
double potrf_residual_random(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf) {
    const auto x = random_vectors<T>(n);
    auto ax = times<T>(Trans::NoTrans, n, n, a, lda, x), llx = x;
    // Lower: L·(Lᵀ·X); Upper: Uᵀ·(U·X).
    const Trans first = uplo == Uplo::Lower ? Trans::Trans : Trans::NoTrans;
    const Trans second = uplo == Uplo::Lower ? Trans::NoTrans : Trans::Trans;
    trmm(uplo, first, Diag::NonUnit, n, f, ldf, llx);
    trmm(uplo, second, Diag::NonUnit, n, f, ldf, llx);
    return scaled(ax, llx, n, x, n, double(std::max<int64_t>(n, 1)) * lange('I', n, n, a, lda));
}

template <class T>
double getrf_residual_random(int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf, const int64_t* ipiv) {
    const auto x = random_vectors<T>(n);
    auto pax = times<T>(Trans::NoTrans, n, n, a, lda, x), lux = x;
    if (ipiv)  // P·(A·X): the row interchanges in order
        for (int64_t i = 0; i < n; ++i)
            if (ipiv[i] - 1 != i)
                for (int64_t c = 0; c < kVectors; ++c) std::swap(pax[size_t(i + c * n)], pax[size_t(ipiv[i] - 1 + c * n)]);
    trmm(Uplo::Upper, Trans::NoTrans, Diag::NonUnit, n, f, ldf, lux);
    trmm(Uplo::Lower, Trans::NoTrans, Diag::Unit, n, f, ldf, lux);
    return scaled(pax, lux, n, x, n, double(std::max<int64_t>(n, 1)) * lange('I', n, n, a, lda));
}

template <class T>
double geqrf_residual_random(int64_t m, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf) {
    const auto x = random_vectors<T>(n);
    auto ax = times<T>(Trans::NoTrans, m, n, a, lda, x);
    auto atax = times<T>(Trans::Trans, n, m, a, lda, ax), rtrx = x;
    trmm(Uplo::Upper, Trans::NoTrans, Diag::NonUnit, n, f, ldf, rtrx);
    trmm(Uplo::Upper, Trans::Trans, Diag::NonUnit, n, f, ldf, rtrx);
    const double na = std::max(lange('1', m, n, a, lda), lange('I', m, n, a, lda));  // bounds ‖Aᵀ‖∞·‖A‖∞
    return scaled(atax, rtrx, n, x, n, double(std::max<int64_t>(m, 1)) * na * na);
}

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template double gemm_residual_random(Trans, Trans, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*, \
                                         int64_t, T, const T*, const T*, int64_t);                                \
    template double potrf_residual_random(Uplo, int64_t, const T*, int64_t, const T*, int64_t);                   \
    template double getrf_residual_random(int64_t, const T*, int64_t, const T*, int64_t, const int64_t*);         \
    template double geqrf_residual_random(int64_t, int64_t, const T*, int64_t, const T*, int64_t);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check

// Residuals of the inverses, with CBLAS/LAPACKE in the working precision.
#include "examples/common/checks_inverse.hpp"

#include <algorithm>
#include <vector>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"
#include "tessera/runtime.hpp"

namespace tessera::check {
namespace {

// The n×n (leading dimension n) triangular matrix in the uplo triangle of a: zeros in the other
// triangle, ones on the diagonal with diag Unit.
template <class T>
std::vector<T> triangle(Uplo uplo, Diag diag, int64_t n, const T* a, int64_t lda) {
    std::vector<T> t(size_t(n * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (i == j) t[size_t(i + j * n)] = diag == Diag::Unit ? T(1) : a[i + j * lda];
            else if (uplo == Uplo::Lower ? i > j : i < j) t[size_t(i + j * n)] = a[i + j * lda];
    return t;
}

// ‖I − A·X‖₁ / (n · ‖A‖₁ · ‖X‖₁ · eps) for n×n arrays of leading dimension n.
template <class T>
double identity_residual(int64_t n, const T* a, const T* x) {
    std::vector<T> r(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) r[size_t(i + i * n)] = T(1);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, n, n, n, T(-1), a, n, x, n, T(1), r.data(), n);
    const double den = double(n) * lange('1', n, n, a, n) * lange('1', n, n, x, n) * eps<T>();
    return ratio(lange('1', n, n, r.data(), n), den);
}

// Entry (i, j) of random_triangular of order n.
template <class T>
T triangular_entry(uint64_t seed, int64_t i, int64_t j, int64_t n) {
    const T v = random_scalar<T>(seed, uint64_t(i), uint64_t(j));
    return i == j ? T(1 + std::abs(v)) : v / T(real_t<T>(std::max<int64_t>(n, 1)));
}

}  // namespace

template <class T>
std::vector<T> random_triangular(int64_t n, int64_t lda, uint64_t seed) {
    std::vector<T> a(size_t(std::max<int64_t>(lda, 1) * std::max<int64_t>(n, 1)), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) a[size_t(i + j * lda)] = triangular_entry<T>(seed, i, j, n);
    return a;
}

template <class T>
void generate_random_triangular(TileMatrix<T>& A, uint64_t seed) {
    const int64_t order = A.n();
    A.generate([seed, order](int64_t i0, int64_t j0, int64_t m, int64_t n, T* t, int64_t ld) {
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) t[i + j * ld] = triangular_entry<T>(seed, i0 + i, j0 + j, order);
    });
}

template <class T>
double trtri_residual(Uplo uplo, Diag diag, int64_t n, const T* a, int64_t lda, const T* x, int64_t ldx) {
    if (Runtime::rank() != 0 || n == 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const std::vector<T> ta = triangle(uplo, diag, n, a, lda), tx = triangle(uplo, diag, n, x, ldx);
    return identity_residual(n, ta.data(), tx.data());
}

template <class T>
std::vector<T> hermitian_full(Uplo uplo, int64_t n, const T* a, int64_t lda) {
    std::vector<T> h(size_t(std::max<int64_t>(n * n, 1)));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            const bool stored = uplo == Uplo::Lower ? i >= j : i <= j;
            h[size_t(i + j * n)] = i == j ? T(std::real(a[i + j * lda])) : stored ? a[i + j * lda] : conjugate(a[j + i * lda]);
        }
    return h;
}

template <class T>
double inverse_residual(int64_t n, const T* a, int64_t lda, const T* x, int64_t ldx) {
    if (Runtime::rank() != 0 || n == 0) return 0;
    std::vector<T> fa(size_t(n * n)), fx(size_t(n * n));
    for (int64_t j = 0; j < n; ++j) {
        std::copy(a + j * lda, a + j * lda + n, fa.begin() + j * n);
        std::copy(x + j * ldx, x + j * ldx + n, fx.begin() + j * n);
    }
    return identity_residual(n, fa.data(), fx.data());
}

template <class T>
double lauum_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf) {
    if (Runtime::rank() != 0 || n == 0) return 0;
    const std::vector<T> t = triangle(uplo, Diag::NonUnit, n, a, lda);
    std::vector<T> r(size_t(n * n), T(0));
    if (uplo == Uplo::Lower) cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, n, n, n, T(1), t.data(), n, t.data(), n, T(0), r.data(), n);
    else cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, n, n, n, T(1), t.data(), n, t.data(), n, T(0), r.data(), n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            r[size_t(i + j * n)] = (uplo == Uplo::Lower ? i >= j : i <= j) ? r[size_t(i + j * n)] - f[i + j * ldf] : T(0);
    const double na = lange('1', n, n, t.data(), n);
    return ratio(lange('1', n, n, r.data(), n), double(n) * na * na * eps<T>());
}

#define TESSERA_INSTANTIATE(T)                                                                          \
    template std::vector<T> random_triangular<T>(int64_t, int64_t, uint64_t);                           \
    template void generate_random_triangular<T>(TileMatrix<T>&, uint64_t);                              \
    template double trtri_residual<T>(Uplo, Diag, int64_t, const T*, int64_t, const T*, int64_t);       \
    template std::vector<T> hermitian_full<T>(Uplo, int64_t, const T*, int64_t);                        \
    template double inverse_residual<T>(int64_t, const T*, int64_t, const T*, int64_t);                 \
    template double lauum_residual<T>(Uplo, int64_t, const T*, int64_t, const T*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check

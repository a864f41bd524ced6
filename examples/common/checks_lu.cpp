// LU residual and test matrices, with CBLAS/LAPACKE in the working precision.
#include "examples/common/checks_lu.hpp"

#include <algorithm>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"
#include "tessera/runtime.hpp"

namespace tessera::check {

template <class T>
std::vector<T> random_shifted(int64_t m, int64_t n, int64_t lda, uint64_t seed, double shift) {
    std::vector<T> a = random_matrix<T>(m, n, lda, seed);
    for (int64_t j = 0; j < std::min(m, n); ++j) a[size_t(j + j * lda)] += T(shift);
    return a;
}

template <class T>
void generate_random_shifted(TileMatrix<T>& A, uint64_t seed, double shift) {
    A.generate([seed, shift](int64_t i0, int64_t j0, int64_t m, int64_t n, T* t, int64_t ld) {
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
                T v = random_scalar<T>(seed, uint64_t(i0 + i), uint64_t(j0 + j));
                if (i0 + i == j0 + j) v += T(shift);
                t[i + j * ld] = v;
            }
    });
}

template <class T>
double getrf_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf, const int64_t* ipiv) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const int64_t k = std::min(m, n);
    if (k == 0) return 0;
    // L (m×k unit lower) and U (k×n upper) from f.
    std::vector<T> L(size_t(m * k), T(0)), U(size_t(k * n), T(0)), pa(size_t(m * n));
    for (int64_t j = 0; j < k; ++j) {
        L[size_t(j + j * m)] = T(1);
        for (int64_t i = j + 1; i < m; ++i) L[size_t(i + j * m)] = f[i + j * ldf];
    }
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, k - 1); ++i) U[size_t(i + j * k)] = f[i + j * ldf];
    // pa = P·A: A's rows interchanged in order, as xLASWP does.
    for (int64_t j = 0; j < n; ++j) std::copy(a + j * lda, a + j * lda + m, pa.begin() + j * m);
    if (ipiv)
        for (int64_t i = 0; i < k; ++i) {
            const int64_t p = ipiv[i] - 1;
            if (p != i)
                for (int64_t j = 0; j < n; ++j) std::swap(pa[size_t(i + j * m)], pa[size_t(p + j * m)]);
        }
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), L.data(), m, U.data(), k, T(1), pa.data(), m);
    const double norm_a = lange('1', m, n, a, lda), norm_r = lange('1', m, n, pa.data(), m);
    const double den = double(n) * norm_a * eps<T>();
    return ratio(norm_r, den);
}

#define TESSERA_INSTANTIATE(T)                                                                          \
    template std::vector<T> random_shifted<T>(int64_t, int64_t, int64_t, uint64_t, double);             \
    template void generate_random_shifted<T>(TileMatrix<T>&, uint64_t, double);                         \
    template double getrf_residual<T>(int64_t, int64_t, const T*, int64_t, const T*, int64_t, const int64_t*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check

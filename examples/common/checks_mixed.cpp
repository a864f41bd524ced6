// Matrices of a chosen condition number and the normwise backward error (checks_mixed.hpp).
#include "examples/common/checks_mixed.hpp"

#include <algorithm>
#include <cmath>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"
#include "tessera/runtime.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {

template <class T>
std::vector<T> random_cond(int64_t n, int64_t lda, double cond, bool hermitian, uint64_t seed) {
    std::vector<T> a(size_t(std::max<int64_t>(lda, 1) * n), T(0));
    if (n == 0) return a;
    std::vector<double> sigma(size_t(n), 1.0);
    for (int64_t i = 1; i < n; ++i) sigma[size_t(i)] = std::pow(cond, -double(i) / double(n - 1));
    auto reflector = [n](uint64_t s, std::vector<T>& u) {  // u random, returns τ = 2 / uᴴu
        u.resize(size_t(n));
        double norm2 = 0;
        for (int64_t i = 0; i < n; ++i) {
            u[size_t(i)] = random_scalar<T>(s, uint64_t(i), 0);
            norm2 += std::norm(u[size_t(i)]);
        }
        return 2.0 / norm2;
    };
    std::vector<T> u, v;
    const double tu = reflector(seed, u);
    const double tv = hermitian ? tu : reflector(seed + 1, v);
    if (hermitian) v = u;
    // C = Σ·Vᴴ: C_kj = σ_k·δ_kj − τ'·σ_k·v_k·conj(v_j); z = uᴴ·C; A = U·C = C − τ·u·z.
    T s = T(0);  // Σ_k conj(u_k)·σ_k·v_k
    for (int64_t k = 0; k < n; ++k) s += conjugate(u[size_t(k)]) * T(sigma[size_t(k)]) * v[size_t(k)];
    for (int64_t j = 0; j < n; ++j) {
        const T z = conjugate(u[size_t(j)]) * T(sigma[size_t(j)]) - T(tv) * conjugate(v[size_t(j)]) * s;
        for (int64_t i = 0; i < n; ++i) {
            const T c = (i == j ? T(sigma[size_t(i)]) : T(0)) -
                        T(tv * sigma[size_t(i)]) * v[size_t(i)] * conjugate(v[size_t(j)]);
            a[size_t(i + j * lda)] = c - T(tu) * u[size_t(i)] * z;
        }
    }
    if (hermitian)  // exactly Hermitian: the upper triangle mirrors the lower one, the diagonal real
        for (int64_t j = 0; j < n; ++j) {
            a[size_t(j + j * lda)] = T(std::real(a[size_t(j + j * lda)]));
            for (int64_t i = j + 1; i < n; ++i) a[size_t(j + i * lda)] = conjugate(a[size_t(i + j * lda)]);
        }
    return a;
}

template <class T>
void generate_cond_or_default(TileMatrix<T>& A, double cond, bool spd, uint64_t seed) {
    if (cond > 0) {
        const int64_t lda = std::max<int64_t>(A.n(), 1);
        const auto a = random_cond<T>(A.n(), lda, cond, spd, seed);
        A.fill_from_lapack(a.data(), lda);
        A.acquire_host();  // a is released on return
    } else if (spd) {
        generate_random_spd(A, seed);
    } else {
        generate_random(A, seed);
    }
    Runtime::wait_all();
}

template <class T>
double backward_error(int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x, int64_t ldx, const T* b,
                      int64_t ldb) {
    if (n == 0 || nrhs == 0) return 0;
    std::vector<T> r(size_t(n * nrhs));
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) r[size_t(i + j * n)] = b[i + j * ldb];
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, n, nrhs, n, T(-1), a, lda, x, ldx, T(1), r.data(), n);
    const double den = lange('1', n, n, a, lda) * lange('1', n, nrhs, x, ldx) * double(n) * eps<T>();
    return ratio(lange('1', n, nrhs, r.data(), n), den);
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template std::vector<T> random_cond<T>(int64_t, int64_t, double, bool, uint64_t);               \
    template void generate_cond_or_default<T>(TileMatrix<T>&, double, bool, uint64_t);              \
    template double backward_error(int64_t, int64_t, const T*, int64_t, const T*, int64_t, const T*, \
                                   int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check

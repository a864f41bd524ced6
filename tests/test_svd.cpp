// The SVD (tessera/svd.hpp: gesdd, gesvd and their lapack:: forms) in s, d, c and z, checked with
// LAPACK's ratios: ‖A − U·Σ·Vᴴ‖₁ / (max(m, n)·‖A‖₁·eps), ‖I − UᴴU‖₁ / (m·eps), ‖I − VVᴴ‖₁ / (n·eps)
// and the singular values against LAPACKE's xGESDD, each under the checks' threshold.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Svd : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the band-to-bidiagonal stage, the bidiagonal solver and U2, V2 are CPU only
    }
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Svd, Precisions);

template <class T>
double norm1(int64_t m, int64_t n, const T* a, int64_t lda) {
    double best = 0;
    for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t i = 0; i < m; ++i) s += std::abs(std::complex<double>(a[i + j * lda]));
        best = std::max(best, s);
    }
    return best;
}

template <class T>
std::vector<real_t<T>> lapacke_values(int64_t m, int64_t n, std::vector<T> a, int64_t lda) {
    std::vector<real_t<T>> s(size_t(std::min(m, n)));
    T dummy{};
    const int im = int(m), in = int(n), il = int(lda);
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_sgesdd(LAPACK_COL_MAJOR, 'N', im, in, a.data(), il, s.data(), &dummy, 1, &dummy, 1);
    else if constexpr (std::is_same_v<T, double>) info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', im, in, a.data(), il, s.data(), &dummy, 1, &dummy, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>) info = LAPACKE_cgesdd(LAPACK_COL_MAJOR, 'N', im, in, a.data(), il, s.data(), &dummy, 1, &dummy, 1);
    else info = LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', im, in, a.data(), il, s.data(), &dummy, 1, &dummy, 1);
    EXPECT_EQ(info, 0);
    return s;
}

// ‖I − XᴴX‖₁/(rows·eps) for the rows×cols X (orthonormal columns).
template <class T>
double orthogonality(int64_t rows, int64_t cols, const T* x, int64_t ldx) {
    std::vector<T> g(size_t(cols * cols), T(0));
    for (int64_t i = 0; i < cols; ++i) g[size_t(i + i * cols)] = T(-1);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, cols, cols, rows, T(1), x, ldx, x, ldx, T(1), g.data(), cols);
    return norm1(cols, cols, g.data(), cols) / (std::max<int64_t>(rows, 1) * std::numeric_limits<real_t<T>>::epsilon());
}

struct Shape {
    int64_t m, n, nb;
};
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{100, 70, 32}, {70, 100, 32}, {7, 5, 32}, {1, 1, 16}, {0, 3, 16}};
    return {{100, 70, 32}, {70, 100, 32}, {64, 64, 16}, {300, 140, 64}, {7, 5, 32}, {1, 1, 16}, {0, 3, 16}, {3, 0, 16}};
}

TYPED_TEST(Svd, RandomMatchesLapack) {
    using T = TypeParam;
    using R = real_t<T>;
    const double eps = std::numeric_limits<R>::epsilon();
    for (auto [m, n, nb] : shapes())
        for (char jobz : {'N', 'S', 'A'})
            for (bool dc : {true, false}) {
                const std::string where = std::string(dc ? "gesdd" : "gesvd") + " jobz " + jobz + " m " +
                                          std::to_string(m) + " n " + std::to_string(n) + " nb " + std::to_string(nb);
                const int64_t k = std::min(m, n), lda = m + 2;
                const auto a = check::random_matrix<T>(m, n, lda, uint64_t(7 + m + 3 * n));
                const int64_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
                const int64_t ldu = std::max<int64_t>(m, 1), ldvt = std::max<int64_t>(vrows, 1);
                std::vector<T> work = a, u(size_t(ldu * std::max<int64_t>(ucols, 1))), vt(size_t(ldvt * std::max<int64_t>(n, 1)));
                std::vector<R> s(size_t(std::max<int64_t>(k, 1)));
                Options o;
                o.nb = nb;
                const int64_t info = dc ? lapack::gesdd(jobz, m, n, work.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, o)
                                        : lapack::gesvd(jobz, jobz, m, n, work.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, o);
                ASSERT_EQ(info, 0) << where;
                const auto ref = lapacke_values<T>(m, n, a, lda);
                const double anorm = norm1(m, n, a.data(), lda);
                for (int64_t i = 0; i < k; ++i)
                    EXPECT_LE(std::abs(s[size_t(i)] - ref[size_t(i)]), 10 * std::max(m, n) * eps * anorm) << where << " σ" << i;
                if (jobz == 'N' || k == 0) continue;
                EXPECT_LT(orthogonality(m, ucols, u.data(), ldu), 30) << where << " U";
                // V's orthogonality from Vᴴ's rows: the columns of (Vᴴ)ᴴ.
                std::vector<T> v(size_t(n * vrows));
                for (int64_t i = 0; i < vrows; ++i)
                    for (int64_t j = 0; j < n; ++j) {
                        const T x = vt[size_t(i + j * ldvt)];
                        if constexpr (is_complex_v<T>) v[size_t(j + i * n)] = std::conj(x);
                        else v[size_t(j + i * n)] = x;
                    }
                EXPECT_LT(orthogonality(n, vrows, v.data(), n), 30) << where << " V";
                // ‖A − U(:, :k)·Σ·Vᴴ(:k, :)‖₁/(max(m, n)‖A‖₁ eps).
                std::vector<T> us(size_t(m * k)), res(size_t(m * n));
                for (int64_t j = 0; j < k; ++j)
                    for (int64_t i = 0; i < m; ++i) us[size_t(i + j * m)] = u[size_t(i + j * ldu)] * s[size_t(j)];
                for (int64_t j = 0; j < n; ++j)
                    for (int64_t i = 0; i < m; ++i) res[size_t(i + j * m)] = a[size_t(i + j * lda)];
                cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), us.data(), m, vt.data(), ldvt, T(1), res.data(), m);
                EXPECT_LT(norm1(m, n, res.data(), m) / (std::max(m, n) * std::max(anorm, 1e-300) * eps), 30) << where << " residual";
            }
}

}  // namespace
}  // namespace tessera

// The randomized residuals of examples/common/checks_random.hpp: LAPACK's own factors pass them,
// and a factor with one entry perturbed by 1e-6 of its norm fails them (StarPU-free).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_random.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera::check {
namespace {

constexpr int64_t n = 300;

TEST(ChecksRandom, PotrfPassesExactFactorFailsPerturbedOne) {
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        auto a = random_spd<double>(n, n, 3), f = a;
        ASSERT_EQ(cpu::potrf<double>(uplo, n, f.data(), n), 0);
        EXPECT_LE(potrf_residual_random<double>(uplo, n, a.data(), n, f.data(), n), kThreshold);
        f[size_t(n - 1 + (n - 1) * n)] += 1e-6 * double(n);
        EXPECT_GT(potrf_residual_random<double>(uplo, n, a.data(), n, f.data(), n), kThreshold);
    }
}

TEST(ChecksRandom, GetrfPassesExactFactorsFailsWrongPivot) {
    auto a = random_matrix<double>(n, n, n, 4), f = a;
    std::vector<lapack_int> piv(n);
    ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, f.data(), n, piv.data()), 0);
    std::vector<int64_t> ipiv(piv.begin(), piv.end());
    EXPECT_LE(getrf_residual_random<double>(n, a.data(), n, f.data(), n, ipiv.data()), kThreshold);
    ipiv[n / 2] = ipiv[n / 2] == n ? 1 : n;  // one interchange wrong
    EXPECT_GT(getrf_residual_random<double>(n, a.data(), n, f.data(), n, ipiv.data()), kThreshold);
}

TEST(ChecksRandom, GeqrfPassesExactRFailsPerturbedOne) {
    const int64_t m = 2 * n;
    auto a = random_matrix<double>(m, n, m, 5), f = a;
    std::vector<double> tau(n);
    ASSERT_EQ(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, f.data(), m, tau.data()), 0);
    EXPECT_LE(geqrf_residual_random<double>(m, n, a.data(), m, f.data(), m), kThreshold);
    f[size_t(0)] *= 1 + 1e-6;
    EXPECT_GT(geqrf_residual_random<double>(m, n, a.data(), m, f.data(), m), kThreshold);
}

TEST(ChecksRandom, GemmPassesExactProductFailsPerturbedOne) {
    for (Trans ta : {Trans::NoTrans, Trans::Trans}) {
        auto a = random_matrix<double>(n, n, n, 6), b = random_matrix<double>(n, n, n, 7);
        auto c0 = random_matrix<double>(n, n, n, 8), c = c0;
        cpu::gemm<double>(ta, Trans::NoTrans, n, n, n, 1.5, a.data(), n, b.data(), n, -0.5, c.data(), n);
        EXPECT_LE(gemm_residual_random<double>(ta, Trans::NoTrans, n, n, n, 1.5, a.data(), n, b.data(), n, -0.5,
                                               c0.data(), c.data(), n),
                  kThreshold);
        c[size_t(7 + 9 * n)] += 1e-6 * double(n);
        EXPECT_GT(gemm_residual_random<double>(ta, Trans::NoTrans, n, n, n, 1.5, a.data(), n, b.data(), n, -0.5,
                                               c0.data(), c.data(), n),
                  kThreshold);
    }
}

}  // namespace
}  // namespace tessera::check

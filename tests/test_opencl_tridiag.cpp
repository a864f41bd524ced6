// The tridiagonal bisection (kernels/opencl/tridiag.cl through ocl::tridiag_bisect) on the first
// OpenCL CPU device (PoCL) without StarPU, against LAPACK's xSTERF on the same matrix: random,
// Wilkinson's W⁺ (pairs of eigenvalues closer than ε·‖T‖), a cluster (tiny off-diagonal around one
// value), a diagonal matrix with repeated entries, a matrix split by zero off-diagonals, n = 1 and
// entries near the overflow and underflow thresholds' square roots. The eigenvalues must ascend and
// lie within 60·n·ε·‖T‖ of xSTERF's (LAPACK xSTT21's eigenvalue ratio, the threshold of
// docs/architecture.md#numerical-checks).
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

using namespace tessera;
using namespace tessera::ocltest;

template <class R>
class OpenCLTridiag : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OpenCLTridiag, Reals);

template <class R>
void expect_matches_sterf(const std::string& what, std::vector<R> d, std::vector<R> e) {
    SCOPED_TRACE(what);
    const int64_t n = int64_t(d.size());
    if (e.empty()) e.push_back(R(0));
    DevMat<R> D(n, 1, 3), E(int64_t(e.size()), 1, 1), W(n, 1, 2);
    std::copy(d.begin(), d.end(), D.data());
    std::copy(e.begin(), e.end(), E.data());
    D.upload(), E.upload(), W.upload();
    ocl::tridiag_bisect<R>(Env::get().kernels<R>(), Env::get().queue(), n, D.mat(), E.mat(),
                           ocl::bisect_bounds<R>(n, d.data(), e.data()), W.mat());
    W.download();
    std::vector<R> ref = d, work = e;
    if constexpr (std::is_same_v<R, float>) ASSERT_EQ(LAPACKE_ssterf(int(n), ref.data(), work.data()), 0);
    else ASSERT_EQ(LAPACKE_dsterf(int(n), ref.data(), work.data()), 0);
    double tnorm = 0;
    for (int64_t j = 0; j < n; ++j)
        tnorm = std::max(tnorm, std::abs(double(d[size_t(j)])) + (j > 0 ? std::abs(double(e[size_t(j - 1)])) : 0.0) +
                                    (j + 1 < n ? std::abs(double(e[size_t(j)])) : 0.0));
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (i > 0) EXPECT_LE(W(i - 1, 0), W(i, 0)) << "not ascending at " << i;
        worst = std::max(worst, std::abs(double(W(i, 0)) - double(ref[size_t(i)])));
    }
    const double ratio = worst / (double(n) * eps<R>() * std::max(tnorm, 1e-300));
    EXPECT_LE(ratio, 60.0) << "largest distance from xSTERF " << worst << " (ratio " << ratio << ")";
    for (int64_t i = -2; i < 0; ++i) EXPECT_TRUE(std::isnan(W.h[size_t(2 + i)])) << "wrote before w";
}

TYPED_TEST(OpenCLTridiag, MatchesSterf) {
    using R = TypeParam;
    std::mt19937_64 rng(7);
    const int64_t n = 300;
    std::vector<R> d(n), e(n - 1);
    for (auto& x : d) x = R(testutil::uniform(rng, -1, 1));
    for (auto& x : e) x = R(testutil::uniform(rng, -1, 1));
    expect_matches_sterf<R>("random", d, e);

    const int64_t m = 50;  // Wilkinson W⁺(2m+1): d = |m − i|, e = 1
    std::vector<R> dw(2 * m + 1), ew(2 * m, R(1));
    for (int64_t i = 0; i <= 2 * m; ++i) dw[size_t(i)] = R(std::abs(m - i));
    expect_matches_sterf<R>("Wilkinson", dw, ew);

    std::vector<R> dc(200, R(1)), ec(199, R(std::is_same_v<R, float> ? 1e-4 : 1e-8));
    expect_matches_sterf<R>("cluster", dc, ec);

    std::vector<R> dd(120), ed(119, R(0));
    for (int64_t i = 0; i < 120; ++i) dd[size_t(i)] = R(i % 7) - R(3);
    expect_matches_sterf<R>("diagonal with repeated entries", dd, ed);

    std::vector<R> ds = d, es = e;
    for (int64_t j = 40; j < n - 1; j += 60) es[size_t(j)] = R(0);
    expect_matches_sterf<R>("split", ds, es);

    expect_matches_sterf<R>("n = 1", std::vector<R>{R(-2.5)}, {});

    for (R scale : {std::sqrt(std::numeric_limits<R>::max()) / R(4), std::sqrt(std::numeric_limits<R>::min()) * R(4)}) {
        std::vector<R> dl = d, el = e;
        for (auto& x : dl) x *= scale;
        for (auto& x : el) x *= scale;
        expect_matches_sterf<R>("scaled by " + std::to_string(double(scale)), dl, el);
    }
}

}  // namespace

// The tridiagonal divide and conquer with its merges as tasks (algorithms/tridiag_dc.hpp) in s and d,
// in the three modes (cpu: LAPACK's xLAED3 in the merge tasks; opencl: the device's bisection and
// products; mixed: either), against LAPACKE's xSTEDC on the same tridiagonal: the eigenvalues within
// kThreshold·n·eps·‖T‖, and LAPACK's ratios ‖T·Z − Z·Λ‖₁ / (n·‖T‖₁·eps) and ‖I − Zᵀ·Z‖₁ / (n·eps)
// under kThreshold. Matrices that deflate little (the tridiagonal of a random dense matrix), much
// (random entries), by close pairs (Wilkinson's W+, whose eigenvalues pair up to many digits), by
// zero couplings (diagonal, glued blocks, a repeated eigenvalue), the 1-2-1 Toeplitz matrix with its
// known spectrum; leaves of 2 rows (a merge at every level) up to no merge at all; n = 1, 2, 3.
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/tridiag_dc.hpp"
#include "examples/common/checks.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class R>
class TridiagDc : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the leaves are xSTEDC on CPU workers
    }
};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(TridiagDc, Precisions);

template <class R>
struct Tridiag {
    std::string name;
    std::vector<R> d, e;
};

template <class R>
Tridiag<R> random_entries(int64_t n, uint64_t seed) {
    Tridiag<R> t{"random entries n " + std::to_string(n), std::vector<R>(size_t(n)), std::vector<R>(size_t(n))};
    for (int64_t i = 0; i < n; ++i) {
        t.d[size_t(i)] = R(2 * check::random_entry(seed, uint64_t(i), 0));
        t.e[size_t(i)] = R(2 * check::random_entry(seed, uint64_t(i), 1));
    }
    return t;
}

// The tridiagonal xSYTRD makes of a random dense symmetric matrix: little deflation.
template <class R>
Tridiag<R> of_dense(int64_t n, uint64_t seed) {
    std::vector<R> a(static_cast<size_t>(n * n)), tau(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) a[size_t(i + j * n)] = R(2 * check::random_entry(seed, uint64_t(i), uint64_t(j)));
    Tridiag<R> t{"xSYTRD of a random matrix n " + std::to_string(n), std::vector<R>(size_t(n)), std::vector<R>(size_t(n))};
    if constexpr (std::is_same_v<R, float>) LAPACKE_ssytrd(LAPACK_COL_MAJOR, 'L', int(n), a.data(), int(n), t.d.data(), t.e.data(), tau.data());
    else LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', int(n), a.data(), int(n), t.d.data(), t.e.data(), tau.data());
    return t;
}

template <class R>
std::vector<Tridiag<R>> matrices() {
    std::vector<Tridiag<R>> all{of_dense<R>(150, 7), random_entries<R>(200, 3)};
    Tridiag<R> w{"Wilkinson W+ n 101", {}, std::vector<R>(101, R(1))};
    for (int64_t i = 0; i < 101; ++i) w.d.push_back(R(std::abs(i - 50)));
    all.push_back(w);
    Tridiag<R> glued{"five glued W+ 21 (couplings 1e-7)", {}, {}};
    for (int b = 0; b < 5; ++b)
        for (int64_t i = 0; i < 21; ++i) {
            glued.d.push_back(R(std::abs(i - 10)));
            glued.e.push_back(i == 20 ? R(1e-7) : R(1));
        }
    all.push_back(glued);
    all.push_back({"1-2-1 Toeplitz n 128", std::vector<R>(128, R(2)), std::vector<R>(128, R(1))});
    Tridiag<R> diag{"diagonal, unsorted, n 60", {}, std::vector<R>(60, R(0))};
    for (int64_t i = 0; i < 60; ++i) diag.d.push_back(R((i * 37) % 60) - R(30));
    all.push_back(diag);
    all.push_back({"repeated eigenvalue 3, n 64", std::vector<R>(64, R(3)), std::vector<R>(64, R(0))});
    Tridiag<R> split = random_entries<R>(96, 11);
    split.name = "random with zero couplings every 16, n 96";
    for (size_t i = 15; i < split.e.size(); i += 16) split.e[i] = 0;
    all.push_back(split);
    all.push_back(random_entries<R>(1, 5));
    all.push_back(random_entries<R>(2, 5));
    all.push_back(random_entries<R>(3, 5));
    return all;
}

template <class R>
double norm1_tridiag(const Tridiag<R>& t) {
    const int64_t n = int64_t(t.d.size());
    double norm = 0;
    for (int64_t j = 0; j < n; ++j) {
        double col = std::abs(double(t.d[size_t(j)]));
        if (j > 0) col += std::abs(double(t.e[size_t(j - 1)]));
        if (j + 1 < n) col += std::abs(double(t.e[size_t(j)]));
        norm = std::max(norm, col);
    }
    return norm;
}

template <class R>
void check_decomposition(const Tridiag<R>& t, int64_t leaf) {
    const int64_t n = int64_t(t.d.size()), ld = n + 3;  // a leading dimension beyond n
    const double eps = std::numeric_limits<R>::epsilon(), tnorm = norm1_tridiag(t);
    std::vector<R> d = t.d, e = t.e, z(size_t(ld * n), R(-7));
    const std::string what = t.name + ", leaf " + std::to_string(leaf);
    ASSERT_EQ(detail::tridiag_dc<R>(n, d.data(), e.data(), z.data(), ld, leaf), 0) << what;
    std::vector<R> dr = t.d, er = t.e, zr(size_t(n * n));
    if constexpr (std::is_same_v<R, float>) ASSERT_EQ(LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', int(n), dr.data(), er.data(), zr.data(), int(n)), 0);
    else ASSERT_EQ(LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', int(n), dr.data(), er.data(), zr.data(), int(n)), 0);
    double werr = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (i > 0) EXPECT_LE(d[size_t(i - 1)], d[size_t(i)]) << what << ": eigenvalues not ascending at " << i;
        werr = std::max(werr, std::abs(double(d[size_t(i)]) - double(dr[size_t(i)])));
    }
    EXPECT_TRUE(check::passes(check::ratio(werr, n * tnorm * eps))) << what << ": eigenvalues off LAPACK's by " << werr;
    // ‖T·Z − Z·Λ‖₁ and ‖I − ZᵀZ‖₁ in double.
    double res = 0, orth = 0;
    for (int64_t j = 0; j < n; ++j) {
        double col = 0, ocol = 0;
        const R* zj = z.data() + j * ld;
        for (int64_t i = 0; i < n; ++i) {
            double tz = double(t.d[size_t(i)]) * zj[i];
            if (i > 0) tz += double(t.e[size_t(i - 1)]) * zj[i - 1];
            if (i + 1 < n) tz += double(t.e[size_t(i)]) * zj[i + 1];
            col += std::abs(tz - double(d[size_t(j)]) * zj[i]);
        }
        for (int64_t i = 0; i < n; ++i) {
            double dot = 0;
            for (int64_t r = 0; r < n; ++r) dot += double(z[size_t(r + i * ld)]) * zj[r];
            ocol += std::abs((i == j ? 1.0 : 0.0) - dot);
        }
        res = std::max(res, col);
        orth = std::max(orth, ocol);
        for (int64_t i = n; i < ld; ++i) EXPECT_EQ(zj[i], R(-7)) << what << ": wrote below row n in column " << j;
    }
    EXPECT_TRUE(check::passes(check::ratio(res, n * std::max(tnorm, 1e-300) * eps))) << what << ": residual " << res;
    EXPECT_TRUE(check::passes(check::ratio(orth, n * eps))) << what << ": orthogonality " << orth;
}

TYPED_TEST(TridiagDc, MatchesStedcOnHardMatrices) {
    for (const auto& t : matrices<TypeParam>())
        for (int64_t leaf : {int64_t(2), detail::kTridiagDcSmallLeaf, int64_t(1000)}) check_decomposition(t, leaf);
}

TYPED_TEST(TridiagDc, KnownSpectrum) {
    using R = TypeParam;
    const int64_t n = 128;
    std::vector<R> d(size_t(n), R(2)), e(size_t(n), R(1)), z(size_t(n * n));
    ASSERT_EQ(detail::tridiag_dc<R>(n, d.data(), e.data(), z.data(), n, 8), 0);
    const double pi = std::acos(-1.0), eps = std::numeric_limits<R>::epsilon();
    for (int64_t k = 0; k < n; ++k) {
        const double exact = 2 - 2 * std::cos(double(k + 1) * pi / double(n + 1));
        EXPECT_TRUE(check::passes(check::ratio(std::abs(d[size_t(k)] - exact), 4 * n * eps))) << "eigenvalue " << k;
    }
}

TYPED_TEST(TridiagDc, ZeroMatrixAndEmpty) {
    using R = TypeParam;
    std::vector<R> d(5, R(0)), e(5, R(0)), z(25, R(9));
    ASSERT_EQ(detail::tridiag_dc<R>(5, d.data(), e.data(), z.data(), 5, 2), 0);
    for (int64_t j = 0; j < 5; ++j)
        for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(z[size_t(i + j * 5)], R(i == j ? 1 : 0));
    EXPECT_EQ(detail::tridiag_dc<R>(0, d.data(), e.data(), z.data(), 1, 2), 0);
    this->expect_no_tasks();
}

}  // namespace
}  // namespace tessera

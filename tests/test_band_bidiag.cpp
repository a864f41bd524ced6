// gb2bd (kernels/cpu/band_bidiag.hpp), StarPU-free: random upper band matrices in the four
// precisions. Bd's singular values (xBDSQR) against xGESVD's of the dense band matrix; U2 and V2
// made explicit by apply_left on the identity, with LAPACK's test ratios ‖U2ᴴU2 − I‖/(nε),
// ‖V2ᴴV2 − I‖/(nε) and ‖B − U2·Bd·V2ᴴ‖/(n‖B‖ε) below 30; several group sizes; values only
// (u2 = v2 = nullptr) giving the same values within rounding; the steps run in a wavefront order
// (BandBidiagChase, as concurrent tasks run them); invalid arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/band_bidiag.hpp"
#include "tests/band_checks.hpp"
#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"

namespace {

using namespace tessera;

using bandtest::R;

// Singular values, descending: of the bidiagonal (xBDSQR on copies) and of a dense matrix (xGESVD 'N').
template <class T>
std::vector<R<T>> bdsqr(std::vector<R<T>> d, std::vector<R<T>> e) {
    const int n = int(d.size());
    R<T> dummy{};
    e.resize(size_t(std::max(n, 1)));
    int info;
    if constexpr (std::is_same_v<R<T>, float>)
        info = LAPACKE_sbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d.data(), e.data(), &dummy, 1, &dummy, 1, &dummy, 1);
    else info = LAPACKE_dbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d.data(), e.data(), &dummy, 1, &dummy, 1, &dummy, 1);
    EXPECT_EQ(info, 0);
    return d;
}
template <class T>
std::vector<R<T>> gesvd_values(int64_t n, std::vector<T> a) {
    std::vector<R<T>> s(static_cast<size_t>(n)), superb(static_cast<size_t>(std::max<int64_t>(n, 2)));
    T dummy{};
    const int in = int(n);
    int info;
    if constexpr (std::is_same_v<T, float>)
        info = LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'N', 'N', in, in, a.data(), in, s.data(), &dummy, 1, &dummy, 1, superb.data());
    else if constexpr (std::is_same_v<T, double>)
        info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', in, in, a.data(), in, s.data(), &dummy, 1, &dummy, 1, superb.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        info = LAPACKE_cgesvd(LAPACK_COL_MAJOR, 'N', 'N', in, in, a.data(), in, s.data(), &dummy, 1, &dummy, 1, superb.data());
    else info = LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', in, in, a.data(), in, s.data(), &dummy, 1, &dummy, 1, superb.data());
    EXPECT_EQ(info, 0);
    return s;
}

// A random upper band matrix of order n, bandwidth kd, in upper band storage (ldab = kd + 3, the
// band in rows 2 … kd+2) and dense.
template <class T>
struct Band {
    int64_t n, kd, ldab;
    std::vector<T> ab, dense;
    double norm;
    Band(int64_t n_, int64_t kd_) : n(n_), kd(kd_), ldab(kd_ + 3) {
        std::mt19937_64 gen(uint64_t(1000 * n + kd + 5));
        ab.assign(size_t(ldab * std::max<int64_t>(n, 1)), T(-99));  // rows outside the band: never read
        dense.assign(size_t(n * n), T(0));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = std::max<int64_t>(0, j - kd); i <= j; ++i) {
                const T x = testutil::uniform_scalar<T>(gen);
                ab[size_t((kd + i - j) + j * ldab)] = x;
                dense[size_t(i + j * n)] = x;
            }
        norm = check::lange('O', n, n, dense.data(), n);
    }
};

template <class T>
class BandBidiag : public ::testing::Test {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(BandBidiag, Precisions);

const std::vector<std::pair<int64_t, int64_t>> kCases = {
    {0, 3}, {1, 0}, {1, 4}, {2, 5}, {5, 1}, {7, 0}, {10, 4}, {37, 4}, {64, 16}, {100, 8}, {200, 16}, {257, 32}, {130, 129}};

// Explicit Q (n×n) of a BandReflectors.
template <class T>
std::vector<T> explicit_q(const cpu::BandReflectors<T>& q, int64_t n) {
    std::vector<T> z(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) z[size_t(i + i * n)] = T(1);
    q.apply_left(n, z.data(), std::max<int64_t>(n, 1));
    return z;
}

template <class T>
double orthogonality(const std::vector<T>& q, int64_t n) {
    std::vector<T> qq(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) qq[size_t(i + i * n)] = T(-1);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, n, n, n, T(1), q.data(), n, q.data(), n, T(1), qq.data(), n);
    return check::lange('O', n, n, qq.data(), n) / (n * std::numeric_limits<R<T>>::epsilon());
}

// gb2bd, or (wavefront) its steps in another order the dependency rule allows: step (s, t) at time
// t + (kLag+1)·s, the steps of one time in descending s, as concurrent workers might run them.
template <class T>
int reduce(const Band<T>& b, int64_t group, bool wavefront, R<T>* d, R<T>* e, cpu::BandReflectors<T>* u2,
           cpu::BandReflectors<T>* v2) {
    if (!wavefront) return cpu::gb2bd<T>(b.n, b.kd, b.ab.data(), b.ldab, d, e, u2, v2, group);
    cpu::BandBidiagChase<T> chase(b.n, b.kd, b.ab.data(), b.ldab, u2 != nullptr, v2 != nullptr);
    const int64_t lag = cpu::BandBidiagChase<T>::kLag + 1, sweeps = chase.sweeps();
    for (int64_t time = 0; sweeps > 0 && time <= chase.steps(0) + lag * sweeps; ++time)
        for (int64_t s = std::min(sweeps - 1, time / lag); s >= 0; --s) {
            const int64_t t = time - lag * s;
            if (t < chase.steps(s)) chase.run(s, t, t + 1);
        }
    chase.finish(d, e, u2, v2, group);
    return 0;
}

template <class T>
void check_case(const Band<T>& b, int64_t group, bool wavefront = false) {
    const int64_t n = b.n;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(b.kd) + ", group = " + std::to_string(group));
    std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(std::max<int64_t>(n - 1, 0)));
    cpu::BandReflectors<T> u2, v2;
    ASSERT_EQ(reduce(b, group, wavefront, d.data(), e.data(), &u2, &v2), 0);
    if (n == 0) return;
    ASSERT_EQ(u2.n(), n);
    ASSERT_EQ(v2.n(), n);

    // Singular values: |σ − σref| ≤ 10·n·ε·‖B‖₁.
    const auto sig = bdsqr<T>(d, e), ref = gesvd_values<T>(n, b.dense);
    for (int64_t i = 0; i < n; ++i) EXPECT_LE(std::abs(sig[size_t(i)] - ref[size_t(i)]), 10 * n * eps * b.norm) << i;

    // U2, V2 orthonormal; ‖B − U2·Bd·V2ᴴ‖₁/(n‖B‖₁ε) < 30.
    const auto u = explicit_q(u2, n), v = explicit_q(v2, n);
    EXPECT_LT(orthogonality(u, n), 30);
    EXPECT_LT(orthogonality(v, n), 30);
    std::vector<T> ub(size_t(n * n), T(0)), res = b.dense;  // ub = U2·Bd
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            T x = u[size_t(i + j * n)] * d[size_t(j)];
            if (j > 0) x += u[size_t(i + (j - 1) * n)] * e[size_t(j - 1)];
            ub[size_t(i + j * n)] = x;
        }
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, n, n, n, T(-1), ub.data(), n, v.data(), n, T(1), res.data(), n);
    EXPECT_LT(check::lange('O', n, n, res.data(), n) / (n * std::max(b.norm, 1.0) * eps), 30);

    // Values only: the same d and e within rounding (the same reflectors are made).
    std::vector<R<T>> d0(static_cast<size_t>(n)), e0(e.size());
    ASSERT_EQ(cpu::gb2bd<T>(n, b.kd, b.ab.data(), b.ldab, d0.data(), e0.data(), nullptr, nullptr, group), 0);
    for (int64_t i = 0; i < n; ++i) EXPECT_LE(std::abs(d0[size_t(i)] - d[size_t(i)]), 4 * eps * b.norm) << i;
    for (size_t i = 0; i < e.size(); ++i) EXPECT_LE(std::abs(e0[i] - e[i]), 4 * eps * b.norm) << i;
}

TYPED_TEST(BandBidiag, SingularValuesAndVectors) {
    using T = TypeParam;
    for (auto [n, kd] : kCases) check_case<T>(Band<T>(n, kd), 0);
}

TYPED_TEST(BandBidiag, GroupSizes) {
    using T = TypeParam;
    for (auto [n, kd] : {std::pair<int64_t, int64_t>{100, 8}, {257, 32}})
        for (int64_t g : {int64_t(1), int64_t(3), kd, 2 * kd + 1, int64_t(300)}) check_case<T>(Band<T>(n, kd), g);
}

// The steps in a wavefront order (band_bidiag.hpp's dependency rule) give the same reduction.
TYPED_TEST(BandBidiag, WavefrontOrder) {
    using T = TypeParam;
    for (auto [n, kd] : kCases) check_case<T>(Band<T>(n, kd), 0, true);
}

TEST(BandBidiag, InvalidArguments) {
    std::vector<double> ab(20), d(4), e(3);
    EXPECT_EQ(cpu::gb2bd<double>(-1, 1, ab.data(), 2, d.data(), e.data(), nullptr, nullptr), -1);
    EXPECT_EQ(cpu::gb2bd<double>(4, -1, ab.data(), 2, d.data(), e.data(), nullptr, nullptr), -2);
    EXPECT_EQ(cpu::gb2bd<double>(4, 2, ab.data(), 2, d.data(), e.data(), nullptr, nullptr), -4);
    EXPECT_EQ(cpu::gb2bd<double>(4, 1, ab.data(), 2, d.data(), e.data(), nullptr, nullptr, -1), -9);
}

}  // namespace

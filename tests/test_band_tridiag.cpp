// hb2st (kernels/cpu/band_tridiag.hpp), StarPU-free: random Hermitian band matrices in the four
// precisions. Tri's eigenvalues (xSTERF) against xSBEV/xHBEV's; Q2 made explicit by apply_left on the
// identity, with LAPACK's test ratios ‖Q2ᴴQ2 − I‖/(nε) and ‖B − Q2·Tri·Q2ᴴ‖/(n‖B‖ε) below 30;
// apply_left on a block of fewer columns with ldz > n (rows below n untouched); several group sizes;
// concurrent apply_left calls; the steps in a wavefront order (BandTridiagChase, as concurrent tasks
// run them); values only (q2 = nullptr) identical to the run with q2 and, within
// rounding, to LAPACK's own xSYTRD_SB2ST / xHETRD_HB2ST; invalid arguments. DISABLED_Timing prints
// the n = 4096 timings (--gtest_also_run_disabled_tests).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "kernels/cpu/band_tridiag.hpp"
#include "tests/band_checks.hpp"

extern "C" {  // LAPACK's own stage 2, values only (gfortran ABI)
void ssytrd_sb2st_(const char*, const char*, const char*, const int*, const int*, float*, const int*, float*, float*,
                   float*, const int*, float*, const int*, int*, size_t, size_t, size_t);
void dsytrd_sb2st_(const char*, const char*, const char*, const int*, const int*, double*, const int*, double*,
                   double*, double*, const int*, double*, const int*, int*, size_t, size_t, size_t);
void chetrd_hb2st_(const char*, const char*, const char*, const int*, const int*, std::complex<float>*, const int*,
                   float*, float*, std::complex<float>*, const int*, std::complex<float>*, const int*, int*, size_t,
                   size_t, size_t);
void zhetrd_hb2st_(const char*, const char*, const char*, const int*, const int*, std::complex<double>*, const int*,
                   double*, double*, std::complex<double>*, const int*, std::complex<double>*, const int*, int*,
                   size_t, size_t, size_t);
}

namespace {

using namespace tessera;
using namespace tessera::bandtest;

// LAPACK's xSYTRD_SB2ST / xHETRD_HB2ST ('N', 'N', 'L') on a copy of the band.
template <class T>
void lapack_sb2st(int64_t n, int64_t kd, std::vector<T> ab, int64_t ldab, R<T>* d, R<T>* e) {
    const int in = int(n), ikd = int(kd), ild = int(ldab), lh = int(std::max<int64_t>(1, 4 * n)),
              lw = int(std::max<int64_t>(1, (2 * kd + 1) * n + kd));
    std::vector<T> hous(static_cast<size_t>(lh)), work(static_cast<size_t>(lw));
    int info = 0;
    if constexpr (std::is_same_v<T, float>)
        ssytrd_sb2st_("N", "N", "L", &in, &ikd, ab.data(), &ild, d, e, hous.data(), &lh, work.data(), &lw, &info, 1, 1, 1);
    else if constexpr (std::is_same_v<T, double>)
        dsytrd_sb2st_("N", "N", "L", &in, &ikd, ab.data(), &ild, d, e, hous.data(), &lh, work.data(), &lw, &info, 1, 1, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        chetrd_hb2st_("N", "N", "L", &in, &ikd, ab.data(), &ild, d, e, hous.data(), &lh, work.data(), &lw, &info, 1, 1, 1);
    else
        zhetrd_hb2st_("N", "N", "L", &in, &ikd, ab.data(), &ild, d, e, hous.data(), &lh, work.data(), &lw, &info, 1, 1, 1);
    ASSERT_EQ(info, 0);
}

template <class T>
class BandTridiag : public ::testing::Test {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(BandTridiag, Precisions);

const std::vector<std::pair<int64_t, int64_t>> kCases = {
    {0, 3}, {1, 0}, {2, 5}, {5, 1}, {7, 0}, {10, 4}, {37, 4}, {100, 8}, {200, 16}, {257, 32}, {300, 299}};

// The checks of one (n, kd, group): eigenvalues, Q2's orthogonality and the residual, a block of
// columns with ldz > n. Returns Q2 (n×n).
// hb2st, or (wavefront) its steps in another order the dependency rule allows: step (s, t) at time
// t + (kLag+1)·s, the steps of one time in descending s, as concurrent workers might run them.
template <class T>
int reduce(const Band<T>& b, int64_t group, bool wavefront, R<T>* d, R<T>* e, cpu::BandReflectors<T>* q2) {
    if (!wavefront) return cpu::hb2st<T>(b.n, b.kd, b.ab.data(), b.ldab, d, e, q2, group);
    cpu::BandTridiagChase<T> chase(b.n, b.kd, b.ab.data(), b.ldab, q2 != nullptr);
    const int64_t lag = cpu::BandTridiagChase<T>::kLag + 1, sweeps = chase.sweeps();
    for (int64_t time = 0; sweeps > 0 && time <= chase.steps(0) + lag * sweeps; ++time)
        for (int64_t s = std::min(sweeps - 1, time / lag); s >= 0; --s) {
            const int64_t t = time - lag * s;
            if (t < chase.steps(s)) chase.run(s, t, t + 1);
        }
    chase.finish(d, e, q2, group);
    return 0;
}

template <class T>
void check_case(const Band<T>& b, int64_t group, bool wavefront = false) {
    const int64_t n = b.n;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(b.kd) + ", group = " + std::to_string(group));
    std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(std::max<int64_t>(n - 1, 0)));
    cpu::BandReflectors<T> q2;
    ASSERT_EQ(reduce(b, group, wavefront, d.data(), e.data(), &q2), 0);
    ASSERT_EQ(q2.n(), n);

    const int64_t ldq = n + 3;
    const std::vector<T> q = checked_explicit_q2(b, d, e, q2);
    if (n == 0) return;

    // A block of c < n columns, ldz = n + 7: Q2·Z0, rows n … ldz−1 untouched.
    const int64_t c = std::max<int64_t>(1, n / 3), ldz = n + 7;
    std::mt19937_64 gen(uint64_t(n + 11));
    std::vector<T> z0(size_t(ldz * c));
    for (auto& x : z0) x = testutil::uniform_scalar<T>(gen);
    std::vector<T> z = z0, ref_z(size_t(n * c));
    q2.apply_left(c, z.data(), ldz);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, n, c, n, T(1), q.data(), ldq, z0.data(), ldz, T(0), ref_z.data(), n);
    for (int64_t j = 0; j < c; ++j)
        for (int64_t i = 0; i < ldz; ++i)
            if (i < n) ref_z[size_t(i + j * n)] -= z[size_t(i + j * ldz)];
            else EXPECT_EQ(z[size_t(i + j * ldz)], z0[size_t(i + j * ldz)]);
    EXPECT_LT(check::lange('O', n, c, ref_z.data(), n) / (n * check::lange('O', n, c, z0.data(), ldz) * eps), 30);
}

TYPED_TEST(BandTridiag, EigenvaluesAndQ2) {
    using T = TypeParam;
    for (auto [n, kd] : kCases) check_case<T>(Band<T>(n, kd), 0);
}

// The steps in a wavefront order (band_tridiag.hpp's dependency rule) give the same reduction.
TYPED_TEST(BandTridiag, WavefrontOrder) {
    using T = TypeParam;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    for (auto [n, kd] : kCases) {
        const Band<T> b(n, kd);
        check_case<T>(b, 0, true);
        // Values only: sweeps s and s+2 share LAPACK's two-sweep V and TAU; the same eigenvalues.
        std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(std::max<int64_t>(n - 1, 0)));
        ASSERT_EQ(reduce<T>(b, 0, true, d.data(), e.data(), nullptr), 0);
        const auto lam = sterf<T>(d, e), ref = hbev<T>(n, kd, b.ab, b.ldab);
        for (int64_t i = 0; i < n; ++i) EXPECT_LE(std::abs(lam[size_t(i)] - ref[size_t(i)]), 10 * n * eps * b.norm) << i;
    }
}

// Any group size g is valid (the ordering in band_tridiag.hpp): g = 1, below kd, above kd, above n.
TYPED_TEST(BandTridiag, GroupSizes) {
    using T = TypeParam;
    for (auto [n, kd] : {std::pair<int64_t, int64_t>{100, 8}, {257, 32}})
        for (int64_t g : {int64_t(1), int64_t(3), kd, 2 * kd + 1, int64_t(300)}) check_case<T>(Band<T>(n, kd), g);
}

// Values only gives the same d, e as with q2 (the same kernel calls on the same data), and LAPACK's
// own xSYTRD_SB2ST / xHETRD_HB2ST the same within rounding (kd = 1: our e_i = |B(i+1, i)| directly).
TYPED_TEST(BandTridiag, ValuesOnly) {
    using T = TypeParam;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    for (auto [n, kd] : kCases) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(kd));
        const Band<T> b(n, kd);
        const size_t ne = size_t(std::max<int64_t>(n - 1, 0));
        std::vector<R<T>> d1(static_cast<size_t>(n)), e1(ne), d2(static_cast<size_t>(n)), e2(ne), d3(static_cast<size_t>(n)), e3(ne);
        cpu::BandReflectors<T> q2;
        ASSERT_EQ(cpu::hb2st<T>(n, kd, b.ab.data(), b.ldab, d1.data(), e1.data(), &q2), 0);
        ASSERT_EQ(cpu::hb2st<T>(n, kd, b.ab.data(), b.ldab, d2.data(), e2.data(), nullptr), 0);
        EXPECT_EQ(d1, d2);
        EXPECT_EQ(e1, e2);
        // LAPACK on the same effective band: hb2st clamps kd to n − 1, xSYTRD_SB2ST does not, and
        // with kd ≥ n its result depended on the build (the sign of e for n = 2, complex, in the
        // sanitized clang build only).
        lapack_sb2st<T>(n, std::min<int64_t>(kd, std::max<int64_t>(n - 1, 0)), b.ab, b.ldab, d3.data(), e3.data());
        // Two runs of the same reduction by different kernels (ours, LAPACK's): each entry within the
        // rounding the n sweeps accumulate, O(n·eps·‖B‖) (Wilkinson's bound for Householder
        // reductions); OpenBLAS's SSE kernels (OPENBLAS_CORETYPE=NEHALEM) differ by 19·eps·‖B‖ at n = 257.
        const double tol = double(std::max<int64_t>(n, 4)) * eps * b.norm;
        for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(d2[size_t(i)], d3[size_t(i)], tol) << i;
        for (size_t i = 0; i < ne; ++i) EXPECT_NEAR(e2[i], e3[i], tol) << i;
    }
}

// Two threads apply Q2 to the two halves of a block at once: the same as one call, within rounding.
TYPED_TEST(BandTridiag, ConcurrentApply) {
    using T = TypeParam;
    const int64_t n = 160, kd = 12, c = 40;
    const Band<T> b(n, kd);
    std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(n - 1));
    cpu::BandReflectors<T> q2;
    ASSERT_EQ(cpu::hb2st<T>(n, kd, b.ab.data(), b.ldab, d.data(), e.data(), &q2), 0);
    std::mt19937_64 gen(5);
    std::vector<T> z0(size_t(n * c));
    for (auto& x : z0) x = testutil::uniform_scalar<T>(gen);
    std::vector<T> one = z0, two = z0;
    q2.apply_left(c, one.data(), n);
    std::thread t1([&] { q2.apply_left(c / 2, two.data(), n); });
    std::thread t2([&] { q2.apply_left(c - c / 2, two.data() + (c / 2) * n, n); });
    t1.join(), t2.join();
    for (size_t i = 0; i < one.size(); ++i) one[i] -= two[i];
    EXPECT_LT(check::lange('O', n, c, one.data(), n) / (n * check::lange('O', n, c, z0.data(), n) * std::numeric_limits<R<T>>::epsilon()), 30);
}

TYPED_TEST(BandTridiag, InvalidArguments) {
    using T = TypeParam;
    std::vector<T> ab(16, T(1));
    std::vector<R<T>> d(4), e(3);
    cpu::BandReflectors<T> q2;
    EXPECT_EQ(cpu::hb2st<T>(-1, 1, ab.data(), 2, d.data(), e.data(), &q2), -1);
    EXPECT_EQ(cpu::hb2st<T>(4, -1, ab.data(), 2, d.data(), e.data(), &q2), -2);
    EXPECT_EQ(cpu::hb2st<T>(4, 2, ab.data(), 2, d.data(), e.data(), nullptr), -4);
    EXPECT_EQ(cpu::hb2st<T>(4, 1, ab.data(), 2, d.data(), e.data(), &q2, -1), -8);
    ASSERT_EQ(cpu::hb2st<T>(4, 2, ab.data(), 3, d.data(), e.data(), &q2), 0);
    std::vector<T> z(16);
    EXPECT_THROW(q2.apply_left(2, z.data(), 3), Error);
    EXPECT_THROW(q2.apply_left(-1, z.data(), 4), Error);
    EXPECT_NO_THROW(q2.apply_left(0, z.data(), 4));
}

// n = 4096, double: hb2st values only, with q2, apply_left on 4096×4096, LAPACK's dsytrd_sb2st.
TEST(BandTridiagTiming, DISABLED_Timing) {
    const int64_t n = 4096;
    auto secs = [](auto f) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    for (int64_t kd : {32, 64, 128}) {
        const Band<double> b(n, kd);
        std::vector<double> d(n), e(n - 1), z(size_t(n * n), 0.0);
        for (int64_t i = 0; i < n; ++i) z[size_t(i + i * n)] = 1;
        cpu::BandReflectors<double> q2;
        const double lap = secs([&] { lapack_sb2st<double>(n, kd, b.ab, b.ldab, d.data(), e.data()); });
        const double vo = secs([&] { cpu::hb2st<double>(n, kd, b.ab.data(), b.ldab, d.data(), e.data(), nullptr); });
        const double wq = secs([&] { cpu::hb2st<double>(n, kd, b.ab.data(), b.ldab, d.data(), e.data(), &q2); });
        const double ap = secs([&] { q2.apply_left(n, z.data(), n); });
        std::printf("n %lld kd %3lld g %2lld: dsytrd_sb2st %.2f s, hb2st values %.2f s, with q2 %.2f s, "
                    "apply_left(n) %.2f s\n",
                    (long long)n, (long long)kd, (long long)q2.group(), lap, vo, wq, ap);
    }
}

}  // namespace

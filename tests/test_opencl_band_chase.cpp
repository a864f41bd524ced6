// The device bulge chasing (kernels/opencl/band_chase.cl through ocl::band_chase) on the first OpenCL
// CPU device (PoCL) without StarPU, in the four precisions, on random Hermitian band matrices from
// cpu::BandTridiagChase's working band: Tri's eigenvalues against LAPACK's xSBEV/xHBEV; with the
// reflectors kept, the same Tri, and Q2 from the device's storage (BandTridiagChase::finish) passes
// LAPACK's test ratios (tests/band_checks.hpp). Tri's entries themselves are not compared with the
// host's hb2st: the two sum in different orders, and the entries late in the chase drift apart by up
// to 3·n·ε·‖B‖ (n = 37 and 100) while the eigenvalues agree within rounding. The
// rows of the buffer beyond the working band stay untouched; kd < 2 (already tridiagonal) and kd
// beyond the kernel's widest band; Q2's block reflectors applied on the device (heevd's back-
// transformation there) against the host's apply_left, and their T factors formed there against
// xLARFT's. The device has two compute units here, so two work-groups
// take the sweeps by ticket and wait on each other.
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "kernels/cpu/band_tridiag.hpp"
#include "tests/band_checks.hpp"

namespace {

using namespace tessera;
using namespace tessera::ocltest;
using namespace tessera::bandtest;

template <class T>
class OpenCLBandChase : public ::testing::Test {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(OpenCLBandChase, Precisions);

// The reduction of b on the device into d, e (and q2 when given): the working band and the
// reflectors' storage of a BandTridiagChase go to device buffers (their guard entries NaN), the
// kernel runs, and finish() reads them back.
template <class T>
void device_reduction(const Band<T>& b, std::vector<R<T>>& d, std::vector<R<T>>& e, cpu::BandReflectors<T>* q2) {
    const int64_t n = b.n;
    cpu::BandTridiagChase<T> chase(n, b.kd, b.ab.data(), b.ldab, q2 != nullptr);
    const int64_t ldab = chase.band_ld();
    DevMat<T> A(ldab, n, 2), V(chase.reflector_count(), 1, 1), Tau(chase.tau_count(), 1, 1);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < ldab; ++i) A(i, j) = chase.band()[i + j * ldab];
    A.upload(), V.upload(), Tau.upload();
    const ocl::Mat none{nullptr, 0, 1};
    const int64_t off = chase.reflector_offset();
    ocl::band_chase<T>(Env::get().kernels<T>(), Env::get().queue(), n, chase.kd(), A.mat(),
                       chase.keeps_reflectors() ? ocl::at(V.mat(), off, 0) : none,
                       chase.keeps_reflectors() ? ocl::at(Tau.mat(), off, 0) : none);
    A.download(), V.download(), Tau.download();
    for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < ldab; ++i) chase.band()[i + j * ldab] = A(i, j);
        for (int64_t i = ldab; i < A.ld; ++i) EXPECT_TRUE(std::isnan(std::real(A(i, j)))) << "wrote beyond the band";
    }
    std::copy(V.data(), V.data() + chase.reflector_count(), chase.reflectors());
    std::copy(Tau.data(), Tau.data() + chase.tau_count(), chase.taus());
    d.assign(size_t(n), R<T>(0));
    e.assign(size_t(std::max<int64_t>(n - 1, 0)), R<T>(0));
    chase.finish(d.data(), e.data(), q2, 0);
}

TYPED_TEST(OpenCLBandChase, MatchesTheHost) {
    using T = TypeParam;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    const std::vector<std::pair<int64_t, int64_t>> cases = {{1, 0}, {5, 1}, {3, 2},    {10, 4},   {37, 4},
                                                            {100, 8}, {200, 16}, {257, 32}, {150, 149}};
    for (auto [n, kd] : cases) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(kd));
        const Band<T> b(n, kd);
        std::vector<R<T>> d, e, dq, eq;
        device_reduction<T>(b, d, e, nullptr);  // values only
        const auto lam = sterf<T>(d, e), ref = hbev<T>(n, kd, b.ab, b.ldab);
        for (int64_t i = 0; i < n; ++i) EXPECT_LE(std::abs(lam[size_t(i)] - ref[size_t(i)]), 10 * n * eps * b.norm) << i;

        cpu::BandReflectors<T> q2;  // with the reflectors: the same calls on the same data, so the same Tri
        device_reduction<T>(b, dq, eq, &q2);
        EXPECT_EQ(d, dq);
        EXPECT_EQ(e, eq);
        ASSERT_EQ(q2.n(), n);
        checked_explicit_q2(b, d, e, q2);
    }
}

// Q2's block reflectors applied on the device (ocl::apply_block_reflectors on BandReflectors::windows)
// give the host's apply_left within rounding: ‖ΔZ‖₁/(n·‖Z‖₁·ε) below 30.
TYPED_TEST(OpenCLBandChase, BlockReflectorsMatchTheHost) {
    using T = TypeParam;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    for (auto [n, kd, c] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{{37, 4, 5}, {200, 16, 33}, {257, 32, 64}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(kd));
        const Band<T> b(n, kd);
        std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(n - 1));
        cpu::BandReflectors<T> q2;
        ASSERT_EQ(cpu::hb2st<T>(n, kd, b.ab.data(), b.ldab, d.data(), e.data(), &q2), 0);
        ASSERT_FALSE(q2.has_phase());
        std::vector<T> v(size_t(q2.window_size()));
        std::vector<ocl::BlockReflector> blocks;
        int64_t kmax = 1;
        for (const auto& w : q2.windows(v.data())) {
            blocks.push_back({w.row, w.m, w.k, w.v_off, w.t_off, w.tau_off});
            kmax = std::max(kmax, w.k);
        }
        ASSERT_EQ(int64_t(blocks.size()), q2.blocks());
        const std::vector<T>& t = q2.t_factors();
        DevMat<T> Z(n, c, 4), Vd(int64_t(v.size()), 1, 2), Td(int64_t(t.size()), 1, 3), W(2 * kmax, c, 1);
        std::mt19937_64 gen{uint64_t(n)};
        for (int64_t j = 0; j < c; ++j)
            for (int64_t i = 0; i < n; ++i) Z(i, j) = testutil::uniform_scalar<T>(gen);
        std::copy(v.begin(), v.end(), Vd.data());
        std::copy(t.begin(), t.end(), Td.data());
        const std::vector<T> z0 = Z.dense();
        std::vector<T> ref = z0;
        q2.apply_left(c, ref.data(), n);
        Z.upload(), Vd.upload(), Td.upload(), W.upload();
        ocl::apply_block_reflectors<T>(Env::get().kernels<T>(), Env::get().queue(), blocks, c, Vd.mat(), Td.mat(),
                                       Z.mat(), W.mat());
        Z.download();
        const std::vector<T> got = Z.dense();
        for (size_t i = 0; i < ref.size(); ++i) ref[i] -= got[i];
        EXPECT_LT(check::lange('O', n, c, ref.data(), n) / (n * check::lange('O', n, c, z0.data(), n) * eps), 30);
        for (int64_t j = 0; j < c; ++j)
            for (int64_t i = n; i < Z.ld; ++i) EXPECT_TRUE(std::isnan(std::real(Z(i, j)))) << "wrote beyond Z's rows";
    }
}

// The blocks' T factors formed on the device (ocl::larft_blocks) from the windows and block_taus()
// match the host's xLARFT entry by entry within 30·m·ε·max(1, max |T|), zeros below the diagonal.
TYPED_TEST(OpenCLBandChase, DeviceTFactorsMatchTheHost) {
    using T = TypeParam;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    for (auto [n, kd] : std::vector<std::pair<int64_t, int64_t>>{{37, 4}, {200, 16}, {257, 32}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", kd = " + std::to_string(kd));
        const Band<T> b(n, kd);
        std::vector<R<T>> d(static_cast<size_t>(n)), e(static_cast<size_t>(n - 1));
        cpu::BandReflectors<T> q2;
        ASSERT_EQ(cpu::hb2st<T>(n, kd, b.ab.data(), b.ldab, d.data(), e.data(), &q2), 0);
        std::vector<T> v(size_t(q2.window_size()));
        std::vector<ocl::BlockReflector> blocks;
        for (const auto& w : q2.windows(v.data())) blocks.push_back({w.row, w.m, w.k, w.v_off, w.t_off, w.tau_off});
        const std::vector<T>&t = q2.t_factors(), &taus = q2.block_taus();
        DevMat<T> Vd(int64_t(v.size()), 1, 2), Taud(int64_t(taus.size()), 1, 1), Td(int64_t(t.size()), 1, 3);
        std::copy(v.begin(), v.end(), Vd.data());
        std::copy(taus.begin(), taus.end(), Taud.data());
        Vd.upload(), Taud.upload(), Td.upload();
        ocl::larft_blocks<T>(Env::get().kernels<T>(), Env::get().queue(), blocks, Vd.mat(), Taud.mat(), Td.mat());
        Td.download();
        double tmax = 1;
        for (const T& x : t) tmax = std::max(tmax, double(std::abs(x)));
        for (const auto& bl : blocks)
            for (int64_t j = 0; j < bl.k; ++j)
                for (int64_t i = 0; i < bl.k; ++i) {
                    const size_t at = size_t(bl.t_off + i + j * bl.k);
                    if (i > j) EXPECT_EQ(Td.data()[at], T(0)) << "below the diagonal";
                    else EXPECT_LE(std::abs(Td.data()[at] - t[at]), 30 * bl.m * eps * tmax) << "T(" << i << ", " << j << ")";
                }
    }
}

TYPED_TEST(OpenCLBandChase, RefusesABandTooWide) {
    using T = TypeParam;
    const int64_t kd = ocl::kBandChaseMaxKd + 1, n = kd + 1;
    DevMat<T> A(2 * kd + 1, n, 0);
    A.upload();
    const ocl::Mat none{nullptr, 0, 1};
    EXPECT_THROW(ocl::band_chase<T>(Env::get().kernels<T>(), Env::get().queue(), n, kd, A.mat(), none, none), Error);
    EXPECT_THROW(ocl::band_chase<T>(Env::get().kernels<T>(), Env::get().queue(), n, 4, {A.mem, 0, 8}, none, none),
                 Error);
}

}  // namespace

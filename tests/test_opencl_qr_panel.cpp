// The OpenCL tile-QR panel kernels (kernels/opencl/launch_qr.hpp: geqrt, tpqrt), run directly on the
// first OpenCL CPU device (PoCL) without StarPU, in s, d, c, z. Their V and T, in LAPACK's layout,
// must rebuild the input from R through LAPACK's own appliers (xGEMQRT, xTPMQRT with NoTrans):
// ‖A − Q·R‖₁ ≤ 60·m·ε·‖A‖₁ (docs/architecture.md#numerical-checks); R must match LAPACKE xGEQRT's /
// xTPQRT's (the same Householder convention) to the same scale; what the kernels must not write
// stays bit for bit. Inner blocks narrower than, equal to and wider than a leaf (32 columns, whose
// T blocks are then merged), tall and wide tiles.
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"

namespace {

using namespace tessera;
using namespace tessera::ocltest;

/// ‖X − Y‖₁ for two m×n column-major matrices (ld m).
template <class T>
double diff1(int64_t m, int64_t n, const std::vector<T>& x, const std::vector<T>& y) {
    std::vector<T> d(x.size());
    for (size_t e = 0; e < d.size(); ++e) d[e] = x[e] - y[e];
    return norm1(m, n, d.data(), m);
}

template <class T>
void run_geqrt(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, int64_t m, int64_t n, int64_t ib) {
    SCOPED_TRACE(::testing::Message() << "geqrt m=" << m << " n=" << n << " ib=" << ib);
    const int64_t k = std::min(m, n), ibe = std::min(ib, k);
    DevMat<T> A(m, n, 5), Tf(ib, k, 3);
    fill_random(A, rng);
    A.upload();
    Tf.upload();
    const std::vector<T> a0 = A.dense(), abuf = A.h, tbuf = Tf.h;
    ocl::geqrt<T>(dk, q, m, n, ib, A.mat(), Tf.mat());
    A.download();
    Tf.download();
    // Q·R with our V and T through xGEMQRT, against A.
    const std::vector<T> f = A.dense();
    std::vector<T> qr(size_t(m * n), T(0)), t(size_t(ib * k));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, m - 1); ++i) qr[size_t(i + j * m)] = f[size_t(i + j * m)];
    for (int64_t j = 0; j < k; ++j)
        for (int64_t i = 0; i < ib; ++i) t[size_t(i + j * ib)] = Tf(i, j);
    ASSERT_EQ(cpu::gemqrt<T>(Side::Left, Trans::NoTrans, m, n, k, ibe, f.data(), m, t.data(), ib, qr.data(), m), 0);
    const double scale = norm1(m, n, a0.data(), m) * double(m) * eps<T>();
    EXPECT_TRUE(residual_ok(diff1(m, n, qr, a0), scale, "A - Q R"));
    // R against LAPACK's.
    std::vector<T> ref = a0, tref(size_t(ib * k));
    ASSERT_EQ(cpu::geqrt<T>(m, n, ibe, ref.data(), m, tref.data(), ib), 0);
    std::vector<T> r(size_t(m * n), T(0)), rref(size_t(m * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, m - 1); ++i)
            r[size_t(i + j * m)] = f[size_t(i + j * m)], rref[size_t(i + j * m)] = ref[size_t(i + j * m)];
    EXPECT_TRUE(residual_ok(diff1(m, n, r, rref), scale, "R - R(LAPACK)"));
    EXPECT_TRUE(untouched(A, abuf, [](int64_t, int64_t) { return true; }));
    EXPECT_TRUE(untouched(Tf, tbuf, [](int64_t, int64_t) { return true; }));
}

template <class T>
void run_tpqrt(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, int64_t m, int64_t n, int64_t ib) {
    SCOPED_TRACE(::testing::Message() << "tpqrt m=" << m << " n=" << n << " ib=" << ib);
    const int64_t ibe = std::min(ib, n);
    DevMat<T> A(n, n, 7), B(m, n, 2), Tf(ib, n, 4);
    fill_random(A, rng);
    fill_random(B, rng);
    for (int64_t j = 0; j < n; ++j)  // R: its upper triangle; below it NaN, which nothing may read
        for (int64_t i = j + 1; i < n; ++i) A(i, j) = nan_value<T>();
    A.upload();
    B.upload();
    Tf.upload();
    const std::vector<T> abuf = A.h, bbuf = B.h, tbuf = Tf.h;
    std::vector<T> r0(size_t(n * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= j; ++i) r0[size_t(i + j * n)] = A(i, j);
    const std::vector<T> b0 = B.dense();
    ocl::tpqrt<T>(dk, q, m, n, ib, A.mat(), B.mat(), Tf.mat());
    A.download();
    B.download();
    Tf.download();
    // Q·[R'; 0] with our V (in B) and T through xTPMQRT, against [R; B].
    const std::vector<T> v = B.dense();
    std::vector<T> top(size_t(n * n), T(0)), bottom(size_t(m * n), T(0)), t(size_t(ib * n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= j; ++i) top[size_t(i + j * n)] = A(i, j);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < ib; ++i) t[size_t(i + j * ib)] = Tf(i, j);
    ASSERT_EQ(cpu::tpmqrt<T>(Side::Left, Trans::NoTrans, m, n, n, ibe, v.data(), m, t.data(), ib, top.data(), n,
                             bottom.data(), m),
              0);
    const double scale = (norm1(n, n, r0.data(), n) + norm1(m, n, b0.data(), m)) * double(m + n) * eps<T>();
    EXPECT_TRUE(residual_ok(diff1(n, n, top, r0) + diff1(m, n, bottom, b0), scale, "[R; B] - Q [R'; 0]"));
    // R' against LAPACK's.
    std::vector<T> rref = r0, bref = b0, tref(size_t(ib * n));
    ASSERT_EQ(cpu::tpqrt<T>(m, n, ibe, rref.data(), n, bref.data(), m, tref.data(), ib), 0);
    std::vector<T> r(size_t(n * n), T(0)), rr(size_t(n * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= j; ++i) r[size_t(i + j * n)] = A(i, j), rr[size_t(i + j * n)] = rref[size_t(i + j * n)];
    EXPECT_TRUE(residual_ok(diff1(n, n, r, rr), scale, "R' - R'(LAPACK)"));
    EXPECT_TRUE(untouched(A, abuf, [](int64_t i, int64_t j) { return i <= j; }));
    EXPECT_TRUE(untouched(B, bbuf, [](int64_t, int64_t) { return true; }));
    EXPECT_TRUE(untouched(Tf, tbuf, [](int64_t, int64_t) { return true; }));
}

template <class T>
class OpenCLQrPanel : public OpenCLKernels<T> {};
TYPED_TEST_SUITE(OpenCLQrPanel, Precisions);

TYPED_TEST(OpenCLQrPanel, GeqrtRebuildsTheTile) {
    using T = TypeParam;
    for (int64_t ib : {8, 32, 48, 200}) run_geqrt<T>(this->dk(), this->q(), this->rng, 100, 70, ib);
    run_geqrt<T>(this->dk(), this->q(), this->rng, 64, 64, 16);
    run_geqrt<T>(this->dk(), this->q(), this->rng, 40, 90, 12);  // wide: 40 reflectors
    run_geqrt<T>(this->dk(), this->q(), this->rng, 1, 1, 4);
}

TYPED_TEST(OpenCLQrPanel, TpqrtRebuildsTheStack) {
    using T = TypeParam;
    for (int64_t ib : {8, 32, 48}) run_tpqrt<T>(this->dk(), this->q(), this->rng, 50, 70, ib);
    run_tpqrt<T>(this->dk(), this->q(), this->rng, 100, 40, 16);
    run_tpqrt<T>(this->dk(), this->q(), this->rng, 1, 3, 2);
}

}  // namespace

// The OpenCL QR panel kernels (kernels/opencl/launch_qr.hpp: geqrt, tpqrt, and the column panel
// geqrf_panel), run directly on the first OpenCL CPU device (PoCL) without StarPU, in s, d, c, z. Their V and T, in LAPACK's layout,
// must rebuild the input from R through LAPACK's own appliers (xGEMQRT, xTPMQRT with NoTrans):
// ‖A − Q·R‖₁ ≤ 60·m·ε·‖A‖₁ (docs/architecture.md#numerical-checks); R must match LAPACKE xGEQRT's /
// xTPQRT's (the same Householder convention) to the same scale; what the kernels must not write
// stays bit for bit. Inner blocks narrower than, equal to and wider than a leaf (32 columns, whose
// T blocks are then merged), tall and wide tiles. The column panel's V and T must rebuild the
// column as Q·R with Q = I − V·T·Vᴴ, its R match LAPACKE xGEQRT's, its T be zero below its
// diagonal and beyond its reflectors: stacks of tiles, one recursion level and several, wide
// panels, and the one-launch leaves (tessera_qr_leaf_grid) forced on PoCL.
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>
#include <memory>

#include "kernels/cpu/blas.hpp"
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
void run_column_panel(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng,
                      const std::vector<int64_t>& rows, int64_t ncols) {
    SCOPED_TRACE(::testing::Message() << "geqrf_panel tiles " << rows.size() << " first " << rows[0] << " ncols " << ncols);
    int64_t m = 0;
    for (int64_t r : rows) m += r;
    const int64_t kb = std::min(m, ncols);
    std::vector<std::unique_ptr<DevMat<T>>> tiles;
    std::vector<ocl::Mat> mats;
    std::vector<std::vector<T>> before;
    for (size_t t = 0; t < rows.size(); ++t) {
        tiles.push_back(std::make_unique<DevMat<T>>(rows[t], ncols, 3 + t));
        fill_random(*tiles.back(), rng);
        tiles.back()->upload();
        mats.push_back(tiles.back()->mat());
        before.push_back(tiles.back()->h);
    }
    DevMat<T> Tt(ncols, ncols, 2);
    Tt.upload();
    const std::vector<T> tbuf = Tt.h;
    auto stacked = [&] {  // the column as one m×ncols matrix (ld m)
        std::vector<T> a(size_t(m * ncols));
        for (size_t t = 0, r0 = 0; t < tiles.size(); r0 += size_t(rows[t]), ++t)
            for (int64_t j = 0; j < ncols; ++j)
                for (int64_t i = 0; i < rows[t]; ++i) a[r0 + size_t(i + j * m)] = (*tiles[t])(i, j);
        return a;
    };
    const std::vector<T> a0 = stacked();
    ocl::geqrf_panel<T>(dk, q, mats, rows, ncols, Tt.mat());
    for (auto& t : tiles) t->download();
    Tt.download();
    const std::vector<T> f = stacked();
    // V (unit lower trapezoid, kb columns), R (upper trapezoid), T (kb×kb upper).
    std::vector<T> v(size_t(m * kb), T(0)), r(size_t(m * ncols), T(0)), t(size_t(kb * kb), T(0));
    for (int64_t j = 0; j < ncols; ++j)
        for (int64_t i = 0; i < m; ++i) {
            if (i <= j) r[size_t(i + j * m)] = f[size_t(i + j * m)];
            if (j < kb && i >= j) v[size_t(i + j * m)] = i == j ? T(1) : f[size_t(i + j * m)];
        }
    bool structure = true;
    for (int64_t j = 0; j < ncols; ++j)
        for (int64_t i = 0; i < ncols; ++i) {
            if (i < kb && j < kb && i <= j) t[size_t(i + j * kb)] = Tt(i, j);
            else structure = structure && Tt(i, j) == T(0);
        }
    EXPECT_TRUE(structure) << "T must be zero below its diagonal and beyond its reflectors";
    // Q·R = R − V·(T·(Vᴴ·R)), against the column.
    std::vector<T> w(size_t(kb * ncols)), tw(size_t(kb * ncols)), qr = r;
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, kb, ncols, m, T(1), v.data(), m, r.data(), m, T(0), w.data(), kb);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, kb, ncols, kb, T(1), t.data(), kb, w.data(), kb, T(0), tw.data(), kb);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, ncols, kb, T(-1), v.data(), m, tw.data(), kb, T(1), qr.data(), m);
    const double scale = norm1(m, ncols, a0.data(), m) * double(m) * eps<T>();
    EXPECT_TRUE(residual_ok(diff1(m, ncols, qr, a0), scale, "A - Q R"));
    // R against LAPACK's (the same Householder convention).
    std::vector<T> ref = a0, tref(size_t(kb * kb));
    ASSERT_EQ(cpu::geqrt<T>(m, ncols, kb, ref.data(), m, tref.data(), kb), 0);
    std::vector<T> rref(size_t(m * ncols), T(0));
    for (int64_t j = 0; j < ncols; ++j)
        for (int64_t i = 0; i <= std::min(j, m - 1); ++i) rref[size_t(i + j * m)] = ref[size_t(i + j * m)];
    EXPECT_TRUE(residual_ok(diff1(m, ncols, r, rref), scale, "R - R(LAPACK)"));
    for (size_t k = 0; k < tiles.size(); ++k)
        EXPECT_TRUE(untouched(*tiles[k], before[k], [](int64_t, int64_t) { return true; })) << "tile " << k;
    EXPECT_TRUE(untouched(Tt, tbuf, [](int64_t, int64_t) { return true; }));
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

TYPED_TEST(OpenCLQrPanel, ColumnPanelRebuildsTheColumn) {
    using T = TypeParam;
    run_column_panel<T>(this->dk(), this->q(), this->rng, {100, 100, 37}, 40);  // one recursion level
    run_column_panel<T>(this->dk(), this->q(), this->rng, {300}, 70);          // several
    run_column_panel<T>(this->dk(), this->q(), this->rng, {20, 10}, 50);       // wide: 30 reflectors
    run_column_panel<T>(this->dk(), this->q(), this->rng, {1}, 1);
}

// Tall leaves in one launch whose work-groups exchange each column's sums (tessera_qr_leaf_grid, on
// NVIDIA GPUs by default; TESSERA_QR_GRID=2 takes it on PoCL too, several rows per work-item), leaves
// of 8 columns (PoCL's build stays short). Complex double; the real precisions take the same code
// (the give-up test builds double).
TEST(OpenCLQrGrid, TallPanelInOneLaunch) {
    std::mt19937_64 rng(11);
    const auto dkz = Env::get().build_variant('z', "-DTESSERA_QR_GRID=2 -DTESSERA_QR_LEAF=8");
    ASSERT_EQ(dkz->params().qr_grid, 2);
    ASSERT_EQ(dkz->params().qr_leaf, 8);
    const cl_command_queue q = Env::get().queue();
    using Z = std::complex<double>;
    run_column_panel<Z>(*dkz, q, rng, {700, 700, 333}, 40);
    run_column_panel<Z>(*dkz, q, rng, {1300}, 19);
    run_column_panel<Z>(*dkz, q, rng, {12, 9}, 30);
}

// A leaf taller than the compute units hold at the program's rows per work-item (1 on NVIDIA GPUs,
// 8 elsewhere) takes tessera_qr_leaf_grid_tall, up to twice as many: on an H100 a 65536-row panel
// (33792 rows at one per work-item), which otherwise fell back to the one-work-group leaf (3 s
// per 65536×2048 panel, bench/gpu_notes.md). The panel here needs 9 rows per work-item on PoCL.
TEST(OpenCLQrGrid, LeafTallerThanTheRegistersHold) {
    std::mt19937_64 rng(13);
    const auto dk = Env::get().build_variant('d', "-DTESSERA_QR_GRID=2 -DTESSERA_QR_LEAF=8");
    const int64_t units = std::max<int64_t>(1, dk->info().compute_units);
    const int64_t per_item = dk->options().find("-DTESSERA_NV_SM") != std::string::npos ? 1 : 8;
    const int64_t rows = per_item * 256 * units + 700;
    run_column_panel<double>(*dk, Env::get().queue(), rng, {rows / 2, rows - rows / 2}, 20);
}

// When the work-groups of a one-launch leaf do not meet (every wait gives up at once,
// GETRF_GRID_SPINS=0), the panel raises an Error naming the cause and the way around it, instead of
// hanging or returning a wrong factor.
TEST(OpenCLQrGrid, BarrierThatGivesUpRaisesError) {
    const auto dk = Env::get().build_variant('d', "-DTESSERA_QR_GRID=2 -DTESSERA_QR_LEAF=8 -DGETRF_GRID_SPINS=0");
    DevMat<double> A(1300, 16, 3), Tt(16, 16, 0);
    std::mt19937_64 rng(9);
    fill_random(A, rng);
    A.upload();
    Tt.upload();
    try {
        ocl::geqrf_panel<double>(*dk, Env::get().queue(), {A.mat()}, {1300}, 16, Tt.mat());
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("column timed out"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("TESSERA_QR_GRID=0"), std::string::npos) << e.what();
    }
    ocl::check(clFinish(Env::get().queue()), "clFinish");
}

}  // namespace

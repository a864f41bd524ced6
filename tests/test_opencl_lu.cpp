// The OpenCL partial-pivoting LU panel (kernels/opencl/launch_lu.hpp: getrf_panel), run directly on
// the first OpenCL CPU device (PoCL) without StarPU, in s, d, c, z: its pivots must be LAPACK's
// (LAPACKE xGETRF on the same matrix, shifted by the panel's first row), its factors must satisfy
// ‖P·A − L·U‖₁ ≤ 60·m·ε·‖A‖₁ (docs/architecture.md#numerical-checks), and what it must not write
// (tile padding, offsets, tails) stays bit for bit. Panels: several tiles, recursion depths 0–3,
// tall leaves spread over work-groups (with tied magnitudes), a wide panel (fewer rows than
// columns), and zero columns (info).
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "kernels/cpu/lu.hpp"
#include "kernels/opencl/launch_lu.hpp"

namespace {

using namespace tessera;
using namespace tessera::ocltest;

/// One panel of `rows` tile rows and n columns, whose first row is row0 of its matrix; the columns
/// listed in `zero_cols` are zero, those in `tied_cols` all ±1; pivots, info, residual and untouched memory checked.
template <class T>
void run_panel(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, const std::vector<int64_t>& rows,
               int64_t n, int64_t row0, const std::vector<int64_t>& zero_cols = {},
               const std::vector<int64_t>& tied_cols = {}) {
    int64_t m = 0;
    for (int64_t r : rows) m += r;
    SCOPED_TRACE(::testing::Message() << "getrf_panel m=" << m << " n=" << n << " tiles=" << rows.size());
    std::vector<std::unique_ptr<DevMat<T>>> tiles;
    std::vector<T> a(size_t(m * n));  // the dense panel, ld = m
    for (size_t t = 0, r0 = 0; t < rows.size(); r0 += size_t(rows[t]), ++t) {
        tiles.push_back(std::make_unique<DevMat<T>>(rows[t], n, 3 + t));
        fill_random(*tiles[t], rng);
        for (int64_t c : zero_cols)
            for (int64_t i = 0; i < rows[t]; ++i) (*tiles[t])(i, c) = T(0);
        for (int64_t c : tied_cols)  // every entry of magnitude 1: izamax's first row must win
            for (int64_t i = 0; i < rows[t]; ++i) (*tiles[t])(i, c) = T((r0 + i) % 3 ? 1 : -1);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < rows[t]; ++i) a[size_t(r0 + i + j * m)] = (*tiles[t])(i, j);
        tiles[t]->upload();
    }
    std::vector<std::vector<T>> before;
    std::vector<ocl::Mat> mats;
    for (auto& t : tiles) before.push_back(t->h), mats.push_back(t->mat());
    const int64_t kb = std::min(m, n);
    const size_t piv_off = 2;  // elements of the pivots buffer before the panel's
    cl_int err = CL_SUCCESS;
    cl_mem piv = clCreateBuffer(Env::get().ctx(), CL_MEM_READ_WRITE, (piv_off + size_t(kb)) * sizeof(int64_t), nullptr, &err);
    ocl::check(err, "clCreateBuffer(pivots)");
    std::vector<int64_t> ipiv(size_t(kb), -7);
    int info = -7;
    ocl::getrf_panel<T>(dk, q, mats, rows, n, row0, piv, piv_off, ipiv.data(), &info);
    for (auto& t : tiles) t->download();
    std::vector<int64_t> dev_ipiv(static_cast<size_t>(kb));
    ocl::check(clEnqueueReadBuffer(q, piv, CL_TRUE, piv_off * sizeof(int64_t), size_t(kb) * sizeof(int64_t),
                                   dev_ipiv.data(), 0, nullptr, nullptr),
               "clEnqueueReadBuffer(pivots)");
    clReleaseMemObject(piv);

    std::vector<T> ref = a;
    std::vector<int> ref_ipiv(static_cast<size_t>(kb));
    const int ref_info = cpu::getrf<T>(m, n, ref.data(), m, ref_ipiv.data());
    EXPECT_EQ(info, ref_info);
    for (int64_t i = 0; i < kb; ++i) {
        EXPECT_EQ(ipiv[size_t(i)], row0 + ref_ipiv[size_t(i)]) << "ipiv[" << i << "]";
        EXPECT_EQ(dev_ipiv[size_t(i)], ipiv[size_t(i)]) << "device ipiv[" << i << "]";
    }
    // ‖P·A − L·U‖₁ with our factors and pivots (P applied to A's rows in order, as LAPACK's laswp).
    std::vector<T> lu(size_t(m * n));
    for (size_t t = 0, r0 = 0; t < tiles.size(); r0 += size_t(rows[t]), ++t)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < rows[t]; ++i) lu[size_t(r0 + i + j * m)] = (*tiles[t])(i, j);
    std::vector<T> pa = a;
    for (int64_t i = 0; i < kb; ++i) {
        const int64_t p = ipiv[size_t(i)] - 1 - row0;
        ASSERT_TRUE(p >= i && p < m) << "ipiv[" << i << "] = " << ipiv[size_t(i)];
        for (int64_t j = 0; j < n; ++j) std::swap(pa[size_t(i + j * m)], pa[size_t(p + j * m)]);
    }
    std::vector<T> L(size_t(m * kb), T(0)), U(size_t(kb * n), T(0));
    for (int64_t j = 0; j < kb; ++j)
        for (int64_t i = 0; i < m; ++i) L[size_t(i + j * m)] = i == j ? T(1) : i > j ? lu[size_t(i + j * m)] : T(0);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, kb - 1); ++i) U[size_t(i + j * kb)] = lu[size_t(i + j * m)];
    ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, kb, T(-1), L.data(), m, U.data(), kb, T(1), pa.data(), m);
    const double num = norm1(m, n, pa.data(), m), den = norm1(m, n, a.data(), m) * double(m) * eps<T>();
    EXPECT_TRUE(residual_ok(num, den, "getrf_panel"));
    for (size_t t = 0; t < tiles.size(); ++t)
        EXPECT_TRUE(untouched(*tiles[t], before[t], [](int64_t, int64_t) { return true; }));
}

template <class T>
class OpenCLLu : public OpenCLKernels<T> {};
TYPED_TEST_SUITE(OpenCLLu, Precisions);

TYPED_TEST(OpenCLLu, PanelMatchesLapack) {
    using T = TypeParam;
    run_panel<T>(this->dk(), this->q(), this->rng, {24}, 24, 0);                  // one leaf (TESSERA_GETRF_LEAF 32)
    run_panel<T>(this->dk(), this->q(), this->rng, {40}, 40, 0);                  // a leaf and a narrower one
    run_panel<T>(this->dk(), this->q(), this->rng, {128, 128, 44}, 128, 256);     // depth 2, three tiles
    run_panel<T>(this->dk(), this->q(), this->rng, {200, 200, 200, 77}, 200, 0);  // uneven halves
}

// Leaves of more than 1024 rows run one launch per column over a work-group per 256 rows (TESSERA_GETRF_STEP_ROWS)
// (tessera_getrf_leaf_step); the shorter leaves of the same panel run in one work-group.
TYPED_TEST(OpenCLLu, TallPanelAcrossWorkGroups) {
    using T = TypeParam;
    run_panel<T>(this->dk(), this->q(), this->rng, {700, 700, 333}, 72, 512);
    run_panel<T>(this->dk(), this->q(), this->rng, {1300}, 40, 0, {}, {0});
    run_panel<T>(this->dk(), this->q(), this->rng, {1100, 100}, 64, 0, {3, 40});
}

TYPED_TEST(OpenCLLu, WidePanel) {
    using T = TypeParam;
    run_panel<T>(this->dk(), this->q(), this->rng, {50}, 80, 100);
    run_panel<T>(this->dk(), this->q(), this->rng, {70, 30}, 150, 0);
}

TYPED_TEST(OpenCLLu, ZeroColumnSetsInfoAndGoesOn) {
    using T = TypeParam;
    run_panel<T>(this->dk(), this->q(), this->rng, {100, 60}, 96, 0, {5, 70});
}

// Tall leaves in one launch whose work-groups exchange each column's candidates
// (tessera_getrf_leaf_grid, on NVIDIA GPUs by default; TESSERA_GETRF_GRID=2 takes it on PoCL too):
// at most one work-group per compute unit, each work-item keeping several rows in registers, the same pivots and factors as LAPACK; a zero column
// sets info and the leaf goes on; tied magnitudes pick the first row. Complex double (the real
// precisions take the same code; BarrierThatGivesUpRaisesError builds double), leaves of 8 columns,
// which keep PoCL's build of the unrolled kernel short.
TEST(OpenCLLuGrid, TallPanelInOneLaunch) {
    std::mt19937_64 rng(5);
    const std::string opts = "-DTESSERA_GETRF_GRID=2 -DTESSERA_GETRF_LEAF=8";
    const auto dkz = Env::get().build_variant('z', opts);
    ASSERT_EQ(dkz->params().getrf_grid, 2);
    const cl_command_queue q = Env::get().queue();
    using Z = std::complex<double>;
    run_panel<Z>(*dkz, q, rng, {1300}, 40, 0, {}, {0});
    run_panel<Z>(*dkz, q, rng, {1100, 100}, 64, 0, {3, 40});
    run_panel<Z>(*dkz, q, rng, {700, 700, 333}, 72, 512);
    run_panel<Z>(*dkz, q, rng, {1300, 200}, 40, 0, {7}, {1});
}

// When the work-groups of a one-launch leaf do not meet (here: every wait for another work-group's
// column gives up at once, GETRF_GRID_SPINS=0, as when other work holds compute units), every work-group stops
// and the panel raises an Error that names the cause and the way around it, instead of hanging or
// returning a wrong factor.
TEST(OpenCLLuGrid, BarrierThatGivesUpRaisesError) {
    const auto dk = Env::get().build_variant('d', "-DTESSERA_GETRF_GRID=2 -DTESSERA_GETRF_LEAF=8 -DGETRF_GRID_SPINS=0");
    DevMat<double> A(1300, 16, 3);
    std::mt19937_64 rng(9);
    fill_random(A, rng);
    A.upload();
    cl_int err = CL_SUCCESS;
    cl_mem piv = clCreateBuffer(Env::get().ctx(), CL_MEM_READ_WRITE, 16 * sizeof(int64_t), nullptr, &err);
    ocl::check(err, "clCreateBuffer(pivots)");
    std::vector<int64_t> ipiv(16);
    int info = 0;
    try {
        ocl::getrf_panel<double>(*dk, Env::get().queue(), {A.mat()}, {1300}, 16, 0, piv, 0, ipiv.data(), &info);
        ADD_FAILURE() << "no error (info " << info << ")";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("column timed out"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("TESSERA_GETRF_GRID=0"), std::string::npos) << e.what();
    }
    ocl::check(clFinish(Env::get().queue()), "clFinish");
    clReleaseMemObject(piv);
}

}  // namespace

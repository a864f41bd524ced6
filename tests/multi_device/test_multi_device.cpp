// Several OpenCL devices in one process (runtime/device_map.hpp): PoCL exposes two devices
// (POCL_DEVICES="pthread pthread"); potrf, gemm, getrf and geqrf in s, d, c and z pass the residual checks
// of docs/architecture.md#numerical-checks and (opencl mode) spread their tasks over both; the map gives
// tiles to devices 2D block-cyclically. Run by tests/multi_device/CMakeLists.txt as
// multi_device.opencl (tasks on the devices only), multi_device.mixed (dmdas, CPU worker too) and
// multi_device.capped_memory (STARPU_LIMIT_OPENCL_MEM below the matrix: StarPU evicts and writes
// back tiles, and the factorization stays correct).
#include <cstdlib>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_qr.hpp"
#include "runtime/device_map.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/runtime_internal.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class MultiDevice : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        ASSERT_GE(test::RuntimeEnvironment::runtime().opencl_workers(), 2)
            << "needs two OpenCL devices (POCL_DEVICES=\"pthread pthread\")";
        if (test::mode() == "mixed") allow_cpu_tasks();
    }
    // Every OpenCL device ran some of the tasks since the test started. In opencl mode only: in mixed
    // mode dmdas may rightly give every task to the CPU worker once its models say PoCL is slower
    // (it did after a few runs in one StarPU home), so there only the results are checked.
    static void expect_every_device_used(const char* what) {
        if (test::mode() != "opencl") return;
        Runtime::wait_all();
        for (const WorkerStats& w : test::RuntimeEnvironment::runtime().worker_stats())
            if (w.opencl) EXPECT_GT(w.executed_tasks, 0) << what << ": " << w.name << " ran no task";
    }
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(MultiDevice, Precisions);

// potrf of a random n×n SPD matrix in tiles of nb, Lower then Upper, each checked.
template <class T>
void potrf_both_triangles(int64_t n, int64_t nb, uint64_t seed) {
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        auto a = check::random_spd<T>(n, n, seed), f = a;
        TileMatrix<T> A(n, n, nb);
        A.fill_from_lapack(a.data(), n);
        ASSERT_EQ(potrf(uplo, A), 0);
        A.to_lapack(f.data(), n);
        EXPECT_LE(check::potrf_residual(uplo, n, a.data(), n, f.data(), n), check::kThreshold) << char(uplo);
    }
}

// The map: n devices → a 1×n grid (tile column j on device j mod 2), in the order tiles register, or
// the 2×1 grid TESSERA_DEVICE_GRID asks for (multi_device.grid_2x1); with TESSERA_DEVICE_MAP=0
// (multi_device.map_off) no tile has an owner device.
TYPED_TEST(MultiDevice, TilesSpreadBlockCyclically) {
    this->expect_no_tasks();
    const char* env = std::getenv("TESSERA_DEVICE_MAP");
    if (env && std::string(env) == "0") {
        EXPECT_EQ(detail::mapped_devices(), 0);
        EXPECT_NE(detail::describe_device_map().find("TESSERA_DEVICE_MAP=0"), std::string::npos);
        TileMatrix<TypeParam> A(64, 64, 16);
        for (int64_t j = 0; j < A.nt(); ++j)
            for (int64_t i = 0; i < A.mt(); ++i) EXPECT_EQ(detail::tile_device(A.handle(i, j)), -1);
        return;
    }
    const int devices = detail::mapped_devices();
    ASSERT_GE(devices, 2) << "the device map is off: " << detail::describe_device_map();
    int p = 1;  // the default grid is 1×devices
    const char* grid = std::getenv("TESSERA_DEVICE_GRID");  // multi_device.grid_2x1
    if (grid && std::string(grid) == "2x1" && devices == 2) p = 2;
    const int q = devices / p;
    EXPECT_EQ(detail::describe_device_map().rfind(std::to_string(p) + "x" + std::to_string(q) + " grid", 0), 0u)
        << detail::describe_device_map();
    TileMatrix<TypeParam> A(5 * 16, 7 * 16, 16);
    std::vector<int> tiles_per_device(size_t(devices), 0);
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            const int d = detail::tile_device(A.handle(i, j));
            EXPECT_EQ(d, int((i % p) * q + j % q)) << "tile (" << i << ", " << j << ")";
            if (d >= 0 && d < devices) ++tiles_per_device[size_t(d)];
        }
    for (int d = 0; d < devices; ++d) EXPECT_GT(tiles_per_device[size_t(d)], 0) << "device " << d;
}

TYPED_TEST(MultiDevice, PotrfSpreadsAndChecks) {
    potrf_both_triangles<TypeParam>(256, 32, 17);
    this->expect_every_device_used("potrf");
}

// Cholesky's panel inverts its diagonal tile on each device that solves with it: no temporary tile
// crosses devices, so StarPU allocates no host copy of one (an inverse that crossed cost ~90 ms a
// step on 4 H100s, algorithms/cholesky.cpp), with the 2×1 grid (Lower crosses) and 1×2 (Upper).
TYPED_TEST(MultiDevice, PotrfInverseStaysOnItsDevice) {
    if (test::mode() != "opencl") GTEST_SKIP() << "the CPU worker may solve a panel tile and need the inverse at home";
    static_assert(128 * 128 * sizeof(float) >= detail::HostMemoryPool::kPinStarpuFrom);  // tiles it counts
    const size_t before = detail::host_memory().starpu_blocks();
    potrf_both_triangles<TypeParam>(512, 128, 23);
    EXPECT_EQ(detail::host_memory().starpu_blocks(), before)
        << "a temporary tile went through host memory (" << detail::describe_device_map() << ")";
    this->expect_every_device_used("potrf");
}

TYPED_TEST(MultiDevice, GemmSpreadsAndChecks) {
    using T = TypeParam;
    const int64_t m = 200, n = 256, k = 160, nb = 32;
    auto a = check::random_matrix<T>(m, k, m, 3), b = check::random_matrix<T>(k, n, k, 4);
    auto c0 = check::random_matrix<T>(m, n, m, 5), c = c0;
    TileMatrix<T> A(m, k, nb), B(k, n, nb), C(m, n, nb);
    A.fill_from_lapack(a.data(), m);
    B.fill_from_lapack(b.data(), k);
    C.fill_from_lapack(c.data(), m);
    const T alpha(0.5), beta(-1);
    gemm(Trans::NoTrans, Trans::NoTrans, alpha, A, B, beta, C);
    C.to_lapack(c.data(), m);
    EXPECT_LE(check::gemm_residual(Trans::NoTrans, Trans::NoTrans, m, n, k, alpha, a.data(), m, b.data(), k, beta,
                                   c0.data(), c.data(), m),
              check::kThreshold);
    this->expect_every_device_used("gemm");
}

TYPED_TEST(MultiDevice, GetrfSpreadsAndChecks) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // the partial-pivoting panel runs on a CPU worker
    const int64_t n = 192, nb = 32;
    auto a = check::random_matrix<T>(n, n, n, 9), f = a;
    TileMatrix<T> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    std::vector<int64_t> ipiv;
    ASSERT_EQ(getrf(A, ipiv), 0);
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::getrf_residual(n, n, a.data(), n, f.data(), n, ipiv.data()), check::kThreshold);
    this->expect_every_device_used("getrf");
}

// geqrf's column panels (QRForm::ColumnPanel, the form with OpenCL devices) spread over both devices
// and pass the residual checks. In opencl mode the tiles that reach the devices are at most what the
// tile-column map needs: each tile once to its owner, each panel's V tiles to the other device, and
// per panel its T tile and V's diagonal tile; the Vᴴ·C products of a tile column run on that
// column's device (before, they ran on the panel's device and C's tiles went back and forth: twice
// these bytes at n = 1024, nb = 128).
TYPED_TEST(MultiDevice, GeqrfSpreadsAndChecks) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // ungqr (the check's Q) starts from Q.generate, a CPU task per tile
    const int64_t n = 192, nb = 32, mt = n / nb;
    auto a = check::random_matrix<T>(n, n, n, 13), f = a;
    TileMatrix<T> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    Runtime::wait_all();
    Runtime& rt = test::RuntimeEnvironment::runtime();
    rt.profile_begin();
    QRFactors<T> F = geqrf(A);
    const Profile p = rt.profile_end();
    EXPECT_EQ(F.form(), QRForm::ColumnPanel);
    A.to_lapack(f.data(), n);
    std::vector<T> q(size_t(n * n));
    TileMatrix<T> Q(n, n, nb);
    ungqr(A, F, Q);
    Q.to_lapack(q.data(), n);
    EXPECT_LE(check::qr_residual(n, n, a.data(), n, q.data(), n, f.data(), n), check::kThreshold);
    EXPECT_LE(check::orthogonality_residual(n, n, q.data(), n), check::kThreshold);
    this->expect_every_device_used("geqrf");
    if (test::mode() != "opencl") return;
    for (const Profile::Worker& w : p.workers)  // geqrf itself: every task on the devices
        if (!w.opencl) EXPECT_EQ(w.tasks, 0) << "geqrf ran tasks on " << w.name;
    int64_t to_devices = 0;
    for (const Profile::Transfer& t : p.transfers)
        if (t.from.rfind("NUMA", 0) == 0 && t.to.rfind("OpenCL", 0) == 0) to_devices += t.bytes;
    const int64_t tiles = mt * mt + mt * (mt - 1) / 2 + 2 * (mt - 1);
    EXPECT_LE(to_devices, tiles * nb * nb * int64_t(sizeof(T))) << "tiles moved to the devices";
}

// STARPU_LIMIT_OPENCL_MEM (MiB per device) below the matrix: each device holds part of it at a
// time, StarPU evicts tiles (writing modified ones home) to make room, and the result is correct.
TYPED_TEST(MultiDevice, PotrfLargerThanDeviceMemory) {
    using T = TypeParam;
    const char* limit = std::getenv("STARPU_LIMIT_OPENCL_MEM");
    ASSERT_TRUE(limit && *limit) << "run with STARPU_LIMIT_OPENCL_MEM set (tests/multi_device/CMakeLists.txt)";
    const int64_t nb = 64;
    int64_t n = nb;  // the smallest multiple of nb whose matrix is 2.5× the per-device limit
    while (double(n) * double(n) * sizeof(T) < 2.5 * std::atof(limit) * 1024 * 1024) n += nb;
    auto a = check::random_spd<T>(n, n, 23), f = a;
    TileMatrix<T> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold) << "n " << n;
    this->expect_every_device_used("potrf larger than device memory");
}

}  // namespace
}  // namespace tessera

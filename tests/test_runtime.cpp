// Runtime: scheduler choice, description, worker statistics; TileMatrix shapes and round trips.
#include <starpu.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "codelets/handles.hpp"
#include "tessera/blas3.hpp"
#include "examples/common/checks.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/runtime_internal.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeEnvironment;

class RuntimeBasics : public test::RuntimeTest {};

TEST_F(RuntimeBasics, SchedulerFollowsEnvironmentOrDevices) {
    expect_no_tasks();
    Runtime& rt = RuntimeEnvironment::runtime();
    const char* env = std::getenv("STARPU_SCHED");
    if (env && *env) EXPECT_EQ(rt.scheduler(), env);
    else EXPECT_EQ(rt.scheduler(), rt.opencl_workers() > 0 ? "dmdas" : "lws");
    const std::string text = rt.describe();
    EXPECT_NE(text.find("scheduler: " + rt.scheduler()), std::string::npos);
    EXPECT_NE(text.find("CPU"), std::string::npos);
    if (rt.opencl_workers() > 0) EXPECT_NE(text.find("OpenCL device 0"), std::string::npos);
}

TEST_F(RuntimeBasics, SecondRuntimeIsRefused) {
    expect_no_tasks();
    EXPECT_THROW(Runtime(), Error);
}

TEST_F(RuntimeBasics, TileShapes) {
    expect_no_tasks();
    TileMatrix<double> A(10, 7, 4);
    EXPECT_EQ(A.mt(), 3);
    EXPECT_EQ(A.nt(), 2);
    EXPECT_EQ(A.tile_rows(2), 2);
    EXPECT_EQ(A.tile_cols(1), 3);
    EXPECT_EQ(A.owner(1, 1), 0);
    EXPECT_TRUE(A.is_local(2, 1));
    // Each tile stores its own rows × columns, packed in its tile column's block: tile (1, 1) (4×3)
    // follows tile (0, 1) (4×3), and a vector's tiles are nb×1, not nb×nb (an n×1 right-hand side
    // with nb = 4096 pinned 4096 times its size).
    EXPECT_EQ(A.tile_data(1, 1) - A.tile_data(0, 1), 4 * 3);
    EXPECT_EQ(A.tile_data(2, 0) - A.tile_data(1, 0), 4 * 4);
    TileMatrix<double> v(10, 1, 4);
    EXPECT_EQ(v.tile_data(1, 0) - v.tile_data(0, 0), 4);
    EXPECT_EQ(v.tile_data(2, 0) - v.tile_data(1, 0), 4);
    // One process: a 1×1 grid, every tile local; a grid of more ranks than the runtime has is refused.
    EXPECT_FALSE(test::RuntimeEnvironment::runtime().distributed());
    EXPECT_EQ(Runtime::ranks(), 1);
    EXPECT_EQ(test::RuntimeEnvironment::runtime().grid().ranks(), 1);
    TileMatrix<double> B(3, 3, 5, Distribution{1, 1});
    EXPECT_EQ(B.owner(0, 0), 0);
    EXPECT_THROW(TileMatrix<double>(3, 3, 5, Distribution{2, 2}), Error);
    TileMatrix<float> C(0, 5, 3);
    EXPECT_EQ(C.mt(), 0);
}

TEST_F(RuntimeBasics, LapackRoundTripThroughTiles) {
    for (auto [m, n, nb] : {std::tuple{1, 1, 4}, {17, 9, 4}, {8, 8, 8}, {5, 12, 20}}) {
        const int64_t lda = m + 2;
        auto a = check::random_matrix<double>(m, n, lda, 1), b = std::vector<double>(a.size(), -7.0);
        TileMatrix<double> A(m, n, nb);
        A.fill_from_lapack(a.data(), lda);
        A.to_lapack(b.data(), lda);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < lda; ++i)
                EXPECT_EQ(b[size_t(i + j * lda)], i < m ? a[size_t(i + j * lda)] : -7.0) << i << "," << j;
    }
}

// A workspace has no host storage: nothing is allocated until a task writes a tile, and tasks
// (a fill, a gemm, the copy out) see its tiles as any other matrix's.
TEST_F(RuntimeBasics, WorkspaceTilesHaveNoHostStorageAndWorkThroughTasks) {
    for (auto [m, n, nb] : {std::tuple{17, 9, 4}, {8, 8, 8}, {0, 3, 2}}) {
        const int64_t lda = m + 1;
        auto a = check::random_matrix<double>(m, n, std::max<int64_t>(1, lda), 2);
        auto b = std::vector<double>(a.size(), -7.0);
        TileMatrix<double> W = TileMatrix<double>::workspace(m, n, nb);
        EXPECT_EQ(W.m(), m);
        EXPECT_EQ(W.mt(), (m + nb - 1) / nb);
        for (int64_t j = 0; j < W.nt(); ++j)
            for (int64_t i = 0; i < W.mt(); ++i) {
                EXPECT_EQ(W.tile_data(i, j), nullptr);
                EXPECT_FALSE(W.is_local(i, j));
            }
        W.fill_from_lapack(a.data(), std::max<int64_t>(1, lda));
        TileMatrix<double> I(n, n, nb), C(m, n, nb);
        std::vector<double> eye(size_t(n * n), 0.0);
        for (int64_t j = 0; j < n; ++j) eye[size_t(j + j * n)] = 1;
        I.fill_from_lapack(eye.data(), std::max<int64_t>(1, n));
        gemm(Trans::NoTrans, Trans::NoTrans, 1.0, W, I, 0.0, C);  // C = W·I
        C.to_lapack(b.data(), std::max<int64_t>(1, lda));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i)  // an exact copy: each entry is one product with 1
                EXPECT_EQ(b[size_t(i + j * lda)], a[size_t(i + j * lda)]) << i << "," << j;
    }
    EXPECT_THROW(TileMatrix<float>::workspace(-1, 2, 2), Error);
    EXPECT_THROW(TileMatrix<float>::workspace(2, 2, 0), Error);
}

// The memory check counts StarPU's handle and Tessera's bookkeeping of every tile, not only the
// scalars: 40000 x 40000 floats in 1 x 1 tiles are 6.4 GB of scalars but 1.6e9 handles (8 TB).
// Tile counts beyond 2^31 - 1 and sizes whose tiles could only be counted by a loop of 2^48 steps
// (which used to hang) or allocated as a vector of 2^40 entries (std::bad_alloc) are refused at once,
// as tessera::Error naming the argument.
TEST_F(RuntimeBasics, TileCountsAndTheirBookkeepingAreCheckedBeforeAllocating) {
    expect_no_tasks();
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); } catch (const std::exception& e) {
            return std::string("not a tessera::Error: ") + e.what();
        }
        return std::string("no error");
    };
    const std::string memory = message([] { TileMatrix<float>(40000, 40000, 1); });
    EXPECT_NE(memory.find("tessera::TileMatrix: needs"), std::string::npos) << memory;
    EXPECT_NE(memory.find("of host memory"), std::string::npos) << memory;
    const int64_t big = int64_t(1) << 30, huge = int64_t(1) << 40;
    for (auto [m, n, nb] : {std::tuple{big, big, int64_t(64)}, {huge, huge, int64_t(1)}, {int64_t(1), huge, int64_t(1)},
                            {huge, huge, int64_t(64)}, {huge, int64_t(1), int64_t(1)}}) {
        // Copies: clang 14 does not capture structured bindings in a lambda.
        const std::string what = message([m = m, n = n, nb = nb] { TileMatrix<double>(m, n, nb); });
        EXPECT_NE(what.find("tessera::TileMatrix: argument 'nb'"), std::string::npos) << m << " " << n << " " << nb << ": " << what;
    }
    // Few tiles of astronomic size: counted, and refused by the memory check.
    const std::string bytes = message([&] { TileMatrix<double>(big, big, int64_t(1) << 15); });
    EXPECT_NE(bytes.find("tessera::TileMatrix: needs"), std::string::npos) << bytes;
}

// A matrix that outlives its Runtime: the Runtime's destructor releases its tiles (a view's results
// come home first); every later use throws Error, even under a new Runtime, and destroying it is
// harmless (it used to unregister handles of a stopped StarPU: a crash).
TEST_F(RuntimeBasics, MatrixOutlivingItsRuntimeIsRefusedAndDestroyedSafely) {
    expect_no_tasks();
    allow_cpu_tasks();
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    auto A = std::make_unique<TileMatrix<double>>(9, 7, 4);
    std::vector<double> a(9 * 7, 2.0), b(9 * 7), v(6 * 6, 0.0);
    A->fill_from_lapack(a.data(), 9);
    auto V = std::make_unique<TileMatrix<double>>(TileMatrix<double>::view(v.data(), 6, 6, 6, 4));
    V->generate([](int64_t, int64_t, int64_t rows, int64_t cols, double* t, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) t[i + j * ld] = 5.0;
    });
    auto moved = std::make_unique<TileMatrix<double>>(9, 9, 4);
    TileMatrix<double> target = std::move(*moved);  // the list follows the move
    auto F = std::make_unique<QRFactors<double>>(*A, 2);  // QR's factors are released the same way
    test::RuntimeEnvironment::restart_runtime([&] {
        for (double x : v) EXPECT_EQ(x, 5.0);  // the view's result came home when the Runtime stopped
        const std::string what = message([&] { A->to_lapack(b.data(), 9); });
        EXPECT_NE(what.find("tessera::TileMatrix::to_lapack: the matrix's Runtime has stopped"), std::string::npos) << what;
        EXPECT_NE(message([&] { A->fill_from_lapack(a.data(), 9); }).find("Runtime has stopped"), std::string::npos);
        EXPECT_NE(message([&] { A->acquire_host(); }).find("Runtime has stopped"), std::string::npos);
        EXPECT_NE(message([&] { A->handle(0, 0); }).find("Runtime has stopped"), std::string::npos);
        EXPECT_NE(message([&] { target.keep_only_on_host(); }).find("Runtime has stopped"), std::string::npos);
        EXPECT_NE(message([&] { F->handle(0, 0); }).find("Runtime has stopped"), std::string::npos);
        F.reset();
        V.reset();  // destroyed with no Runtime: nothing to do
        moved.reset();
    });
    // Under the next Runtime the old matrix is still refused, by algorithms too.
    EXPECT_NE(message([&] { A->generate([](int64_t, int64_t, int64_t, int64_t, double*, int64_t) {}); })
                  .find("Runtime has stopped"),
              std::string::npos);
    EXPECT_NE(message([&] { gemm(Trans::NoTrans, Trans::Trans, 1.0, *A, *A, 0.0, target); }).find("Runtime has stopped"),
              std::string::npos);
    A.reset();
    // ... and the new Runtime works.
    TileMatrix<double> B(9, 7, 4);
    B.fill_from_lapack(a.data(), 9);
    B.to_lapack(b.data(), 9);
    EXPECT_EQ(b, a);
}

// With TESSERA_IDLE_SLEEP_US (tests/CMakeLists.txt sets it), an idle Runtime leaves the cores alone:
// its CPU workers sleep and an OpenCL worker yields (it still runs when no other thread wants the
// core). Polling, each worker would take a whole core.
TEST_F(RuntimeBasics, IdleWorkersGiveTheirCoresAway) {
    expect_no_tasks();
    const char* us = std::getenv("TESSERA_IDLE_SLEEP_US");
    if (!us || std::atoi(us) <= 0) GTEST_SKIP() << "TESSERA_IDLE_SLEEP_US is not set";
    Runtime& rt = RuntimeEnvironment::runtime();
    Runtime::wait_all();
    auto cpu_seconds = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    };
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cores = (cpu_seconds() - cpu0) / wall;
    // A CPU worker waking every 100 µs to poll took 0.13 of a core (2-core AMD EPYC), polling
    // without pause a whole one; an OpenCL worker alone on a core may take all of it.
    const double most = 0.4 * rt.cpu_workers() + 1.1 * rt.opencl_workers();
    EXPECT_LE(cores, most) << rt.cpu_workers() << " CPU and " << rt.opencl_workers() << " OpenCL workers";
}

TEST_F(RuntimeBasics, GenerateFillsTilesWithGlobalIndices) {
    allow_cpu_tasks();
    expect_no_tasks();  // generation is a CPU task
    TileMatrix<double> A(9, 6, 4);
    A.generate([](int64_t i0, int64_t j0, int64_t rows, int64_t cols, double* t, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) t[i + j * ld] = double(100 * (i0 + i) + (j0 + j));
    });
    std::vector<double> a(9 * 6);
    A.to_lapack(a.data(), 9);
    for (int64_t j = 0; j < 6; ++j)
        for (int64_t i = 0; i < 9; ++i) EXPECT_EQ(a[size_t(i + j * 9)], double(100 * i + j));
}

TEST_F(RuntimeBasics, BadLeadingDimensionThrows) {
    expect_no_tasks();
    TileMatrix<double> A(5, 5, 2);
    std::vector<double> a(25);
    EXPECT_THROW(A.fill_from_lapack(a.data(), 4), Error);
    EXPECT_THROW(A.to_lapack(a.data(), 4), Error);
}

TEST_F(RuntimeBasics, TileStoragePinnedAsConfigured) {
    expect_no_tasks();
    // opencl mode asks for pinned storage; cpu and mixed (PoCL is a CPU device) leave it pageable.
    EXPECT_EQ(RuntimeEnvironment::runtime().pinned_host_memory(), test::mode() == "opencl");
    EXPECT_NE(RuntimeEnvironment::runtime().describe().find(test::mode() == "opencl" ? "pinned" : "pageable"),
              std::string::npos);
}

// A matrix's host blocks go back to the pool, which keeps them for the next matrix of the same
// block size (pinned or faulted in once: the drop-in LAPACK copies every call's arrays into tiles),
// and frees them when a request would otherwise be refused.
TEST_F(RuntimeBasics, TileStorageBlocksAreKeptForTheNextMatrix) {
    expect_no_tasks();
    const int64_t n = 333;  // one 333×333 block, a size no other test of this process uses
    const double* first = nullptr;
    {
        TileMatrix<double> A(n, n, n);
        first = A.tile_data(0, 0);
    }
    {
        TileMatrix<double> B(n, n, n);
        EXPECT_EQ(B.tile_data(0, 0), first);  // the kept block
        TileMatrix<double> C(n, n, n);
        EXPECT_NE(C.tile_data(0, 0), first);  // a new one: the kept block is B's now
    }
    EXPECT_TRUE(detail::host_memory().drop_kept());
    EXPECT_FALSE(detail::host_memory().drop_kept());
}

// gemm on 3×3 tiles with k = 2 tiles: 18 tile gemm tasks, every one of them in the profile.
// StarPU's own host blocks (a tile with no home in host memory, brought there) come from the
// Runtime's pool (HostMemoryPool::serve_starpu_allocations): pinned when the tile storage is, and
// a block StarPU freed is reused for the next one of its size instead of being pinned anew.
TEST_F(RuntimeBasics, StarpuHostBlocksComeFromThePool) {
    expect_no_tasks();
    auto& pool = detail::host_memory();
    pool.drop_kept();  // no block kept by an earlier test's matrix: the first request below pins anew
    const int64_t rows = 256;  // 512 KiB of doubles, above HostMemoryPool::kPinStarpuFrom
    static_assert(256 * 256 * sizeof(double) >= detail::HostMemoryPool::kPinStarpuFrom);
    const size_t blocks = pool.starpu_blocks(), pins = pool.starpu_new_pins();
    for (int round = 0; round < 3; ++round) {
        TileHandle h = tasks::register_tile(nullptr, rows, rows, rows, sizeof(double), 0);
        ASSERT_EQ(starpu_data_acquire(h, STARPU_W), 0);  // StarPU allocates its host copy now
        auto* p = reinterpret_cast<double*>(starpu_matrix_get_local_ptr(h));
        ASSERT_NE(p, nullptr);
        p[0] = p[rows * rows - 1] = 1;  // the whole block is writable
        starpu_data_release(h);
        tasks::unregister_tile(h);  // StarPU frees its host copy
    }
    EXPECT_EQ(pool.starpu_blocks(), blocks + 3);
    // Pinned storage: one pin, then the kept block twice (pageable storage pins nothing).
    EXPECT_EQ(pool.starpu_new_pins(), pins + (pool.pinned() ? 1 : 0));
}

TEST_F(RuntimeBasics, ProfileAccountsForEveryTask) {
    Runtime& rt = RuntimeEnvironment::runtime();
    const int64_t n = 30, k = 20, nb = 10;
    auto a = check::random_matrix<double>(n, k, n, 1), b = check::random_matrix<double>(k, n, k, 2);
    auto c0 = check::random_matrix<double>(n, n, n, 3), c = c0;
    TileMatrix<double> A(n, k, nb), B(k, n, nb), C(n, n, nb);
    // Written by CPU tasks, so that the tiles start in host memory only and must travel.
    allow_cpu_tasks();
    auto from = [](const std::vector<double>& src, int64_t ld) {
        return [&src, ld](int64_t i0, int64_t j0, int64_t rows, int64_t cols, double* t, int64_t ldt) {
            for (int64_t j = 0; j < cols; ++j)
                for (int64_t i = 0; i < rows; ++i) t[i + j * ldt] = src[size_t(i0 + i + (j0 + j) * ld)];
        };
    };
    A.generate(from(a, n));
    B.generate(from(b, k));
    C.generate(from(c0, n));
    Runtime::wait_all();
    rt.profile_begin();
    gemm(Trans::NoTrans, Trans::NoTrans, 1.0, A, B, 0.5, C);
    C.acquire_host();
    const Profile p = rt.profile_end();
    long worker_tasks = 0, codelet_tasks = 0;
    for (const Profile::Worker& w : p.workers) {
        worker_tasks += w.tasks;
        EXPECT_GE(w.kernel_s, 0.0);
        EXPECT_LE(w.kernel_s, p.wall_s * 1.01 + 1e-3) << w.name;
        if (!w.opencl || w.tasks == 0) continue;
        EXPECT_GT(w.kernel_s, 0.0) << w.name;
        // Kernels lie between the first start and the last end; idle time is what is left.
        EXPECT_GE(w.first_kernel_s, 0.0) << w.name;
        EXPECT_LE(w.kernel_s, w.last_kernel_s - w.first_kernel_s + 1e-6) << w.name;
        EXPECT_LE(w.last_kernel_s, p.wall_s * 1.01 + 1e-3) << w.name;
        ASSERT_EQ(w.idle_by_tenth.size(), 10u) << w.name;
        double idle = 0;
        for (double x : w.idle_by_tenth) {
            EXPECT_GE(x, 0.0);
            EXPECT_LE(x, p.wall_s / 10 + 1e-9);
            idle += x;
        }
        EXPECT_NEAR(idle, p.wall_s - w.kernel_s, p.wall_s * 0.02 + 1e-3) << w.name;
    }
    for (const Profile::Codelet& cl : p.codelets) {
        EXPECT_EQ(cl.name, "dgemm");
        codelet_tasks += cl.tasks;
    }
    EXPECT_EQ(worker_tasks, 18);
    EXPECT_EQ(codelet_tasks, 18);
    if (rt.opencl_workers() > 0 && test::mode() == "opencl") {
        int64_t to_device = 0, to_host = 0;
        for (const Profile::Transfer& t : p.transfers) (t.to.find("OpenCL") == 0 ? to_device : to_host) += t.bytes;
        EXPECT_GE(to_device, int64_t(sizeof(double)) * (n * k + k * n + n * n));  // every operand went in once
        EXPECT_GE(to_host, int64_t(sizeof(double)) * n * n);                     // C came back
        EXPECT_GT(p.probe_h2d_gbps, 0.0);
        EXPECT_TRUE(p.pinned);
    }
    EXPECT_NE(p.table().find("dgemm"), std::string::npos);
    C.to_lapack(c.data(), n);
    EXPECT_LE(check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, k, 1.0, a.data(), n, b.data(), k, 0.5,
                                   c0.data(), c.data(), n),
              check::kThreshold);
    EXPECT_THROW(rt.profile_end(), Error);
}

// Device-resident operands: fetched before the operation, results read back afterwards.
TEST_F(RuntimeBasics, FetchToDeviceKeepsResultsCorrect) {
    const int64_t n = 25, nb = 10;
    auto a = check::random_spd<double>(n, n, 5), f = a;
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    if (RuntimeEnvironment::runtime().opencl_workers() == 0) {
        expect_no_tasks();
        Runtime::wait_all();
        EXPECT_THROW(A.fetch_to_device(0), Error);
        return;
    }
    A.fetch_to_device(0);
    EXPECT_THROW(A.fetch_to_device(1), Error);
    ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold);
}

// The end-to-end staging of tessera-tester: keep_only_on_host leaves main memory the only valid
// copy; flush_to_host after submission brings results home without changing them.
TEST_F(RuntimeBasics, KeepOnlyOnHostAndFlushToHost) {
    const int64_t n = 25, nb = 10;
    auto a = check::random_spd<double>(n, n, 6), f = a;
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    A.keep_only_on_host();
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i)
            for (unsigned node = 0; node < starpu_memory_nodes_get_count(); ++node)
                EXPECT_EQ(starpu_data_is_on_node(A.handle(i, j), node) != 0, node == STARPU_MAIN_RAM)
                    << "tile (" << i << ", " << j << ") node " << node;
    Sequence seq;
    potrf_async(Uplo::Lower, A, seq);
    A.flush_to_host();
    ASSERT_EQ(seq.wait(), 0);
    A.acquire_host();
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) EXPECT_TRUE(starpu_data_is_on_node(A.handle(i, j), STARPU_MAIN_RAM));
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold);
}

}  // namespace
}  // namespace tessera

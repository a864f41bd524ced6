// The tile algorithms distributed over MPI ranks (StarPU-MPI), against the residuals of
// docs/architecture.md#numerical-checks.
// Run by ctest under mpirun (tests/mpi/CMakeLists.txt): every rank runs every test (SPMD); rank 0
// holds the LAPACK arrays, scatters them (fill_from_lapack), gathers the results (to_lapack) and
// checks them; the randomized checks run on every rank's own tiles. TESSERA_TEST_GRID=PxQ picks the process grid (default: the Runtime's).
#include <gtest/gtest.h>
#include <mpi.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_qr.hpp"
#include "examples/common/checks_random.hpp"
#include "runtime/mpi_internal.hpp"
#include "tessera/tessera.hpp"

namespace tessera {
namespace {

Runtime* g_runtime = nullptr;

Distribution grid_from_env() {
    const char* g = std::getenv("TESSERA_TEST_GRID");
    Distribution d{};
    if (g && *g) std::sscanf(g, "%dx%d", &d.p, &d.q);
    return d;
}

bool root() { return g_runtime->rank() == 0; }

template <class T>
class Distributed : public ::testing::Test {};
// The four LAPACK precisions: complex tiles travel between ranks as their bytes, like real ones.
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Distributed, Precisions);

// A tile count that neither 2×2 nor 4×1 divides (7 tiles, the last partial), and a single tile.
struct Shape {
    int64_t n, nb;
};
const Shape kShapes[] = {{130, 20}, {15, 32}};

TEST(DistributedRuntime, RanksAndGrid) {
    int size = 0, rank = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    EXPECT_TRUE(g_runtime->distributed());
    EXPECT_EQ(g_runtime->ranks(), size);
    EXPECT_EQ(g_runtime->rank(), rank);
    EXPECT_EQ(g_runtime->grid().ranks(), size);
    TileMatrix<double> A(50, 50, 10);  // 5×5 tiles: each rank stores exactly those it owns
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) EXPECT_EQ(A.is_local(i, j), A.owner(i, j) == rank);
    EXPECT_THROW(TileMatrix<double>(10, 10, 5, Distribution{size + 1, 1}), Error);
}

// Rank 0 gets every rank's text in rank order (tessera-tester --profile), an empty one included.
TEST(DistributedRuntime, GatherToRank0) {
    const int rank = g_runtime->rank(), size = g_runtime->ranks();
    auto text_of = [](int r) { return r == 1 ? std::string() : std::string(size_t(r + 1), char('a' + r)) + "\n"; };
    const std::vector<std::string> all = detail::gather_to_rank0(text_of(rank));
    if (rank != 0) {
        EXPECT_TRUE(all.empty());
        return;
    }
    ASSERT_EQ(all.size(), size_t(size));
    for (int r = 0; r < size; ++r) EXPECT_EQ(all[size_t(r)], text_of(r)) << "rank " << r;
}

// The randomized residuals (checks_random.hpp) on distributed tiles: each rank multiplies its own
// tiles, every rank gets the same residual, and a wrong entry in a tile of the last rank fails the
// check on every rank.
TYPED_TEST(Distributed, RandomizedCheckAgrees) {
    using T = TypeParam;
    const int64_t n = 130, nb = 20;  // 7×7 tiles, the last partial
    TileMatrix<T> A(n, n, nb);
    check::generate_random_spd(A, 5);
    const check::PotrfCheckRandom<T> random(Uplo::Lower, A);
    ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    auto on_every_rank = [](double residual) {
        double lo = residual, hi = residual;
        MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        return lo == hi;
    };
    const double good = random.residual(A);
    EXPECT_TRUE(check::passes(good)) << good;
    EXPECT_TRUE(on_every_rank(good)) << good;
    int64_t ti = -1, tj = -1;  // the last tile of L that the last rank owns
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = j; i < A.mt(); ++i)
            if (A.owner(i, j) == g_runtime->ranks() - 1) ti = i, tj = j;
    ASSERT_GE(ti, 0);
    if (A.is_local(ti, tj)) A.tile_data(ti, tj)[0] += T(1);  // its host copy is current after residual()
    const double bad = random.residual(A);
    EXPECT_FALSE(check::passes(bad)) << bad << " with a wrong entry in tile (" << ti << ", " << tj << ")";
    EXPECT_TRUE(on_every_rank(bad)) << bad;
}

// The norms (tessera/norms.hpp) are one process only: every form refuses a distributed Runtime on
// every rank, before submitting anything.
TEST(DistributedRuntime, NormsRefuseDistributed) {
    TileMatrix<double> A(10, 10, 4);
    EXPECT_THROW(lange(Norm::One, A), Error);
    EXPECT_THROW(lansy(Norm::Fro, Uplo::Lower, A), Error);
    EXPECT_THROW(lantr(Norm::Max, Uplo::Upper, Diag::Unit, A), Error);
    std::vector<double> a(100, 1.0);
    EXPECT_THROW(lapack::lange<double>('I', 10, 10, a.data(), 10), Error);
}

TYPED_TEST(Distributed, Gemm) {
    using T = TypeParam;
    for (auto [n, nb] : kShapes) {
        const int64_t m = n + 7, k = n / 2 + 1;
        auto a = check::random_matrix<T>(m, k, m, 1), b = check::random_matrix<T>(k, n, k, 2),
             c0 = check::random_matrix<T>(m, n, m, 3), c = c0;
        TileMatrix<T> A(m, k, nb), B(k, n, nb), C(m, n, nb);
        A.fill_from_lapack(a.data(), m);
        B.fill_from_lapack(b.data(), k);
        C.fill_from_lapack(c0.data(), m);
        gemm(Trans::NoTrans, Trans::NoTrans, T(-1.5), A, B, T(0.5), C);
        C.to_lapack(c.data(), m);
        if (root())
            EXPECT_LE(check::gemm_residual(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1.5), a.data(), m, b.data(), k,
                                           T(0.5), c0.data(), c.data(), m),
                      check::kThreshold)
                << "n " << n << " nb " << nb;
    }
}

TYPED_TEST(Distributed, PotrfAndPosv) {
    using T = TypeParam;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : kShapes) {
            const int64_t nrhs = 3;
            auto a = check::random_spd<T>(n, n, 7), f = a;
            auto b = check::random_matrix<T>(n, nrhs, n, 8), x = b;
            TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
            A.fill_from_lapack(a.data(), n);
            B.fill_from_lapack(b.data(), n);
            ASSERT_EQ(posv(uplo, A, B), 0);
            A.to_lapack(f.data(), n);
            B.to_lapack(x.data(), n);
            if (root()) {
                EXPECT_LE(check::potrf_residual(uplo, n, a.data(), n, f.data(), n), check::kThreshold)
                    << "uplo " << char(uplo) << " n " << n << " nb " << nb;
                EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n),
                          check::kThreshold)
                    << "uplo " << char(uplo) << " n " << n << " nb " << nb;
            }
        }
}

// Solve A·X = B (the n×n array a, two right-hand sides) on distributed tiles with solve(A, B),
// which returns info; rank 0 checks the gathered X.
template <class T, class Solve>
void expect_solved(const std::vector<T>& a, int64_t n, int64_t nb, Solve solve) {
    const int64_t nrhs = 2;
    auto b = check::random_matrix<T>(n, nrhs, n, 12), x = b;
    TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
    A.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    ASSERT_EQ(solve(A, B), 0);
    B.to_lapack(x.data(), n);
    if (root())
        EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n),
                  check::kThreshold)
            << "n " << n << " nb " << nb;
}

TYPED_TEST(Distributed, GesvNopiv) {
    using T = TypeParam;
    for (auto [n, nb] : kShapes)  // diagonally dominant: no pivoting needed
        expect_solved(check::random_spd<T>(n, n, 11), n, nb, [](auto& A, auto& B) { return gesv_nopiv(A, B); });
}

TYPED_TEST(Distributed, GesvIncpiv) {
    using T = TypeParam;
    for (auto [n, nb] : kShapes)  // a general matrix: needs pivoting
        expect_solved(check::random_matrix<T>(n, n, n, 13), n, nb, [nb = nb](auto& A, auto& B) {
            IncpivFactors<T> F;
            return gesv_incpiv(A, F, B, {.nb = nb, .ib = 4});
        });
}

TYPED_TEST(Distributed, Gels) {
    using T = TypeParam;
    for (auto [n, nb] : kShapes) {
        const int64_t m = n + 25, nrhs = 2;  // overdetermined: m > n
        auto a = check::random_matrix<T>(m, n, m, 15), b = check::random_matrix<T>(m, nrhs, m, 16), x = b;
        TileMatrix<T> A(m, n, nb), B(m, nrhs, nb);
        A.fill_from_lapack(a.data(), m);
        B.fill_from_lapack(b.data(), m);
        ASSERT_EQ(gels(Trans::NoTrans, A, B, {.nb = nb, .ib = 4}), 0);
        B.to_lapack(x.data(), m);
        if (root())
            EXPECT_LE(check::least_squares_residual(Trans::NoTrans, m, n, nrhs, a.data(), m, x.data(), m, b.data(), m),
                      check::kThreshold)
                << "m " << m << " n " << n << " nb " << nb;
    }
}

// LU with partial pivoting on the grid of the run (1x1, 2x2, 4x1, 1x2): the panel of a column that
// several ranks own runs on one of them. Every rank gets rank 0's pivots and a factorization whose
// residual passes, and the info of an exactly singular matrix.
TYPED_TEST(Distributed, GetrfWithPartialPivoting) {
    using T = TypeParam;
    for (auto [m, n, nb] : {std::tuple<int64_t, int64_t, int64_t>{60, 60, 10}, {75, 50, 16}, {40, 70, 15}}) {
        const auto a = check::random_matrix<T>(m, n, m, 31);
        TileMatrix<T> A(m, n, nb);
        A.fill_from_lapack(a.data(), m);
        std::vector<int64_t> ipiv;
        EXPECT_EQ(getrf(A, ipiv), 0);
        ASSERT_EQ(int64_t(ipiv.size()), std::min(m, n));
        std::vector<int64_t> rank0 = ipiv;
        MPI_Bcast(rank0.data(), int(rank0.size()), MPI_INT64_T, 0, MPI_COMM_WORLD);
        EXPECT_EQ(ipiv, rank0) << "this rank's pivots differ from rank 0's";
        std::vector<T> f(size_t(m * n));
        A.to_lapack(f.data(), m);
        EXPECT_LE(check::getrf_residual(m, n, a.data(), m, f.data(), m, ipiv.data()), check::kThreshold)
            << m << "x" << n << " nb " << nb;
    }
    // An exactly zero column: info names it on every rank (the factorization completes).
    const int64_t n = 40;
    auto a = check::random_matrix<T>(n, n, n, 5);
    for (int64_t i = 0; i < n; ++i) a[size_t(i + 23 * n)] = T(0);
    TileMatrix<T> A(n, n, 10);
    A.fill_from_lapack(a.data(), n);
    std::vector<int64_t> ipiv;
    EXPECT_EQ(getrf(A, ipiv), 24);
}

// gesv, and getrs after getrf with each op(A), block-cyclic over the ranks: the residual of
// docs/architecture.md#numerical-checks on every rank; gesv_async is refused (it would submit getrs
// before getrf's pivots reached every rank).
TYPED_TEST(Distributed, SolvesWithPartialPivoting) {
    using T = TypeParam;
    const int64_t n = 70, nrhs = 13, nb = 16;
    const auto a = check::random_matrix<T>(n, n, n, 41), b = check::random_matrix<T>(n, nrhs, n, 42);
    auto expect_solution = [&](const TileMatrix<T>& B, Trans trans, const char* form) {
        std::vector<T> x(size_t(n * nrhs));
        B.to_lapack(x.data(), n);
        EXPECT_LE(check::solve_residual(trans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold)
            << form;
    };
    {
        TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
        A.fill_from_lapack(a.data(), n);
        B.fill_from_lapack(b.data(), n);
        std::vector<int64_t> ipiv;
        EXPECT_EQ(gesv(A, ipiv, B), 0);
        expect_solution(B, Trans::NoTrans, "gesv");
    }
    // One factorization, solved with each op(A) (getrs reads the factors only).
    TileMatrix<T> F(n, n, nb);
    F.fill_from_lapack(a.data(), n);
    std::vector<int64_t> fpiv;
    EXPECT_EQ(getrf(F, fpiv), 0);
    for (Trans trans : {Trans::NoTrans, Trans::Trans, Trans::ConjTrans}) {
        TileMatrix<T> B(n, nrhs, nb);
        B.fill_from_lapack(b.data(), n);
        getrs(trans, F, fpiv, B);
        expect_solution(B, trans, trans == Trans::NoTrans ? "getrs N" : trans == Trans::Trans ? "getrs T" : "getrs C");
    }
    TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
    std::vector<int64_t> ipiv;
    Sequence seq;
    EXPECT_THROW(gesv_async(A, ipiv, B, seq), Error);
}

TYPED_TEST(Distributed, PotrfInfoReachesEveryRank) {
    using T = TypeParam;
    const int64_t n = 60, nb = 10;
    auto a = check::random_spd<T>(n, n, 9);
    a[size_t(37 + 37 * n)] = T(-1e6);  // not positive definite at column 38 (tile 3, owned by some rank)
    TileMatrix<T> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    EXPECT_EQ(potrf(Uplo::Lower, A), 38);
}

}  // namespace
}  // namespace tessera

// MPI first (thread-multiple, as the Runtime requires), then one distributed Runtime for all tests;
// only rank 0 prints GoogleTest's report, and the exit status is failure if any rank failed.
int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) delete ::testing::UnitTest::GetInstance()->listeners().Release(
                       ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
    // TESSERA_TEST_OPENCL_RANK=r: rank r drives PoCL's OpenCL device and runs every task that has an
    // OpenCL implementation there; the other ranks stay CPU-only. Its StarPU home is a directory of
    // its own: StarPU rewrites the bus performance files when their device count differs from its
    // own, so a rank with an OpenCL device in the home the CPU-only ranks share would make the next
    // test's ranks all rewrite them at once (and assert reading one another's half-written files).
    const char* opencl_rank = std::getenv("TESSERA_TEST_OPENCL_RANK");
    const bool opencl = opencl_rank && std::atoi(opencl_rank) == rank;
    if (opencl) {
        setenv("STARPU_NOPENCL", "1", 1), setenv("STARPU_OPENCL_ON_CPUS", "1", 1);
        const char* home = std::getenv("STARPU_HOME");
        const std::string own = std::string(home ? home : ".") + "/opencl-rank";
        std::filesystem::create_directories(own);
        setenv("STARPU_HOME", own.c_str(), 1);
    }
    int failed = 1;
    // TESSERA_TEST_FAIL_RANK=r: rank r alone calls potrf with an invalid argument while the others
    // factor; its Runtime, unwound by the exception, must end every rank (ctest expects the abort).
    if (const char* fail_rank = std::getenv("TESSERA_TEST_FAIL_RANK")) {
        try {
            tessera::RuntimeConfig config;
            config.mpi = tessera::MpiMode::On;
            tessera::Runtime runtime(config);
            tessera::TileMatrix<double> A(400, 400, 50);
            tessera::check::generate_random_spd(A, 1);
            tessera::potrf(std::atoi(fail_rank) == rank ? tessera::Uplo::General : tessera::Uplo::Lower, A);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        }
        MPI_Finalize();
        return 1;
    }
    {
        tessera::RuntimeConfig config;
        config.mpi = tessera::MpiMode::On;
        config.grid = tessera::grid_from_env();
        if (opencl) config.placement = tessera::Placement::OpenCLOnly;
        tessera::Runtime runtime(config);
        tessera::g_runtime = &runtime;
        failed = RUN_ALL_TESTS() != 0;
        if (opencl) {  // the rank's share ran on its OpenCL worker
            long on_opencl = 0;
            for (const tessera::WorkerStats& w : runtime.worker_stats())
                if (w.opencl) on_opencl += w.executed_tasks;
            if (on_opencl == 0) std::fprintf(stderr, "rank %d: no task ran on the OpenCL worker\n", rank), failed = 1;
        }
        tessera::g_runtime = nullptr;
    }
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}

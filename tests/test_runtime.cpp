// Runtime: scheduler choice, description, worker statistics; TileMatrix shapes and round trips.
#include <cstdlib>

#include "examples/common/checks.hpp"
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
    TileMatrix<double> B(3, 3, 5, Distribution{2, 2});
    EXPECT_EQ(B.owner(0, 0), 0);
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

}  // namespace
}  // namespace tessera

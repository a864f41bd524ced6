// potrf, potrs, posv in s, d, c and z (Hermitian for c, z) against the residuals of
// docs/architecture.md#numerical-checks and LAPACKE's info.
#include "kernels/cpu/blas.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/diagonal_inverse_solves.hpp"
#include "examples/common/checks.hpp"
#include "examples/common/checks_mixed.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeTest;

template <class T>
class Cholesky : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Cholesky, Precisions);

struct Shape {
    int64_t n, nb;
};
// A single tile, nb > n, n divisible and not divisible by nb.
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{1, 8}, {13, 32}, {100, 32}};  // PoCL is slow: fewer, covering shapes
    return {{1, 8}, {13, 32}, {64, 32}, {100, 32}, {150, 64}};
}

TYPED_TEST(Cholesky, PotrfMatchesResidual) {
    using T = TypeParam;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : shapes()) {
            const int64_t lda = n + 3;
            auto a = check::random_spd<T>(n, lda, 7 + n), f = a;
            TileMatrix<T> A(n, n, nb);
            A.fill_from_lapack(a.data(), lda);
            ASSERT_EQ(potrf(uplo, A), 0);
            A.to_lapack(f.data(), lda);
            EXPECT_LE(check::potrf_residual(uplo, n, a.data(), lda, f.data(), lda), check::kThreshold)
                << "uplo " << char(uplo) << " n " << n << " nb " << nb;
        }
}

TYPED_TEST(Cholesky, LapackLayoutAndAsyncForms) {
    using T = TypeParam;
    const int64_t n = 90, lda = 97;
    auto a = check::random_spd<T>(n, lda, 3), f = a;
    ASSERT_EQ(lapack::potrf<T>('U', n, f.data(), lda, {.nb = 32}), 0);
    EXPECT_LE(check::potrf_residual(Uplo::Upper, n, a.data(), lda, f.data(), lda), check::kThreshold);

    TileMatrix<T> A(n, n, 32);
    A.fill_from_lapack(a.data(), lda);
    Sequence seq;
    potrf_async(Uplo::Lower, A, seq);
    ASSERT_EQ(seq.wait(), 0);
    A.to_lapack(f.data(), lda);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), lda, f.data(), lda), check::kThreshold);
}

// The mixed solvers' potrs by the factor's diagonal inverses (algorithms/diagonal_inverse_solves.hpp;
// the panels' own inverses on OpenCL devices, trtri's on CPU workers): two solves with one set of
// inverses, each within the backward error of a stable solve, for both triangles, one and several
// tile columns of right-hand sides. With one OpenCL device each block row is one task
// (tasks::solve_row), whose device products with one right-hand side are summed in one pass
// (ocl::gemm_narrow_sum) where every tile of the row is at least 128 deep: tiles of 128 with a
// partial last one (300 = 2·128 + 44) take both that and the product per tile.
TYPED_TEST(Cholesky, PotrsByDiagonalInversesMatchesResidual) {
    using T = TypeParam;
    std::vector<Shape> cases = shapes();
    cases.push_back({300, 128});
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : cases)
            for (int64_t nrhs : {int64_t(1), nb + 3}) {
                auto a = check::random_spd<T>(n, n, 21 + n);
                TileMatrix<T> A(n, n, nb);
                A.fill_from_lapack(a.data(), n);
                detail::DiagonalInverseSolves<T> by_inverses;
                Sequence seq;
                by_inverses.potrf_async(uplo, A, seq);
                ASSERT_EQ(seq.wait(), 0);
                for (uint64_t solve = 0; solve < 2; ++solve) {
                    const auto b = check::random_matrix<T>(n, nrhs, n, 40 + solve);
                    TileMatrix<T> B(n, nrhs, nb);
                    B.fill_from_lapack(b.data(), n);
                    by_inverses.solve_async(A, B, seq);
                    ASSERT_EQ(seq.wait(), 0);
                    std::vector<T> x(b.size());
                    B.to_lapack(x.data(), n);
                    EXPECT_LE(check::backward_error(n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold)
                        << "uplo " << char(uplo) << " n " << n << " nb " << nb << " nrhs " << nrhs << " solve " << solve;
                }
            }
}

// info of a matrix that is not positive definite equals LAPACKE's, in a later tile too.
// With an OpenCL device and a CPU worker (mixed mode), each diagonal tile but the last is factored
// and inverted on the device's panel queue (dpotrf_inverse_panel, run by a CPU worker) beside the
// trailing updates; TESSERA_PANEL_QUEUE=0 keeps it on the device's worker. Both factor alike.
TYPED_TEST(Cholesky, PanelQueueFactorsTheDiagonalTiles) {
    using T = TypeParam;
    const int64_t n = 100, nb = 32, nt = 4;
    const std::string panel = std::string(1, prec_letter<T>()) + "potrf_inverse_panel";
    const bool expected = test::mode() == "mixed";
    for (const char* queue : {"1", "0"})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            setenv("TESSERA_PANEL_QUEUE", queue, 1);
            auto a = check::random_spd<T>(n, n, 17), f = a;
            TileMatrix<T> A(n, n, nb);
            A.fill_from_lapack(a.data(), n);
            Runtime::wait_all();
            test::RuntimeEnvironment::runtime().profile_begin();
            const int64_t info = potrf(uplo, A);
            const Profile p = test::RuntimeEnvironment::runtime().profile_end();
            unsetenv("TESSERA_PANEL_QUEUE");
            ASSERT_EQ(info, 0);
            long panels = 0;
            for (const Profile::Codelet& c : p.codelets)
                if (c.name == panel) panels += c.tasks;
            EXPECT_EQ(panels, expected && queue[0] == '1' ? nt - 1 : 0) << "TESSERA_PANEL_QUEUE=" << queue;
            A.to_lapack(f.data(), n);
            EXPECT_LE(check::potrf_residual(uplo, n, a.data(), n, f.data(), n), check::kThreshold)
                << "uplo " << char(uplo) << " TESSERA_PANEL_QUEUE=" << queue;
        }
}

TYPED_TEST(Cholesky, NotPositiveDefiniteInfoMatchesLapacke) {
    using T = TypeParam;
    for (int64_t bad : {0, 5, 41, 69}) {
        const int64_t n = 70, lda = n;
        auto a = check::random_spd<T>(n, lda, 11);
        a[size_t(bad + bad * lda)] = T(-1);
        auto ref = a;
        const int64_t expected = cpu::potrf<T>(Uplo::Lower, n, ref.data(), lda);  // LAPACKE's xPOTRF
        ASSERT_GT(expected, 0);
        EXPECT_EQ(lapack::potrf<T>('L', n, a.data(), lda, {.nb = 16}), expected) << "bad pivot at " << bad;
    }
}

TYPED_TEST(Cholesky, NaNIsNotPositiveDefinite) {
    using T = TypeParam;
    const int64_t n = 40;
    auto a = check::random_spd<T>(n, n, 5);
    a[size_t(20 + 20 * n)] = std::numeric_limits<T>::quiet_NaN();
    EXPECT_EQ(lapack::potrf<T>('L', n, a.data(), n, {.nb = 16}), 21);
}

TYPED_TEST(Cholesky, PotrsAndPosvSolve) {
    using T = TypeParam;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : shapes()) {
            const int64_t nrhs = 3;
            auto a = check::random_spd<T>(n, n, 21), b = check::random_matrix<T>(n, nrhs, n, 22), x = b, f = a;
            ASSERT_EQ(lapack::posv<T>(char(uplo), n, nrhs, f.data(), n, x.data(), n, {.nb = nb}), 0);
            EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
            auto y = b;
            lapack::potrs<T>(char(uplo), n, nrhs, f.data(), n, y.data(), n, {.nb = nb});
            EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, y.data(), n, b.data(), n), check::kThreshold);
        }
}

TYPED_TEST(Cholesky, PosvLeavesBUnchangedWhenNotPositiveDefinite) {
    using T = TypeParam;
    const int64_t n = 30;
    auto a = check::random_spd<T>(n, n, 2);
    a[size_t(10 + 10 * n)] = T(-5);
    auto b = check::random_matrix<T>(n, 2, n, 3), x = b;
    EXPECT_EQ(lapack::posv<T>('L', n, 2, a.data(), n, x.data(), n, {.nb = 8}), 11);
    EXPECT_EQ(x, b);
}

TYPED_TEST(Cholesky, EmptyMatrixAndBadArguments) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> A(0, 0, 16);
    EXPECT_EQ(potrf(Uplo::Lower, A), 0);
    T dummy[1] = {};
    EXPECT_EQ(lapack::potrf<T>('L', 0, dummy, 1), 0);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { lapack::potrf<T>('X', 1, dummy, 1); }).find("'uplo'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::potrf<T>('L', 4, dummy, 3); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::potrf<T>('L', -1, dummy, 1); }).find("'n'"), std::string::npos);
    EXPECT_NE(message([&] { TileMatrix<T>(4, 4, 0); }).find("'nb'"), std::string::npos);
    EXPECT_NE(message([&] { TileMatrix<T>(-4, 4, 2); }).find("'m'"), std::string::npos);
    TileMatrix<T> R(4, 3, 2);
    EXPECT_NE(message([&] { potrf(Uplo::Lower, R); }).find("'A'"), std::string::npos);
    TileMatrix<T> S(4, 4, 2);
    // potrs names itself for tiles of two sizes (it blamed the trsm it calls).
    TileMatrix<T> B3(4, 1, 3);
    EXPECT_NE(message([&] { potrs(Uplo::Lower, S, B3); }).find("tessera::potrs: argument 'nb' = 3"), std::string::npos);
    // A character argument is quoted as a character, not printed as its code (71).
    EXPECT_NE(message([&] { potrf(Uplo::General, S); }).find("argument 'uplo' = 'G' must be Lower or Upper"),
              std::string::npos);
}

}  // namespace
}  // namespace tessera

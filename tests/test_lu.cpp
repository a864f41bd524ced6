// LU family in float and double: getrf (partial pivoting) against the residual of
// docs/architecture.md#numerical-checks and against LAPACKE (ipiv, info), getrs/gesv, getrf_nopiv,
// getrf_incpiv/gesv_incpiv, async forms, arguments.
#include "kernels/cpu/lu.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "examples/common/checks_lu.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeTest;

template <class T>
class LU : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(LU, Precisions);

// LAPACKE xGETRF on a copy; returns info, fills ipiv (1-based, widened to int64_t).
template <class T>
int64_t lapacke_getrf(int64_t m, int64_t n, std::vector<T> a, int64_t lda, std::vector<int64_t>& ipiv) {
    std::vector<int> piv(size_t(std::max<int64_t>(1, std::min(m, n))));
    int64_t info;
    info = cpu::getrf<T>(m, n, a.data(), lda, piv.data());  // LAPACKE's xGETRF
    ipiv.assign(piv.begin(), piv.begin() + std::min(m, n));
    return info;
}

struct Shape {
    int64_t m, n, nb;
};
// One tile (nb > n), square divisible and not divisible by nb, tall and wide, partial last tiles.
const Shape kShapes[] = {{1, 1, 8}, {20, 20, 32}, {64, 64, 32}, {100, 100, 32}, {150, 90, 32}, {90, 150, 32}, {77, 130, 24}};

TYPED_TEST(LU, GetrfResidualSquareAndRectangular) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // panels are CPU-only
    for (auto [m, n, nb] : kShapes) {
        const int64_t lda = m + 2;
        auto a = check::random_matrix<T>(m, n, lda, 5 + m + n), f = a;
        TileMatrix<T> A(m, n, nb);
        A.fill_from_lapack(a.data(), lda);
        std::vector<int64_t> ipiv;
        ASSERT_EQ(getrf(A, ipiv), 0);
        ASSERT_EQ(int64_t(ipiv.size()), std::min(m, n));
        for (int64_t i = 0; i < int64_t(ipiv.size()); ++i) ASSERT_TRUE(ipiv[size_t(i)] > i && ipiv[size_t(i)] <= m);
        A.to_lapack(f.data(), lda);
        EXPECT_LE(check::getrf_residual(m, n, a.data(), lda, f.data(), lda, ipiv.data()), check::kThreshold)
            << "m " << m << " n " << n << " nb " << nb;
    }
}

// A = Pᵀ·L₀·U₀ with |L₀| ≤ 1/2 below a unit diagonal: every pivot wins by a factor ≥ 2, so the
// pivots are the same whatever the order of the roundoff, and must equal LAPACKE's exactly.
TYPED_TEST(LU, IpivEqualsLapackeWithDistinctPivots) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (auto [m, n, nb] : {Shape{120, 120, 32}, Shape{130, 70, 24}, Shape{70, 100, 16}}) {
        const int64_t k = std::min(m, n);
        auto l = check::random_matrix<T>(m, k, m, 1), u = check::random_matrix<T>(k, n, k, 2);
        for (int64_t j = 0; j < k; ++j) {
            for (int64_t i = 0; i < j; ++i) l[size_t(i + j * m)] = T(0);
            l[size_t(j + j * m)] = T(1);
            // LAPACK's complex pivot search compares |re| + |im|: halve L₀ to keep it ≤ 1/2.
            if constexpr (is_complex_v<T>)
                for (int64_t i = j + 1; i < m; ++i) l[size_t(i + j * m)] *= real_t<T>(0.5);
            u[size_t(j + j * k)] += T(std::real(u[size_t(j + j * k)]) < 0 ? -2 : 2);
        }
        std::vector<T> lu(size_t(m * n)), a(size_t(m * n));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t p = 0; p < k; ++p)
                for (int64_t i = 0; i < m; ++i) lu[size_t(i + j * m)] += l[size_t(i + p * m)] * u[size_t(p + j * k)];
        std::vector<int64_t> perm(static_cast<size_t>(m));
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937_64(3));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) a[size_t(perm[size_t(i)] + j * m)] = lu[size_t(i + j * m)];
        std::vector<int64_t> expected, ipiv;
        ASSERT_EQ(lapacke_getrf<T>(m, n, a, m, expected), 0);
        auto f = a;
        ipiv.resize(size_t(k));
        ASSERT_EQ(lapack::getrf<T>(m, n, f.data(), m, ipiv.data(), {.nb = nb}), 0);
        EXPECT_EQ(ipiv, expected) << "m " << m << " n " << n;
        EXPECT_LE(check::getrf_residual(m, n, a.data(), m, f.data(), m, ipiv.data()), check::kThreshold);
    }
}

// The leading tile is singular (zero): no-pivoting LU fails there, partial pivoting must not.
TYPED_TEST(LU, SingularLeadingTileNeedsPivoting) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 96, nb = 32;
    auto a = check::random_matrix<T>(n, n, n, 9);
    for (int64_t j = 0; j < nb; ++j)
        for (int64_t i = 0; i < nb; ++i) a[size_t(i + j * n)] = T(0);
    auto f = a;
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    ASSERT_EQ(lapack::getrf<T>(n, n, f.data(), n, ipiv.data(), {.nb = nb}), 0);
    EXPECT_LE(check::getrf_residual(n, n, a.data(), n, f.data(), n, ipiv.data()), check::kThreshold);
    auto g = a;
    EXPECT_EQ(lapack::getrf_nopiv<T>(n, n, g.data(), n, {.nb = nb}), 1);
}

// Singular matrices (a zero column, in the first or a later tile): info equals LAPACKE's and the
// factorization is completed.
TYPED_TEST(LU, SingularInfoMatchesLapacke) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (int64_t bad : {0, 5, 41, 69}) {
        const int64_t n = 70, nb = 16;
        auto a = check::random_matrix<T>(n, n, n, 11);
        for (int64_t i = 0; i < n; ++i) a[size_t(i + bad * n)] = T(0);
        std::vector<int64_t> expected_piv, ipiv(static_cast<size_t>(n));
        const int64_t expected = lapacke_getrf<T>(n, n, a, n, expected_piv);
        ASSERT_EQ(expected, bad + 1);
        auto f = a;
        EXPECT_EQ(lapack::getrf<T>(n, n, f.data(), n, ipiv.data(), {.nb = nb}), expected) << "zero column " << bad;
        EXPECT_LE(check::getrf_residual(n, n, a.data(), n, f.data(), n, ipiv.data()), check::kThreshold);
        auto b = check::random_matrix<T>(n, 1, n, 4), x = b, g = a;
        EXPECT_EQ(lapack::gesv<T>(n, 1, g.data(), n, ipiv.data(), x.data(), n, {.nb = nb}), expected);
        EXPECT_EQ(x, b) << "gesv must leave B unchanged when U is singular";
    }
}

// getrs with trans N and T, gesv, in LAPACK layout, n divisible or not by nb, several rhs.
TYPED_TEST(LU, GetrsAndGesvSolve) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (auto [n, nb] : {std::pair<int64_t, int64_t>{1, 8}, {64, 32}, {100, 32}, {90, 40}}) {
        const int64_t nrhs = 3, ld = n + 1;
        auto a = check::random_matrix<T>(n, n, ld, 21 + n), b = check::random_matrix<T>(n, nrhs, ld, 22), f = a, x = b;
        std::vector<int64_t> ipiv(static_cast<size_t>(n));
        ASSERT_EQ(lapack::gesv<T>(n, nrhs, f.data(), ld, ipiv.data(), x.data(), ld, {.nb = nb}), 0);
        EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), ld, x.data(), ld, b.data(), ld), check::kThreshold);
        for (char t : {'N', 'T'}) {
            auto y = b;
            lapack::getrs<T>(t, n, nrhs, f.data(), ld, ipiv.data(), y.data(), ld, {.nb = nb});
            EXPECT_LE(check::solve_residual(trans_from_char(t), n, n, nrhs, a.data(), ld, y.data(), ld, b.data(), ld),
                      check::kThreshold) << "trans " << t << " n " << n;
        }
    }
}

// getrs alone touches only laswp, trsm and gemm tasks: in opencl mode all of them on the device.
TYPED_TEST(LU, GetrsTilesRunOnDevice) {
    using T = TypeParam;
    const int64_t n = 100, nb = 32, nrhs = 4;
    auto a = check::random_matrix<T>(n, n, n, 31), b = check::random_matrix<T>(n, nrhs, n, 32), f = a, x = b;
    std::vector<int> piv(static_cast<size_t>(n));
    ASSERT_EQ(cpu::getrf<T>(n, n, f.data(), n, piv.data()), 0);  // LAPACKE's xGETRF
    const std::vector<int64_t> ipiv(piv.begin(), piv.end());
    TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
    A.fill_from_lapack(f.data(), n);
    B.fill_from_lapack(b.data(), n);
    for (Trans t : {Trans::NoTrans, Trans::Trans}) {
        B.fill_from_lapack(b.data(), n);
        getrs(t, A, ipiv, B);
        B.to_lapack(x.data(), n);
        EXPECT_LE(check::solve_residual(t, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    }
}

// getrf_async then getrs_async in one sequence, no wait in between.
TYPED_TEST(LU, AsyncFactorAndSolveInOneSequence) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 110, nb = 24, nrhs = 2;
    auto a = check::random_matrix<T>(n, n, n, 41), b = check::random_matrix<T>(n, nrhs, n, 42), x = b;
    TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
    A.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    std::vector<int64_t> ipiv;
    Sequence seq;
    getrf_async(A, ipiv, seq);
    getrs_async(Trans::NoTrans, A, ipiv, B, seq);
    ASSERT_EQ(seq.wait(), 0);
    B.to_lapack(x.data(), n);
    EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
}

TYPED_TEST(LU, NoPivotingOnDiagonallyDominantMatrices) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (auto [m, n, nb] : {Shape{1, 1, 4}, Shape{100, 100, 32}, Shape{130, 70, 32}, Shape{70, 130, 32}}) {
        auto a = check::random_shifted<T>(m, n, m, 51, double(std::max(m, n))), f = a;
        ASSERT_EQ(lapack::getrf_nopiv<T>(m, n, f.data(), m, {.nb = nb}), 0);
        EXPECT_LE(check::getrf_residual(m, n, a.data(), m, f.data(), m, nullptr), check::kThreshold) << m << "x" << n;
    }
    const int64_t n = 90, nrhs = 2;
    auto a = check::random_shifted<T>(n, n, n, 52, double(n)), b = check::random_matrix<T>(n, nrhs, n, 53), x = b;
    TileMatrix<T> A(n, n, 32), B(n, nrhs, 32);
    A.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    ASSERT_EQ(gesv_nopiv(A, B), 0);
    B.to_lapack(x.data(), n);
    EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    B.fill_from_lapack(b.data(), n);
    getrs_nopiv(Trans::Trans, A, B);
    B.to_lapack(x.data(), n);
    EXPECT_LE(check::solve_residual(Trans::Trans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
}

// Incremental pivoting: backward error of gesv_incpiv on random (not diagonally dominant)
// matrices, ib dividing nb or not, ib ≥ nb, n not divisible by nb, a zero leading tile.
TYPED_TEST(LU, IncpivSolveBackwardError) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    struct Case { int64_t n, nb, ib; bool zero_lead; };
    for (auto [n, nb, ib, zero_lead] : {Case{1, 8, 4, false}, Case{96, 32, 8, false}, Case{100, 32, 12, false},
                                        Case{75, 24, 48, false}, Case{96, 32, 16, true}}) {
        const int64_t nrhs = 3;
        auto a = check::random_matrix<T>(n, n, n, 61 + n), b = check::random_matrix<T>(n, nrhs, n, 62), x = b;
        if (zero_lead)
            for (int64_t j = 0; j < nb; ++j)
                for (int64_t i = 0; i < nb; ++i) a[size_t(i + j * n)] = T(0);
        TileMatrix<T> A(n, n, nb), B(n, nrhs, nb);
        A.fill_from_lapack(a.data(), n);
        B.fill_from_lapack(b.data(), n);
        IncpivFactors<T> F;
        ASSERT_EQ(gesv_incpiv(A, F, B, {.nb = nb, .ib = ib}), 0);
        EXPECT_EQ(F.ib(), std::min(ib, nb));
        B.to_lapack(x.data(), n);
        EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold)
            << "n " << n << " nb " << nb << " ib " << ib;
        // The factors solve again (getrs_incpiv alone).
        B.fill_from_lapack(b.data(), n);
        getrs_incpiv(A, F, B);
        B.to_lapack(x.data(), n);
        EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    }
}

TYPED_TEST(LU, IncpivSingularAndLapackForm) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 64, nb = 16;
    auto a = check::random_matrix<T>(n, n, n, 71);
    for (int64_t i = 0; i < n; ++i) a[size_t(i + 37 * n)] = T(0);
    auto b = check::random_matrix<T>(n, 1, n, 72), x = b, f = a;
    EXPECT_EQ(lapack::gesv_incpiv<T>(n, 1, f.data(), n, x.data(), n, {.nb = nb, .ib = 4}), 38);
    EXPECT_EQ(x, b);
    auto g = check::random_matrix<T>(n, n, n, 73), y = b;
    const auto g0 = g;
    ASSERT_EQ(lapack::gesv_incpiv<T>(n, 1, g.data(), n, y.data(), n, {.nb = nb, .ib = 4}), 0);
    EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, 1, g0.data(), n, y.data(), n, b.data(), n), check::kThreshold);
}

TYPED_TEST(LU, EmptyMatricesAndBadArguments) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> E(0, 0, 16);
    std::vector<int64_t> ipiv{7};
    EXPECT_EQ(getrf(E, ipiv), 0);
    EXPECT_TRUE(ipiv.empty());
    EXPECT_EQ(getrf_nopiv(E), 0);
    T dummy[1] = {};
    EXPECT_EQ(lapack::getrf<T>(0, 5, dummy, 1, nullptr), 0);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    int64_t piv[4] = {};
    EXPECT_NE(message([&] { lapack::getrf<T>(4, 4, dummy, 3, piv); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::getrf<T>(-1, 4, dummy, 1, piv); }).find("'m'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::getrs<T>('X', 1, 1, dummy, 1, piv, dummy, 1); }).find("'trans'"), std::string::npos);
    TileMatrix<T> R(6, 4, 2), B(5, 1, 2), S(4, 4, 2);
    std::vector<int64_t> p4(4);
    EXPECT_NE(message([&] { getrs(Trans::NoTrans, R, p4, B); }).find("'A'"), std::string::npos);
    EXPECT_NE(message([&] { getrs(Trans::NoTrans, S, p4, B); }).find("'B'"), std::string::npos);
    TileMatrix<T> B4(4, 1, 2);
    std::vector<int64_t> p3(3);
    EXPECT_NE(message([&] { getrs(Trans::NoTrans, S, p3, B4); }).find("'ipiv'"), std::string::npos);
    IncpivFactors<T> F;
    EXPECT_NE(message([&] { getrs_incpiv(S, F, B4); }).find("'F'"), std::string::npos);
    EXPECT_NE(message([&] { getrf_incpiv(S, F, {.nb = 2, .ib = -1}); }).find("'ib'"), std::string::npos);
}

// Pivots outside A's rows (a caller's vector, not getrf's) used to swap memory outside the tiles
// (SIGSEGV). The LAPACK form refuses them before any task; the tile form's laswp task fails, and the
// wait throws TaskError naming the entry; the Runtime goes on.
TYPED_TEST(LU, GetrsRefusesPivotsOutsideTheMatrix) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    this->expect_no_tasks();
    const int64_t n = 8, nb = 4;
    auto a = check::random_matrix<T>(n, n, n, 31), b = check::random_matrix<T>(n, 1, n, 32);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    for (int64_t bad : {int64_t(0), int64_t(-3), n + 1, int64_t(1) << 40}) {
        std::vector<int64_t> ipiv(static_cast<size_t>(n), 1);
        ipiv[5] = bad;
        EXPECT_NE(message([&] { lapack::getrs<T>('N', n, 1, a.data(), n, ipiv.data(), b.data(), n, {.nb = nb}); })
                      .find("'ipiv' has ipiv[5] = " + std::to_string(bad)),
                  std::string::npos) << bad;
        TileMatrix<T> A(n, n, nb), B(n, 1, nb);
        A.fill_from_lapack(a.data(), n);
        B.fill_from_lapack(b.data(), n);
        for (Trans t : {Trans::NoTrans, Trans::Trans}) {
            std::string what = "no error";
            try {
                getrs(t, A, ipiv, B);
            } catch (const TaskError& e) {
                what = e.what();
            }
            EXPECT_NE(what.find("ipiv[5] = " + std::to_string(bad) + " is not a row of the matrix"), std::string::npos)
                << what;
        }
    }
    // Good pivots still solve in the same Runtime.
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    auto f = a, x = b;
    ASSERT_EQ(lapack::gesv<T>(n, 1, f.data(), n, ipiv.data(), x.data(), n, {.nb = nb}), 0);
    EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, 1, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
}

}  // namespace
}  // namespace tessera

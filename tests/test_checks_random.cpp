// The randomized residuals of examples/common/checks_random.hpp on TileMatrix tiles: LAPACK's own
// factors pass them, and a factor with one entry perturbed by 1e-6 of its norm (or one wrong
// pivot) fails them. n = 300 with nb = 64 leaves partial tiles in the last tile row and column.
// Also: the tile generators of checks.hpp / checks_lu.hpp give exactly the LAPACK-array matrices.
#include <lapacke.h>

#include <cmath>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_random.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera::check {
namespace {

constexpr int64_t n = 300, nb = 64;

/// A TileMatrix holding the m×n LAPACK array a (leading dimension m), filled and waited for.
TileMatrix<double> tiles(int64_t m, int64_t cols, const LapackArray<double>& a) {
    TileMatrix<double> A(m, cols, nb);
    A.fill_from_lapack(a.data(), m);
    A.acquire_host();
    return A;
}

/// lapack_copy(A) as a std::vector, to compare with the array generators'.
template <class T>
std::vector<T> copy(const TileMatrix<T>& A) {
    const auto a = lapack_copy(A);
    return {a.begin(), a.end()};
}

TEST(ChecksRandom, GeneratorsMatchLapackArrays) {
    for (int64_t tile : {int64_t(64), int64_t(1000)}) {  // partial tiles; one tile larger than the matrix
        TileMatrix<double> R(n, 200, tile), S(n, n, tile), H(200, n, tile), G(n, 3, tile);
        TileMatrix<float> Rs(n, 200, tile);
        generate_random(R, 11);
        generate_random(Rs, 11);
        generate_random_spd(S, 12);
        generate_random_shifted(H, 13, 150.0);
        generate_random(G, 14, 250);  // 250 random rows, zero below
        EXPECT_EQ(copy(R), random_matrix<double>(n, 200, n, 11));
        EXPECT_EQ(copy(Rs), random_matrix<float>(n, 200, n, 11));
        EXPECT_EQ(copy(S), random_spd<double>(n, n, 12));
        EXPECT_EQ(copy(H), random_shifted<double>(200, n, 200, 13, 150.0));
        EXPECT_EQ(copy(G), random_matrix<double>(250, 3, n, 14));
    }
    TileMatrix<double> rect(3, 4, 2);
    EXPECT_THROW(generate_random_spd(rect, 1), Error);
}

TEST(ChecksRandom, PotrfPassesExactFactorFailsPerturbedOne) {
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        TileMatrix<double> A(n, n, nb);
        generate_random_spd(A, 3);
        const PotrfCheckRandom<double> check(uplo, A);
        auto f = lapack_copy(A);
        ASSERT_EQ(cpu::potrf<double>(uplo, n, f.data(), n), 0);
        EXPECT_LE(check.residual(tiles(n, n, f)), kThreshold);
        f[size_t(n - 1 + (n - 1) * n)] += 1e-6 * double(n);
        EXPECT_GT(check.residual(tiles(n, n, f)), kThreshold);
        f[size_t(n - 1 + (n - 1) * n)] = NAN;  // never a pass (issue 38)
        EXPECT_FALSE(passes(check.residual(tiles(n, n, f))));
    }
}

TEST(ChecksRandom, GetrfPassesExactFactorsFailsWrongPivot) {
    TileMatrix<double> A(n, n, nb);
    generate_random(A, 4);
    const GetrfCheckRandom<double> check(A);
    auto f = lapack_copy(A);
    std::vector<lapack_int> piv(n);
    ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, f.data(), n, piv.data()), 0);
    std::vector<int64_t> ipiv(piv.begin(), piv.end());
    const auto F = tiles(n, n, f);
    EXPECT_LE(check.residual(F, ipiv), kThreshold);
    EXPECT_GT(check.residual(F, {}), kThreshold);  // the pivots ignored
    ipiv[n / 2] = ipiv[n / 2] == n ? 1 : n;  // one interchange wrong
    EXPECT_GT(check.residual(F, ipiv), kThreshold);
}

TEST(ChecksRandom, GetrfNoPivPassesExactFactorsFailsPerturbedOne) {
    TileMatrix<double> A(n, n, nb);
    generate_random_shifted(A, 4, double(n));
    const GetrfCheckRandom<double> check(A);
    auto f = lapack_copy(A);  // LU without pivoting: right-looking elimination
    for (int64_t k = 0; k < n; ++k) {
        for (int64_t i = k + 1; i < n; ++i) f[size_t(i + k * n)] /= f[size_t(k + k * n)];
        for (int64_t j = k + 1; j < n; ++j)
            for (int64_t i = k + 1; i < n; ++i) f[size_t(i + j * n)] -= f[size_t(i + k * n)] * f[size_t(k + j * n)];
    }
    EXPECT_LE(check.residual(tiles(n, n, f), {}), kThreshold);
    f[size_t(n - 1 + 5 * n)] += 1e-6;  // in L, in the last (partial) tile row
    EXPECT_GT(check.residual(tiles(n, n, f), {}), kThreshold);
    f[size_t(n - 1 + 5 * n)] = INFINITY;  // never a pass (issue 38)
    EXPECT_FALSE(passes(check.residual(tiles(n, n, f), {})));
}

TEST(ChecksRandom, GeqrfPassesExactRFailsPerturbedOne) {
    const int64_t m = 2 * n;
    TileMatrix<double> A(m, n, nb);
    generate_random(A, 5);
    const GeqrfCheckRandom<double> check(A);
    auto f = lapack_copy(A);
    std::vector<double> tau(n);
    ASSERT_EQ(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, f.data(), m, tau.data()), 0);
    EXPECT_LE(check.residual(tiles(m, n, f)), kThreshold);
    f[size_t(0)] *= 1 + 1e-6;
    EXPECT_GT(check.residual(tiles(m, n, f)), kThreshold);
    f[size_t(1 + 2 * m)] = NAN;  // never a pass (issue 38)
    EXPECT_FALSE(passes(check.residual(tiles(m, n, f))));
    TileMatrix<double> wide(n, m, nb);
    EXPECT_THROW(GeqrfCheckRandom<double>{wide}, Error);
}

TEST(ChecksRandom, GemmPassesExactProductFailsPerturbedOne) {
    for (Trans ta : {Trans::NoTrans, Trans::Trans})
        for (Trans tb : {Trans::NoTrans, Trans::Trans}) {
            const int64_t m = n, cols = 200, k = 250;  // C m×cols, op(A) m×k, op(B) k×cols
            const int64_t am = ta == Trans::NoTrans ? m : k, an = ta == Trans::NoTrans ? k : m;
            const int64_t bm = tb == Trans::NoTrans ? k : cols, bn = tb == Trans::NoTrans ? cols : k;
            TileMatrix<double> A(am, an, nb), B(bm, bn, nb), C(m, cols, nb);
            generate_random(A, 6);
            generate_random(B, 7);
            generate_random(C, 8);
            const GemmCheckRandom<double> check(ta, tb, 1.5, A, B, -0.5, C);
            const auto a = lapack_copy(A), b = lapack_copy(B);
            auto c = lapack_copy(C);
            cpu::gemm<double>(ta, tb, m, cols, k, 1.5, a.data(), am, b.data(), bm, -0.5, c.data(), m);
            EXPECT_LE(check.residual(tiles(m, cols, c)), kThreshold);
            const double exact = c[size_t(7 + 9 * m)];
            c[size_t(7 + 9 * m)] += 1e-6 * double(k);
            EXPECT_GT(check.residual(tiles(m, cols, c)), kThreshold);
            for (double poison : {NAN, INFINITY, -INFINITY}) {  // never a pass (issue 38)
                c[size_t(7 + 9 * m)] = poison;
                EXPECT_FALSE(passes(check.residual(tiles(m, cols, c)))) << poison;
            }
            c[size_t(7 + 9 * m)] = exact;
            EXPECT_THROW(check.residual(A), Error);  // not m×cols
        }
}

}  // namespace
}  // namespace tessera::check

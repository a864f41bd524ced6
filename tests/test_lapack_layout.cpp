// TileMatrix::view (the caller's column-major array as tiles, no copy) and the lapack:: forms in both
// layouts (LapackLayout::InPlace and TileCopy), in s, d, c and z: residuals, and the rows between m
// and lda that no form may touch. In the opencl modes the in-place tiles travel to PoCL's device as
// strided copies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_qr.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class LapackLayoutTest : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(LapackLayoutTest, Precisions);

const LapackLayout kLayouts[] = {LapackLayout::InPlace, LapackLayout::TileCopy};
const char* name(LapackLayout l) { return l == LapackLayout::InPlace ? "InPlace" : "TileCopy"; }

// A sentinel in rows m..lda−1 of every column: the padding a LAPACK caller owns.
template <class T>
void pad(std::vector<T>& a, int64_t m, int64_t n, int64_t lda) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = m; i < lda; ++i) a[size_t(i + j * lda)] = T(-7);
}
template <class T>
bool padding_intact(const std::vector<T>& a, int64_t m, int64_t n, int64_t lda) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = m; i < lda; ++i)
            if (a[size_t(i + j * lda)] != T(-7)) return false;
    return true;
}

TYPED_TEST(LapackLayoutTest, ViewTilesAreTheArrayBlocks) {
    using T = TypeParam;
    this->expect_no_tasks();
    const int64_t m = 21, n = 13, lda = 25, nb = 8;
    std::vector<T> a(size_t(lda * n));
    auto V = TileMatrix<T>::view(a.data(), m, n, lda, nb);
    EXPECT_TRUE(V.is_view());
    ASSERT_EQ(V.mt(), 3);
    ASSERT_EQ(V.nt(), 2);
    for (int64_t j = 0; j < V.nt(); ++j)
        for (int64_t i = 0; i < V.mt(); ++i) {
            EXPECT_EQ(V.tile_data(i, j), a.data() + i * nb + j * nb * lda);
            EXPECT_EQ(V.tile_ld(i), lda);
        }
    TileMatrix<T> owned(m, n, nb);
    EXPECT_FALSE(owned.is_view());
    EXPECT_EQ(owned.tile_ld(2), m - 2 * nb);
    auto moved = std::move(V);
    EXPECT_TRUE(moved.is_view());
    EXPECT_EQ(moved.tile_data(1, 1), a.data() + nb + nb * lda);
}

TYPED_TEST(LapackLayoutTest, ViewRefusesBadArguments) {
    using T = TypeParam;
    this->expect_no_tasks();
    std::vector<T> a(16);
    auto message = [](auto f) {
        try {
            f();
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { TileMatrix<T>::view(a.data(), 4, 4, 3, 2); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { TileMatrix<T>::view(a.data(), 4, 4, 4, 0); }).find("'nb'"), std::string::npos);
    EXPECT_NE(message([&] { TileMatrix<T>::view(nullptr, 4, 4, 4, 2); }).find("'a'"), std::string::npos);
    EXPECT_NE(message([&] { TileMatrix<T>::view(a.data(), -1, 4, 4, 2); }).find("'m'"), std::string::npos);
    EXPECT_NO_THROW(TileMatrix<T>::view(nullptr, 0, 4, 1, 2));
    // Copies to and from a null array are refused as the view is (they used to write through it).
    TileMatrix<T> A(4, 4, 2), E(0, 4, 2);
    EXPECT_NE(message([&] { A.fill_from_lapack(nullptr, 4); }).find("'a'"), std::string::npos);
    EXPECT_NE(message([&] { A.to_lapack(nullptr, 4); }).find("'a'"), std::string::npos);
    EXPECT_NO_THROW(E.fill_from_lapack(nullptr, 1));
    EXPECT_NO_THROW(E.to_lapack(nullptr, 1));
    // A view of more tiles than a matrix may have is refused before any loop over them.
    EXPECT_NE(message([&] { TileMatrix<T>::view(a.data(), 1, int64_t(1) << 40, 1, 1); }).find("'nb'"),
              std::string::npos);
    EXPECT_NE(message([&] { lapack::potrf<T>('L', 4, a.data(), 4, {.nb = -2}); }).find("'nb'"), std::string::npos);
}

TYPED_TEST(LapackLayoutTest, ViewLeavesResultsInTheArray) {
    using T = TypeParam;
    this->expect_no_tasks();  // on OpenCL workers: generate is CPU-only (device results: the tests below)
    const int64_t m = 19, n = 11, lda = 23;
    std::vector<T> a(size_t(lda * n), T(0));
    pad(a, m, n, lda);
    {
        auto V = TileMatrix<T>::view(a.data(), m, n, lda, 8);
        check::generate_random(V, 5);
    }  // the destructor waits and brings every tile home
    const auto expected = check::random_matrix<T>(m, n, m, 5);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ASSERT_EQ(a[size_t(i + j * lda)], expected[size_t(i + j * m)]) << i << "," << j;
    EXPECT_TRUE(padding_intact(a, m, n, lda));
}

TYPED_TEST(LapackLayoutTest, FactorizationsInBothLayouts) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // getrf's panel and geqrf's kernels have CPU implementations only
    const int64_t n = 45, lda = 50, nb = 16, nrhs = 3;
    for (LapackLayout layout : kLayouts) {
        const Options opts{.nb = nb, .ib = 4, .layout = layout};
        auto a = check::random_spd<T>(n, lda, 11), f = a;
        pad(f, n, n, lda);
        ASSERT_EQ(lapack::potrf<T>('L', n, f.data(), lda, opts), 0) << name(layout);
        EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), lda, f.data(), lda), check::kThreshold) << name(layout);
        EXPECT_TRUE(padding_intact(f, n, n, lda)) << name(layout);

        auto g = check::random_matrix<T>(n, n, lda, 12), lu = g;
        pad(lu, n, n, lda);
        std::vector<int64_t> ipiv(static_cast<size_t>(n));
        ASSERT_EQ(lapack::getrf<T>(n, n, lu.data(), lda, ipiv.data(), opts), 0) << name(layout);
        EXPECT_LE(check::getrf_residual(n, n, g.data(), lda, lu.data(), lda, ipiv.data()), check::kThreshold) << name(layout);
        EXPECT_TRUE(padding_intact(lu, n, n, lda)) << name(layout);

        // Least squares: a tall A (m = n + 7), B of max(m, n) rows.
        const int64_t m = n + 7, ldq = m + 2;
        auto q = check::random_matrix<T>(m, n, ldq, 13), qf = q;
        auto b = check::random_matrix<T>(m, nrhs, ldq, 14), x = b;
        pad(qf, m, n, ldq);
        pad(x, m, nrhs, ldq);
        ASSERT_EQ(lapack::gels<T>('N', m, n, nrhs, qf.data(), ldq, x.data(), ldq, opts), 0) << name(layout);
        EXPECT_LE(check::least_squares_residual(Trans::NoTrans, m, n, nrhs, q.data(), ldq, x.data(), ldq, b.data(), ldq),
                  check::kThreshold)
            << name(layout);
        EXPECT_TRUE(padding_intact(x, m, nrhs, ldq)) << name(layout);
    }
}

// LAPACK's xPOTRF references one triangle: on tile copies only that triangle's tiles travel
// (TileMatrix::fill_from_lapack / to_lapack with uplo), and the other triangle stays as it was.
TYPED_TEST(LapackLayoutTest, PotrfLeavesTheOtherTriangle) {
    using T = TypeParam;
    const int64_t n = 45, lda = 50, nb = 16;
    for (LapackLayout layout : kLayouts)
        for (const char uplo : {'L', 'U'}) {
            const Options opts{.nb = nb, .layout = layout};
            const auto a = check::random_spd<T>(n, lda, 21);
            auto f = a;
            pad(f, n, n, lda);
            auto other = [uplo](int64_t i, int64_t j) { return uplo == 'L' ? i < j : i > j; };
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i)
                    if (other(i, j)) f[size_t(i + j * lda)] = T(7777);  // not referenced
            const auto before = f;
            ASSERT_EQ(lapack::potrf<T>(uplo, n, f.data(), lda, opts), 0) << name(layout) << " " << uplo;
            EXPECT_LE(check::potrf_residual(uplo == 'L' ? Uplo::Lower : Uplo::Upper, n, a.data(), lda, f.data(), lda),
                      check::kThreshold)
                << name(layout) << " " << uplo;
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i)
                    if (other(i, j)) ASSERT_EQ(f[size_t(i + j * lda)], before[size_t(i + j * lda)]) << i << "," << j;
            EXPECT_TRUE(padding_intact(f, n, n, lda)) << name(layout) << " " << uplo;
        }
}

TYPED_TEST(LapackLayoutTest, Blas3InBothLayouts) {
    using T = TypeParam;
    const int64_t m = 37, n = 29, k = 21, lda = 40, ldb = 33, ldc = 41, nb = 16;
    const T alpha(1.5), beta(-0.5);
    for (LapackLayout layout : kLayouts) {
        const Options opts{.nb = nb, .layout = layout};
        const auto a = check::random_matrix<T>(m, k, lda, 21), b = check::random_matrix<T>(k, n, ldb, 22);
        auto c0 = check::random_matrix<T>(m, n, ldc, 23);
        pad(c0, m, n, ldc);
        auto c = c0;
        lapack::gemm<T>('N', 'N', m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc, opts);
        EXPECT_LE(check::gemm_residual(Trans::NoTrans, Trans::NoTrans, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta,
                                       c0.data(), c.data(), ldc),
                  check::kThreshold)
            << name(layout);
        EXPECT_TRUE(padding_intact(c, m, n, ldc)) << name(layout);

        auto l = check::random_spd<T>(m, lda, 24);  // well-conditioned lower triangle
        auto x0 = check::random_matrix<T>(m, n, ldc, 25);
        pad(x0, m, n, ldc);
        auto x = x0;
        lapack::trsm<T>('L', 'L', 'N', 'N', m, n, alpha, l.data(), lda, x.data(), ldc, opts);
        EXPECT_LE(check::trsm_residual(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, m, n, alpha, l.data(), lda,
                                       x0.data(), x.data(), ldc),
                  check::kThreshold)
            << name(layout);
        EXPECT_TRUE(padding_intact(x, m, n, ldc)) << name(layout);
    }
}

}  // namespace
}  // namespace tessera

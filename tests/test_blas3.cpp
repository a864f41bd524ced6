// Tile gemm, trsm and syrk in float and double against the residuals of
// docs/architecture.md#numerical-checks, every transpose, side, uplo and diag, on shapes with m ≠ n,
// partial tiles, a single tile, nb > n and empty sizes.
#include <vector>

#include "examples/common/checks.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Blas3 : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Blas3, Precisions);

struct Shape {
    int64_t m, n, k, nb;
};
// A single tile, nb > n, partial tiles with m ≠ n ≠ k, full tiles. PoCL runs every kernel slowly:
// the OpenCL modes take the three shapes that cover all of these.
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{1, 1, 1, 8}, {37, 53, 29, 16}, {64, 32, 48, 16}};
    return {{1, 1, 1, 8}, {7, 5, 3, 16}, {37, 53, 29, 16}, {64, 32, 48, 16}, {50, 30, 70, 32}};
}
const Trans kTrans[] = {Trans::NoTrans, Trans::Trans};

TYPED_TEST(Blas3, Gemm) {
    using T = TypeParam;
    for (auto [m, n, k, nb] : shapes())
        for (Trans ta : kTrans)
            for (Trans tb : kTrans) {
                const int64_t ar = ta == Trans::NoTrans ? m : k, ac = ta == Trans::NoTrans ? k : m;
                const int64_t br = tb == Trans::NoTrans ? k : n, bc = tb == Trans::NoTrans ? n : k;
                auto a = check::random_matrix<T>(ar, ac, ar + 1, 1), b = check::random_matrix<T>(br, bc, br + 2, 2);
                auto c0 = check::random_matrix<T>(m, n, m + 3, 3), c = c0;
                lapack::gemm<T>(char(ta), char(tb), m, n, k, T(1.5), a.data(), ar + 1, b.data(), br + 2, T(-0.5),
                                c.data(), m + 3, {.nb = nb});
                EXPECT_LE(check::gemm_residual(ta, tb, m, n, k, T(1.5), a.data(), ar + 1, b.data(), br + 2, T(-0.5),
                                               c0.data(), c.data(), m + 3),
                          check::kThreshold)
                    << "m " << m << " n " << n << " k " << k << " " << char(ta) << char(tb);
            }
}

// k = 0 scales C by beta (on CPU workers: no OpenCL task exists for a bare scaling).
TYPED_TEST(Blas3, GemmWithEmptyInnerDimensionScalesC) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    this->expect_no_tasks();
    auto c = check::random_matrix<T>(5, 4, 5, 9), c0 = c;
    T dummy[1] = {};
    lapack::gemm<T>('N', 'N', 5, 4, 0, T(2), dummy, 5, dummy, 1, T(0.5), c.data(), 5, {.nb = 2});
    for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], T(0.5) * c0[i]);
}

TYPED_TEST(Blas3, TrsmAllCombinations) {
    using T = TypeParam;
    for (auto [m, n, k, nb] : shapes())
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans trans : kTrans)
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        (void)k;
                        const int64_t order = side == Side::Left ? m : n, lda = order + 1;
                        auto a = check::random_matrix<T>(order, order, lda, 4);
                        for (int64_t i = 0; i < order; ++i) a[size_t(i + i * lda)] += T(order);
                        auto b0 = check::random_matrix<T>(m, n, m, 5), x = b0;
                        lapack::trsm<T>(char(side), char(uplo), char(trans), char(diag), m, n, T(2), a.data(), lda,
                                        x.data(), m, {.nb = nb});
                        EXPECT_LE(check::trsm_residual(side, uplo, trans, diag, m, n, T(2), a.data(), lda, b0.data(),
                                                       x.data(), m),
                                  check::kThreshold)
                            << char(side) << char(uplo) << char(trans) << char(diag) << " m " << m << " n " << n;
                    }
}

TYPED_TEST(Blas3, Syrk) {
    using T = TypeParam;
    for (auto [m, n, k, nb] : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans trans : kTrans) {
                (void)m;
                const int64_t ar = trans == Trans::NoTrans ? n : k, ac = trans == Trans::NoTrans ? k : n;
                auto a = check::random_matrix<T>(ar, ac, ar, 6), c0 = check::random_matrix<T>(n, n, n, 7), c = c0;
                lapack::syrk<T>(char(uplo), char(trans), n, k, T(-1), a.data(), ar, T(2), c.data(), n, {.nb = nb});
                EXPECT_LE(check::syrk_residual(uplo, trans, n, k, T(-1), a.data(), ar, T(2), c0.data(), c.data(), n),
                          check::kThreshold)
                    << char(uplo) << char(trans) << " n " << n << " k " << k;
                // The other triangle is not referenced.
                for (int64_t j = 0; j < n; ++j)
                    for (int64_t i = 0; i < n; ++i)
                        if (uplo == Uplo::Lower ? i < j : i > j) ASSERT_EQ(c[size_t(i + j * n)], c0[size_t(i + j * n)]);
            }
}

// herk: C = α·op(A)·op(A)ᴴ + β·C with real α, β (syrk for real T); complex trans must be N or C.
TYPED_TEST(Blas3, Herk) {
    using T = TypeParam;
    for (auto [m, n, k, nb] : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans trans : {Trans::NoTrans, Trans::ConjTrans}) {
                (void)m;
                const int64_t ar = trans == Trans::NoTrans ? n : k, ac = trans == Trans::NoTrans ? k : n;
                auto a = check::random_matrix<T>(ar, ac, ar, 6), c0 = check::random_matrix<T>(n, n, n, 7), c = c0;
                lapack::herk<T>(char(uplo), char(trans), n, k, -1, a.data(), ar, 2, c.data(), n, {.nb = nb});
                EXPECT_LE(check::herk_residual<T>(uplo, trans, n, k, -1, a.data(), ar, 2, c0.data(), c.data(), n),
                          check::kThreshold)
                    << char(uplo) << char(trans) << " n " << n << " k " << k;
                for (int64_t j = 0; j < n; ++j) {
                    EXPECT_EQ(std::imag(c[size_t(j + j * n)]), 0) << "diagonal of a Hermitian result";
                    for (int64_t i = 0; i < n; ++i)
                        if (uplo == Uplo::Lower ? i < j : i > j) ASSERT_EQ(c[size_t(i + j * n)], c0[size_t(i + j * n)]);
                }
            }
    if constexpr (is_complex_v<T>) {
        TileMatrix<T> A(4, 4, 2), C(4, 4, 2);
        EXPECT_THROW(herk(Uplo::Lower, Trans::Trans, real_t<T>(1), A, real_t<T>(0), C), Error);
        EXPECT_THROW(syrk(Uplo::Lower, Trans::ConjTrans, T(1), A, T(0), C), Error);
    }
}

TYPED_TEST(Blas3, TileFormsAndEmptyMatrices) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> A(0, 5, 4), B(5, 3, 4), C(0, 3, 4);
    gemm(Trans::NoTrans, Trans::NoTrans, T(1), A, B, T(0), C);  // m = 0: nothing to do
    TileMatrix<T> E(0, 0, 4), F(0, 7, 4);
    trsm(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, T(1), E, F);
    EXPECT_EQ(C.mt(), 0);
}

TYPED_TEST(Blas3, ShapeMismatchesThrowNamingTheArgument) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> A(4, 5, 2), B(6, 3, 2), C(4, 3, 2), Q(4, 4, 2), D(4, 3, 3);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { gemm(Trans::NoTrans, Trans::NoTrans, T(1), A, B, T(0), C); }).find("'B'"), std::string::npos);
    EXPECT_NE(message([&] { trsm(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A, C); }).find("'A'"), std::string::npos);
    EXPECT_NE(message([&] { trsm(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), Q, D); }).find("'nb'"), std::string::npos);
    EXPECT_NE(message([&] { syrk(Uplo::Lower, Trans::NoTrans, T(1), A, T(0), C); }).find("'C'"), std::string::npos);
    T dummy[4] = {};
    EXPECT_NE(message([&] { lapack::gemm<T>('X', 'N', 1, 1, 1, T(1), dummy, 1, dummy, 1, T(0), dummy, 1); }).find("'transA'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gemm<T>('N', 'N', 2, 1, 1, T(1), dummy, 1, dummy, 1, T(0), dummy, 2); }).find("'lda'"), std::string::npos);
}

}  // namespace
}  // namespace tessera

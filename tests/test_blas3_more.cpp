// Tile trmm, symm / hemm and syr2k / her2k in s, d, c, z against CBLAS on the same data (the scaled
// residuals of examples/common/checks.hpp), every side, uplo, trans and diag, on shapes with m ≠ n,
// partial tiles, a single tile and nb > n; alpha = 0, beta = 0 and 1, empty sizes, bad arguments; NaN in
// the imaginary parts of a Hermitian diagonal, which hemm and her2k do not read.
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Blas3More : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Blas3More, Precisions);

struct Shape {
    int64_t m, n, k, nb;
};
// As test_blas3: PoCL runs every kernel slowly, so the OpenCL modes take three shapes (a single
// tile, partial tiles with m ≠ n ≠ k, full tiles).
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{1, 1, 1, 8}, {37, 53, 29, 16}, {64, 32, 48, 16}};
    return {{1, 1, 1, 8}, {7, 5, 3, 16}, {37, 53, 29, 16}, {64, 32, 48, 16}, {50, 30, 70, 32}};
}

// A scalar with an imaginary part for complex T.
template <class T>
T scalar(double re, double im) {
    if constexpr (is_complex_v<T>) return T(real_t<T>(re), real_t<T>(im));
    else return T(re);
}

template <class T>
std::vector<Trans> transposes() {
    if constexpr (is_complex_v<T>) return {Trans::NoTrans, Trans::Trans, Trans::ConjTrans};
    else return {Trans::NoTrans, Trans::Trans};
}

template <class F>
std::string message(F&& f) {
    try { f(); } catch (const Error& e) { return e.what(); }
    return "no error";
}

TYPED_TEST(Blas3More, TrmmAllCombinations) {
    using T = TypeParam;
    for (auto [m, n, k, nb] : shapes())
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans trans : transposes<T>())
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        (void)k;
                        const int64_t order = side == Side::Left ? m : n, lda = order + 1, ldb = m + 2;
                        auto a = check::random_matrix<T>(order, order, lda, 4);
                        auto b0 = check::random_matrix<T>(m, n, ldb, 5), b = b0;
                        const T alpha = scalar<T>(1.5, -0.5);
                        lapack::trmm<T>(char(side), char(uplo), char(trans), char(diag), m, n, alpha, a.data(), lda,
                                        b.data(), ldb, {.nb = nb});
                        EXPECT_LE(check::trmm_residual(side, uplo, trans, diag, m, n, alpha, a.data(), lda, b0.data(),
                                                       b.data(), ldb),
                                  check::kThreshold)
                            << char(side) << char(uplo) << char(trans) << char(diag) << " m " << m << " n " << n;
                    }
}

TYPED_TEST(Blas3More, TrmmAlphaZeroGivesZero) {
    using T = TypeParam;
    const int64_t m = 37, n = 21;
    auto a = check::random_matrix<T>(m, m, m, 4), b = check::random_matrix<T>(m, n, m, 5);
    lapack::trmm<T>('L', 'U', 'N', 'N', m, n, T(0), a.data(), m, b.data(), m, {.nb = 16});
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ASSERT_EQ(b[size_t(i + j * m)], T(0)) << i << "," << j;
}

// symm and hemm: both sides and uplos, alpha and beta with imaginary parts for complex T.
TYPED_TEST(Blas3More, SymmAndHemm) {
    using T = TypeParam;
    for (bool hermitian : {false, true})
        for (auto [m, n, k, nb] : shapes())
            for (Side side : {Side::Left, Side::Right})
                for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
                    (void)k;
                    const int64_t order = side == Side::Left ? m : n, lda = order + 1, ldb = m + 2, ldc = m + 3;
                    auto a = check::random_matrix<T>(order, order, lda, 6), b = check::random_matrix<T>(m, n, ldb, 7);
                    auto c0 = check::random_matrix<T>(m, n, ldc, 8), c = c0;
                    const T alpha = scalar<T>(-1.25, 0.5), beta = scalar<T>(0.5, 0.25);
                    if (hermitian)
                        lapack::hemm<T>(char(side), char(uplo), m, n, alpha, a.data(), lda, b.data(), ldb, beta,
                                        c.data(), ldc, {.nb = nb});
                    else
                        lapack::symm<T>(char(side), char(uplo), m, n, alpha, a.data(), lda, b.data(), ldb, beta,
                                        c.data(), ldc, {.nb = nb});
                    EXPECT_LE(check::symm_residual(hermitian, side, uplo, m, n, alpha, a.data(), lda, b.data(), ldb,
                                                   beta, c0.data(), c.data(), ldc),
                              check::kThreshold)
                        << (hermitian ? "hemm " : "symm ") << char(side) << char(uplo) << " m " << m << " n " << n;
                }
}

// alpha = 0 (C = beta·C), beta = 0 (C's input not used: NaN there does not propagate) and beta = 1.
TYPED_TEST(Blas3More, SymmSpecialScalars) {
    using T = TypeParam;
    const int64_t m = 37, n = 21, nb = 16;
    auto a = check::random_matrix<T>(m, m, m, 6), b = check::random_matrix<T>(m, n, m, 7);
    const T one(1), zero(0);
    for (auto [alpha, beta] : {std::pair{zero, T(2)}, std::pair{one, zero}, std::pair{one, one}}) {
        auto c0 = check::random_matrix<T>(m, n, m, 8), c = c0;
        if (beta == zero) std::fill(c.begin(), c.end(), T(NAN));
        lapack::symm<T>('L', 'L', m, n, alpha, a.data(), m, b.data(), m, beta, c.data(), m, {.nb = nb});
        if (beta == zero) c0.assign(c0.size(), T(0));
        EXPECT_LE(check::symm_residual(false, Side::Left, Uplo::Lower, m, n, alpha, a.data(), m, b.data(), m, beta,
                                       c0.data(), c.data(), m),
                  check::kThreshold)
            << "alpha " << alpha << " beta " << beta;
    }
}

// syr2k and her2k: both uplos, every transpose they allow; the other triangle is not referenced.
TYPED_TEST(Blas3More, Syr2kAndHer2k) {
    using T = TypeParam;
    for (bool hermitian : {false, true})
        for (auto [m, n, k, nb] : shapes())
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans trans : {Trans::NoTrans, hermitian ? Trans::ConjTrans : Trans::Trans}) {
                    (void)m;
                    const int64_t ar = trans == Trans::NoTrans ? n : k, ac = trans == Trans::NoTrans ? k : n;
                    auto a = check::random_matrix<T>(ar, ac, ar + 1, 9), b = check::random_matrix<T>(ar, ac, ar + 2, 10);
                    auto c0 = check::random_matrix<T>(n, n, n, 11), c = c0;
                    const T alpha = scalar<T>(-1, 0.75);
                    const real_t<T> beta = 2;
                    if (hermitian)
                        lapack::her2k<T>(char(uplo), char(trans), n, k, alpha, a.data(), ar + 1, b.data(), ar + 2,
                                         beta, c.data(), n, {.nb = nb});
                    else
                        lapack::syr2k<T>(char(uplo), char(trans), n, k, alpha, a.data(), ar + 1, b.data(), ar + 2,
                                         T(beta), c.data(), n, {.nb = nb});
                    EXPECT_LE(check::syr2k_residual(hermitian, uplo, trans, n, k, alpha, a.data(), ar + 1, b.data(),
                                                    ar + 2, T(beta), c0.data(), c.data(), n),
                              check::kThreshold)
                        << (hermitian ? "her2k " : "syr2k ") << char(uplo) << char(trans) << " n " << n << " k " << k;
                    for (int64_t j = 0; j < n; ++j) {
                        if (hermitian) EXPECT_EQ(std::imag(c[size_t(j + j * n)]), 0) << "diagonal of a Hermitian result";
                        for (int64_t i = 0; i < n; ++i)
                            if (uplo == Uplo::Lower ? i < j : i > j) ASSERT_EQ(c[size_t(i + j * n)], c0[size_t(i + j * n)]);
                    }
                }
}

// alpha = 0 with beta = 1 leaves C as it is; beta = 0 ignores C's input.
// xHEMM and xHER2K do not read the imaginary parts of a Hermitian diagonal (A's for hemm, C's on
// input for her2k, whose result's diagonal is real): NaN there must not reach the result, on any
// worker (the OpenCL hemm once read them where C has more than 8 columns). Complex only.
TYPED_TEST(Blas3More, HermitianDiagonalsImaginaryPartsAreNotRead) {
    using T = TypeParam;
    if constexpr (!is_complex_v<T>) {
        this->expect_no_tasks();
        GTEST_SKIP() << "complex only";
    } else {
        using R = real_t<T>;
        const R nan = std::numeric_limits<R>::quiet_NaN();
        const int64_t m = 37, n = 21, nb = 16;
        const T alpha = scalar<T>(-1.25, 0.5), beta = scalar<T>(0.5, 0.25);
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
                const int64_t order = side == Side::Left ? m : n;
                auto a = check::random_matrix<T>(order, order, order, 12), b = check::random_matrix<T>(m, n, m, 13);
                auto c0 = check::random_matrix<T>(m, n, m, 14), c = c0;
                auto a_nan = a;
                for (int64_t i = 0; i < order; ++i) {
                    a[size_t(i + i * order)] = T(std::real(a[size_t(i + i * order)]));
                    a_nan[size_t(i + i * order)] = T(std::real(a[size_t(i + i * order)]), nan);
                }
                lapack::hemm<T>(char(side), char(uplo), m, n, alpha, a_nan.data(), order, b.data(), m, beta, c.data(),
                                m, {.nb = nb});
                EXPECT_LE(check::symm_residual(true, side, uplo, m, n, alpha, a.data(), order, b.data(), m, beta,
                                               c0.data(), c.data(), m),
                          check::kThreshold)
                    << "hemm " << char(side) << char(uplo);
            }
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans trans : {Trans::NoTrans, Trans::ConjTrans}) {
                const int64_t k = n, ar = trans == Trans::NoTrans ? m : k, ac = trans == Trans::NoTrans ? k : m;
                auto a = check::random_matrix<T>(ar, ac, ar, 15), b = check::random_matrix<T>(ar, ac, ar, 16);
                auto c0 = check::random_matrix<T>(m, m, m, 17);
                for (int64_t i = 0; i < m; ++i) c0[size_t(i + i * m)] = T(std::real(c0[size_t(i + i * m)]));
                auto c = c0;
                for (int64_t i = 0; i < m; ++i) c[size_t(i + i * m)] = T(std::real(c0[size_t(i + i * m)]), nan);
                lapack::her2k<T>(char(uplo), char(trans), m, k, alpha, a.data(), ar, b.data(), ar, R(2), c.data(), m,
                                 {.nb = nb});
                EXPECT_LE(check::syr2k_residual(true, uplo, trans, m, k, alpha, a.data(), ar, b.data(), ar, T(2),
                                                c0.data(), c.data(), m),
                          check::kThreshold)
                    << "her2k " << char(uplo) << char(trans);
                for (int64_t j = 0; j < m; ++j) EXPECT_EQ(std::imag(c[size_t(j + j * m)]), 0) << "her2k diagonal " << j;
            }
    }
}

TYPED_TEST(Blas3More, Syr2kSpecialScalars) {
    using T = TypeParam;
    const int64_t n = 37, k = 21, nb = 16;
    auto a = check::random_matrix<T>(n, k, n, 9), b = check::random_matrix<T>(n, k, n, 10);
    for (auto [alpha, beta] : {std::pair{T(0), T(1)}, std::pair{T(1), T(0)}}) {
        auto c0 = check::random_matrix<T>(n, n, n, 11), c = c0;
        if (beta == T(0)) std::fill(c.begin(), c.end(), T(NAN));
        lapack::syr2k<T>('U', 'N', n, k, alpha, a.data(), n, b.data(), n, beta, c.data(), n, {.nb = nb});
        if (beta == T(0)) c0.assign(c0.size(), T(0));
        EXPECT_LE(check::syr2k_residual(false, Uplo::Upper, Trans::NoTrans, n, k, alpha, a.data(), n, b.data(), n,
                                        beta, c0.data(), c.data(), n),
                  check::kThreshold)
            << "alpha " << alpha << " beta " << beta;
    }
}

// k = 0 scales C's triangle by beta (CPU tasks: no OpenCL task exists for a bare scaling).
TYPED_TEST(Blas3More, Syr2kWithEmptyInnerDimensionScalesC) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    this->expect_no_tasks();
    auto c = check::random_matrix<T>(5, 5, 5, 12), c0 = c;
    T dummy[1] = {};
    lapack::syr2k<T>('L', 'N', 5, 0, T(2), dummy, 5, dummy, 5, T(0.5), c.data(), 5, {.nb = 2});
    for (int64_t j = 0; j < 5; ++j)
        for (int64_t i = 0; i < 5; ++i)
            EXPECT_EQ(c[size_t(i + j * 5)], i >= j ? T(0.5) * c0[size_t(i + j * 5)] : c0[size_t(i + j * 5)]);
}

// The lapack:: forms in both layouts (in place on the caller's arrays, or on tile copies): residuals,
// and the rows between m and ld, which no form may touch.
TYPED_TEST(Blas3More, LapackFormsInBothLayoutsKeepThePadding) {
    using T = TypeParam;
    const int64_t m = 37, n = 21, nb = 16, ld = m + 5;
    auto padded = [&](int64_t rows, int64_t cols, uint64_t seed) {
        auto a = check::random_matrix<T>(rows, cols, ld, seed);
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = rows; i < ld; ++i) a[size_t(i + j * ld)] = T(-7);
        return a;
    };
    auto intact = [&](const std::vector<T>& a, int64_t rows, int64_t cols) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = rows; i < ld; ++i)
                if (a[size_t(i + j * ld)] != T(-7)) return false;
        return true;
    };
    for (LapackLayout layout : {LapackLayout::InPlace, LapackLayout::TileCopy}) {
        const Options opts{.nb = nb, .layout = layout};
        const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-1, 0.25);
        auto a = padded(m, m, 1), b0 = padded(m, n, 2), b = b0;
        lapack::trmm<T>('L', 'U', 'C', 'N', m, n, alpha, a.data(), ld, b.data(), ld, opts);
        EXPECT_LE(check::trmm_residual(Side::Left, Uplo::Upper, Trans::ConjTrans, Diag::NonUnit, m, n, alpha, a.data(),
                                       ld, b0.data(), b.data(), ld),
                  check::kThreshold);
        EXPECT_TRUE(intact(b, m, n)) << "trmm";
        auto c0 = padded(m, n, 3), c = c0;
        lapack::hemm<T>('L', 'L', m, n, alpha, a.data(), ld, b0.data(), ld, beta, c.data(), ld, opts);
        EXPECT_LE(check::symm_residual(true, Side::Left, Uplo::Lower, m, n, alpha, a.data(), ld, b0.data(), ld, beta,
                                       c0.data(), c.data(), ld),
                  check::kThreshold);
        EXPECT_TRUE(intact(c, m, n)) << "hemm";
        auto d0 = padded(m, m, 4), d = d0;
        lapack::syr2k<T>('L', 'N', m, n, alpha, b0.data(), ld, c0.data(), ld, beta, d.data(), ld, opts);
        EXPECT_LE(check::syr2k_residual(false, Uplo::Lower, Trans::NoTrans, m, n, alpha, b0.data(), ld, c0.data(), ld,
                                        beta, d0.data(), d.data(), ld),
                  check::kThreshold);
        EXPECT_TRUE(intact(d, m, m)) << "syr2k";
    }
}

// The _async forms chained in one Sequence: B = L·B (trmm), then C = B·S (symm, S symmetric from
// its upper triangle), then D += B·Cᵀ + C·Bᵀ (syr2k); each reads the previous one's result.
TYPED_TEST(Blas3More, AsyncFormsChainInOneSequence) {
    using T = TypeParam;
    const int64_t m = 40, n = 24, nb = 16;
    auto l = check::random_matrix<T>(m, m, m, 1), b0 = check::random_matrix<T>(m, n, m, 2);
    auto s = check::random_matrix<T>(n, n, n, 3), d0 = check::random_matrix<T>(m, m, m, 4);
    TileMatrix<T> L(m, m, nb), B(m, n, nb), S(n, n, nb), C(m, n, nb), D(m, m, nb);
    L.fill_from_lapack(l.data(), m);
    B.fill_from_lapack(b0.data(), m);
    S.fill_from_lapack(s.data(), n);
    D.fill_from_lapack(d0.data(), m);
    Sequence seq;
    trmm_async(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(2), L, B, seq);
    symm_async(Side::Right, Uplo::Upper, T(1), S, B, T(0), C, seq);
    syr2k_async(Uplo::Upper, Trans::NoTrans, T(1), B, C, T(1), D, seq);
    seq.wait();
    // The same on the host with CBLAS.
    auto b = b0;
    cpu::trmm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, m, n, T(2), l.data(), m, b.data(), m);
    std::vector<T> c(size_t(m * n)), d = d0;
    cpu::symm<T>(false, Side::Right, Uplo::Upper, m, n, T(1), s.data(), n, b.data(), m, T(0), c.data(), m);
    auto got_b = check::lapack_copy(B), got_c = check::lapack_copy(C), got_d = check::lapack_copy(D);
    EXPECT_LE(check::trmm_residual(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, m, n, T(2), l.data(), m,
                                   b0.data(), got_b.data(), m),
              check::kThreshold);
    const std::vector<T> zeros(size_t(m * n));
    EXPECT_LE(check::symm_residual(false, Side::Right, Uplo::Upper, m, n, T(1), s.data(), n, b.data(), m, T(0),
                                   zeros.data(), got_c.data(), m),
              check::kThreshold);
    EXPECT_LE(check::syr2k_residual(false, Uplo::Upper, Trans::NoTrans, m, n, T(1), b.data(), m, c.data(), m, T(1),
                                    d0.data(), got_d.data(), m),
              check::kThreshold);
}

TYPED_TEST(Blas3More, EmptyMatricesSubmitNothing) {
    using T = TypeParam;
    this->expect_no_tasks();
    T dummy[1] = {};
    lapack::trmm<T>('L', 'L', 'N', 'N', 0, 5, T(1), dummy, 1, dummy, 1);
    lapack::trmm<T>('R', 'U', 'T', 'U', 4, 0, T(1), dummy, 1, dummy, 4);
    lapack::symm<T>('L', 'U', 0, 3, T(1), dummy, 1, dummy, 1, T(0), dummy, 1);
    lapack::hemm<T>('R', 'L', 3, 0, T(1), dummy, 1, dummy, 3, T(0), dummy, 3);
    lapack::syr2k<T>('L', 'T', 0, 4, T(1), dummy, 4, dummy, 4, T(0), dummy, 1);
    lapack::her2k<T>('U', 'N', 0, 4, T(1), dummy, 1, dummy, 1, 0, dummy, 1);
    TileMatrix<T> A(0, 0, 4), B(0, 7, 4), C(0, 7, 4);
    trmm(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, T(1), A, B);
    symm(Side::Left, Uplo::Lower, T(1), A, B, T(0), C);
}

TYPED_TEST(Blas3More, BadArgumentsThrowNamingTheArgument) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> A(4, 5, 2), Q(4, 4, 2), B(4, 3, 2), C(4, 3, 2), D(4, 3, 3), S(4, 4, 2), W(5, 4, 2);
    auto has = [](const std::string& m, const char* arg) { return m.find(std::string("'") + arg + "'") != std::string::npos; };
    const Side L = Side::Left;
    EXPECT_TRUE(has(message([&] { trmm(L, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A, B); }), "A"));
    EXPECT_TRUE(has(message([&] { trmm(L, Uplo::General, Trans::NoTrans, Diag::Unit, T(1), Q, B); }), "uplo"));
    EXPECT_TRUE(has(message([&] { trmm(L, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), Q, D); }), "nb"));
    EXPECT_TRUE(has(message([&] { symm(L, Uplo::Lower, T(1), A, B, T(0), C); }), "A"));
    EXPECT_TRUE(has(message([&] { hemm(L, Uplo::Lower, T(1), Q, W, T(0), C); }), "B"));
    EXPECT_TRUE(has(message([&] { symm(Side::Right, Uplo::Lower, T(1), Q, B, T(0), C); }), "A"));
    EXPECT_TRUE(has(message([&] { syr2k(Uplo::Lower, Trans::NoTrans, T(1), A, B, T(0), S); }), "B"));
    EXPECT_TRUE(has(message([&] { syr2k(Uplo::Lower, Trans::NoTrans, T(1), B, B, T(0), C); }), "C"));
    EXPECT_TRUE(has(message([&] { her2k(Uplo::Upper, Trans::NoTrans, T(1), W, W, real_t<T>(0), S); }), "A"));
    if constexpr (is_complex_v<T>) {
        EXPECT_TRUE(has(message([&] { syr2k(Uplo::Lower, Trans::ConjTrans, T(1), Q, Q, T(0), S); }), "trans"));
        EXPECT_TRUE(has(message([&] { her2k(Uplo::Lower, Trans::Trans, T(1), Q, Q, real_t<T>(0), S); }), "trans"));
    }
    T dummy[16] = {};
    EXPECT_TRUE(has(message([&] { lapack::trmm<T>('X', 'L', 'N', 'N', 2, 2, T(1), dummy, 2, dummy, 2); }), "side"));
    EXPECT_TRUE(has(message([&] { lapack::trmm<T>('L', 'X', 'N', 'N', 2, 2, T(1), dummy, 2, dummy, 2); }), "uplo"));
    EXPECT_TRUE(has(message([&] { lapack::trmm<T>('L', 'L', 'X', 'N', 2, 2, T(1), dummy, 2, dummy, 2); }), "trans"));
    EXPECT_TRUE(has(message([&] { lapack::trmm<T>('L', 'L', 'N', 'X', 2, 2, T(1), dummy, 2, dummy, 2); }), "diag"));
    EXPECT_TRUE(has(message([&] { lapack::trmm<T>('L', 'L', 'N', 'N', 3, 2, T(1), dummy, 2, dummy, 3); }), "lda"));
    EXPECT_TRUE(has(message([&] { lapack::symm<T>('X', 'L', 2, 2, T(1), dummy, 2, dummy, 2, T(0), dummy, 2); }), "side"));
    EXPECT_TRUE(has(message([&] { lapack::hemm<T>('L', 'X', 2, 2, T(1), dummy, 2, dummy, 2, T(0), dummy, 2); }), "uplo"));
    EXPECT_TRUE(has(message([&] { lapack::symm<T>('R', 'L', 2, 3, T(1), dummy, 3, dummy, 1, T(0), dummy, 2); }), "ldb"));
    EXPECT_TRUE(has(message([&] { lapack::syr2k<T>('L', 'X', 2, 2, T(1), dummy, 2, dummy, 2, T(0), dummy, 2); }), "trans"));
    EXPECT_TRUE(has(message([&] { lapack::her2k<T>('L', 'N', 3, 2, T(1), dummy, 3, dummy, 2, 0, dummy, 3); }), "ldb"));
    EXPECT_TRUE(has(message([&] { lapack::syr2k<T>('L', 'N', 3, 2, T(1), dummy, 3, dummy, 3, T(0), dummy, 2); }), "ldc"));
}

}  // namespace
}  // namespace tessera

// Matrix norms (tessera/norms.hpp) in s, d, c and z against LAPACKE's xLANGE, xLANSY, xLANHE and
// xLANTR within the rounding error bound (check::norm_tolerance): every norm kind, a non-square
// matrix with partial last tiles, both uplos, both diags on a trapezoid, entries near the overflow
// threshold, empty matrices, bad arguments; Max, One and Inf identical over two runs.
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_norms.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Norms : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Norms, Precisions);

const char kNorms[] = {'M', 'O', 'I', 'F'};
constexpr int64_t kNb = 16;

// Two m×n shapes with partial last tiles both ways, tall then wide; PoCL runs every kernel slowly,
// so the OpenCL modes take the first only (the wide one is checked on CPU workers).
std::vector<std::pair<int64_t, int64_t>> shapes(int64_t m2, int64_t n2) {
    if (test::mode() != "cpu") return {{70, 50}};
    return {{70, 50}, {m2, n2}};
}

template <class T>
void expect_close(real_t<T> got, real_t<T> ref, char norm, int64_t m, int64_t n, const char* what) {
    const double tol = check::norm_tolerance<T>(norm, m, n) * std::abs(double(ref));
    EXPECT_TRUE(std::isfinite(double(got))) << what << " norm " << norm;
    EXPECT_NEAR(double(got), double(ref), tol) << what << " norm " << norm << " m " << m << " n " << n;
}

// 70×50 (partial last tiles both ways, m ≠ n) and its transpose shape.
TYPED_TEST(Norms, LangeMatchesLapack) {
    using T = TypeParam;
    for (auto [m, n] : shapes(33, 47)) {
        const int64_t lda = m + 3;
        auto a = check::random_matrix<T>(m, n, lda, 11);
        for (char norm : kNorms)
            expect_close<T>(lapack::lange<T>(norm, m, n, a.data(), lda, {.nb = kNb}),
                            check::ref_lange<T>(norm, m, n, a.data(), lda), norm, m, n, "lange");
    }
}

TYPED_TEST(Norms, LansyAndLanheBothUplos) {
    using T = TypeParam;
    const int64_t n = 53, lda = n + 1;
    auto a = check::random_matrix<T>(n, n, lda, 12);  // not symmetric: only the uplo triangle counts
    if constexpr (is_complex_v<T>)
        for (int64_t i = 0; i < n; ++i) a[size_t(i + i * lda)] += T(0, 1000);  // lanhe ignores it
    for (char uplo : {'L', 'U'})
        for (char norm : kNorms) {
            expect_close<T>(lapack::lansy<T>(norm, uplo, n, a.data(), lda, {.nb = kNb}),
                            check::ref_lansy<T>(norm, uplo, n, a.data(), lda), norm, n, n, "lansy");
            const real_t<T> he = lapack::lanhe<T>(norm, uplo, n, a.data(), lda, {.nb = kNb});
            expect_close<T>(he, check::ref_lanhe<T>(norm, uplo, n, a.data(), lda), norm, n, n, "lanhe");
            if constexpr (is_complex_v<T>) EXPECT_LT(double(he), 1000.0) << "lanhe read the diagonal's imaginary part";
        }
}

TYPED_TEST(Norms, LantrTrapezoidsBothUplosAndDiags) {
    using T = TypeParam;
    for (auto [m, n] : shapes(40, 61)) {
        const int64_t lda = m + 2;
        auto a = check::random_matrix<T>(m, n, lda, 13);
        for (char uplo : {'L', 'U'})
            for (char diag : {'N', 'U'})
                for (char norm : kNorms)
                    expect_close<T>(lapack::lantr<T>(norm, uplo, diag, m, n, a.data(), lda, {.nb = kNb}),
                                    check::ref_lantr<T>(norm, uplo, diag, m, n, a.data(), lda), norm, m, n, "lantr");
    }
}

// The tile forms on a TileMatrix, twice: Max, One and Inf the same bits every run (a fixed reduction
// order, and CPU and device kernels that agree), whatever worker took each tile.
TYPED_TEST(Norms, MaxOneInfAreDeterministic) {
    using T = TypeParam;
    const int64_t m = 70, n = 50;
    auto a = check::random_matrix<T>(m, n, m, 14);
    TileMatrix<T> A(m, n, kNb);
    A.fill_from_lapack(a.data(), m);
    for (Norm norm : {Norm::Max, Norm::One, Norm::Inf}) {
        EXPECT_EQ(lange(norm, A), lange(norm, A)) << char(norm);
        EXPECT_EQ(lantr(norm, Uplo::Lower, Diag::NonUnit, A), lantr(norm, Uplo::Lower, Diag::NonUnit, A)) << char(norm);
    }
    TileMatrix<T> S(n, n, kNb);
    S.fill_from_lapack(a.data(), m);
    for (Norm norm : {Norm::Max, Norm::One, Norm::Inf})
        EXPECT_EQ(lanhe(norm, Uplo::Upper, S), lanhe(norm, Uplo::Upper, S)) << char(norm);
    const real_t<T> fro = lange(Norm::Fro, A);
    expect_close<T>(fro, check::ref_lange<T>('F', m, n, a.data(), m), 'F', m, n, "tile lange");
}

// Entries near the overflow threshold: the squares overflow, the scaled sum of squares does not.
TYPED_TEST(Norms, FrobeniusDoesNotOverflow) {
    using T = TypeParam;
    using R = real_t<T>;
    const R big = std::is_same_v<R, double> ? R(1e200) : R(1e30);
    const int64_t m = 45, n = 37;
    auto a = check::random_matrix<T>(m, n, m, 15);
    for (T& x : a) x *= big;
    for (char norm : kNorms) {
        const R got = lapack::lange<T>(norm, m, n, a.data(), m, {.nb = kNb});
        EXPECT_TRUE(std::isfinite(got)) << norm;
        expect_close<T>(got, check::ref_lange<T>(norm, m, n, a.data(), m), norm, m, n, "lange big");
    }
    const R sy = lapack::lansy<T>('F', 'L', n, a.data(), m, {.nb = kNb});
    expect_close<T>(sy, check::ref_lansy<T>('F', 'L', n, a.data(), m), 'F', n, n, "lansy big");
}

TYPED_TEST(Norms, EmptyMatricesAreZero) {
    using T = TypeParam;
    this->expect_no_tasks();
    for (char norm : kNorms) {
        EXPECT_EQ(lapack::lange<T>(norm, 0, 5, nullptr, 1), real_t<T>(0));
        EXPECT_EQ(lapack::lange<T>(norm, 5, 0, nullptr, 5), real_t<T>(0));
        EXPECT_EQ(lapack::lansy<T>(norm, 'U', 0, nullptr, 1), real_t<T>(0));
        EXPECT_EQ(lapack::lanhe<T>(norm, 'L', 0, nullptr, 1), real_t<T>(0));
        EXPECT_EQ(lapack::lantr<T>(norm, 'L', 'U', 4, 0, nullptr, 4), real_t<T>(0));
    }
    TileMatrix<T> E(0, 3, kNb);
    EXPECT_EQ(lange(Norm::Fro, E), real_t<T>(0));
    EXPECT_EQ(lantr(Norm::Max, Uplo::Upper, Diag::Unit, E), real_t<T>(0));
}

TYPED_TEST(Norms, BadArgumentsThrow) {
    using T = TypeParam;
    this->expect_no_tasks();
    std::vector<T> a(16, T(1));
    EXPECT_THROW(lapack::lange<T>('X', 4, 4, a.data(), 4), Error);
    EXPECT_THROW(lapack::lange<T>('M', -1, 4, a.data(), 4), Error);
    EXPECT_THROW(lapack::lange<T>('M', 4, -1, a.data(), 4), Error);
    EXPECT_THROW(lapack::lange<T>('M', 4, 4, a.data(), 3), Error);
    EXPECT_THROW(lapack::lange<T>('M', 4, 4, nullptr, 4), Error);
    EXPECT_THROW(lapack::lange<T>('M', 4, 4, a.data(), 4, {.nb = -1}), Error);
    EXPECT_THROW(lapack::lansy<T>('F', 'G', 4, a.data(), 4), Error);
    try {
        lapack::lanhe<T>('F', 'L', -2, a.data(), 4);
        ADD_FAILURE() << "no throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'n'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(lapack::lanhe<T>('1', 'X', 4, a.data(), 4), Error);
    EXPECT_THROW(lapack::lantr<T>('I', 'U', 'X', 4, 4, a.data(), 4), Error);
    EXPECT_THROW(lapack::lantr<T>('I', 'G', 'N', 4, 4, a.data(), 4), Error);
    try {
        lapack::lantr<T>('Q', 'U', 'N', 4, 4, a.data(), 4);
        ADD_FAILURE() << "no throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'norm'"), std::string::npos) << e.what();
    }
    TileMatrix<T> R(5, 4, kNb);
    EXPECT_THROW(lansy(Norm::Max, Uplo::Lower, R), Error);
    EXPECT_THROW(lanhe(Norm::Max, Uplo::Upper, R), Error);
    EXPECT_THROW(lange(Norm(char('Z')), R), Error);
    EXPECT_THROW(lantr(Norm::One, Uplo::General, Diag::Unit, R), Error);
}

}  // namespace
}  // namespace tessera

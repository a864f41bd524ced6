// Condition number estimates (tessera/condition.hpp) in s, d, c and z: gecon, pocon and trcon on
// factors computed by LAPACKE (xGETRF, xPOTRF) of matrices of 2-norm condition number 1e2 … 1e10 in
// double (1e1 … 1e4 in single), against LAPACKE's xGECON / xPOCON / xTRCON on the same factors and
// the exact rcond from the inverse (check::rcond_error: a factor 10, the lower bound up to rounding);
// One and Inf, both uplos, Unit diag, the tile forms, n = 0, anorm = 0, NaN and ∞, an exactly
// singular factor (rcond = 0, no NaN), bad arguments; and that rcond_error rejects wrong estimates.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_condition.hpp"
#include "examples/common/checks_mixed.hpp"
#include "examples/common/checks_norms.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/lu.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Condition : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Condition, Precisions);

constexpr int64_t kNb = 16;

// 2-norm condition numbers: up to 1e10 in double, 1e4 in single (κ·eps ≲ 1e-3 keeps the exact
// rcond's own rounding small).
template <class T>
std::vector<double> conds() {
    if (std::is_same_v<real_t<T>, float>) return {1e1, 1e4};
    return {1e2, 1e6, 1e10};
}

// n with partial last tiles; PoCL runs every kernel slowly, so the OpenCL modes take one size.
std::vector<int64_t> sizes() { return test::mode() == "cpu" ? std::vector<int64_t>{37, 70} : std::vector<int64_t>{37}; }

template <class F>
std::string message(F&& f) {
    try { f(); } catch (const Error& e) { return e.what(); }
    return "no error";
}

// The LU factors of a matrix of condition number cond (lda = n + 1), its 1-based pivots and its norms.
template <class T>
struct Lu {
    int64_t n, lda;
    std::vector<T> f;
    std::vector<int64_t> ipiv;
    real_t<T> one, inf;
    Lu(int64_t n_, double cond, uint64_t seed) : n(n_), lda(n_ + 1) {
        f = check::random_cond<T>(n, lda, cond, false, seed);
        one = check::ref_lange<T>('O', n, n, f.data(), lda);
        inf = check::ref_lange<T>('I', n, n, f.data(), lda);
        std::vector<int> piv(static_cast<size_t>(n));
        EXPECT_EQ(cpu::getrf<T>(n, n, f.data(), lda, piv.data()), 0);
        ipiv.assign(piv.begin(), piv.end());
    }
};

TYPED_TEST(Condition, GeconMatchesLapackAndExact) {
    using T = TypeParam;
    for (int64_t n : sizes())
        for (double cond : conds<T>()) {
            const Lu<T> lu(n, cond, 5);
            for (char norm : {'O', 'I'}) {
                const real_t<T> anorm = norm == 'O' ? lu.one : lu.inf;
                real_t<T> rcond = -1;
                ASSERT_EQ(lapack::gecon<T>(norm, n, lu.f.data(), lu.lda, anorm, &rcond, {.nb = kNb}), 0);
                const real_t<T> ref = check::ref_gecon<T>(norm, n, lu.f.data(), lu.lda, anorm);
                const real_t<T> exact = check::exact_gecon<T>(norm, n, lu.f.data(), lu.lda, lu.ipiv.data(), anorm);
                EXPECT_LE(check::rcond_error<T>(n, rcond, ref, exact), check::kThreshold)
                    << "gecon " << norm << " n " << n << " cond " << cond << ": " << rcond << " LAPACK " << ref
                    << " exact " << exact;
            }
        }
}

TYPED_TEST(Condition, PoconBothUplos) {
    using T = TypeParam;
    for (int64_t n : sizes())
        for (double cond : conds<T>())
            for (char uplo : {'L', 'U'}) {
                const int64_t lda = n + 2;
                auto f = check::random_cond<T>(n, lda, cond, true, 6);
                const real_t<T> anorm = check::ref_lanhe<T>('1', uplo, n, f.data(), lda);
                ASSERT_EQ(cpu::potrf<T>(uplo == 'L' ? Uplo::Lower : Uplo::Upper, n, f.data(), lda), 0);
                real_t<T> rcond = -1;
                ASSERT_EQ(lapack::pocon<T>(uplo, n, f.data(), lda, anorm, &rcond, {.nb = kNb}), 0);
                const real_t<T> ref = check::ref_pocon<T>(uplo, n, f.data(), lda, anorm);
                const real_t<T> exact = check::exact_pocon<T>(uplo, n, f.data(), lda, anorm);
                EXPECT_LE(check::rcond_error<T>(n, rcond, ref, exact), check::kThreshold)
                    << "pocon " << uplo << " n " << n << " cond " << cond << ": " << rcond << " LAPACK " << ref
                    << " exact " << exact;
            }
}

// The triangles of an LU factorization: U (NonUnit) and L (Unit, and NonUnit with U's diagonal).
TYPED_TEST(Condition, TrconBothUplosAndDiags) {
    using T = TypeParam;
    for (int64_t n : sizes()) {
        const Lu<T> lu(n, conds<T>().back(), 7);
        for (char uplo : {'L', 'U'})
            for (char diag : {'N', 'U'})
                for (char norm : {'O', 'I'}) {
                    real_t<T> rcond = -1;
                    ASSERT_EQ(lapack::trcon<T>(norm, uplo, diag, n, lu.f.data(), lu.lda, &rcond, {.nb = kNb}), 0);
                    const real_t<T> ref = check::ref_trcon<T>(norm, uplo, diag, n, lu.f.data(), lu.lda);
                    const real_t<T> exact = check::exact_trcon<T>(norm, uplo, diag, n, lu.f.data(), lu.lda);
                    EXPECT_LE(check::rcond_error<T>(n, rcond, ref, exact), check::kThreshold)
                        << "trcon " << norm << uplo << diag << " n " << n << ": " << rcond << " LAPACK " << ref
                        << " exact " << exact;
                }
    }
}

// The tile forms on TileMatrix factors give the LAPACK-layout forms' estimates.
TYPED_TEST(Condition, TileFormsMatchLapackForms) {
    using T = TypeParam;
    const int64_t n = 37;
    const Lu<T> lu(n, 1e3, 8);
    TileMatrix<T> A(n, n, kNb);
    A.fill_from_lapack(lu.f.data(), lu.lda);
    real_t<T> r1 = -1, r2 = -1;
    lapack::gecon<T>('I', n, lu.f.data(), lu.lda, lu.inf, &r1, {.nb = kNb});
    const real_t<T> g = gecon(Norm::Inf, A, lu.inf);
    EXPECT_NEAR(double(g), double(r1), 1e-3 * double(r1));
    lapack::trcon<T>('1', 'U', 'N', n, lu.f.data(), lu.lda, &r2, {.nb = kNb});
    const real_t<T> t = trcon(Norm::One, Uplo::Upper, Diag::NonUnit, A);
    EXPECT_NEAR(double(t), double(r2), 1e-3 * double(r2));
}

// The tile forms on the factors of tile getrf and potrf themselves (getrf's panels run on CPU workers).
TYPED_TEST(Condition, TileFormsOnTileFactorizations) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 45, lda = n;
    for (bool spd : {false, true}) {
        const auto a = check::random_cond<T>(n, lda, conds<T>().back(), spd, 10);
        TileMatrix<T> A(n, n, kNb);
        A.fill_from_lapack(a.data(), lda);
        std::vector<int64_t> ipiv;
        const real_t<T> anorm = spd ? lanhe(Norm::One, Uplo::Upper, A) : lange(Norm::One, A);
        ASSERT_EQ(spd ? potrf(Uplo::Upper, A) : getrf(A, ipiv), 0);
        const real_t<T> rcond = spd ? pocon(Uplo::Upper, A, anorm) : gecon(Norm::One, A, anorm);
        std::vector<T> f(size_t(n * n));
        A.to_lapack(f.data(), lda);
        const real_t<T> ref = spd ? check::ref_pocon<T>('U', n, f.data(), lda, anorm)
                                  : check::ref_gecon<T>('O', n, f.data(), lda, anorm);
        const real_t<T> exact = spd ? check::exact_pocon<T>('U', n, f.data(), lda, anorm)
                                    : check::exact_gecon<T>('O', n, f.data(), lda, ipiv.data(), anorm);
        EXPECT_LE(check::rcond_error<T>(n, rcond, ref, exact), check::kThreshold)
            << (spd ? "pocon " : "gecon ") << rcond << " LAPACK " << ref << " exact " << exact;
    }
}

// LAPACK's quick returns, NaN and ∞ anorm, and an exactly singular U (trsm gives ∞ or NaN: rcond 0).
TYPED_TEST(Condition, EdgeCases) {
    using T = TypeParam;
    using R = real_t<T>;
    real_t<T> rcond = -1;
    T one[1] = {T(2)};
    EXPECT_EQ(lapack::gecon<T>('O', 0, nullptr, 1, R(1), &rcond), 0);
    EXPECT_EQ(rcond, R(1));
    rcond = -1;
    EXPECT_EQ(lapack::pocon<T>('L', 0, nullptr, 1, R(0), &rcond), 0);
    EXPECT_EQ(rcond, R(1));
    rcond = -1;
    EXPECT_EQ(lapack::trcon<T>('I', 'U', 'N', 0, nullptr, 1, &rcond), 0);
    EXPECT_EQ(rcond, R(1));
    EXPECT_EQ(lapack::gecon<T>('O', 1, one, 1, R(0), &rcond), 0);
    EXPECT_EQ(rcond, R(0));
    EXPECT_EQ(lapack::pocon<T>('U', 1, one, 1, std::numeric_limits<R>::quiet_NaN(), &rcond), -5);
    EXPECT_TRUE(std::isnan(rcond));
    EXPECT_EQ(lapack::gecon<T>('I', 1, one, 1, std::numeric_limits<R>::quiet_NaN(), &rcond), -5);
    EXPECT_TRUE(std::isnan(rcond));
    EXPECT_EQ(lapack::gecon<T>('I', 1, one, 1, std::numeric_limits<R>::infinity(), &rcond), 0);
    EXPECT_EQ(rcond, R(0));
    // U with a zero diagonal entry in its second tile: exactly singular.
    const int64_t n = 24;
    Lu<T> lu(n, 10.0, 9);
    for (int64_t i = 0; i <= 20; ++i) lu.f[size_t(i + 20 * lu.lda)] = T(0);
    for (char norm : {'O', 'I'}) {
        rcond = -1;
        EXPECT_EQ(lapack::gecon<T>(norm, n, lu.f.data(), lu.lda, lu.one, &rcond, {.nb = kNb}), 0);
        EXPECT_EQ(rcond, R(0)) << norm;
        rcond = -1;
        EXPECT_EQ(lapack::trcon<T>(norm, 'U', 'N', n, lu.f.data(), lu.lda, &rcond, {.nb = kNb}), 0);
        EXPECT_EQ(rcond, R(0)) << norm;
    }
}

TYPED_TEST(Condition, BadArgumentsThrowNamingTheArgument) {
    using T = TypeParam;
    using R = real_t<T>;
    this->expect_no_tasks();
    auto has = [](const std::string& m, const char* arg) { return m.find(std::string("'") + arg + "'") != std::string::npos; };
    T a[4] = {T(1), T(0), T(0), T(1)};
    R rc = 0;
    TileMatrix<T> W(3, 2, 2), S(2, 2, 2);
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('M', 2, a, 2, R(1), &rc); }), "norm"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', -1, a, 2, R(1), &rc); }), "n"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', 2, a, 1, R(1), &rc); }), "lda"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', 2, a, 2, R(-1), &rc); }), "anorm"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', 2, a, 2, R(1), nullptr); }), "rcond"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', 2, nullptr, 2, R(1), &rc); }), "a"));
    EXPECT_TRUE(has(message([&] { lapack::gecon<T>('O', 2, a, 2, R(1), &rc, {.nb = -1}); }), "nb"));
    EXPECT_TRUE(has(message([&] { lapack::pocon<T>('G', 2, a, 2, R(1), &rc); }), "uplo"));
    EXPECT_TRUE(has(message([&] { lapack::pocon<T>('L', 2, a, 2, R(-2), &rc); }), "anorm"));
    EXPECT_TRUE(has(message([&] { lapack::trcon<T>('F', 'L', 'N', 2, a, 2, &rc); }), "norm"));
    EXPECT_TRUE(has(message([&] { lapack::trcon<T>('O', 'X', 'N', 2, a, 2, &rc); }), "uplo"));
    EXPECT_TRUE(has(message([&] { lapack::trcon<T>('O', 'L', 'X', 2, a, 2, &rc); }), "diag"));
    EXPECT_TRUE(has(message([&] { gecon(Norm::One, W, R(1)); }), "A"));
    EXPECT_TRUE(has(message([&] { gecon(Norm::Fro, S, R(1)); }), "norm"));
    EXPECT_TRUE(has(message([&] { pocon(Uplo::General, S, R(1)); }), "uplo"));
    EXPECT_TRUE(has(message([&] { trcon(Norm::Max, Uplo::Lower, Diag::Unit, S); }), "norm"));
    EXPECT_TRUE(has(message([&] { trcon(Norm::One, Uplo::Lower, Diag::Unit, W); }), "A"));
}

// The acceptance rejects wrong estimates: 20 times too large, 20 times LAPACK's, and below the
// exact rcond (an overestimate of ‖A⁻¹‖, impossible for the estimator); NaN and a lone zero.
TYPED_TEST(Condition, RcondErrorRejectsWrongEstimates) {
    using T = TypeParam;
    using R = real_t<T>;
    this->expect_no_tasks();
    const R exact = R(1e-3);
    EXPECT_LE(check::rcond_error<T>(10, R(2e-3), R(2.5e-3), exact), check::kThreshold);
    EXPECT_GT(check::rcond_error<T>(10, R(2e-2), R(2e-2), exact), check::kThreshold);  // 20·exact
    EXPECT_GT(check::rcond_error<T>(10, R(2e-3), R(1e-4), exact), check::kThreshold);  // 20·LAPACK's
    EXPECT_GT(check::rcond_error<T>(10, R(0.5e-3), R(0.5e-3), exact), check::kThreshold);  // below exact
    EXPECT_FALSE(check::passes(check::rcond_error<T>(10, std::numeric_limits<R>::quiet_NaN(), R(1e-3), exact)));
    EXPECT_FALSE(check::passes(check::rcond_error<T>(10, R(0), R(1e-3))));
    EXPECT_TRUE(check::passes(check::rcond_error<T>(10, R(0), R(0), R(0))));
}

}  // namespace
}  // namespace tessera

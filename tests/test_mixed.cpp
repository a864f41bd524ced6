// Mixed-precision solvers (tessera/mixed.hpp) in d and z: convergence of the refinement to the
// double backward error, the fallbacks LAPACK's DSPOSV / DSGESV report through iter (-2 overflow,
// -3 low-precision factorization failure, -31 no convergence), info, and argument checks.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_mixed.hpp"
#include "algorithms/mixed_common.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Mixed : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the diagonal tiles' hemm is CPU only
    }
};
using Precisions = ::testing::Types<double, std::complex<double>>;  // d (ds) and z (zc)
TYPED_TEST_SUITE(Mixed, Precisions);

using Z = std::complex<double>;
int64_t posv_lapack(char uplo, int64_t n, int64_t nrhs, double* a, int64_t lda, const double* b, int64_t ldb,
                    double* x, int64_t ldx, int64_t& iter, const Options& o) {
    return lapack::dsposv(uplo, n, nrhs, a, lda, b, ldb, x, ldx, iter, o);
}
int64_t posv_lapack(char uplo, int64_t n, int64_t nrhs, Z* a, int64_t lda, const Z* b, int64_t ldb, Z* x, int64_t ldx,
                    int64_t& iter, const Options& o) {
    return lapack::zcposv(uplo, n, nrhs, a, lda, b, ldb, x, ldx, iter, o);
}
int64_t gesv_lapack(int64_t n, int64_t nrhs, double* a, int64_t lda, int64_t* ipiv, const double* b, int64_t ldb,
                    double* x, int64_t ldx, int64_t& iter, const Options& o) {
    return lapack::dsgesv(n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter, o);
}
int64_t gesv_lapack(int64_t n, int64_t nrhs, Z* a, int64_t lda, int64_t* ipiv, const Z* b, int64_t ldb, Z* x,
                    int64_t ldx, int64_t& iter, const Options& o) {
    return lapack::zcgesv(n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter, o);
}

// One n×n system (lda, ldb, ldx n) by dsposv / zcposv (spd, triangle uplo) or dsgesv / zcgesv with tiles of
// nb: f becomes a's copy as the solver leaves it, x the solution, iter the solver's; returns info.
template <class T>
int64_t solve_mixed(bool spd, char uplo, int64_t n, int64_t nrhs, int64_t nb, const std::vector<T>& a,
                    const std::vector<T>& b, std::vector<T>& f, std::vector<T>& x, int64_t& iter) {
    f = a;
    x.assign(size_t(n * nrhs), T(0));
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    iter = 0;
    return spd ? posv_lapack(uplo, n, nrhs, f.data(), n, b.data(), n, x.data(), n, iter, {.nb = nb})
               : gesv_lapack(n, nrhs, f.data(), n, ipiv.data(), b.data(), n, x.data(), n, iter, {.nb = nb});
}

// Several tiles with a partial last one (100 = 3·32 + 4), and a single tile.
struct Shape {
    int64_t n, nb;
};
const Shape kShapes[] = {{100, 32}, {20, 32}};

// Well conditioned (κ ≈ 1 from the dominant diagonal): the refinement converges in a few
// corrections to the double backward error, and A is left unchanged.
TYPED_TEST(Mixed, PosvConvergesToDoubleAccuracy) {
    using T = TypeParam;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : kShapes)
            for (int64_t nrhs : {1, 3}) {
                const int64_t lda = n + 2, ldx = n + 1;
                auto a = check::random_spd<T>(n, lda, 5 + n), f = a;
                auto b = check::random_matrix<T>(n, nrhs, n, 6);
                std::vector<T> x(size_t(ldx * nrhs));
                int64_t iter = -99;
                ASSERT_EQ(posv_lapack(char(uplo), n, nrhs, f.data(), lda, b.data(), n, x.data(), ldx, iter, {.nb = nb}), 0);
                const std::string where = std::string("uplo ") + char(uplo) + " n " + std::to_string(n) + " nrhs " +
                                          std::to_string(nrhs);
                EXPECT_GE(iter, 0) << where;
                EXPECT_LE(iter, 5) << where;
                EXPECT_EQ(f, a) << where;  // untouched when the refinement converged
                EXPECT_LE(check::backward_error(n, nrhs, a.data(), lda, x.data(), ldx, b.data(), n), check::kThreshold)
                    << where;
            }
}

TYPED_TEST(Mixed, GesvConvergesToDoubleAccuracy) {
    using T = TypeParam;
    for (auto [n, nb] : kShapes)
        for (int64_t nrhs : {1, 3}) {
            const int64_t lda = n + 1;
            auto a = check::random_matrix<T>(n, n, lda, 9 + n), f = a;  // κ of a few hundred
            auto b = check::random_matrix<T>(n, nrhs, n, 10), x = b;
            std::vector<int64_t> ipiv(size_t(n), 0);
            int64_t iter = -99;
            ASSERT_EQ(gesv_lapack(n, nrhs, f.data(), lda, ipiv.data(), b.data(), n, x.data(), n, iter, {.nb = nb}), 0);
            EXPECT_GE(iter, 0) << "n " << n << " nrhs " << nrhs;
            EXPECT_LE(iter, 10) << "n " << n << " nrhs " << nrhs;
            EXPECT_EQ(f, a);
            for (int64_t p : ipiv) EXPECT_TRUE(p >= 1 && p <= n) << "pivot " << p;
            EXPECT_LE(check::backward_error(n, nrhs, a.data(), lda, x.data(), n, b.data(), n), check::kThreshold);
        }
}

// The tile forms on TileMatrix, the matrix built with a chosen condition number.
TYPED_TEST(Mixed, TileFormsWithModerateCondition) {
    using T = TypeParam;
    const int64_t n = 70, nb = 32, nrhs = 2;
    for (bool spd : {true, false}) {
        const auto a = check::random_cond<T>(n, n, 1e3, spd, 17);
        const auto b = check::random_matrix<T>(n, nrhs, n, 18);
        TileMatrix<T> A(n, n, nb), B(n, nrhs, nb), X(n, nrhs, nb);
        A.fill_from_lapack(a.data(), n);
        B.fill_from_lapack(b.data(), n);
        int64_t iter = -99;
        std::vector<int64_t> ipiv;
        ASSERT_EQ(spd ? posv_mixed(Uplo::Lower, A, B, X, iter) : gesv_mixed(A, ipiv, B, X, iter), 0);
        EXPECT_GE(iter, 0) << (spd ? "posv" : "gesv");
        std::vector<T> x(size_t(n * nrhs));
        X.to_lapack(x.data(), n);
        EXPECT_LE(check::backward_error(n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    }
}

// Solves A·x = b (n×n column-major a, n×1 b) with posv_mixed (spd; Lower) or gesv_mixed, or their
// GMRES-IR forms, factoring as `how`: the solver's info and iter, and the double backward error of x.
struct MixedResult {
    int64_t info, iter;
    double error;
};
template <class T>
MixedResult mixed_solve(const std::vector<T>& a, const std::vector<T>& b, int64_t n, int64_t nb, bool spd, bool gmres,
                        LowFactorization how) {
    TileMatrix<T> A(n, n, nb), B(n, 1, nb), X(n, 1, nb);
    A.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    int64_t iter = -99;
    std::vector<int64_t> ipiv;
    const int64_t info = gmres ? (spd ? posv_mixed_gmres(Uplo::Lower, A, B, X, iter, how)
                                      : gesv_mixed_gmres(A, ipiv, B, X, iter, how))
                               : (spd ? posv_mixed(Uplo::Lower, A, B, X, iter, how)
                                      : gesv_mixed(A, ipiv, B, X, iter, how));
    std::vector<T> x(static_cast<size_t>(n));
    X.to_lapack(x.data(), n);
    return {info, iter, check::backward_error(n, 1, a.data(), n, x.data(), n, b.data(), n)};
}

// mixed_solve, expecting info 0, iter ≥ 0 and the backward error under the tester's threshold.
template <class T>
void expect_mixed_solve(const std::vector<T>& a, const std::vector<T>& b, int64_t n, int64_t nb, bool spd, bool gmres,
                        LowFactorization how, const std::string& where) {
    const MixedResult r = mixed_solve(a, b, n, nb, spd, gmres, how);
    ASSERT_EQ(r.info, 0) << where;
    EXPECT_GE(r.iter, 0) << where;
    EXPECT_LE(r.error, check::kThreshold) << where;
}

// Each of the mixed solvers (posv, gesv and their GMRES-IR forms; `lu_only`: gesv's) on 4×4 tiles of 2
// throws Error naming 'factorization' for `how`.
template <class T>
void expect_factorization_refused(LowFactorization how, bool lu_only) {
    TileMatrix<T> A(4, 4, 2), B(4, 1, 2), X(4, 1, 2);
    int64_t iter = 0;
    std::vector<int64_t> piv;
    std::vector<std::function<void()>> calls = {[&] { gesv_mixed(A, piv, B, X, iter, how); },
                                                [&] { gesv_mixed_gmres(A, piv, B, X, iter, how); }};
    if (!lu_only) {
        calls.push_back([&] { posv_mixed(Uplo::Lower, A, B, X, iter, how); });
        calls.push_back([&] { posv_mixed_gmres(Uplo::Lower, A, B, X, iter, how); });
    }
    for (auto&& call : calls) {
        try {
            call();
            ADD_FAILURE() << "no error for factorization " << int(how);
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("'factorization'"), std::string::npos) << e.what();
        }
    }
}

// LowFactorization::Tf32: the float factorization's GEMMs in TF32 where an NVIDIA device has them
// (elsewhere, PoCL and CPU workers included, as Low). κ = 10 is well within what factors of unit
// roundoff 2^-11 refine, so every form converges to the double backward error either way; an
// invalid value is refused naming 'factorization'.
TYPED_TEST(Mixed, Tf32FactorizationConvergesAndBadValueIsRefused) {
    using T = TypeParam;
    const int64_t n = 70, nb = 32;
    for (bool spd : {true, false})
        for (bool gmres : {false, true})
            expect_mixed_solve(check::random_cond<T>(n, n, 10, spd, 27), check::random_matrix<T>(n, 1, n, 28), n, nb,
                               spd, gmres, LowFactorization::Tf32,
                               std::string(spd ? "posv" : "gesv") + (gmres ? "_mixed_gmres" : "_mixed"));
    expect_factorization_refused<T>(static_cast<LowFactorization>(7), false);
}

// LowFactorization::Fp16 (FP16 operands where an NVIDIA device has the kernels, Low elsewhere)
// factors σ·A, σ a power of 2 that brings A's largest diagonal entry into [2^14, 2^15), and scales each
// right-hand side alike: with A's entries far above FP16's 65504 (×1e7) or far below 1 (×1e-7) the
// Cholesky solvers still converge to the double backward error, which a σ applied to A but not to a
// right-hand side (or the reverse) would not (every correction off by σ: iter = −31). LU refuses
// Fp16, naming 'factorization'.
TYPED_TEST(Mixed, Fp16FactorizationScalesAndLuRefusesIt) {
    using T = TypeParam;
    const int64_t n = 70, nb = 32;
    for (double magnitude : {1e7, 1e-7})
        for (bool gmres : {false, true}) {
            auto a = check::random_cond<T>(n, n, 10, true, 31);
            for (T& v : a) v *= magnitude;
            expect_mixed_solve(a, check::random_matrix<T>(n, 1, n, 32), n, nb, true, gmres, LowFactorization::Fp16,
                               std::string(gmres ? "posv_mixed_gmres" : "posv_mixed") + " ×" +
                                   std::to_string(magnitude));
        }
    expect_factorization_refused<T>(LowFactorization::Fp16, true);
}

// κ = 1e12 is beyond what the low precision's factors can refine (κ·eps_s ≫ 1): the solvers fall
// back to double (iter < 0) and still return a backward stable solution.
TYPED_TEST(Mixed, IllConditionedFallsBackToDouble) {
    using T = TypeParam;
    const int64_t n = 64, nb = 32, nrhs = 3;
    for (bool spd : {true, false}) {
        const auto a = check::random_cond<T>(n, n, 1e12, spd, 23);
        const auto b = check::random_matrix<T>(n, nrhs, n, 24);
        std::vector<T> f, x;
        int64_t iter = 0;
        ASSERT_EQ(solve_mixed(spd, 'L', n, nrhs, nb, a, b, f, x, iter), 0);
        EXPECT_TRUE(iter == -3 || iter == -31) << (spd ? "posv" : "gesv") << " iter " << iter;
        EXPECT_LE(check::backward_error(n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
        // After the fallback, a holds the double factorization, as LAPACK's xSPOSV leaves it.
        if (spd) EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold);
    }
}

// With tensor-core factors (Tf32, Fp16) the refinement stops once two corrections in a row are too
// slow to pass LAPACK's test within ITERMAX = 30 at their rate (mixed::too_slow); LAPACK's Low
// iterates 30 times. Ratios are the test's largest ‖r_j‖∞ / (‖x_j‖∞·cte): halving from 1e4 needs
// 14 corrections (passes within 30 from correction 1, not from correction 20); no progress, growth
// and NaN are too slow; a ratio at or below 1 has passed whatever the rate.
TEST(MixedRefinement, TooSlowIsTheRateThatMissesItermax) {
    EXPECT_FALSE(mixed::too_slow(2e4, 1e4, 1));
    EXPECT_TRUE(mixed::too_slow(2e4, 1e4, 20));
    EXPECT_FALSE(mixed::too_slow(1e6, 1e2, 2));   // a rate of 1e-4: one more correction
    EXPECT_TRUE(mixed::too_slow(1e3, 0.9e3, 2));  // 0.9: about 66 more
    EXPECT_TRUE(mixed::too_slow(1e3, 1e3, 1));
    EXPECT_TRUE(mixed::too_slow(1e3, 5e3, 1));
    EXPECT_TRUE(mixed::too_slow(1e3, std::numeric_limits<double>::quiet_NaN(), 1));
    EXPECT_TRUE(mixed::too_slow(1e3, std::numeric_limits<double>::infinity(), 1));
    EXPECT_FALSE(mixed::too_slow(1e3, 0.5, 29));
    EXPECT_FALSE(mixed::too_slow(0.5, 0.5, 3));
}

// κ = 1e12 with Tf32 factors (as Low on CPU workers and PoCL): the early stop ends in the same
// fallback as 30 corrections, iter = −31 (or −3), and a backward stable solution.
TYPED_TEST(Mixed, Tf32IllConditionedFallsBackToDouble) {
    using T = TypeParam;
    const int64_t n = 64, nb = 32;
    for (bool spd : {true, false}) {
        const MixedResult r = mixed_solve(check::random_cond<T>(n, n, 1e12, spd, 23), check::random_matrix<T>(n, 1, n, 24),
                                          n, nb, spd, false, LowFactorization::Tf32);
        const char* what = spd ? "posv" : "gesv";
        ASSERT_EQ(r.info, 0) << what;
        EXPECT_TRUE(r.iter == -3 || r.iter == -31) << what << " iter " << r.iter;
        EXPECT_LE(r.error, check::kThreshold) << what;
    }
}

// Entries beyond FLT_MAX cannot be rounded to the low precision: iter = -2, solved in double.
TYPED_TEST(Mixed, OverflowInConversionFallsBack) {
    using T = TypeParam;
    const int64_t n = 40, nb = 16, nrhs = 1;
    for (bool spd : {true, false}) {
        auto a = spd ? check::random_spd<T>(n, n, 31) : check::random_matrix<T>(n, n, n, 31);
        for (T& v : a) v *= 1e39;
        const auto b = check::random_matrix<T>(n, nrhs, n, 32);
        std::vector<T> f, x;
        int64_t iter = 0;
        ASSERT_EQ(solve_mixed(spd, 'U', n, nrhs, nb, a, b, f, x, iter), 0);
        EXPECT_EQ(iter, -2) << (spd ? "posv" : "gesv");
        EXPECT_LE(check::backward_error(n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    }
}

// ‖A‖∞ beyond FLT_MAX with every entry within it: A converts without overflow (the solvers test the
// entries themselves only when ‖A‖∞ exceeds FLT_MAX) and the refinement converges. A diagonally
// dominant A with a diagonal of 0.9·FLT_MAX and off-diagonal entries up to 0.9·FLT_MAX/(n−1): its
// rows sum to about 1.35·FLT_MAX, its Schur complements stay below its diagonal.
TYPED_TEST(Mixed, NormBeyondFltMaxWithoutOverflowConverges) {
    using T = TypeParam;
    const int64_t n = 40, nb = 16, nrhs = 1;
    const double big = 0.9 * double(std::numeric_limits<float>::max());
    const auto r = check::random_matrix<double>(n, n, n, 33);
    std::vector<T> a(size_t(n * n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            const double s = (r[size_t(std::max(i, j) + std::min(i, j) * n)] + 1) / 2;  // symmetric, in [0, 1]
            a[size_t(i + j * n)] = T(i == j ? big : s * big / double(n - 1));
        }
    double row = 0;
    for (int64_t j = 0; j < n; ++j) row += std::abs(a[size_t(j * n)]);
    ASSERT_GT(row, double(std::numeric_limits<float>::max()));
    auto b = check::random_matrix<T>(n, nrhs, n, 34);
    for (T& v : b) v *= big / 2;  // X of order 1: one of order 1/FLT_MAX would be subnormal in float
    for (bool spd : {true, false}) {
        std::vector<T> f, x;
        int64_t iter = 0;
        ASSERT_EQ(solve_mixed(spd, 'L', n, nrhs, nb, a, b, f, x, iter), 0);
        EXPECT_GE(iter, 0) << (spd ? "posv" : "gesv");
        EXPECT_LE(check::backward_error(n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
    }
}

// Not positive definite: the single factorization fails (iter = -3) and so does the double one,
// whose info is LAPACKE's xPOTRF's; X then holds B (LAPACK's xSPOSV copies B to X first).
TYPED_TEST(Mixed, NotPositiveDefiniteReportsInfo) {
    using T = TypeParam;
    const int64_t n = 50, bad = 37;
    auto a = check::random_spd<T>(n, n, 41);
    a[size_t(bad + bad * n)] = T(-1);
    auto ref = a;
    const int64_t expected = cpu::potrf<T>(Uplo::Lower, n, ref.data(), n);
    ASSERT_EQ(expected, bad + 1);
    const auto b = check::random_matrix<T>(n, 1, n, 42);
    std::vector<T> x(static_cast<size_t>(n));
    int64_t iter = 0;
    EXPECT_EQ(posv_lapack('L', n, 1, a.data(), n, b.data(), n, x.data(), n, iter, {.nb = 16}), expected);
    EXPECT_EQ(iter, -3);
    EXPECT_EQ(x, b);
}

// An exactly singular A (a zero column): getrf's info in both precisions.
TYPED_TEST(Mixed, SingularGesvReportsInfo) {
    using T = TypeParam;
    const int64_t n = 45, zero = 20;
    auto a = check::random_matrix<T>(n, n, n, 51);
    for (int64_t i = 0; i < n; ++i) a[size_t(i + zero * n)] = T(0);
    const auto b = check::random_matrix<T>(n, 2, n, 52);
    std::vector<T> x(size_t(n * 2));
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    int64_t iter = 0;
    EXPECT_EQ(gesv_lapack(n, 2, a.data(), n, ipiv.data(), b.data(), n, x.data(), n, iter, {.nb = 16}), zero + 1);
    EXPECT_EQ(iter, -3);
}

TYPED_TEST(Mixed, EmptyMatrixAndBadArguments) {
    using T = TypeParam;
    this->expect_no_tasks();
    T a[4] = {}, b[2] = {}, x[2] = {};
    int64_t ipiv[2] = {}, iter = -5;
    EXPECT_EQ(posv_lapack('L', 0, 1, a, 1, b, 1, x, 1, iter, {}), 0);
    EXPECT_EQ(iter, 0);
    iter = -5;
    EXPECT_EQ(gesv_lapack(0, 1, a, 1, ipiv, b, 1, x, 1, iter, {}), 0);
    EXPECT_EQ(iter, 0);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    const char* posv = std::is_same_v<T, double> ? "dsposv" : "zcposv";
    const char* gesv = std::is_same_v<T, double> ? "dsgesv" : "zcgesv";
    auto has = [](const std::string& m, const std::string& func, const std::string& arg) {
        return m.find(func) != std::string::npos && m.find("'" + arg + "'") != std::string::npos;
    };
    EXPECT_TRUE(has(message([&] { posv_lapack('X', 2, 1, a, 2, b, 2, x, 2, iter, {}); }), "", "uplo"));
    EXPECT_TRUE(has(message([&] { posv_lapack('L', -1, 1, a, 2, b, 2, x, 2, iter, {}); }), posv, "n"));
    EXPECT_TRUE(has(message([&] { posv_lapack('L', 2, -1, a, 2, b, 2, x, 2, iter, {}); }), posv, "nrhs"));
    EXPECT_TRUE(has(message([&] { posv_lapack('L', 2, 1, a, 1, b, 2, x, 2, iter, {}); }), posv, "lda"));
    EXPECT_TRUE(has(message([&] { posv_lapack('L', 2, 1, a, 2, b, 1, x, 2, iter, {}); }), posv, "ldb"));
    EXPECT_TRUE(has(message([&] { posv_lapack('L', 2, 1, a, 2, b, 2, x, 1, iter, {}); }), posv, "ldx"));
    EXPECT_TRUE(has(message([&] { gesv_lapack(2, 1, a, 2, nullptr, b, 2, x, 2, iter, {}); }), gesv, "ipiv"));
    EXPECT_TRUE(has(message([&] { gesv_lapack(2, 1, a, 2, ipiv, b, 2, x, 1, iter, {}); }), gesv, "ldx"));
    EXPECT_TRUE(has(message([&] { gesv_lapack(-2, 1, a, 2, ipiv, b, 2, x, 2, iter, {}); }), gesv, "n"));
    TileMatrix<T> A(4, 4, 2), B(4, 1, 2), X2(4, 2, 2), Xb(4, 1, 3), R(4, 3, 2), B3(3, 1, 2);
    std::vector<int64_t> piv;
    EXPECT_TRUE(has(message([&] { posv_mixed(Uplo::General, A, B, X2, iter); }), "posv_mixed", "uplo"));
    EXPECT_TRUE(has(message([&] { posv_mixed(Uplo::Lower, A, B, X2, iter); }), "posv_mixed", "X"));
    EXPECT_TRUE(has(message([&] { posv_mixed(Uplo::Lower, R, B, X2, iter); }), "posv_mixed", "A"));
    EXPECT_TRUE(has(message([&] { gesv_mixed(A, piv, B, Xb, iter); }), "gesv_mixed", "nb"));
    EXPECT_TRUE(has(message([&] { gesv_mixed(A, piv, B3, B, iter); }), "gesv_mixed", "B"));
}

}  // namespace
}  // namespace tessera

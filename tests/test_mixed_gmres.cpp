// GMRES-IR (posv_mixed_gmres, gesv_mixed_gmres; tessera/mixed.hpp) in d and z: convergence to the
// double backward error, convergence where the classic refinement (posv_mixed / gesv_mixed) gives up
// with iter = -31, the fallbacks (iter < 0, info) and the argument checks. Every X is checked by its
// normwise backward error, whichever path produced it.
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_mixed.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class MixedGmres : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the diagonal tiles' hemm, zeroing the basis (generate) are CPU only
    }
};
using Precisions = ::testing::Types<double, std::complex<double>>;
TYPED_TEST_SUITE(MixedGmres, Precisions);

// One solve on tiles of a (column-major n×n, both triangles set) with b (n×1): returns info, sets
// iter, x and a_out (A on exit). gmres false: the classic posv_mixed / gesv_mixed.
template <class T>
struct Solve {
    int64_t info = 0, iter = -99;
    std::vector<T> x, a_out;
    Solve(bool spd, bool gmres, int64_t n, int64_t nb, const std::vector<T>& a, const std::vector<T>& b,
          Uplo uplo = Uplo::Lower) {
        TileMatrix<T> A(n, n, nb), B(n, 1, nb), X(n, 1, nb);
        A.fill_from_lapack(a.data(), std::max<int64_t>(n, 1));
        B.fill_from_lapack(b.data(), std::max<int64_t>(n, 1));
        std::vector<int64_t> ipiv;
        if (gmres) info = spd ? posv_mixed_gmres(uplo, A, B, X, iter) : gesv_mixed_gmres(A, ipiv, B, X, iter);
        else info = spd ? posv_mixed(uplo, A, B, X, iter) : gesv_mixed(A, ipiv, B, X, iter);
        x.resize(size_t(n));
        a_out.resize(size_t(n * n));
        X.to_lapack(x.data(), std::max<int64_t>(n, 1));
        A.to_lapack(a_out.data(), std::max<int64_t>(n, 1));
        if (!spd && iter >= 0)
            for (int64_t p : ipiv) EXPECT_TRUE(p >= 1 && p <= n) << "pivot " << p;
    }
    double error(int64_t n, const std::vector<T>& a, const std::vector<T>& b) const {
        return check::backward_error(n, 1, a.data(), n, x.data(), n, b.data(), n);
    }
};

const char* name(bool spd) { return spd ? "posv" : "gesv"; }

// κ = 1e2: a few GMRES iterations reach the double backward error; A is untouched. A perturbed X
// fails the same check (the check can tell).
TYPED_TEST(MixedGmres, WellConditionedConverges) {
    using T = TypeParam;
    for (bool spd : {true, false})
        for (auto [n, nb] : {std::pair<int64_t, int64_t>{100, 32}, {20, 32}}) {
            const auto a = check::random_cond<T>(n, n, 1e2, spd, 3 + n);
            const auto b = check::random_matrix<T>(n, 1, n, 4);
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
                if (!spd && uplo == Uplo::Upper) continue;
                const Solve<T> s(spd, true, n, nb, a, b, uplo);
                const std::string where = std::string(name(spd)) + " n " + std::to_string(n) + " uplo " + char(uplo);
                ASSERT_EQ(s.info, 0) << where;
                EXPECT_GE(s.iter, 0) << where;
                EXPECT_LE(s.iter, 6) << where;
                EXPECT_EQ(s.a_out, a) << where;
                EXPECT_LE(s.error(n, a, b), check::kThreshold) << where;
                auto wrong = s;
                wrong.x[size_t(n / 2)] += T(1e-6) * (std::abs(wrong.x[size_t(n / 2)]) + 1);
                EXPECT_GT(wrong.error(n, a, b), check::kThreshold) << where;
            }
        }
}

// κ = 1e10 (gesv) and 4e9 in d, 2e9 in z (posv, in the narrow window where the float Cholesky of
// these matrices still succeeds and the classic refinement no longer converges): the classic refinement diverges (κ·eps_s ≫ 1: iter = -31, solved by the double fallback), GMRES-IR
// converges on the same low-precision factors.
TYPED_TEST(MixedGmres, ConvergesWhereClassicRefinementFallsBack) {
    using T = TypeParam;
    const int64_t n = 64, nb = 16;
    for (bool spd : {true, false}) {
        const auto a = check::random_cond<T>(n, n, !spd ? 1e10 : is_complex_v<T> ? 2e9 : 4e9, spd, 71);
        const auto b = check::random_matrix<T>(n, 1, n, 72);
        const Solve<T> classic(spd, false, n, nb, a, b), gmres(spd, true, n, nb, a, b);
        ASSERT_EQ(classic.info, 0);
        ASSERT_EQ(gmres.info, 0);
        EXPECT_EQ(classic.iter, -31) << name(spd);
        EXPECT_GE(gmres.iter, 1) << name(spd);
        EXPECT_EQ(gmres.a_out, a) << name(spd);
        EXPECT_LE(classic.error(n, a, b), check::kThreshold) << name(spd);
        EXPECT_LE(gmres.error(n, a, b), check::kThreshold) << name(spd);
    }
}

// κ = 1e14: beyond the low precision's reach; whichever way it goes (converged or fell back), X is
// backward stable, and after a fallback A holds the double factors.
TYPED_TEST(MixedGmres, VeryIllConditionedNeverWrong) {
    using T = TypeParam;
    const int64_t n = 48, nb = 16;
    for (bool spd : {true, false}) {
        const auto a = check::random_cond<T>(n, n, 1e14, spd, 81);
        const auto b = check::random_matrix<T>(n, 1, n, 82);
        const Solve<T> s(spd, true, n, nb, a, b);
        ASSERT_EQ(s.info, 0);
        EXPECT_TRUE(s.iter >= 0 || s.iter == -3 || s.iter == -31) << name(spd) << " iter " << s.iter;
        EXPECT_LE(s.error(n, a, b), check::kThreshold) << name(spd) << " iter " << s.iter;
        if (spd && s.iter < 0)
            EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, s.a_out.data(), n), check::kThreshold);
    }
}

// Not positive definite: both factorizations fail; info is xPOTRF's and X holds B (LAPACK's xSPOSV).
TYPED_TEST(MixedGmres, NotPositiveDefiniteReportsInfo) {
    using T = TypeParam;
    const int64_t n = 40, bad = 29;
    auto a = check::random_spd<T>(n, n, 91);
    a[size_t(bad + bad * n)] = T(-1);
    auto ref = a;
    ASSERT_EQ(cpu::potrf<T>(Uplo::Lower, n, ref.data(), n), bad + 1);
    const auto b = check::random_matrix<T>(n, 1, n, 92);
    const Solve<T> s(true, true, n, 16, a, b);
    EXPECT_EQ(s.info, bad + 1);
    EXPECT_EQ(s.iter, -3);
    EXPECT_EQ(s.x, b);
}

TYPED_TEST(MixedGmres, EmptyMatrixAndBadArguments) {
    using T = TypeParam;
    this->expect_no_tasks();
    int64_t iter = -5;
    TileMatrix<T> E(0, 0, 4), E1(0, 1, 4), F1(0, 1, 4);
    std::vector<int64_t> piv{7};
    EXPECT_EQ(posv_mixed_gmres(Uplo::Upper, E, E1, F1, iter), 0);
    EXPECT_EQ(iter, 0);
    iter = -5;
    EXPECT_EQ(gesv_mixed_gmres(E, piv, E1, F1, iter), 0);
    EXPECT_EQ(iter, 0);
    EXPECT_TRUE(piv.empty());
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    auto has = [](const std::string& m, const std::string& func, const std::string& arg) {
        return m.find(func) != std::string::npos && m.find("'" + arg + "'") != std::string::npos;
    };
    TileMatrix<T> A(4, 4, 2), B(4, 1, 2), B2(4, 2, 2), X2(4, 2, 2), Xb(4, 1, 3), R(4, 3, 2), B3(3, 1, 2);
    EXPECT_TRUE(has(message([&] { posv_mixed_gmres(Uplo::General, A, B, Xb, iter); }), "posv_mixed_gmres", "uplo"));
    EXPECT_TRUE(has(message([&] { posv_mixed_gmres(Uplo::Lower, A, B, X2, iter); }), "posv_mixed_gmres", "X"));
    EXPECT_TRUE(has(message([&] { posv_mixed_gmres(Uplo::Lower, R, B, Xb, iter); }), "posv_mixed_gmres", "A"));
    EXPECT_TRUE(has(message([&] { posv_mixed_gmres(Uplo::Lower, A, B2, X2, iter); }), "posv_mixed_gmres", "nrhs"));
    EXPECT_TRUE(has(message([&] { gesv_mixed_gmres(A, piv, B, Xb, iter); }), "gesv_mixed_gmres", "nb"));
    EXPECT_TRUE(has(message([&] { gesv_mixed_gmres(A, piv, B3, B, iter); }), "gesv_mixed_gmres", "B"));
    EXPECT_TRUE(has(message([&] { gesv_mixed_gmres(A, piv, B2, X2, iter); }), "gesv_mixed_gmres", "nrhs"));
}

}  // namespace
}  // namespace tessera

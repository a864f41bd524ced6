// The SVD (tessera/svd.hpp: gesdd and gesvd on tiles) in s, d, c and z, checked with LAPACK's ratios
// (examples/common/checks_svd.hpp): ‖A − U·Σ·Vᴴ‖₁ / (max(m, n)·‖A‖₁·eps), ‖I − UᴴU‖₁ / (m·eps),
// ‖I − VVᴴ‖₁ / (n·eps) and the singular values against LAPACKE's xGESDD, each under kThreshold.
// Random shapes (m ≥ n and m < n, several tiles, n a multiple of nb, n < nb, one entry, m = 0, n = 0)
// with every choice of U and VT (thin, full, one side, none); LAPACK's hard spectra (geometric,
// clustered, repeated, rank-deficient, the zero matrix); NaN and infinity refused as Error; matrices
// scaled near underflow and overflow; bad U and VT. The lapack:: forms: test_svd_lapack.cpp.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_svd.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Svd : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the band-to-bidiagonal stage, the bidiagonal solver and U2, V2 are CPU only
    }
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Svd, Precisions);

struct Shape {
    int64_t m, n, nb;
};
// Several tiles with partial last ones (100 = 3·32 + 4), m < n, n a multiple of nb (64 = 4·16), n < nb,
// one entry, m = 0, n = 0, and on CPU workers a larger band (300×140, nb 64). PoCL runs every kernel
// slowly: the OpenCL modes keep the small ones.
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{100, 70, 32}, {70, 100, 32}, {7, 5, 32}, {1, 1, 16}, {0, 3, 16}};
    return {{100, 70, 32}, {70, 100, 32}, {64, 64, 16}, {300, 140, 64}, {7, 5, 32}, {1, 1, 16}, {0, 3, 16}, {3, 0, 16}};
}

std::string describe(const char* what, bool dc, int64_t m, int64_t n, int64_t nb, int64_t ucols, int64_t vrows) {
    return std::string(what) + (dc ? " gesdd" : " gesvd") + " m " + std::to_string(m) + " n " + std::to_string(n) +
           " nb " + std::to_string(nb) + " U cols " + std::to_string(ucols) + " VT rows " + std::to_string(vrows);
}

// The lapack:: forms with jobz N, S and A (both solvers) on random shapes (the first test of the SVD).
TYPED_TEST(Svd, RandomMatchesLapack) {
    using T = TypeParam;
    using R = real_t<T>;
    for (auto [m, n, nb] : shapes())
        for (char jobz : {'N', 'S', 'A'})
            for (bool dc : {true, false}) {
                const int64_t k = std::min(m, n), lda = m + 2;
                const int64_t ucols = jobz == 'A' ? m : jobz == 'S' ? k : 0, vrows = jobz == 'A' ? n : jobz == 'S' ? k : 0;
                const std::string where = describe("lapack", dc, m, n, nb, ucols, vrows) + " jobz " + jobz;
                const auto a = check::random_matrix<T>(m, n, lda, uint64_t(7 + m + 3 * n));
                const int64_t ldu = std::max<int64_t>(m, 1), ldvt = std::max<int64_t>(vrows, 1);
                std::vector<T> w = a, u(size_t(ldu * std::max<int64_t>(ucols, 1))), vt(size_t(ldvt * std::max<int64_t>(n, 1)));
                std::vector<R> s(size_t(std::max<int64_t>(k, 1)));
                const Options o{.nb = nb};
                const int64_t info = dc ? lapack::gesdd(jobz, m, n, w.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, o)
                                        : lapack::gesvd(jobz, jobz, m, n, w.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, o);
                ASSERT_EQ(info, 0) << where;
                const double err = check::svd_error<T>(m, n, a.data(), lda, s.data(), ucols ? u.data() : nullptr, ldu,
                                                       ucols, vrows ? vt.data() : nullptr, ldvt, vrows);
                EXPECT_TRUE(check::passes(err)) << where << ": error " << err;
            }
}

/// gesdd or gesvd on tiles filled from a (m×n, leading dimension lda), with an m×ucols U and a vrows×n
/// VT when ucols, vrows > 0: info, s and U, VT as column-major arrays (leading dimensions max(1, m) and
/// max(1, vrows)).
template <class T>
struct SvdRun {
    int64_t info = -1;
    std::vector<real_t<T>> s;
    std::vector<T> u, vt;
};
template <class T>
SvdRun<T> run_tiles(bool dc, int64_t m, int64_t n, int64_t nb, const std::vector<T>& a, int64_t lda, int64_t ucols,
                    int64_t vrows, int64_t kd = 0) {
    TileMatrix<T> A(m, n, nb), U(m, ucols, nb), VT(vrows, n, nb);
    A.fill_from_lapack(a.data(), lda);
    SvdRun<T> r;
    TileMatrix<T>*pu = ucols > 0 ? &U : nullptr, *pv = vrows > 0 ? &VT : nullptr;
    r.info = dc ? gesdd(A, r.s, pu, pv, kd) : gesvd(A, r.s, pu, pv, kd);
    r.u.resize(size_t(std::max<int64_t>(m, 1) * std::max<int64_t>(ucols, 1)));
    r.vt.resize(size_t(std::max<int64_t>(vrows, 1) * std::max<int64_t>(n, 1)));
    if (pu) U.to_lapack(r.u.data(), std::max<int64_t>(m, 1));
    if (pv) VT.to_lapack(r.vt.data(), std::max<int64_t>(vrows, 1));
    return r;
}

/// Every check of one result: info 0, k values, check::svd_error (values against LAPACKE's in
/// descending order, orthogonality of what was computed, the residual or a one-sided one).
template <class T>
void expect_svd(const std::string& where, int64_t m, int64_t n, const std::vector<T>& a, int64_t lda, int64_t ucols,
                int64_t vrows, const SvdRun<T>& r) {
    ASSERT_EQ(r.info, 0) << where;
    ASSERT_EQ(int64_t(r.s.size()), std::min(m, n)) << where;
    const double err = check::svd_error<T>(m, n, a.data(), lda, r.s.data(), ucols ? r.u.data() : nullptr,
                                           std::max<int64_t>(m, 1), ucols, vrows ? r.vt.data() : nullptr,
                                           std::max<int64_t>(vrows, 1), vrows);
    EXPECT_TRUE(check::passes(err)) << where << ": error " << err;
}

// The tile forms with thin and full U and VT, U only, VT only and values only.
TYPED_TEST(Svd, TileFormsEveryChoiceOfVectors) {
    using T = TypeParam;
    for (auto [m, n, nb] : shapes()) {
        const int64_t k = std::min(m, n);
        const std::vector<std::pair<int64_t, int64_t>> jobs = {{k, k}, {m, n}, {k, 0}, {0, n}, {0, 0}};
        const auto a = check::random_matrix<T>(m, n, m + 1, uint64_t(11 + m + n));
        for (auto [ucols, vrows] : jobs)
            for (bool dc : {true, false}) {
                if (test::mode() != "cpu" && !dc && ucols != vrows) continue;  // PoCL: one solver for one side
                expect_svd(describe("tiles", dc, m, n, nb, ucols, vrows), m, n, a, m + 1, ucols, vrows,
                           run_tiles<T>(dc, m, n, nb, a, m + 1, ucols, vrows));
            }
    }
}

// A band narrower than the tile (panels of kd columns inside the tiles, the last one narrower: 70 =
// 8·8 + 6; 140 = 8·16 + 12): m > n, m < n, thin and full vectors and values only, both solvers.
TYPED_TEST(Svd, BandNarrowerThanTheTile) {
    using T = TypeParam;
    struct Case { int64_t m, n, nb, kd; };
    std::vector<Case> cases = {{100, 70, 32, 8}, {70, 100, 32, 8}};
    if (test::mode() == "cpu") cases.push_back({300, 140, 64, 16});
    for (auto [m, n, nb, kd] : cases) {
        const int64_t k = std::min(m, n);
        const auto a = check::random_matrix<T>(m, n, m + 1, uint64_t(5 + m + n));
        for (auto [ucols, vrows] : std::vector<std::pair<int64_t, int64_t>>{{k, k}, {m, n}, {0, 0}})
            for (bool dc : {true, false}) {
                if (test::mode() != "cpu" && !dc && ucols == m) continue;  // PoCL: one solver for full vectors
                expect_svd(describe("tiles", dc, m, n, nb, ucols, vrows) + " kd " + std::to_string(kd), m, n, a, m + 1,
                           ucols, vrows, run_tiles<T>(dc, m, n, nb, a, m + 1, ucols, vrows, kd));
            }
    }
}

// LAPACK's hard distributions, A = U·diag(σ)·Vᴴ with dense random U and V: geometric down to 1/κ,
// one value and a cluster equal within eps, a value repeated k/2 times, rank k/2 with exact zeros,
// and the zero matrix. The values must match both LAPACKE's and the σ the matrix was built from.
TYPED_TEST(Svd, HardSpectra) {
    using T = TypeParam;
    using R = real_t<T>;
    const double kappa = std::is_same_v<R, double> ? 1e10 : 1e5;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{90, 60}, {60, 90}}) {
        const int64_t k = std::min(m, n), nb = 32;
        const std::vector<std::pair<const char*, std::vector<R>>> cases = {
            {"geometric", check::geometric_singular_values<R>(k, kappa)},
            {"clustered", check::clustered_singular_values<R>(k, kappa)},
            {"repeated", check::repeated_singular_values<R>(k)},
            {"rank-deficient", check::rank_deficient_singular_values<R>(k, k / 2)},
            {"zero", std::vector<R>(size_t(k), R(0))},
        };
        for (const auto& [name, sigma] : cases) {
            const auto a = check::matrix_with_singular_values<T>(m, n, sigma, 51);
            for (bool dc : {true, false})
                for (int64_t v : {int64_t(0), k}) {
                    const std::string where = describe(name, dc, m, n, nb, v, v);
                    const auto r = run_tiles<T>(dc, m, n, nb, a, m, v, v);
                    expect_svd(where, m, n, a, m, v, v, r);
                    if (int64_t(r.s.size()) != k) continue;
                    const double err = check::singular_value_error<T>(m, n, r.s.data(), sigma.data());
                    EXPECT_TRUE(check::passes(err)) << where << ": error against the built σ " << err;
                }
        }
    }
}

/// Call f, which must throw Error (an argument refused before any task), not TaskError nor nothing;
/// its message names `arg` when given.
template <class F>
void expect_refused(const std::string& where, F f, const char* arg = nullptr) {
    try {
        f();
        ADD_FAILURE() << where << ": no throw";
    } catch (const TaskError& e) {
        ADD_FAILURE() << where << ": TaskError instead of Error: " << e.what();
    } catch (const Error& e) {
        if (arg) EXPECT_NE(std::string(e.what()).find(arg), std::string::npos) << where << ": " << e.what();
    }
}

// A NaN or an infinity anywhere in A is refused as Error (xLANGE 'M' first), never a wrong answer.
TYPED_TEST(Svd, NaNAndInfinityAreRefused) {
    using T = TypeParam;
    using R = real_t<T>;
    for (auto mn : {std::pair<int64_t, int64_t>{50, 30}, {30, 50}}) {
        const int64_t m = mn.first, n = mn.second;  // not a structured binding: clang 14 cannot capture one
        for (R bad : {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::infinity(), -std::numeric_limits<R>::infinity()})
            for (int64_t at : {int64_t(0), 17 + 19 * m, m * n - 1}) {
                auto a = check::random_matrix<T>(m, n, m, 61);
                a[size_t(at)] = T(bad);
                for (bool dc : {true, false})
                    for (int64_t v : {int64_t(0), std::min(m, n)})
                        expect_refused(describe(std::isnan(bad) ? "NaN" : "Inf", dc, m, n, 16, v, v) + " at " + std::to_string(at),
                                       [&] { run_tiles<T>(dc, m, n, 16, a, m, v, v); });
            }
    }
}

// Entries near the underflow and the overflow thresholds: gesdd scales A into [SMLNUM, BIGNUM] and
// the singular values back (xGESDD's scaling), so s / scale matches the unscaled matrix's values and
// U·Σ·Vᴴ reproduces it.
TYPED_TEST(Svd, TinyAndHugeMatricesAreScaled) {
    using T = TypeParam;
    using R = real_t<T>;
    const bool dbl = std::is_same_v<R, double>;
    const int64_t m = 50, n = 40, nb = 16;
    const auto a0 = check::random_matrix<T>(m, n, m, 71);
    const auto s0 = check::ref_singular_values<T>(m, n, a0.data(), m);
    for (R scale : {dbl ? R(1e-300) : R(1e-35), dbl ? R(1e300) : R(1e35)})
        for (bool dc : {true, false})
            for (int64_t v : {int64_t(0), n}) {
                auto a = a0;
                for (T& x : a) x *= scale;
                const std::string where = describe(scale < 1 ? "tiny" : "huge", dc, m, n, nb, v, v);
                auto r = run_tiles<T>(dc, m, n, nb, a, m, v, v);
                ASSERT_EQ(r.info, 0) << where;
                ASSERT_EQ(int64_t(r.s.size()), n) << where;
                for (R& x : r.s) x /= scale;
                const double err = check::singular_value_error<T>(m, n, r.s.data(), s0.data());
                EXPECT_TRUE(check::passes(err)) << where << ": error " << err << " (s[0] = " << r.s[0] << ", expected " << s0[0] << ")";
                if (v > 0) expect_svd(where + " unscaled", m, n, a0, m, v, v, r);
            }
}

// m = 0 or n = 0: no value; a full U or VT is the identity (orthonormal), as LAPACK leaves it.
TYPED_TEST(Svd, EmptyMatrices) {
    using T = TypeParam;
    this->expect_no_tasks();
    for (auto [m, n] : {std::pair<int64_t, int64_t>{0, 3}, {3, 0}, {0, 0}})
        for (bool dc : {true, false}) {
            const std::vector<T> a(size_t(std::max<int64_t>(m, 1) * std::max<int64_t>(n, 1)));
            const auto r = run_tiles<T>(dc, m, n, 16, a, std::max<int64_t>(m, 1), m, n);
            const std::string where = describe("empty", dc, m, n, 16, m, n);
            ASSERT_EQ(r.info, 0) << where;
            EXPECT_TRUE(r.s.empty()) << where;
            EXPECT_TRUE(check::passes(check::orthogonality_columns<T>(m, m, r.u.data(), std::max<int64_t>(m, 1)))) << where;
            EXPECT_TRUE(check::passes(check::orthogonality_rows<T>(n, n, r.vt.data(), std::max<int64_t>(n, 1)))) << where;
        }
}

// U and VT of the wrong shape or tile size, and a kd that does not divide nb, are refused, naming the
// argument, before any task.
TYPED_TEST(Svd, BadUAndVTThrowError) {
    using T = TypeParam;
    this->expect_no_tasks();
    std::vector<real_t<T>> s;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{6, 4}, {4, 6}}) {
        const int64_t k = std::min(m, n);
        TileMatrix<T> A(m, n, 2), U_cols(m, k + 1, 2), U_rows(m + 1, k, 2), U_nb(m, k, 3), VT_rows(k + 1, n, 2),
            VT_cols(k, n + 1, 2), VT_nb(k, n, 3), U(m, k, 2), VT(k, n, 2);
        for (bool dc : {true, false}) {
            auto call = [&](TileMatrix<T>* u, TileMatrix<T>* vt) { return dc ? gesdd(A, s, u, vt) : gesvd(A, s, u, vt); };
            const std::string where = describe("bad", dc, m, n, 2, k, k);
            expect_refused(where + " U columns", [&] { call(&U_cols, &VT); }, "'U'");
            expect_refused(where + " U rows", [&] { call(&U_rows, nullptr); }, "'U'");
            expect_refused(where + " U nb", [&] { call(&U_nb, &VT); }, "'U'");
            expect_refused(where + " VT rows", [&] { call(&U, &VT_rows); }, "'VT'");
            expect_refused(where + " VT columns", [&] { call(nullptr, &VT_cols); }, "'VT'");
            expect_refused(where + " VT nb", [&] { call(&U, &VT_nb); }, "'VT'");
            expect_refused(where + " kd 3", [&] { dc ? gesdd(A, s, &U, &VT, int64_t(3)) : gesvd(A, s, &U, &VT, int64_t(3)); }, "'kd'");
            expect_refused(where + " kd -1", [&] { dc ? gesdd<T>(A, s, nullptr, nullptr, int64_t(-1)) : gesvd<T>(A, s, nullptr, nullptr, int64_t(-1)); }, "'kd'");
        }
    }
}

// The checks fail on wrong results: a value off by 100·max(m, n)·eps·σ₁, two values out of order, a
// perturbed U, two columns of U swapped (U only: the one-sided residual's Gram matrix sees it).
TYPED_TEST(Svd, ChecksRejectWrongResults) {
    using T = TypeParam;
    using R = real_t<T>;
    const int64_t m = 40, n = 30, k = 30;
    const auto a = check::random_matrix<T>(m, n, m, 81);
    const auto r = run_tiles<T>(true, m, n, 16, a, m, k, k);
    expect_svd("checks", m, n, a, m, k, k, r);
    if (int64_t(r.s.size()) != k) return;
    auto error = [&](const std::vector<R>& s, const std::vector<T>& u, bool with_vt) {
        return check::svd_error<T>(m, n, a.data(), m, s.data(), u.data(), m, k, with_vt ? r.vt.data() : nullptr, k, with_vt ? k : 0);
    };
    auto s = r.s;
    s[3] += R(100 * m * check::eps<T>()) * s[0];
    EXPECT_FALSE(check::passes(error(s, r.u, true))) << "a value off";
    s = r.s;
    std::swap(s[4], s[5]);
    EXPECT_FALSE(check::passes(error(s, r.u, true))) << "values out of order";
    auto u = r.u;
    u[size_t(5 + 2 * m)] += T(1e-3);
    EXPECT_FALSE(check::passes(error(r.s, u, true))) << "U perturbed";
    u = r.u;
    std::swap_ranges(u.begin(), u.begin() + m, u.begin() + 2 * m);  // columns 0 and 2
    EXPECT_FALSE(check::passes(error(r.s, u, false))) << "U's columns swapped, U only";
    EXPECT_TRUE(check::passes(error(r.s, r.u, false))) << "U only";
}

}  // namespace
}  // namespace tessera

// The SVD's lapack:: forms (tessera/svd.hpp: lapack::gesdd with jobz N, S, A, O and lapack::gesvd with
// every jobu × jobvt, O included) in s, d, c and z, on arrays with leading dimensions larger than the
// matrices, in both layouts (LapackLayout::InPlace and TileCopy), m ≥ n and m < n, checked with
// checks_svd's ratios (values against LAPACKE's xGESDD, orthogonality, residuals) under kThreshold;
// the rows between the matrices and their leading dimensions are never written; bad arguments throw
// Error naming the argument and leave the arrays alone; m = 0 and n = 0. The tile forms: test_svd.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_svd.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class SvdLapack : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the band-to-bidiagonal stage, the bidiagonal solver and U2, V2 are CPU only
    }
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(SvdLapack, Precisions);

constexpr double kSentinel = -7;

/// Whether rows `rows`..ld−1 of the ld×cols array x still hold kSentinel.
template <class T>
bool padding_intact(const std::vector<T>& x, int64_t rows, int64_t cols, int64_t ld) {
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = rows; i < ld; ++i)
            if (x[size_t(i + j * ld)] != T(kSentinel)) return false;
    return true;
}

/// One call of lapack::gesdd (dc; jobz = ju) or lapack::gesvd (ju, jv) on the m×n a (leading dimension
/// m + 5), U in an array of leading dimension m + 2 and Vᴴ of its rows + 1, every padding row set to
/// kSentinel; then every check: info 0, check::svd_error on what the jobs computed (from a for job O),
/// and the padding rows unwritten.
template <class T>
void check_lapack_form(bool dc, char ju, char jv, int64_t m, int64_t n, LapackLayout layout) {
    using R = real_t<T>;
    const int64_t k = std::min(m, n), lda = m + 5, nb = 16;
    // The jobs of the two sides (gesdd's O: the long side's vectors into a, all of the other side's).
    char uj = char(std::toupper(ju)), vj = char(std::toupper(jv));
    if (dc && uj == 'O') (m >= n ? vj : uj) = 'A';
    const int64_t ucols = uj == 'A' ? m : uj == 'N' ? 0 : k, vrows = vj == 'A' ? n : vj == 'N' ? 0 : k;
    const int64_t ldu = m + 2, ldvt = vrows + 1;
    const std::string where = std::string(dc ? "lapack::gesdd jobz " : "lapack::gesvd jobu ") + ju +
                              (dc ? "" : std::string(" jobvt ") + jv) + " m " + std::to_string(m) + " n " +
                              std::to_string(n) + (layout == LapackLayout::InPlace ? " InPlace" : " TileCopy");
    auto a = check::random_matrix<T>(m, n, lda, uint64_t(91 + m));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = m; i < lda; ++i) a[size_t(i + j * lda)] = T(kSentinel);
    auto f = a;
    std::vector<T> u(size_t(ldu * std::max<int64_t>(m, 1)), T(kSentinel)), vt(size_t(ldvt * n), T(kSentinel));
    std::vector<R> s(size_t(k), R(-99));
    const Options opts{.nb = nb, .layout = layout};
    const int64_t info = dc ? lapack::gesdd<T>(ju, m, n, f.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, opts)
                            : lapack::gesvd<T>(ju, jv, m, n, f.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, opts);
    ASSERT_EQ(info, 0) << where;
    const T* pu = uj == 'O' ? f.data() : ucols ? u.data() : nullptr;
    const T* pv = vj == 'O' ? f.data() : vrows ? vt.data() : nullptr;
    const double err = check::svd_error<T>(m, n, a.data(), lda, s.data(), pu, uj == 'O' ? lda : ldu, ucols, pv,
                                           vj == 'O' ? lda : ldvt, vrows);
    EXPECT_TRUE(check::passes(err)) << where << ": error " << err;
    EXPECT_TRUE(padding_intact(f, m, n, lda)) << where << ": rows m..lda-1 of a were written";
    EXPECT_TRUE(padding_intact(u, m, std::max<int64_t>(m, 1), ldu)) << where << ": rows m..ldu-1 of u were written";
    EXPECT_TRUE(padding_intact(vt, vrows, n, ldvt)) << where << ": rows past Vᴴ's in vt were written";
    if (uj == 'N' && vj == 'N' && ucols == 0)
        EXPECT_TRUE(padding_intact(u, 0, std::max<int64_t>(m, 1), ldu)) << where << ": u written with job N";
}

// gesdd's four jobs and gesvd's fifteen job pairs, m ≥ n and m < n, in both layouts, with lower-case
// characters too. PoCL runs every kernel slowly: the OpenCL modes take the pairs with an O, and one
// layout for the others.
TYPED_TEST(SvdLapack, EveryJobInBothLayouts) {
    using T = TypeParam;
    const bool pocl = test::mode() != "cpu";
    for (auto [m, n] : {std::pair<int64_t, int64_t>{45, 30}, {30, 45}})
        for (LapackLayout layout : {LapackLayout::InPlace, LapackLayout::TileCopy}) {
            for (char jobz : {'N', 's', 'A', 'o'}) check_lapack_form<T>(true, jobz, jobz, m, n, layout);
            for (char ju : {'N', 'S', 'a', 'O'})
                for (char jv : {'n', 'S', 'A', 'O'}) {
                    if (ju == 'O' && jv == 'O') continue;
                    if (pocl && ju != 'O' && jv != 'O' && layout == LapackLayout::TileCopy) continue;
                    check_lapack_form<T>(false, ju, jv, m, n, layout);
                }
        }
}

/// Call f, which must throw Error naming `arg` (an argument refused before any task).
template <class F>
void expect_refused(const std::string& where, F f, const char* arg) {
    try {
        f();
        ADD_FAILURE() << where << ": no throw";
    } catch (const TaskError& e) {
        ADD_FAILURE() << where << ": TaskError instead of Error: " << e.what();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(arg), std::string::npos) << where << ": " << e.what();
    }
}

TYPED_TEST(SvdLapack, BadArgumentsThrowError) {
    using T = TypeParam;
    using R = real_t<T>;
    this->expect_no_tasks();
    for (auto mn : {std::pair<int64_t, int64_t>{6, 4}, {4, 6}}) {
        const int64_t m = mn.first, n = mn.second;  // not a structured binding: clang 14 cannot capture one
        const int64_t k = std::min(m, n), big = std::max(m, n);
        std::vector<T> a(size_t(big * big), T(1)), u(size_t(big * big), T(1)), vt(size_t(big * big), T(1));
        std::vector<R> s(size_t(big), R(1));
        const std::string at = " m " + std::to_string(m) + " n " + std::to_string(n);
        auto dd = [&](char jobz, int64_t mm, int64_t nn, int64_t lda, int64_t ldu, int64_t ldvt, int64_t nb = 0) {
            return [=, &a, &s, &u, &vt] {
                lapack::gesdd<T>(jobz, mm, nn, a.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, {.nb = nb});
            };
        };
        auto qr = [&](char ju, char jv, int64_t lda, int64_t ldu, int64_t ldvt) {
            return [=, &a, &s, &u, &vt] {
                lapack::gesvd<T>(ju, jv, m, n, a.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt);
            };
        };
        expect_refused("gesdd jobz X" + at, dd('X', m, n, m, m, n), "'jobz'");
        expect_refused("gesdd jobz V" + at, dd('V', m, n, m, m, n), "'jobz'");
        expect_refused("gesdd m < 0" + at, dd('N', -1, n, m, m, n), "'m'");
        expect_refused("gesdd n < 0" + at, dd('N', m, -2, m, m, n), "'n'");
        expect_refused("gesdd lda < m" + at, dd('S', m, n, m - 1, m, k), "'lda'");
        expect_refused("gesdd ldu < m" + at, dd('S', m, n, m, m - 1, k), "'ldu'");
        expect_refused("gesdd ldu 0" + at, dd('N', m, n, m, 0, 1), "'ldu'");
        expect_refused("gesdd ldvt < k" + at, dd('S', m, n, m, m, k - 1), "'ldvt'");
        expect_refused("gesdd A ldvt < n" + at, dd('A', m, n, m, m, n - 1), "'ldvt'");
        if (m >= n) expect_refused("gesdd O ldvt < n" + at, dd('O', m, n, m, 1, n - 1), "'ldvt'");  // all of Vᴴ
        else expect_refused("gesdd O ldu < m" + at, dd('O', m, n, m, m - 1, 1), "'ldu'");           // all of U
        expect_refused("gesdd nb < 0" + at, dd('N', m, n, m, m, n, -1), "'nb'");
        expect_refused("gesvd jobu X" + at, qr('X', 'N', m, m, n), "'jobu'");
        expect_refused("gesvd jobvt V" + at, qr('N', 'V', m, m, n), "'jobvt'");
        expect_refused("gesvd O and O" + at, qr('O', 'O', m, m, n), "'jobvt'");
        expect_refused("gesvd lda < m" + at, qr('N', 'N', m - 1, 1, 1), "'lda'");
        expect_refused("gesvd ldu < m" + at, qr('A', 'N', m, m - 1, 1), "'ldu'");
        expect_refused("gesvd ldvt < n" + at, qr('N', 'A', m, 1, n - 1), "'ldvt'");
        expect_refused("gesvd ldvt < k" + at, qr('O', 'S', m, 1, k - 1), "'ldvt'");
        for (const auto* x : {&a, &u, &vt})
            EXPECT_TRUE(std::all_of(x->begin(), x->end(), [](T v) { return v == T(1); })) << at << ": a refused call wrote";
        EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](R v) { return v == R(1); })) << at << ": a refused call wrote s";
    }
}

// m = 0 or n = 0: info 0, nothing read; jobz A leaves the identity in the non-empty side's array.
TYPED_TEST(SvdLapack, EmptyMatrices) {
    using T = TypeParam;
    using R = real_t<T>;
    this->expect_no_tasks();
    for (auto [m, n] : {std::pair<int64_t, int64_t>{0, 3}, {3, 0}}) {
        std::vector<T> u(9, T(5)), vt(9, T(5));
        R s = R(-1);
        T a = T(0);
        const int64_t ld = std::max<int64_t>(m, 1);
        EXPECT_EQ(lapack::gesdd<T>('A', m, n, &a, ld, &s, u.data(), ld, vt.data(), std::max<int64_t>(n, 1)), 0);
        EXPECT_TRUE(check::passes(check::orthogonality_columns<T>(m, m, u.data(), ld))) << m << "x" << n;
        EXPECT_TRUE(check::passes(check::orthogonality_rows<T>(n, n, vt.data(), std::max<int64_t>(n, 1)))) << m << "x" << n;
        EXPECT_EQ(lapack::gesvd<T>('N', 'S', m, n, &a, ld, &s, u.data(), 1, vt.data(), 1), 0);
        EXPECT_EQ(s, R(-1)) << "s written for k = 0";
    }
}

}  // namespace
}  // namespace tessera

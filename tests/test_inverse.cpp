// trtri, lauum, potri and getri in s, d, c, z against LAPACK's ratios (examples/common/checks_inverse.hpp):
// every uplo and diag, partial tiles, a single tile, nb > n, n = 0, both layouts of the lapack::
// forms, the tile and _async forms, singular inputs (info, A unchanged), bad arguments, and the
// residuals rejecting a wrong inverse.
#include <string>
#include <vector>

#include "examples/common/checks_inverse.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Inverse : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Inverse, Precisions);

struct Shape {
    int64_t n, nb;
};
// PoCL runs every kernel slowly: the OpenCL modes take three shapes (a single tile, partial tiles,
// nb > n).
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{1, 8}, {37, 16}, {20, 32}};
    return {{1, 8}, {7, 16}, {37, 16}, {64, 16}, {50, 32}, {20, 32}};
}

template <class F>
std::string message(F&& f) {
    try { f(); } catch (const Error& e) { return e.what(); }
    return "no error";
}
bool names(const std::string& m, const char* arg) { return m.find(std::string("'") + arg + "'") != std::string::npos; }

// The entries of the n×n arrays a and b outside the uplo triangle (and on the diagonal with
// `diagonal`) that differ: what trtri and lauum must not touch.
template <class T>
int64_t changed_outside(Uplo uplo, bool diagonal, int64_t n, const std::vector<T>& a, const std::vector<T>& b,
                        int64_t lda) {
    int64_t count = 0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            const bool inside = i == j ? !diagonal : (uplo == Uplo::Lower ? i > j : i < j);
            if (!inside && a[size_t(i + j * lda)] != b[size_t(i + j * lda)]) ++count;
        }
    return count;
}

TYPED_TEST(Inverse, TrtriEveryUploAndDiag) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // the diagonal check (zero_diagonal) runs on a CPU worker
    for (const Shape& s : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                const int64_t n = s.n, lda = n + 1;
                const auto a = check::random_triangular<T>(n, lda, 11);
                auto x = a;
                EXPECT_EQ(lapack::trtri<T>(char(uplo), char(diag), n, x.data(), lda, {.nb = s.nb}), 0);
                EXPECT_LE(check::trtri_residual(uplo, diag, n, a.data(), lda, x.data(), lda), check::kThreshold)
                    << char(uplo) << char(diag) << " n " << n << " nb " << s.nb;
                EXPECT_EQ(changed_outside(uplo, diag == Diag::Unit, n, a, x, lda), 0) << char(uplo) << char(diag);
            }
}

// Without the diagonal check (a unit diagonal), every task of trtri has an OpenCL implementation:
// in opencl mode all of them run on the device (RuntimeTest checks it), trtri_inplace included.
TYPED_TEST(Inverse, UnitTrtriRunsEveryTaskOnTheDevice) {
    using T = TypeParam;
    const int64_t n = 37, lda = 37;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        const auto a = check::random_triangular<T>(n, lda, 15);
        auto x = a;
        EXPECT_EQ(lapack::trtri<T>(char(uplo), 'U', n, x.data(), lda, {.nb = 16}), 0);
        EXPECT_LE(check::trtri_residual(uplo, Diag::Unit, n, a.data(), lda, x.data(), lda), check::kThreshold);
        EXPECT_EQ(changed_outside(uplo, true, n, a, x, lda), 0) << char(uplo);
    }
}

TYPED_TEST(Inverse, LauumBothUplos) {
    using T = TypeParam;
    for (const Shape& s : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            const int64_t n = s.n, lda = n + 2;
            const auto a = check::random_triangular<T>(n, lda, 12);
            auto f = a;
            lapack::lauum<T>(char(uplo), n, f.data(), lda, {.nb = s.nb});
            EXPECT_LE(check::lauum_residual(uplo, n, a.data(), lda, f.data(), lda), check::kThreshold)
                << char(uplo) << " n " << n << " nb " << s.nb;
            EXPECT_EQ(changed_outside(uplo, false, n, a, f, lda), 0) << char(uplo);
        }
}

TYPED_TEST(Inverse, PotriBothUplos) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (const Shape& s : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            const int64_t n = s.n, lda = n + 1;
            const auto a = check::random_spd<T>(n, lda, 13);
            auto f = a;
            ASSERT_EQ(lapack::potrf<T>(char(uplo), n, f.data(), lda, {.nb = s.nb}), 0);
            EXPECT_EQ(lapack::potri<T>(char(uplo), n, f.data(), lda, {.nb = s.nb}), 0);
            const auto x = check::hermitian_full(uplo, n, f.data(), lda);
            EXPECT_LE(check::inverse_residual(n, a.data(), lda, x.data(), n), check::kThreshold)
                << char(uplo) << " n " << n << " nb " << s.nb;
        }
}

TYPED_TEST(Inverse, GetriFromGetrf) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (const Shape& s : shapes()) {
        const int64_t n = s.n, lda = n + 3;
        const auto a = check::random_matrix<T>(n, n, lda, 14);
        auto x = a;
        std::vector<int64_t> ipiv(static_cast<size_t>(n));
        ASSERT_EQ(lapack::getrf<T>(n, n, x.data(), lda, ipiv.data(), {.nb = s.nb}), 0);
        EXPECT_EQ(lapack::getri<T>(n, x.data(), lda, ipiv.data(), {.nb = s.nb}), 0);
        EXPECT_LE(check::inverse_residual(n, a.data(), lda, x.data(), lda), check::kThreshold)
            << "n " << n << " nb " << s.nb;
    }
}

// Both layouts of the lapack:: forms give the inverse (one shape with partial tiles).
TYPED_TEST(Inverse, LapackFormsOnBothLayouts) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 37, lda = 40;
    for (LapackLayout layout : {LapackLayout::InPlace, LapackLayout::TileCopy}) {
        const Options o{.nb = 16, .layout = layout};
        const auto t = check::random_triangular<T>(n, lda, 21);
        auto x = t;
        EXPECT_EQ(lapack::trtri<T>('U', 'N', n, x.data(), lda, o), 0);
        EXPECT_LE(check::trtri_residual(Uplo::Upper, Diag::NonUnit, n, t.data(), lda, x.data(), lda), check::kThreshold);
        const auto g = check::random_matrix<T>(n, n, lda, 22);
        auto y = g;
        std::vector<int64_t> ipiv(static_cast<size_t>(n));
        ASSERT_EQ(lapack::getrf<T>(n, n, y.data(), lda, ipiv.data(), o), 0);
        EXPECT_EQ(lapack::getri<T>(n, y.data(), lda, ipiv.data(), o), 0);
        EXPECT_LE(check::inverse_residual(n, g.data(), lda, y.data(), lda), check::kThreshold);
    }
}

// The tile forms and the _async ones on one sequence (potrf then potri, getrf then getri).
TYPED_TEST(Inverse, TileAndAsyncForms) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 37, nb = 16;
    TileMatrix<T> S(n, n, nb), G(n, n, nb), L(n, n, nb);
    check::generate_random_spd(S, 31);
    check::generate_random(G, 32);
    check::generate_random_triangular(L, 33);
    const auto s = check::lapack_copy(S), g = check::lapack_copy(G), l = check::lapack_copy(L);
    std::vector<int64_t> ipiv;
    Sequence seq;
    potrf_async(Uplo::Lower, S, seq);
    potri_async(Uplo::Lower, S, seq);
    getrf_async(G, ipiv, seq);
    getri_async(G, ipiv, seq);
    EXPECT_EQ(seq.wait(), 0);
    EXPECT_EQ(trtri(Uplo::Lower, Diag::Unit, L), 0);
    const auto si = check::lapack_copy(S), gi = check::lapack_copy(G), li = check::lapack_copy(L);
    const auto x = check::hermitian_full(Uplo::Lower, n, si.data(), n);
    EXPECT_LE(check::inverse_residual(n, s.data(), n, x.data(), n), check::kThreshold);
    EXPECT_LE(check::inverse_residual(n, g.data(), n, gi.data(), n), check::kThreshold);
    EXPECT_LE(check::trtri_residual(Uplo::Lower, Diag::Unit, n, l.data(), n, li.data(), n), check::kThreshold);
}

// An exactly zero diagonal entry: info names it (1-based) and A is left unchanged (LAPACK).
TYPED_TEST(Inverse, SingularGivesInfoAndLeavesAUnchanged) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 37, lda = 37, zero = 20;  // A(21, 21) = 0: in the second tile of 16
    auto a = check::random_triangular<T>(n, lda, 41);
    a[size_t(zero + zero * lda)] = T(0);
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        auto x = a;
        EXPECT_EQ(lapack::trtri<T>(char(uplo), 'N', n, x.data(), lda, {.nb = 16}), zero + 1);
        EXPECT_TRUE(x == a) << "trtri changed A";
        EXPECT_EQ(lapack::potri<T>(char(uplo), n, x.data(), lda, {.nb = 16}), zero + 1);
        EXPECT_TRUE(x == a) << "potri changed A";
    }
    // getri: U(21, 21) = 0 from a matrix whose column 21 is zero (getrf reports it too).
    auto g = check::random_matrix<T>(n, n, lda, 42);
    for (int64_t i = 0; i < n; ++i) g[size_t(i + zero * lda)] = T(0);
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    EXPECT_EQ(lapack::getrf<T>(n, n, g.data(), lda, ipiv.data(), {.nb = 16}), zero + 1);
    const auto f = g;
    EXPECT_EQ(lapack::getri<T>(n, g.data(), lda, ipiv.data(), {.nb = 16}), zero + 1);
    EXPECT_TRUE(g == f) << "getri changed A";
}

TYPED_TEST(Inverse, EmptyMatrix) {
    using T = TypeParam;
    this->expect_no_tasks();
    T a[1] = {T(3)};
    int64_t ipiv[1] = {1};
    EXPECT_EQ(lapack::trtri<T>('L', 'N', 0, a, 1), 0);
    lapack::lauum<T>('U', 0, a, 1);
    EXPECT_EQ(lapack::potri<T>('L', 0, a, 1), 0);
    EXPECT_EQ(lapack::getri<T>(0, a, 1, ipiv), 0);
    EXPECT_EQ(lapack::getri<T>(0, a, 1, nullptr), 0);
    EXPECT_TRUE(a[0] == T(3));
}

TYPED_TEST(Inverse, BadArgumentsThrowNamingTheArgument) {
    using T = TypeParam;
    this->expect_no_tasks();
    std::vector<T> a(16, T(1));
    int64_t bad[4] = {1, 5, 3, 4}, good[4] = {1, 2, 3, 4};
    EXPECT_TRUE(names(message([&] { lapack::trtri<T>('X', 'N', 4, a.data(), 4); }), "uplo"));
    EXPECT_TRUE(names(message([&] { lapack::trtri<T>('L', 'X', 4, a.data(), 4); }), "diag"));
    EXPECT_TRUE(names(message([&] { lapack::trtri<T>('L', 'N', -1, a.data(), 4); }), "n"));
    EXPECT_TRUE(names(message([&] { lapack::lauum<T>('U', 4, a.data(), 3); }), "lda"));
    EXPECT_TRUE(names(message([&] { lapack::potri<T>('G', 4, a.data(), 4); }), "uplo"));
    EXPECT_TRUE(names(message([&] { lapack::getri<T>(4, a.data(), 4, bad); }), "ipiv"));
    EXPECT_TRUE(names(message([&] { lapack::getri<T>(4, a.data(), 4, nullptr); }), "ipiv"));
    EXPECT_TRUE(names(message([&] { lapack::getri<T>(4, a.data(), 2, good); }), "lda"));
    EXPECT_TRUE(names(message([&] { lapack::trtri<T>('L', 'N', 4, a.data(), 4, {.nb = -1}); }), "nb"));
    TileMatrix<T> R(4, 5, 2), Q(4, 4, 2);
    std::vector<int64_t> short_ipiv(3, 1);
    EXPECT_TRUE(names(message([&] { trtri(Uplo::Lower, Diag::NonUnit, R); }), "A"));
    EXPECT_TRUE(names(message([&] { trtri(Uplo::General, Diag::NonUnit, Q); }), "uplo"));
    EXPECT_TRUE(names(message([&] { lauum(Uplo::Lower, R); }), "A"));
    EXPECT_TRUE(names(message([&] { potri(Uplo::General, Q); }), "uplo"));
    EXPECT_TRUE(names(message([&] { getri(R, short_ipiv); }), "A"));
    EXPECT_TRUE(names(message([&] { getri(Q, short_ipiv); }), "ipiv"));
}

// The residuals reject a wrong inverse: one entry of a correct one perturbed.
TYPED_TEST(Inverse, ResidualsRejectAWrongInverse) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t n = 37, nb = 16;
    const auto t = check::random_triangular<T>(n, n, 51);
    auto x = t;
    ASSERT_EQ(lapack::trtri<T>('L', 'N', n, x.data(), n, {.nb = nb}), 0);
    ASSERT_LE(check::trtri_residual(Uplo::Lower, Diag::NonUnit, n, t.data(), n, x.data(), n), check::kThreshold);
    x[size_t(30 + 5 * n)] += T(1e-2);
    EXPECT_GT(check::trtri_residual(Uplo::Lower, Diag::NonUnit, n, t.data(), n, x.data(), n), check::kThreshold);
    auto f = t;
    lapack::lauum<T>('U', n, f.data(), n, {.nb = nb});
    f[size_t(3 + 30 * n)] += T(1e-2);
    EXPECT_GT(check::lauum_residual(Uplo::Upper, n, t.data(), n, f.data(), n), check::kThreshold);
    const auto g = check::random_matrix<T>(n, n, n, 52);
    auto y = g;
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    ASSERT_EQ(lapack::getrf<T>(n, n, y.data(), n, ipiv.data(), {.nb = nb}), 0);
    ASSERT_EQ(lapack::getri<T>(n, y.data(), n, ipiv.data(), {.nb = nb}), 0);
    ASSERT_LE(check::inverse_residual(n, g.data(), n, y.data(), n), check::kThreshold);
    std::swap(y[size_t(0)], y[size_t(1 + n)]);  // as if one interchange were missed
    EXPECT_GT(check::inverse_residual(n, g.data(), n, y.data(), n), check::kThreshold);
}

}  // namespace
}  // namespace tessera

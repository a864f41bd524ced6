// QR (geqrf, unmqr, ungqr, gels) in s, d, c, z, in both forms (QRForm: the flat tile tree and the
// column panels), against the residuals of docs/architecture.md#numerical-checks and LAPACKE's
// xGELS: tall (m = 3n), square and wide shapes, n not divisible by nb, ib not dividing nb (and
// ib > nb), a single tile, empty matrices; the async and LAPACK-layout forms; bad arguments.
#include <algorithm>
#include <cmath>
#include <string>

#include "examples/common/checks_qr.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeTest;

template <class T>
class QR : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(QR, Precisions);

// op(Q) transposed: Qᵀ for real T, Qᴴ for complex T (LAPACK's xUNMQR and xGELS take 'C' there).
template <class T>
constexpr Trans kQt = is_complex_v<T> ? Trans::ConjTrans : Trans::Trans;

struct Shape {
    int64_t m, n, nb, ib;
};
// Tall (3n), square, wide; partial last tiles; ib dividing nb, not dividing it, above nb and above
// the OpenCL kernels' 32-reflector sub-blocks; a single tile.
const Shape kShapes[] = {{96, 32, 16, 4},  {150, 50, 32, 12}, {77, 77, 20, 6},   {64, 64, 64, 48},
                         {45, 110, 32, 7}, {20, 13, 32, 64},  {130, 90, 48, 40}, {1, 1, 8, 3}};

std::string describe(const Shape& s) {
    return "m " + std::to_string(s.m) + " n " + std::to_string(s.n) + " nb " + std::to_string(s.nb) + " ib " +
           std::to_string(s.ib);
}
std::string describe(const Shape& s, QRForm form) {
    return describe(s) + (form == QRForm::ColumnPanel ? " column panels" : " tile tree");
}

const QRForm kForms[] = {QRForm::TileTree, QRForm::ColumnPanel};

// Auto takes the column panels exactly when the Runtime has an OpenCL device (opencl, mixed modes).
TYPED_TEST(QR, AutoFormFollowsTheDevices) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> A(40, 30, 16);
    const QRForm expect = test::RuntimeEnvironment::runtime().opencl_workers() > 0 ? QRForm::ColumnPanel : QRForm::TileTree;
    EXPECT_EQ(QRFactors<T>(A, 4).form(), expect);
    EXPECT_EQ(QRFactors<T>(A, 4, QRForm::TileTree).form(), QRForm::TileTree);
    EXPECT_EQ(QRFactors<T>(A, 4, QRForm::ColumnPanel).form(), QRForm::ColumnPanel);
    QRFactors<T> F(A, 4, QRForm::ColumnPanel);  // one T tile per tile column, square
    EXPECT_NE(F.handle(1, 1), nullptr);
    EXPECT_EQ(F.handle(2, 1), nullptr);
}

/// The first q columns of A's Q, as a column-major m×q array (leading dimension m).
template <class T>
std::vector<T> explicit_q(const TileMatrix<T>& A, const QRFactors<T>& F, int64_t q) {
    std::vector<T> out(size_t(std::max<int64_t>(A.m(), 1) * std::max<int64_t>(q, 1)));
    TileMatrix<T> Q(A.m(), q, A.nb());
    ungqr(A, F, Q);
    Q.to_lapack(out.data(), std::max<int64_t>(A.m(), 1));
    return out;
}

TYPED_TEST(QR, GeqrfAndUngqrResiduals) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // geqrt and tpqrt are CPU kernels
    for (QRForm form : kForms)
    for (const Shape& s : kShapes) {
        const int64_t lda = s.m, k = std::min(s.m, s.n);
        auto a = check::random_matrix<T>(s.m, s.n, lda, 100 + s.m), f = a;
        TileMatrix<T> A(s.m, s.n, s.nb);
        A.fill_from_lapack(a.data(), lda);
        QRFactors<T> F = geqrf(A, {.ib = s.ib, .qr_form = form});
        EXPECT_EQ(F.ib(), s.ib);
        EXPECT_EQ(F.form(), form);
        A.to_lapack(f.data(), lda);
        auto q = explicit_q(A, F, k);
        EXPECT_LE(check::qr_residual(s.m, s.n, a.data(), lda, q.data(), s.m, f.data(), lda), check::kThreshold)
            << describe(s, form);
        EXPECT_LE(check::orthogonality_residual(s.m, k, q.data(), s.m), check::kThreshold) << describe(s, form);
        // The full m×m Q and a Q with fewer columns than reflectors.
        auto full = explicit_q(A, F, s.m);
        EXPECT_LE(check::orthogonality_residual(s.m, s.m, full.data(), s.m), check::kThreshold) << describe(s, form);
        EXPECT_LE(check::agreement(s.m, k, full.data(), s.m, q.data(), s.m, s.m), check::kThreshold) << describe(s, form);
        const int64_t few = std::max<int64_t>(1, k / 2);
        auto part = explicit_q(A, F, few);
        EXPECT_LE(check::agreement(s.m, few, part.data(), s.m, q.data(), s.m, s.m), check::kThreshold) << describe(s, form);
    }
}

TYPED_TEST(QR, UnmqrAllSidesAndTransposes) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (QRForm form : kForms)
    for (const Shape& s : kShapes) {
        auto a = check::random_matrix<T>(s.m, s.n, s.m, 200 + s.n);
        TileMatrix<T> A(s.m, s.n, s.nb);
        A.fill_from_lapack(a.data(), s.m);
        QRFactors<T> F = geqrf(A, {.ib = s.ib, .qr_form = form});
        auto q = explicit_q(A, F, s.m);
        const int64_t other = s.nb + 5;  // the dimension of C that Q does not touch
        for (Side side : {Side::Left, Side::Right})
            for (Trans trans : {Trans::NoTrans, kQt<T>}) {
                const int64_t rows = side == Side::Left ? s.m : other, cols = side == Side::Left ? other : s.m;
                auto c0 = check::random_matrix<T>(rows, cols, rows, 300 + rows), c = c0;
                TileMatrix<T> C(rows, cols, s.nb);
                C.fill_from_lapack(c0.data(), rows);
                unmqr(side, trans, A, F, C);
                C.to_lapack(c.data(), rows);
                EXPECT_LE(check::unmqr_residual(side, trans, s.m, q.data(), s.m, rows, cols, c0.data(), c.data(), rows),
                          check::kThreshold)
                    << describe(s, form) << " side " << char(side) << " trans " << char(trans);
            }
    }
}

// The update kernels have OpenCL implementations: in opencl mode, applying Q runs only there.
TYPED_TEST(QR, UnmqrRunsOnOpenCLWorker) {
    using T = TypeParam;
    const int64_t m = 100, n = 60, nb = 32;
    auto a = check::random_matrix<T>(m, n, m, 5), c0 = check::random_matrix<T>(m, 40, m, 6), c = c0;
    TileMatrix<T> A(m, n, nb), C(m, 40, nb);
    A.fill_from_lapack(a.data(), m);
    C.fill_from_lapack(c0.data(), m);
    QRFactors<T> F = geqrf(A, {.ib = 10});
    auto q = explicit_q(A, F, m);
    Runtime::wait_all();
    test::RuntimeEnvironment::runtime().reset_stats();
    unmqr(Side::Left, kQt<T>, A, F, C);
    C.to_lapack(c.data(), m);
    EXPECT_LE(check::unmqr_residual(Side::Left, kQt<T>, m, q.data(), m, m, 40, c0.data(), c.data(), m),
              check::kThreshold);
}

TYPED_TEST(QR, GelsMatchesLapackeAllCases) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const Shape shapes[] = {{150, 50, 32, 12}, {96, 96, 32, 8}, {45, 110, 32, 7}, {13, 9, 16, 4}};
    for (QRForm form : kForms)
    for (const Shape& s : shapes)
        for (Trans trans : {Trans::NoTrans, kQt<T>}) {
            const int64_t m = s.m, n = s.n, nrhs = 3, lda = m + 2, ldb = std::max(m, n) + 1;
            const bool nt = trans == Trans::NoTrans;
            const int64_t in_rows = nt ? m : n, out_rows = nt ? n : m;
            auto a = check::random_matrix<T>(m, n, lda, 400 + m), f = a;
            auto b = check::random_matrix<T>(in_rows, nrhs, ldb, 5000 + n), x = b;  // seeds apart: B ∉ range(A)
            ASSERT_EQ(lapack::gels<T>(char(trans), m, n, nrhs, f.data(), lda, x.data(), ldb,
                                      {.nb = s.nb, .ib = s.ib, .qr_form = form}),
                      0);
            const std::string what = describe(s, form) + " trans " + char(trans);
            if (in_rows > out_rows)
                EXPECT_LE(check::least_squares_residual(trans, m, n, nrhs, a.data(), lda, x.data(), ldb, b.data(), ldb),
                          check::kThreshold) << what;
            else
                EXPECT_LE(check::solve_residual(trans, m, n, nrhs, a.data(), lda, x.data(), ldb, b.data(), ldb),
                          check::kThreshold) << what;
            int info = -1;
            auto ref = check::lapacke_gels(trans, m, n, nrhs, a.data(), lda, b.data(), ldb, &info);
            ASSERT_EQ(info, 0);
            EXPECT_LE(check::agreement(out_rows, nrhs, x.data(), ldb, ref.data(), ldb, std::max(m, n)), check::kThreshold)
                << what;
        }
}

TYPED_TEST(QR, AsyncFormsAndRankDeficiency) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t m = 120, n = 70, nb = 32, nrhs = 2;
    auto a = check::random_matrix<T>(m, n, m, 8), b = check::random_matrix<T>(m, nrhs, m, 9), x = b;
    TileMatrix<T> A(m, n, nb), B(m, nrhs, nb);
    A.fill_from_lapack(a.data(), m);
    B.fill_from_lapack(b.data(), m);
    QRFactors<T> F(A, 16);
    Sequence seq;
    gels_async(Trans::NoTrans, A, F, B, seq);
    ASSERT_EQ(seq.wait(), 0);
    B.to_lapack(x.data(), m);
    EXPECT_LE(check::least_squares_residual(Trans::NoTrans, m, n, nrhs, a.data(), m, x.data(), m, b.data(), m),
              check::kThreshold);

    // A zero column gives an exactly zero R(j, j): info = j + 1 (1-based), as LAPACK's xGELS.
    for (QRForm form : kForms)
        for (int64_t zero : {0, 40}) {
            auto d = a;
            for (int64_t i = 0; i < m; ++i) d[size_t(i + zero * m)] = T(0);
            auto y = b;
            EXPECT_EQ(lapack::gels<T>('N', m, n, nrhs, d.data(), m, y.data(), m, {.nb = nb, .ib = 8, .qr_form = form}),
                      zero + 1);
        }
}

TYPED_TEST(QR, EmptyMatricesAndBadArguments) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    TileMatrix<T> E(0, 0, 16);
    QRFactors<T> FE = geqrf(E);
    EXPECT_EQ(FE.mt(), 0);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{5, 0}, {0, 5}}) {  // n = 0 and m = 0
        TileMatrix<T> Z(m, n, 4), Q(m, 0, 4), C(m, 3, 4);
        QRFactors<T> FZ = geqrf(Z, {.ib = 2});
        ungqr(Z, FZ, Q);
        unmqr(Side::Left, kQt<T>, Z, FZ, C);
    }
    T dummy[4] = {}, b[4] = {T(1), T(2), T(3), T(4)};
    EXPECT_EQ(lapack::gels<T>('N', 0, 0, 1, dummy, 1, b, 1), 0);
    EXPECT_EQ(lapack::gels<T>('N', 4, 0, 1, dummy, 4, b, 4), 0);  // min(m, n) = 0: X = 0 (LAPACK)
    EXPECT_EQ(b[3], T(0));
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { lapack::gels<T>('X', 1, 1, 1, dummy, 1, dummy, 1); }).find("'trans'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gels<T>('N', 3, 2, 1, dummy, 2, dummy, 3); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gels<T>('N', 2, 3, 1, dummy, 2, dummy, 2); }).find("'ldb'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gels<T>('N', 2, -1, 1, dummy, 2, dummy, 2); }).find("'n'"), std::string::npos);
    TileMatrix<T> A(40, 30, 16), B(30, 2, 16), C(40, 2, 8), Q(40, 41, 16);
    EXPECT_NE(message([&] { QRFactors<T>(A, 0); }).find("'ib'"), std::string::npos);
    QRFactors<T> other(B, 4);
    Sequence seq;
    EXPECT_NE(message([&] { geqrf_async(A, other, seq); }).find("'F'"), std::string::npos);
    A.generate([](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* t, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) t[i + j * ld] = T(1) / T(1 + i0 + i + 2 * (j0 + j));
    });
    QRFactors<T> F = geqrf(A, {.ib = 4});
    EXPECT_NE(message([&] { unmqr(Side::Left, kQt<T>, A, F, B); }).find("'C'"), std::string::npos);
    EXPECT_NE(message([&] { unmqr(Side::Right, kQt<T>, A, F, B); }).find("'C'"), std::string::npos);
    EXPECT_NE(message([&] { unmqr(Side::Left, kQt<T>, A, F, C); }).find("'nb'"), std::string::npos);
    EXPECT_NE(message([&] { ungqr(A, F, Q); }).find("'Q'"), std::string::npos);
    if constexpr (is_complex_v<T>) {  // complex: op(Q) and op(A) are N or C, as LAPACK's zunmqr and zgels
        TileMatrix<T> C2(40, 2, 16);
        EXPECT_NE(message([&] { unmqr(Side::Left, Trans::Trans, A, F, C2); }).find("'trans'"), std::string::npos);
        EXPECT_NE(message([&] { gels(Trans::Trans, A, C2); }).find("'trans'"), std::string::npos);
    }
    EXPECT_NE(message([&] { gels(Trans::NoTrans, A, B); }).find("'B'"), std::string::npos);
    EXPECT_NE(message([&] { gels_async(Trans::NoTrans, A, F, B, seq); }).find("'B'"), std::string::npos);
    TileMatrix<T> W(30, 40, 16);
    QRFactors<T> FW(W, 4);
    EXPECT_NE(message([&] { gels_async(Trans::NoTrans, W, FW, Q, seq); }).find("'A'"), std::string::npos);
}

}  // namespace
}  // namespace tessera

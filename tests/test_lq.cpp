// LQ (gelqf, unmlq, unglq, gels for m < n) in s, d, c, z: the tile forms against LAPACK's xLQT01
// ratios (‖A − L·Q‖, ‖I − Q·Qᴴ‖) and unmlq against the explicit Q, every side and transposition; the
// LAPACK-layout forms against LAPACKE (L and tau within a perturbation bound, and interoperating both
// ways: LAPACKE_xunmlq / xunglq on lapack::gelqf's output, lapack::unmlq / unglq on
// LAPACKE_xgelqf's); gels for m < n in all cases; wide, square and tall shapes, partial tiles, a
// single tile, k < m; empty sizes and bad arguments. gelqt and tplqt are CPU kernels; the updates
// gemlqt and tpmlqt also run on OpenCL workers.
#include <algorithm>
#include <cmath>
#include <string>

#include "examples/common/checks_lq.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class LQ : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(LQ, Precisions);

template <class T>
constexpr Trans kQt = is_complex_v<T> ? Trans::ConjTrans : Trans::Trans;

struct Shape {
    int64_t m, n, nb, ib;
};
// Wide (m < n), square, tall; partial last tiles; ib not dividing nb and above it; a single tile.
const Shape kShapes[] = {{32, 96, 16, 4}, {50, 110, 32, 7}, {77, 77, 20, 6}, {90, 40, 32, 12}, {13, 20, 32, 64}, {1, 1, 8, 3}};

std::string describe(const Shape& s) {
    return "m " + std::to_string(s.m) + " n " + std::to_string(s.n) + " nb " + std::to_string(s.nb) + " ib " +
           std::to_string(s.ib);
}

/// The first q rows of A's Q, as a column-major q×n array (leading dimension max(1, q)).
template <class T>
std::vector<T> explicit_q(const TileMatrix<T>& A, const LQFactors<T>& F, int64_t q) {
    const int64_t ld = std::max<int64_t>(q, 1);
    std::vector<T> out(size_t(ld * std::max<int64_t>(A.n(), 1)));
    TileMatrix<T> Q(q, A.n(), A.nb());
    unglq(A, F, Q);
    Q.to_lapack(out.data(), ld);
    return out;
}

TYPED_TEST(LQ, GelqfUnglqAndUnmlqResiduals) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // the LQ tile kernels are CPU kernels
    for (const Shape& s : kShapes) {
        const int64_t k = std::min(s.m, s.n);
        auto a = check::random_matrix<T>(s.m, s.n, s.m, 100 + s.m), f = a;
        TileMatrix<T> A(s.m, s.n, s.nb);
        A.fill_from_lapack(a.data(), s.m);
        LQFactors<T> F = gelqf(A, {.ib = s.ib});
        EXPECT_EQ(F.ib(), s.ib);
        A.to_lapack(f.data(), s.m);
        auto q = explicit_q(A, F, k);
        EXPECT_LE(check::lq_residual(s.m, s.n, a.data(), s.m, q.data(), k, f.data(), s.m), check::kThreshold) << describe(s);
        EXPECT_LE(check::lq_orthogonality_residual(k, s.n, q.data(), k), check::kThreshold) << describe(s);
        auto full = explicit_q(A, F, s.n);  // the n×n Q, and its first rows from fewer
        EXPECT_LE(check::lq_orthogonality_residual(s.n, s.n, full.data(), s.n), check::kThreshold) << describe(s);
        const int64_t few = std::max<int64_t>(1, k / 2);
        auto part = explicit_q(A, F, few);
        const auto part_t = check::conj_transpose(few, s.n, part.data(), few), full_t = check::conj_transpose(s.n, s.n, full.data(), s.n);
        EXPECT_LE(check::agreement(s.n, few, part_t.data(), s.n, full_t.data(), s.n, s.n), check::kThreshold) << describe(s);
        // The check rejects a wrong factorization: L perturbed in one entry.
        auto g = f;
        g[0] += T(1e-2) * (std::abs(g[0]) + real_t<T>(1));
        EXPECT_GT(check::lq_residual(s.m, s.n, a.data(), s.m, q.data(), k, g.data(), s.m), check::kThreshold) << describe(s);
        const int64_t other = s.nb + 5;  // the dimension of C that Q does not touch
        for (Side side : {Side::Left, Side::Right})
            for (Trans trans : {Trans::NoTrans, kQt<T>}) {
                const int64_t rows = side == Side::Left ? s.n : other, cols = side == Side::Left ? other : s.n;
                auto c0 = check::random_matrix<T>(rows, cols, rows, 300 + rows), c = c0;
                TileMatrix<T> C(rows, cols, s.nb);
                C.fill_from_lapack(c0.data(), rows);
                unmlq(side, trans, A, F, C);
                C.to_lapack(c.data(), rows);
                EXPECT_LE(check::unmqr_residual(side, trans, s.n, full.data(), s.n, rows, cols, c0.data(), c.data(), rows),
                          check::kThreshold)
                    << describe(s) << " side " << char(side) << " trans " << char(trans);
            }
    }
}

// The update kernels have OpenCL implementations: in opencl mode, applying Q runs only there.
TYPED_TEST(LQ, UnmlqRunsOnOpenCLWorker) {
    using T = TypeParam;
    const int64_t m = 60, n = 100, nb = 32;
    auto a = check::random_matrix<T>(m, n, m, 5);
    TileMatrix<T> A(m, n, nb);
    A.fill_from_lapack(a.data(), m);
    LQFactors<T> F = gelqf(A, {.ib = 10});
    auto q = explicit_q(A, F, n);
    Runtime::wait_all();
    test::RuntimeEnvironment::runtime().reset_stats();
    for (Side side : {Side::Left, Side::Right}) {
        const int64_t rows = side == Side::Left ? n : 40, cols = side == Side::Left ? 40 : n;
        auto c0 = check::random_matrix<T>(rows, cols, rows, 6), c = c0;
        TileMatrix<T> C(rows, cols, nb);
        C.fill_from_lapack(c0.data(), rows);
        unmlq(side, kQt<T>, A, F, C);
        C.to_lapack(c.data(), rows);
        EXPECT_LE(check::unmqr_residual(side, kQt<T>, n, q.data(), n, rows, cols, c0.data(), c.data(), rows),
                  check::kThreshold);
    }
}

TYPED_TEST(LQ, AsyncFormsAndTheFactorsShape) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t m = 40, n = 70, nb = 16;
    auto a = check::random_matrix<T>(m, n, m, 7), f = a;
    TileMatrix<T> A(m, n, nb), Q(m, n, nb);
    A.fill_from_lapack(a.data(), m);
    LQFactors<T> F(A, 5);
    EXPECT_EQ(F.m(), m);
    EXPECT_EQ(F.n(), n);
    EXPECT_EQ(F.mt(), 3);
    EXPECT_EQ(F.nt(), 5);
    Sequence seq;
    gelqf_async(A, F, seq);
    unglq_async(A, F, Q, seq);
    EXPECT_EQ(seq.wait(), 0);
    std::vector<T> q(size_t(m * n));
    A.to_lapack(f.data(), m);
    Q.to_lapack(q.data(), m);
    EXPECT_LE(check::lq_residual(m, n, a.data(), m, q.data(), m, f.data(), m), check::kThreshold);
}

template <class T>
int lapacke_gelqf(int64_t m, int64_t n, T* a, int64_t lda, T* tau) {
    const int im = int(m), in = int(n), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sgelqf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgelqf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_cgelqf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else return LAPACKE_zgelqf(LAPACK_COL_MAJOR, im, in, a, il, tau);
}

template <class T>
int lapacke_unglq(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau) {
    const int im = int(m), in = int(n), ik = int(k), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sorglq(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dorglq(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_cunglq(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else return LAPACKE_zunglq(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
}

template <class T>
int lapacke_unmlq(char side, char trans, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* tau, T* c,
                  int64_t ldc) {
    const int im = int(m), in = int(n), ik = int(k), il = int(lda), ic = int(ldc);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sormlq(LAPACK_COL_MAJOR, side, trans, im, in, ik, a, il, tau, c, ic);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dormlq(LAPACK_COL_MAJOR, side, trans, im, in, ik, a, il, tau, c, ic);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_cunmlq(LAPACK_COL_MAJOR, side, trans, im, in, ik, a, il, tau, c, ic);
    else return LAPACKE_zunmlq(LAPACK_COL_MAJOR, side, trans, im, in, ik, a, il, tau, c, ic);
}

/// A random m×n array (lda) plus 2·sqrt(max(m, n)) on its diagonal: well conditioned, so that L, tau
/// and Q are determined to a few ulps of ‖A‖ times the dimension.
template <class T>
std::vector<T> well_conditioned(int64_t m, int64_t n, int64_t lda, uint64_t seed) {
    auto a = check::random_matrix<T>(m, n, lda, seed);
    for (int64_t i = 0; i < std::min(m, n); ++i) a[size_t(i + i * lda)] += T(2 * std::sqrt(double(std::max(m, n))));
    return a;
}

// lapack::gelqf against LAPACKE_xgelqf, and each one's reflectors applied by the other's unmlq / unglq.
TYPED_TEST(LQ, LapackFormsInteroperateWithLapacke) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const Shape shapes[] = {{40, 100, 32, 0}, {60, 60, 16, 0}, {70, 30, 32, 0}, {9, 13, 32, 0}};
    for (const Shape& s : shapes) {
        const int64_t m = s.m, n = s.n, k = std::min(m, n), lda = m + 3;
        const Options o{.nb = s.nb};
        auto a = well_conditioned<T>(m, n, lda, 900 + m), ours = a, ref = a;
        std::vector<T> tau(static_cast<size_t>(k)), tau_ref(static_cast<size_t>(k));
        ASSERT_EQ(lapack::gelqf<T>(m, n, ours.data(), lda, tau.data(), o), 0);
        ASSERT_EQ(lapacke_gelqf(m, n, ref.data(), lda, tau_ref.data()), 0);
        EXPECT_LE(check::agreement(m, n, ours.data(), lda, ref.data(), lda, std::max(m, n)), check::kThreshold) << describe(s);
        EXPECT_LE(check::agreement(k, 1, tau.data(), k, tau_ref.data(), k, std::max(m, n)), check::kThreshold) << describe(s);
        // Q's first k rows: each side's unglq on each side's reflectors.
        for (int mix = 0; mix < 2; ++mix) {
            const auto& f = mix ? ref : ours;
            const auto& t = mix ? tau_ref : tau;
            auto q1 = f, q2 = f;
            lapack::unglq<T>(k, n, k, q1.data(), lda, t.data(), o);
            ASSERT_EQ(lapacke_unglq(k, n, k, q2.data(), lda, t.data()), 0);
            EXPECT_LE(check::agreement(k, n, q1.data(), lda, q2.data(), lda, n), check::kThreshold) << describe(s) << " mix " << mix;
            EXPECT_LE(check::lq_residual(m, n, a.data(), lda, q1.data(), lda, f.data(), lda), check::kThreshold) << describe(s);
            for (char side : {'L', 'R'})
                for (char trans : {'N', is_complex_v<T> ? 'C' : 'T'}) {
                    const int64_t rows = side == 'L' ? n : 7, cols = side == 'L' ? 5 : n;
                    auto c0 = check::random_matrix<T>(rows, cols, rows + 1, 40 + rows), c1 = c0, c2 = c0;
                    lapack::unmlq<T>(side, trans, rows, cols, k, f.data(), lda, t.data(), c1.data(), rows + 1, o);
                    ASSERT_EQ(lapacke_unmlq(side, trans, rows, cols, k, f.data(), lda, t.data(), c2.data(), rows + 1), 0);
                    EXPECT_LE(check::agreement(rows, cols, c1.data(), rows + 1, c2.data(), rows + 1, n), check::kThreshold)
                        << describe(s) << " side " << side << " trans " << trans << " mix " << mix;
                }
        }
        // unglq with fewer reflectors than rows (k' < m' ≤ n).
        if (k >= 2) {
            auto q1 = ours, q2 = ours;
            lapack::unglq<T>(k, n, k / 2, q1.data(), lda, tau.data(), o);
            ASSERT_EQ(lapacke_unglq(k, n, k / 2, q2.data(), lda, tau.data()), 0);
            EXPECT_LE(check::agreement(k, n, q1.data(), lda, q2.data(), lda, n), check::kThreshold) << describe(s);
        }
    }
}

// gels for m < n (tile LQ in place; lapack::gels leaves xGELQF's layout in a), every case.
TYPED_TEST(LQ, GelsWideAllCases) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const Shape shapes[] = {{45, 110, 32, 7}, {50, 64, 16, 4}, {9, 13, 16, 4}};
    for (const Shape& s : shapes)
        for (Trans trans : {Trans::NoTrans, kQt<T>}) {
            const int64_t m = s.m, n = s.n, nrhs = 3, ldb = n + 1;
            const bool nt = trans == Trans::NoTrans;
            const int64_t in_rows = nt ? m : n, out_rows = nt ? n : m;
            auto a = well_conditioned<T>(m, n, m, 400 + m), f = a;
            auto b = check::random_matrix<T>(in_rows, nrhs, ldb, 5000 + n), x = b;  // seeds apart: B ∉ range(Aᴴ)
            const std::string what = describe(s) + " trans " + char(trans);
            // Tile form.
            TileMatrix<T> A(m, n, s.nb), B(n, nrhs, s.nb);
            A.fill_from_lapack(a.data(), m);
            B.fill_from_lapack(b.data(), ldb);
            ASSERT_EQ(gels(trans, A, B, {.ib = s.ib}), 0);
            B.to_lapack(x.data(), ldb);
            int info = -1;
            auto ref = check::lapacke_gels(trans, m, n, nrhs, a.data(), m, b.data(), ldb, &info);
            ASSERT_EQ(info, 0);
            if (nt)
                EXPECT_LE(check::solve_residual(trans, m, n, nrhs, a.data(), m, x.data(), ldb, b.data(), ldb), check::kThreshold) << what;
            else
                EXPECT_LE(check::least_squares_residual(trans, m, n, nrhs, a.data(), m, x.data(), ldb, b.data(), ldb),
                          check::kThreshold) << what;
            EXPECT_LE(check::agreement(out_rows, nrhs, x.data(), ldb, ref.data(), ldb, n), check::kThreshold) << what;
            // LAPACK-layout form: the same solution, and a left as LAPACKE_xgelqf leaves it.
            auto y = b;
            ASSERT_EQ(lapack::gels<T>(char(trans), m, n, nrhs, f.data(), m, y.data(), ldb, {.nb = s.nb}), 0);
            EXPECT_LE(check::agreement(out_rows, nrhs, y.data(), ldb, ref.data(), ldb, n), check::kThreshold) << what;
            auto g = check::reference_copy(a.data(), a.size());
            std::vector<T> tau(static_cast<size_t>(m));
            ASSERT_EQ(lapacke_gelqf(m, n, g.data(), m, tau.data()), 0);
            EXPECT_LE(check::agreement(m, n, f.data(), m, g.data(), m, n), check::kThreshold) << what;
        }
    // An exactly zero L(j, j) (row j zero): info = j + 1, as LAPACK's xGELS.
    const int64_t m = 40, n = 70;
    for (int64_t zero : {0, 33}) {
        auto d = check::random_matrix<T>(m, n, m, 11);
        for (int64_t j = 0; j < n; ++j) d[size_t(zero + j * m)] = T(0);
        auto y = check::random_matrix<T>(n, 1, n, 12);
        TileMatrix<T> A(m, n, 16), B(n, 1, 16);
        A.fill_from_lapack(d.data(), m);
        B.fill_from_lapack(y.data(), n);
        EXPECT_EQ(gels(Trans::NoTrans, A, B, {.ib = 4}), zero + 1);
        EXPECT_EQ(lapack::gels<T>('N', m, n, 1, d.data(), m, y.data(), n, {.nb = 16}), zero + 1);
    }
}

TYPED_TEST(LQ, EmptySizesAndBadArguments) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (auto [m, n] : {std::pair<int64_t, int64_t>{5, 0}, {0, 5}, {0, 0}}) {
        TileMatrix<T> Z(m, n, 4), Q(0, n, 4), C(n, 3, 4);
        LQFactors<T> FZ = gelqf(Z, {.ib = 2});
        unglq(Z, FZ, Q);
        unmlq(Side::Left, kQt<T>, Z, FZ, C);
    }
    T dummy[4] = {};
    EXPECT_EQ(lapack::gelqf<T>(0, 3, dummy, 1, nullptr), 0);
    lapack::unglq<T>(0, 0, 0, dummy, 1, nullptr);
    lapack::unmlq<T>('L', 'N', 0, 2, 0, dummy, 1, nullptr, dummy, 1);
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { lapack::gelqf<T>(2, 3, dummy, 1, dummy); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gelqf<T>(2, 3, dummy, 2, nullptr); }).find("'tau'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::gelqf<T>(-1, 3, dummy, 1, dummy); }).find("'m'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unglq<T>(3, 2, 1, dummy, 3, dummy); }).find("'m'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unglq<T>(2, 3, 3, dummy, 2, dummy); }).find("'k'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unglq<T>(2, 3, 1, dummy, 1, dummy); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unmlq<T>('X', 'N', 2, 2, 1, dummy, 1, dummy, dummy, 2); }).find("'side'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unmlq<T>('L', 'X', 2, 2, 1, dummy, 1, dummy, dummy, 2); }).find("'trans'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unmlq<T>('L', 'N', 2, 2, 3, dummy, 3, dummy, dummy, 2); }).find("'k'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unmlq<T>('L', 'N', 2, 2, 2, dummy, 1, dummy, dummy, 2); }).find("'lda'"), std::string::npos);
    EXPECT_NE(message([&] { lapack::unmlq<T>('L', 'N', 2, 2, 1, dummy, 1, dummy, dummy, 1); }).find("'ldc'"), std::string::npos);
    TileMatrix<T> A(30, 40, 16), B(30, 2, 16), C(40, 2, 8), Q(41, 40, 16);
    EXPECT_NE(message([&] { LQFactors<T>(A, 0); }).find("'ib'"), std::string::npos);
    LQFactors<T> other(B, 4);
    Sequence seq;
    EXPECT_NE(message([&] { gelqf_async(A, other, seq); }).find("'F'"), std::string::npos);
    A.generate([](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* t, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) t[i + j * ld] = T(1) / T(1 + 2 * (i0 + i) + j0 + j);
    });
    LQFactors<T> F = gelqf(A, {.ib = 4});
    EXPECT_NE(message([&] { unmlq(Side::Left, kQt<T>, A, F, B); }).find("'C'"), std::string::npos);
    EXPECT_NE(message([&] { unmlq(Side::Left, kQt<T>, A, F, C); }).find("'nb'"), std::string::npos);
    EXPECT_NE(message([&] { unglq(A, F, Q); }).find("'Q'"), std::string::npos);
    if constexpr (is_complex_v<T>) {  // complex: op(Q) is N or C, as LAPACK's zunmlq
        TileMatrix<T> C2(40, 2, 16);
        EXPECT_NE(message([&] { unmlq(Side::Left, Trans::Trans, A, F, C2); }).find("'trans'"), std::string::npos);
        EXPECT_NE(message([&] { lapack::unmlq<T>('L', 'T', 2, 2, 1, dummy, 1, dummy, dummy, 2); }).find("'trans'"),
                  std::string::npos);
    }
}

}  // namespace
}  // namespace tessera

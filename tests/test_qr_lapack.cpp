// LAPACK-layout QR (lapack::geqrf, unmqr, ungqr; gels' factored A) in s, d, c, z: geqrf's R and tau
// against LAPACKE's xGEQRF on the same matrix, within a bound from the perturbation theory of a
// well-conditioned A (never exact equality); ‖A − QR‖ and ‖I − QᴴQ‖ through ungqr; unmqr's four
// side/trans combinations against the explicit Q; k < n, m < n, n not a multiple of nb, ld > rows,
// empty dimensions; bad arguments throwing Error naming the argument.
#include <algorithm>
#include <cmath>
#include <string>

#include "examples/common/checks_qr.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class QRLapack : public test::RuntimeTest {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(QRLapack, Precisions);

constexpr double kBound = 30;  // LAPACK's test threshold for the scaled residuals below

template <class T>
constexpr char kQt = is_complex_v<T> ? 'C' : 'T';

struct Shape {
    int64_t m, n, nb;
};
// Tall, square, wide; partial last tiles; a single tile; nb above both dimensions.
const Shape kShapes[] = {{150, 50, 32}, {77, 77, 20}, {45, 110, 32}, {20, 13, 32}, {130, 90, 48}, {1, 1, 8}};

std::string describe(const Shape& s) {
    return "m " + std::to_string(s.m) + " n " + std::to_string(s.n) + " nb " + std::to_string(s.nb);
}

/// A random m×n array (lda) plus 2·sqrt(max(m, n)) on its diagonal: condition number a few units, so
/// that R, tau and Q are determined to a few ulps of ‖A‖ times the dimension.
template <class T>
std::vector<T> well_conditioned(int64_t m, int64_t n, int64_t lda, uint64_t seed) {
    auto a = check::random_matrix<T>(m, n, lda, seed);
    for (int64_t i = 0; i < std::min(m, n); ++i) a[size_t(i + i * lda)] += T(2 * std::sqrt(double(std::max(m, n))));
    return a;
}

template <class T>
int lapacke_geqrf(int64_t m, int64_t n, T* a, int64_t lda, T* tau) {
    const int im = int(m), in = int(n), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_cgeqrf(LAPACK_COL_MAJOR, im, in, a, il, tau);
    else return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, im, in, a, il, tau);
}

/// LAPACKE's xORGQR / xUNGQR: the reference for Q's columns.
template <class T>
int lapacke_ungqr(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau) {
    const int im = int(m), in = int(n), ik = int(k), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sorgqr(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dorgqr(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return LAPACKE_cungqr(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
    else return LAPACKE_zungqr(LAPACK_COL_MAJOR, im, in, ik, a, il, tau);
}

/// The first q columns of Q = H_1…H_k from xGEQRF's layout in a (m×≥k, lda), by lapack::ungqr on a
/// copy (m×q, leading dimension m).
template <class T>
std::vector<T> explicit_q(int64_t m, int64_t q, int64_t k, const std::vector<T>& a, int64_t lda, const std::vector<T>& tau,
                          int64_t nb) {
    std::vector<T> out(size_t(std::max<int64_t>(m, 1) * std::max<int64_t>(q, 1)), T(0));
    for (int64_t j = 0; j < k; ++j) std::copy_n(a.begin() + j * lda, m, out.begin() + j * m);
    lapack::ungqr<T>(m, q, k, out.data(), std::max<int64_t>(m, 1), tau.data(), {.nb = nb});
    return out;
}

TYPED_TEST(QRLapack, GeqrfMatchesLapackeAndUngqrResiduals) {
    using T = TypeParam;
    this->allow_cpu_tasks();  // the panels' T from tau (larft_panel) and tau from T are CPU tasks
    for (const Shape& s : kShapes) {
        const int64_t lda = s.m + 3, k = std::min(s.m, s.n);
        auto a = well_conditioned<T>(s.m, s.n, lda, 10 + s.m), f = a, ref = a;
        std::vector<T> tau(static_cast<size_t>(k)), tau_ref(static_cast<size_t>(k));
        ASSERT_EQ(lapack::geqrf<T>(s.m, s.n, f.data(), lda, tau.data(), {.nb = s.nb}), 0) << describe(s);
        ASSERT_EQ(lapacke_geqrf<T>(s.m, s.n, ref.data(), lda, tau_ref.data()), 0);
        // Same reflectors (xLARFG's), so R, V and tau agree to rounding: ‖ΔX‖ ≤ c·max(m, n)·eps·‖X‖.
        EXPECT_LE(check::agreement(s.m, s.n, f.data(), lda, ref.data(), lda, std::max(s.m, s.n)), kBound)
            << describe(s) << ": R and the vectors";
        EXPECT_LE(check::agreement(k, 1, tau.data(), k, tau_ref.data(), k, std::max(s.m, s.n)), kBound)
            << describe(s) << ": tau";
        auto q = explicit_q(s.m, k, k, f, lda, tau, s.nb);
        EXPECT_LE(check::qr_residual(s.m, s.n, a.data(), lda, q.data(), s.m, f.data(), lda), kBound) << describe(s);
        EXPECT_LE(check::orthogonality_residual(s.m, k, q.data(), s.m), kBound) << describe(s);
        // The full m×m Q, and Q's first n ≥ k' columns from only k' < k reflectors, against LAPACKE's.
        auto full = explicit_q(s.m, s.m, k, f, lda, tau, s.nb);
        EXPECT_LE(check::orthogonality_residual(s.m, s.m, full.data(), s.m), kBound) << describe(s);
        EXPECT_LE(check::agreement(s.m, k, full.data(), s.m, q.data(), s.m, s.m), kBound) << describe(s);
        const int64_t few = k / 2, cols = std::min(s.m, few + 5);
        auto part = explicit_q(s.m, cols, few, f, lda, tau, s.nb);
        std::vector<T> part_ref(size_t(s.m * cols), T(0));
        for (int64_t j = 0; j < few; ++j) std::copy_n(f.begin() + j * lda, s.m, part_ref.begin() + j * s.m);
        ASSERT_EQ(lapacke_ungqr<T>(s.m, cols, few, part_ref.data(), s.m, tau.data()), 0);
        EXPECT_LE(check::agreement(s.m, cols, part.data(), s.m, part_ref.data(), s.m, s.m), kBound)
            << describe(s) << " k " << few;
    }
}

TYPED_TEST(QRLapack, UnmqrAllSidesAndTransposes) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    for (const Shape& s : kShapes) {
        const int64_t nq = s.m, lda = nq + 1;  // Q of order m from the QR of the m×n A
        auto a = well_conditioned<T>(nq, s.n, lda, 20 + s.n);
        const int64_t k = std::min(nq, s.n);
        std::vector<T> tau(static_cast<size_t>(k));
        lapack::geqrf<T>(nq, s.n, a.data(), lda, tau.data(), {.nb = s.nb});
        for (int64_t kk : {k, k / 2}) {  // all reflectors, and the first half
            auto q = explicit_q(nq, nq, kk, a, lda, tau, s.nb);
            const int64_t other = s.nb + 5;  // C's dimension that Q does not touch
            for (char side : {'L', 'R'})
                for (char trans : {'N', kQt<T>}) {
                    const int64_t rows = side == 'L' ? nq : other, cols = side == 'L' ? other : nq, ldc = rows + 2;
                    auto c0 = check::random_matrix<T>(rows, cols, ldc, 30 + rows), c = c0;
                    lapack::unmqr<T>(side, trans, rows, cols, kk, a.data(), lda, tau.data(), c.data(), ldc,
                                     {.nb = s.nb});
                    const Trans t = trans == 'N' ? Trans::NoTrans : Trans::ConjTrans;
                    EXPECT_LE(check::unmqr_residual(side == 'L' ? Side::Left : Side::Right, t, nq, q.data(), nq, rows,
                                                    cols, c0.data(), c.data(), ldc),
                              kBound)
                        << describe(s) << " k " << kk << " side " << side << " trans " << trans;
                }
        }
    }
}

TYPED_TEST(QRLapack, GelsLeavesGeqrfLayout) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    const int64_t m = 90, n = 40, nrhs = 2, nb = 16;
    auto a = well_conditioned<T>(m, n, m, 7), f = a, ref = a;
    auto b = check::random_matrix<T>(m, nrhs, m, 8), x = b;
    ASSERT_EQ(lapack::gels<T>('N', m, n, nrhs, f.data(), m, x.data(), m, {.nb = nb, .qr_form = QRForm::TileTree}), 0);
    std::vector<T> tau(static_cast<size_t>(n));
    ASSERT_EQ(lapacke_geqrf<T>(m, n, ref.data(), m, tau.data()), 0);
    EXPECT_LE(check::agreement(m, n, f.data(), m, ref.data(), m, m), kBound) << "gels must leave xGEQRF's layout";
    EXPECT_LE(check::least_squares_residual(Trans::NoTrans, m, n, nrhs, a.data(), m, x.data(), m, b.data(), m), kBound);
}

TYPED_TEST(QRLapack, EmptyDimensions) {
    using T = TypeParam;
    this->allow_cpu_tasks();
    T a[6] = {T(1), T(2), T(3), T(4), T(5), T(6)}, tau[2] = {T(7), T(7)}, c[6] = {T(1), T(2), T(3), T(4), T(5), T(6)};
    EXPECT_EQ(lapack::geqrf<T>(0, 3, a, 1, tau, {.nb = 4}), 0);
    EXPECT_EQ(lapack::geqrf<T>(3, 0, a, 3, tau, {.nb = 4}), 0);
    EXPECT_EQ(tau[0], T(7));  // nothing written
    lapack::unmqr<T>('L', 'N', 0, 2, 0, a, 1, tau, c, 1, {.nb = 4});
    lapack::unmqr<T>('R', 'N', 3, 2, 0, a, 2, tau, c, 3, {.nb = 4});  // k = 0: C unchanged
    lapack::unmqr<T>('L', 'N', 3, 0, 2, a, 3, tau, c, 3, {.nb = 4});
    EXPECT_EQ(c[5], T(6));
    lapack::ungqr<T>(3, 0, 0, a, 3, tau, {.nb = 4});
    EXPECT_EQ(a[0], T(1));
    lapack::ungqr<T>(3, 2, 0, a, 3, tau, {.nb = 2});  // k = 0: the identity's first two columns
    const T eye[6] = {T(1), T(0), T(0), T(0), T(1), T(0)};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(a[i], eye[i]) << i;
}

TYPED_TEST(QRLapack, BadArgumentsNameTheArgument) {
    using T = TypeParam;
    this->expect_no_tasks();
    T a[16] = {}, tau[4] = {}, c[16] = {};
    auto message = [](auto&& f) {
        try { f(); } catch (const Error& e) { return std::string(e.what()); }
        return std::string("no error");
    };
    auto names = [&](auto&& f, const char* arg) { return message(f).find(std::string("'") + arg + "'") != std::string::npos; };
    EXPECT_TRUE(names([&] { lapack::geqrf<T>(-1, 2, a, 1, tau); }, "m"));
    EXPECT_TRUE(names([&] { lapack::geqrf<T>(2, -1, a, 2, tau); }, "n"));
    EXPECT_TRUE(names([&] { lapack::geqrf<T>(4, 2, a, 3, tau); }, "lda"));
    EXPECT_TRUE(names([&] { lapack::geqrf<T>(4, 2, a, 4, nullptr); }, "tau"));
    EXPECT_TRUE(names([&] { lapack::geqrf<T>(4, 2, a, 4, tau, {.nb = -1}); }, "nb"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('X', 'N', 4, 4, 2, a, 4, tau, c, 4); }, "side"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'X', 4, 4, 2, a, 4, tau, c, 4); }, "trans"));
    if constexpr (is_complex_v<T>)  // xUNMQR: 'N' or 'C'
        EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'T', 4, 4, 2, a, 4, tau, c, 4); }, "trans"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'N', -1, 4, 0, a, 4, tau, c, 4); }, "m"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'N', 4, -1, 2, a, 4, tau, c, 4); }, "n"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'N', 3, 4, 4, a, 3, tau, c, 3); }, "k"));  // k > m
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('R', 'N', 4, 3, 4, a, 4, tau, c, 4); }, "k"));  // k > n
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('R', 'N', 2, 4, 2, a, 3, tau, c, 2); }, "lda"));  // lda < n
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'N', 4, 4, 2, a, 4, tau, c, 3); }, "ldc"));
    EXPECT_TRUE(names([&] { lapack::unmqr<T>('L', 'N', 4, 4, 2, a, 4, nullptr, c, 4); }, "tau"));
    EXPECT_TRUE(names([&] { lapack::ungqr<T>(-1, 0, 0, a, 1, tau); }, "m"));
    EXPECT_TRUE(names([&] { lapack::ungqr<T>(3, 4, 2, a, 3, tau); }, "n"));  // n > m
    EXPECT_TRUE(names([&] { lapack::ungqr<T>(4, 2, 3, a, 4, tau); }, "k"));  // k > n
    EXPECT_TRUE(names([&] { lapack::ungqr<T>(4, 2, 2, a, 3, tau); }, "lda"));
    EXPECT_TRUE(names([&] { lapack::ungqr<T>(4, 2, 2, a, 4, nullptr); }, "tau"));
}

}  // namespace
}  // namespace tessera

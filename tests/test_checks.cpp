// The scaled residuals of examples/common/checks*.hpp and examples/solve/residuals.hpp must never
// pass a result holding NaN or Inf (issue 38: LAPACKE_xlange's NaN check returned −5, and a negative
// residual passed). For every check, in s, d, c and z: an exact result passes, and the same result
// with one entry NaN, or one entry infinite, fails check::passes. StarPU-free: the checks read
// LAPACK arrays and use CBLAS/LAPACKE only.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_qr.hpp"
#include "examples/solve/residuals.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera::check {
namespace {

TEST(Checks, PassesRefusesNanInfAndNegative) {
    EXPECT_TRUE(passes(0.0));
    EXPECT_TRUE(passes(kThreshold));
    EXPECT_FALSE(passes(kThreshold * 1.0001));
    EXPECT_FALSE(passes(-0.5));
    EXPECT_FALSE(passes(-5.0));  // LAPACKE_xlange's "NaN found" code, once a norm
    EXPECT_FALSE(passes(std::nan("")));
    EXPECT_FALSE(passes(INFINITY));
    EXPECT_FALSE(passes(-INFINITY));
}

TEST(Checks, RatioOfNormsThatCannotBeTrusted) {
    EXPECT_EQ(ratio(0, 1), 0);
    EXPECT_EQ(ratio(0, 0), 0);  // exact result of an empty or zero problem
    EXPECT_TRUE(std::isinf(ratio(1, 0)));
    EXPECT_TRUE(std::isnan(ratio(-5, 1)));
    EXPECT_TRUE(std::isnan(ratio(1, -5)));
    EXPECT_TRUE(std::isnan(ratio(std::nan(""), 1)));
    EXPECT_TRUE(std::isnan(ratio(1, std::nan(""))));
    EXPECT_TRUE(std::isnan(ratio(1, INFINITY)));  // an operand or alpha was infinite: no bound to check
    EXPECT_TRUE(std::isnan(ratio(0, INFINITY)));
    EXPECT_FALSE(passes(ratio(INFINITY, 1)));
}

template <class T>
class ChecksNan : public ::testing::Test {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ChecksNan, Precisions);

TYPED_TEST(ChecksNan, LangePropagatesNanAndInf) {
    using T = TypeParam;
    std::vector<T> a = random_matrix<T>(5, 4, 6, 1);
    for (char norm : {'1', 'I', 'F', 'M'}) {
        EXPECT_GT(lange(norm, 5, 4, a.data(), 6), 0) << norm;
        std::vector<T> b = a;
        b[7] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
        EXPECT_TRUE(std::isnan(lange(norm, 5, 4, b.data(), 6))) << norm;
        b[7] = T(std::numeric_limits<real_t<T>>::infinity());
        EXPECT_TRUE(std::isinf(lange(norm, 5, 4, b.data(), 6))) << norm;
    }
}

/// `residual(result)` passes for the exact `result`, and fails once entry `at` is NaN, then infinite.
template <class T>
void expect_nan_and_inf_fail(const char* what, std::vector<T> result, size_t at,
                             const std::function<double(const std::vector<T>&)>& residual) {
    const double exact = residual(result);
    EXPECT_TRUE(passes(exact)) << what << ": exact result, residual " << exact;
    result[at] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
    const double with_nan = residual(result);
    EXPECT_FALSE(passes(with_nan)) << what << ": a NaN in the result gave residual " << with_nan;
    result[at] = T(std::numeric_limits<real_t<T>>::infinity());
    const double with_inf = residual(result);
    EXPECT_FALSE(passes(with_inf)) << what << ": an Inf in the result gave residual " << with_inf;
}

constexpr int64_t n = 7, m = 9, k = 5;

TYPED_TEST(ChecksNan, Blas3Residuals) {
    using T = TypeParam;
    const std::vector<T> a = random_matrix<T>(m, k, m, 1), b = random_matrix<T>(k, n, k, 2), c0 = random_matrix<T>(m, n, m, 3);
    const T alpha(1.5), beta(-0.5);
    std::vector<T> c = c0;
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, alpha, a.data(), m, b.data(), k, beta, c.data(), m);
    expect_nan_and_inf_fail<T>("gemm", c, 10, [&](const std::vector<T>& r) {
        return gemm_residual<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, alpha, a.data(), m, b.data(), k, beta,
                                c0.data(), r.data(), m);
    });
    // A NaN or an infinite alpha makes every check fail, even where C looks finite.
    EXPECT_FALSE(passes(gemm_residual<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(INFINITY), a.data(), m, b.data(),
                                         k, beta, c0.data(), c.data(), m)));

    const std::vector<T> s0 = random_matrix<T>(m, m, m, 4);
    std::vector<T> s = s0;
    cpu::syrk<T>(Uplo::Lower, Trans::NoTrans, m, k, alpha, a.data(), m, beta, s.data(), m);
    expect_nan_and_inf_fail<T>("syrk", s, 1, [&](const std::vector<T>& r) {
        return syrk_residual<T>(Uplo::Lower, Trans::NoTrans, m, k, alpha, a.data(), m, beta, s0.data(), r.data(), m);
    });
    std::vector<T> h = s0;
    for (int64_t i = 0; i < m; ++i) h[size_t(i + i * m)] = std::real(h[size_t(i + i * m)]);
    const std::vector<T> h0 = h;
    cpu::herk<T>(Uplo::Upper, Trans::NoTrans, m, k, real_t<T>(1.5), a.data(), m, real_t<T>(-0.5), h.data(), m);
    expect_nan_and_inf_fail<T>("herk", h, size_t(m), [&](const std::vector<T>& r) {
        return herk_residual<T>(Uplo::Upper, Trans::NoTrans, m, k, real_t<T>(1.5), a.data(), m, real_t<T>(-0.5),
                                h0.data(), r.data(), m);
    });

    std::vector<T> tri = random_matrix<T>(m, m, m, 5);
    for (int64_t i = 0; i < m; ++i) tri[size_t(i + i * m)] += T(m);  // well conditioned
    const std::vector<T> b0 = random_matrix<T>(m, n, m, 6);
    std::vector<T> x = b0;
    cpu::trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, m, n, alpha, tri.data(), m, x.data(), m);
    expect_nan_and_inf_fail<T>("trsm", x, 3, [&](const std::vector<T>& r) {
        return trsm_residual<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, m, n, alpha, tri.data(), m,
                                b0.data(), r.data(), m);
    });
}

TYPED_TEST(ChecksNan, FactorizationResiduals) {
    using T = TypeParam;
    const std::vector<T> spd = random_spd<T>(n, n, 7);
    std::vector<T> f = spd;
    ASSERT_EQ(cpu::potrf<T>(Uplo::Lower, n, f.data(), n), 0);
    expect_nan_and_inf_fail<T>("potrf", f, 2, [&](const std::vector<T>& r) {
        return potrf_residual<T>(Uplo::Lower, n, spd.data(), n, r.data(), n);
    });

    // getrf of an upper triangular A: L = I, U = A, no interchanges (ipiv = 1..n).
    std::vector<T> u = random_matrix<T>(n, n, n, 8);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j + 1; i < n; ++i) u[size_t(i + j * n)] = T(0);
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) ipiv[size_t(i)] = i + 1;
    expect_nan_and_inf_fail<T>("getrf (U)", u, size_t(n + 1), [&](const std::vector<T>& r) {
        return getrf_residual<T>(n, n, u.data(), n, r.data(), n, ipiv.data());
    });
    expect_nan_and_inf_fail<T>("getrf (L)", u, 1, [&](const std::vector<T>& r) {
        return getrf_residual<T>(n, n, u.data(), n, r.data(), n, ipiv.data());
    });

    // geqrf of an upper trapezoidal m×n A: Q = the first n columns of I, R = A.
    std::vector<T> q(size_t(m * n), T(0));
    for (int64_t i = 0; i < n; ++i) q[size_t(i + i * m)] = T(1);
    std::vector<T> r(size_t(m * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= j; ++i) r[size_t(i + j * m)] = random_scalar<T>(9, uint64_t(i), uint64_t(j));
    expect_nan_and_inf_fail<T>("geqrf (R)", r, size_t(m), [&](const std::vector<T>& f2) {
        return qr_residual<T>(m, n, r.data(), m, q.data(), m, f2.data(), m);
    });
    expect_nan_and_inf_fail<T>("geqrf (Q)", q, 0, [&](const std::vector<T>& q2) {
        return qr_residual<T>(m, n, r.data(), m, q2.data(), m, r.data(), m);
    });
    expect_nan_and_inf_fail<T>("orthogonality", q, 0,
                               [&](const std::vector<T>& q2) { return orthogonality_residual<T>(m, n, q2.data(), m); });
    // unmqr with Q = I (m×m): C = C₀.
    std::vector<T> eye(size_t(m * m), T(0));
    for (int64_t i = 0; i < m; ++i) eye[size_t(i + i * m)] = T(1);
    const std::vector<T> c0 = random_matrix<T>(m, n, m, 10);
    expect_nan_and_inf_fail<T>("unmqr", c0, 4, [&](const std::vector<T>& c) {
        return unmqr_residual<T>(Side::Left, Trans::NoTrans, m, eye.data(), m, m, n, c0.data(), c.data(), m);
    });
}

TYPED_TEST(ChecksNan, SolveResiduals) {
    using T = TypeParam;
    // A = [I; 0] (m×n): the least-squares solution of A·X = B is B's first n rows, and B − A·X (B's
    // last rows) is orthogonal to A's columns exactly.
    std::vector<T> a(size_t(m * n), T(0));
    for (int64_t i = 0; i < n; ++i) a[size_t(i + i * m)] = T(1);
    const int64_t nrhs = 2;
    const std::vector<T> b = random_matrix<T>(m, nrhs, m, 11);
    std::vector<T> x(size_t(n * nrhs));
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) x[size_t(i + j * n)] = b[size_t(i + j * m)];
    expect_nan_and_inf_fail<T>("least squares", x, 1, [&](const std::vector<T>& r) {
        return least_squares_residual<T>(Trans::NoTrans, m, n, nrhs, a.data(), m, r.data(), n, b.data(), m);
    });
    expect_nan_and_inf_fail<T>("ls_orthogonality", x, 1, [&](const std::vector<T>& r) {
        return solve::ls_orthogonality<T>(m, n, nrhs, a.data(), m, r.data(), n, b.data(), m);
    });
    expect_nan_and_inf_fail<T>("agreement", x, 2,
                               [&](const std::vector<T>& r) { return agreement<T>(n, nrhs, r.data(), n, x.data(), n, n); });
    // A square, consistent system: B = A·X with A = I (n×n).
    std::vector<T> id(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) id[size_t(i + i * n)] = T(1);
    expect_nan_and_inf_fail<T>("solve", x, 0, [&](const std::vector<T>& r) {
        return solve_residual<T>(Trans::NoTrans, n, n, nrhs, id.data(), n, r.data(), n, x.data(), n);
    });
    expect_nan_and_inf_fail<T>("backward_error", x, 0, [&](const std::vector<T>& r) {
        return solve::backward_error<T>(n, n, nrhs, id.data(), n, r.data(), n, x.data(), n);
    });
}

}  // namespace
}  // namespace tessera::check

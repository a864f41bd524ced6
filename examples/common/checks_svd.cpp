// Checks and test matrices of the SVD on column-major arrays (checks_svd.hpp).
#include "examples/common/checks_svd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/cblas_lapacke.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {
namespace {

/// LAPACK's safe minimum of T's real type (xLAMCH 'S'): the `tiny` of the ratios' denominators.
template <class T>
double tiny() {
    return double(std::numeric_limits<real_t<T>>::min());
}

/// The larger of two ratios, NaN if either is.
double worst(double a, double b) { return std::isnan(a) || a > b ? a : b; }

/// Arrays handed to LAPACKE inside a larger allocation (kPad elements on both sides): OpenBLAS
/// 0.3.21's complex gemv_n kernels read outside their operands (OpenBLAS issue #4013; checks_eig.cpp).
constexpr int64_t kPad = 1024;
template <class T>
struct Padded {
    std::vector<T> v;
    explicit Padded(int64_t n) : v(size_t(std::max<int64_t>(n, 1) + 2 * kPad)) {}
    T* data() { return v.data() + kPad; }
};

/// LAPACKE_xgesdd_work with jobz 'N' on the m×n a (ld = m, overwritten), the k values into s.
template <class T>
int lapacke_gesdd_values(int64_t m, int64_t n, T* a, real_t<T>* s) {
    using R = real_t<T>;
    const int64_t k = std::min(m, n);
    const int im = int(m), in = int(n), il = int(std::max<int64_t>(m, 1));
    Padded<T> pa(m * n), dummy(1);
    std::copy(a, a + m * n, pa.data());
    Padded<R> ps(k), rwork(7 * k + 1);  // LRWORK ≥ 7·k for jobz 'N' (LAPACK before 3.7; 5·k since)
    Padded<lapack_int> iwork(8 * k);
    auto call = [&](T* work, lapack_int lwork) {
        if constexpr (std::is_same_v<T, float>)
            return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, 'N', im, in, pa.data(), il, ps.data(), dummy.data(), 1,
                                       dummy.data(), 1, work, lwork, iwork.data());
        else if constexpr (std::is_same_v<T, double>)
            return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'N', im, in, pa.data(), il, ps.data(), dummy.data(), 1,
                                       dummy.data(), 1, work, lwork, iwork.data());
        else if constexpr (std::is_same_v<T, std::complex<float>>)
            return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, 'N', im, in, pa.data(), il, ps.data(), dummy.data(), 1,
                                       dummy.data(), 1, work, lwork, rwork.data(), iwork.data());
        else
            return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, 'N', im, in, pa.data(), il, ps.data(), dummy.data(), 1,
                                       dummy.data(), 1, work, lwork, rwork.data(), iwork.data());
    };
    T work_size{};
    int info = call(&work_size, -1);
    if (info != 0) return info;
    Padded<T> work{int64_t(std::real(work_size))};
    info = call(work.data(), lapack_int(std::real(work_size)));
    std::copy(ps.data(), ps.data() + k, s);
    return info;
}

/// The n×n Q of the QR of a seeded random n×n matrix (LAPACKE_xgeqrf, then xorgqr / xungqr), ld n.
template <class T>
std::vector<T> random_unitary(int64_t n, uint64_t seed) {
    std::vector<T> q = random_matrix<T>(n, n, std::max<int64_t>(n, 1), seed);
    if (n == 0) return q;
    std::vector<T> tau(static_cast<size_t>(n));
    const int in = int(n);
    int info;
    if constexpr (std::is_same_v<T, float>) {
        info = LAPACKE_sgeqrf(LAPACK_COL_MAJOR, in, in, q.data(), in, tau.data());
        if (info == 0) info = LAPACKE_sorgqr(LAPACK_COL_MAJOR, in, in, in, q.data(), in, tau.data());
    } else if constexpr (std::is_same_v<T, double>) {
        info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, in, in, q.data(), in, tau.data());
        if (info == 0) info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, in, in, in, q.data(), in, tau.data());
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
        info = LAPACKE_cgeqrf(LAPACK_COL_MAJOR, in, in, q.data(), in, tau.data());
        if (info == 0) info = LAPACKE_cungqr(LAPACK_COL_MAJOR, in, in, in, q.data(), in, tau.data());
    } else {
        info = LAPACKE_zgeqrf(LAPACK_COL_MAJOR, in, in, q.data(), in, tau.data());
        if (info == 0) info = LAPACKE_zungqr(LAPACK_COL_MAJOR, in, in, in, q.data(), in, tau.data());
    }
    if (info != 0) throw Error("tessera::check::matrix_with_singular_values: LAPACK's QR returned info " + std::to_string(info));
    return q;
}

/// ‖G − diag(s)²‖₁ / (max(m, n)·max(s_0², tiny)·eps) for the k×k Gram matrix g (ld k).
template <class T>
double gram_error(int64_t m, int64_t n, int64_t k, std::vector<T>& g, const real_t<T>* s) {
    for (int64_t i = 0; i < k; ++i) g[size_t(i + i * k)] -= T(double(s[i]) * double(s[i]));
    const double s0 = k > 0 ? double(s[0]) : 0;
    return ratio(lange('1', k, k, g.data(), k) / std::max(s0 * s0, tiny<T>()), double(std::max(m, n)) * eps<T>());
}

}  // namespace

template <class T>
double svd_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u, int64_t ldu,
                    const T* vt, int64_t ldvt) {
    if (m == 0 || n == 0) return 0;
    const int64_t k = std::min(m, n);
    std::vector<T> r(size_t(m * n)), us(size_t(m * k));
    cpu::lacpy<T>(Uplo::General, m, n, a, lda, r.data(), m);
    const double norm_a = lange('1', m, n, a, lda);
    for (int64_t j = 0; j < k; ++j)
        for (int64_t i = 0; i < m; ++i) us[size_t(i + j * m)] = u[i + j * ldu] * s[j];
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), us.data(), m, vt, ldvt, T(1), r.data(), m);
    if (!std::isfinite(norm_a)) return NAN;
    return ratio(lange('1', m, n, r.data(), m) / std::max(norm_a, tiny<T>()), double(std::max(m, n)) * eps<T>());
}

template <class T>
double svd_left_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u, int64_t ldu) {
    if (m == 0 || n == 0) return 0;
    const int64_t k = std::min(m, n);
    std::vector<T> w(size_t(k * n)), r(size_t(m * n)), g(size_t(k * k));
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, k, n, m, T(1), u, ldu, a, lda, T(0), w.data(), k);  // W = U₁ᴴ·A
    cpu::lacpy<T>(Uplo::General, m, n, a, lda, r.data(), m);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), u, ldu, w.data(), k, T(1), r.data(), m);
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, k, k, n, T(1), w.data(), k, w.data(), k, T(0), g.data(), k);
    const double norm_a = lange('1', m, n, a, lda);
    if (!std::isfinite(norm_a)) return NAN;
    const double span = ratio(lange('1', m, n, r.data(), m) / std::max(norm_a, tiny<T>()), double(std::max(m, n)) * eps<T>());
    return worst(span, gram_error<T>(m, n, k, g, s));
}

template <class T>
double svd_right_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* vt,
                          int64_t ldvt) {
    if (m == 0 || n == 0) return 0;
    const int64_t k = std::min(m, n);
    std::vector<T> w(size_t(m * k)), r(size_t(m * n)), g(size_t(k * k));
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, m, k, n, T(1), a, lda, vt, ldvt, T(0), w.data(), m);  // W = A·V₁
    cpu::lacpy<T>(Uplo::General, m, n, a, lda, r.data(), m);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), w.data(), m, vt, ldvt, T(1), r.data(), m);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, k, k, m, T(1), w.data(), m, w.data(), m, T(0), g.data(), k);
    const double norm_a = lange('1', m, n, a, lda);
    if (!std::isfinite(norm_a)) return NAN;
    const double span = ratio(lange('1', m, n, r.data(), m) / std::max(norm_a, tiny<T>()), double(std::max(m, n)) * eps<T>());
    return worst(span, gram_error<T>(m, n, k, g, s));
}

template <class T>
double orthogonality_columns(int64_t rows, int64_t cols, const T* x, int64_t ldx) {
    if (cols == 0) return 0;
    std::vector<T> r(size_t(cols * cols), T(0));  // I − Xᴴ·X on the upper triangle (xHERK), mirrored
    for (int64_t i = 0; i < cols; ++i) r[size_t(i + i * cols)] = T(1);
    cpu::herk<T>(Uplo::Upper, Trans::ConjTrans, cols, rows, real_t<T>(-1), x, ldx, real_t<T>(1), r.data(), cols);
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = j + 1; i < cols; ++i) r[size_t(i + j * cols)] = conjugate(r[size_t(j + i * cols)]);
    return ratio(lange('1', cols, cols, r.data(), cols), double(std::max<int64_t>(rows, 1)) * eps<T>());
}

template <class T>
double orthogonality_rows(int64_t rows, int64_t cols, const T* y, int64_t ldy) {
    if (rows == 0) return 0;
    std::vector<T> r(size_t(rows * rows), T(0));  // I − Y·Yᴴ
    for (int64_t i = 0; i < rows; ++i) r[size_t(i + i * rows)] = T(1);
    cpu::herk<T>(Uplo::Upper, Trans::NoTrans, rows, cols, real_t<T>(-1), y, ldy, real_t<T>(1), r.data(), rows);
    for (int64_t j = 0; j < rows; ++j)
        for (int64_t i = j + 1; i < rows; ++i) r[size_t(i + j * rows)] = conjugate(r[size_t(j + i * rows)]);
    return ratio(lange('1', rows, rows, r.data(), rows), double(std::max<int64_t>(cols, 1)) * eps<T>());
}

template <class T>
std::vector<real_t<T>> ref_singular_values(int64_t m, int64_t n, const T* a, int64_t lda) {
    std::vector<real_t<T>> s(size_t(std::min(m, n)));
    if (s.empty()) return s;
    std::vector<T> copy(size_t(m * n));
    cpu::lacpy<T>(Uplo::General, m, n, a, lda, copy.data(), m);
    const int info = lapacke_gesdd_values<T>(m, n, copy.data(), s.data());
    if (info != 0)
        throw Error(std::string("tessera::check::ref_singular_values: LAPACKE_") + prec_letter<T>() +
                    "gesdd returned info " + std::to_string(info));
    return s;
}

template <class T>
double singular_value_error(int64_t m, int64_t n, const real_t<T>* s, const real_t<T>* s_ref) {
    const int64_t k = std::min(m, n);
    if (k == 0) return 0;
    double num = 0;
    bool ordered = true;
    for (int64_t i = 0; i < k; ++i) {
        const double d = std::abs(double(s[i]) - double(s_ref[i]));
        if (!(d <= num)) num = d;  // keeps a NaN
        ordered = ordered && s[i] >= 0 && (i == 0 || s[i] <= s[i - 1]);
    }
    if (std::isnan(num)) return NAN;
    if (!ordered) return INFINITY;
    return ratio(num / std::max(double(s_ref[0]), tiny<T>()), double(std::max(m, n)) * eps<T>());
}

template <class T>
double singular_value_error(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s) {
    const auto ref = ref_singular_values(m, n, a, lda);
    return singular_value_error<T>(m, n, s, ref.data());
}

template <class T>
double svd_error(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u, int64_t ldu,
                 int64_t ucols, const T* vt, int64_t ldvt, int64_t vrows) {
    double e = singular_value_error<T>(m, n, a, lda, s);
    if (u) e = worst(e, orthogonality_columns<T>(m, ucols, u, ldu));
    if (vt) e = worst(e, orthogonality_rows<T>(vrows, n, vt, ldvt));
    if (u && vt) e = worst(e, svd_residual<T>(m, n, a, lda, s, u, ldu, vt, ldvt));
    else if (u) e = worst(e, svd_left_residual<T>(m, n, a, lda, s, u, ldu));
    else if (vt) e = worst(e, svd_right_residual<T>(m, n, a, lda, s, vt, ldvt));
    return e;
}

template <class T>
std::vector<T> matrix_with_singular_values(int64_t m, int64_t n, const std::vector<real_t<T>>& sigma, uint64_t seed) {
    const int64_t k = std::min(m, n), ld = std::max<int64_t>(m, 1);
    check_arg(int64_t(sigma.size()) == k, "check::matrix_with_singular_values", "sigma.size()",
              (long long)sigma.size(), "must equal min(m, n)");
    std::vector<T> a(size_t(ld * std::max<int64_t>(n, 1)), T(0));
    if (k == 0) return a;
    std::vector<T> u = random_unitary<T>(m, seed), v = random_unitary<T>(n, seed + 1);
    for (int64_t j = 0; j < k; ++j)  // U(:, 1:k)·diag(σ)
        for (int64_t i = 0; i < m; ++i) u[size_t(i + j * m)] *= sigma[size_t(j)];
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, m, n, k, T(1), u.data(), m, v.data(), n, T(0), a.data(), ld);
    return a;
}

template <class R>
std::vector<R> geometric_singular_values(int64_t k, double cond) {
    std::vector<R> s(size_t(std::max<int64_t>(k, 0)));
    for (int64_t i = 0; i < k; ++i) s[size_t(i)] = R(k > 1 ? std::pow(cond, -double(i) / double(k - 1)) : 1.0);
    return s;
}

template <class R>
std::vector<R> clustered_singular_values(int64_t k, double cond) {
    std::vector<R> s(size_t(std::max<int64_t>(k, 0)));
    const R base = R(1.0 / cond), ulp = base * std::numeric_limits<R>::epsilon();
    for (int64_t i = 0; i < k; ++i) s[size_t(i)] = i == 0 ? R(1) : base + R(2 - (i % 5)) * ulp;
    std::sort(s.begin(), s.end(), [](R x, R y) { return x > y; });
    return s;
}

template <class R>
std::vector<R> repeated_singular_values(int64_t k) {
    std::vector<R> s(size_t(std::max<int64_t>(k, 0)));
    const int64_t half = k / 2, rest = k - half;
    for (int64_t i = 0; i < rest; ++i) s[size_t(i)] = R(1 - (2.0 / 3.0) * double(i) / double(rest));  // (1/3, 1]
    for (int64_t i = rest; i < k; ++i) s[size_t(i)] = R(1) / R(3);
    return s;
}

template <class R>
std::vector<R> rank_deficient_singular_values(int64_t k, int64_t rank) {
    std::vector<R> s(size_t(std::max<int64_t>(k, 0)), R(0));
    for (int64_t i = 0; i < std::min(k, rank); ++i) s[size_t(i)] = R(1) / R(i + 1);
    return s;
}

#define TESSERA_INSTANTIATE(T)                                                                                     \
    template double svd_residual(int64_t, int64_t, const T*, int64_t, const real_t<T>*, const T*, int64_t,        \
                                 const T*, int64_t);                                                               \
    template double svd_left_residual(int64_t, int64_t, const T*, int64_t, const real_t<T>*, const T*, int64_t);  \
    template double svd_right_residual(int64_t, int64_t, const T*, int64_t, const real_t<T>*, const T*, int64_t); \
    template double orthogonality_columns(int64_t, int64_t, const T*, int64_t);                                    \
    template double orthogonality_rows(int64_t, int64_t, const T*, int64_t);                                       \
    template std::vector<real_t<T>> ref_singular_values(int64_t, int64_t, const T*, int64_t);                      \
    template double singular_value_error<T>(int64_t, int64_t, const real_t<T>*, const real_t<T>*);                 \
    template double singular_value_error(int64_t, int64_t, const T*, int64_t, const real_t<T>*);                   \
    template double svd_error(int64_t, int64_t, const T*, int64_t, const real_t<T>*, const T*, int64_t, int64_t,   \
                              const T*, int64_t, int64_t);                                                         \
    template std::vector<T> matrix_with_singular_values<T>(int64_t, int64_t, const std::vector<real_t<T>>&, uint64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

#define TESSERA_INSTANTIATE_REAL(R)                                                 \
    template std::vector<R> geometric_singular_values<R>(int64_t, double);          \
    template std::vector<R> clustered_singular_values<R>(int64_t, double);          \
    template std::vector<R> repeated_singular_values<R>(int64_t);                   \
    template std::vector<R> rank_deficient_singular_values<R>(int64_t, int64_t);
TESSERA_INSTANTIATE_REAL(float)
TESSERA_INSTANTIATE_REAL(double)
#undef TESSERA_INSTANTIATE_REAL

}  // namespace tessera::check

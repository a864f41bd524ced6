// Checks and test matrices of the Hermitian eigensolvers (checks_eig.hpp).
#include "examples/common/checks_eig.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "examples/common/checks_norms.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/cblas_lapacke.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {
namespace {

constexpr int64_t kVectors = 4;

/// LAPACK's safe minimum of T's real type (xLAMCH 'S'): the `tiny` of the ratios' denominators.
template <class T>
double tiny() {
    return double(std::numeric_limits<real_t<T>>::min());
}

char uplo_char(Uplo uplo) {
    if (uplo != Uplo::Lower && uplo != Uplo::Upper)
        throw Error(std::string("tessera::check: argument 'uplo' = '") + char(uplo) + "' must be L or U");
    return char(uplo);
}

/// Whether (i, j) lies in the uplo triangle (the diagonal included).
bool in_triangle(Uplo uplo, int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }

/// LAPACKE_xsyevd (real) or xheevd (complex) on the n×n array a (overwritten), eigenvalues into w.
/// Every array LAPACK reads is handed over inside a larger allocation (kPad elements on both sides):
/// OpenBLAS 0.3.21's complex gemv_n kernels read outside their operands (OpenBLAS issue #4013), which
/// went unnoticed in plain builds and crashed the sanitized one (cgemv_n_SKYLAKEX under xCHETRD).
constexpr int64_t kPad = 1024;
template <class T>
struct Padded {
    std::vector<T> v;
    explicit Padded(int64_t n) : v(size_t(n + 2 * kPad)) {}
    T* data() { return v.data() + kPad; }
};
template <class T>
int lapacke_heevd(char jobz, char uplo, int64_t n, T* a, int64_t lda, real_t<T>* w) {
    using R = real_t<T>;
    const int in = int(n), il = int(std::max<int64_t>(lda, 1));
    const int64_t entries = n == 0 ? 0 : il * (n - 1) + n;  // what a holds (lda·(n−1) + n)
    Padded<T> pa(entries);
    std::copy(a, a + entries, pa.data());
    Padded<R> pw(n);
    T work_size{};
    R rwork_size{};
    lapack_int iwork_size = 0;
    auto call = [&](T* work, lapack_int lwork, R* rwork, lapack_int lrwork, lapack_int* iwork, lapack_int liwork) {
        if constexpr (std::is_same_v<T, float>)
            return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, in, pa.data(), il, pw.data(), work, lwork, iwork, liwork);
        else if constexpr (std::is_same_v<T, double>)
            return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, in, pa.data(), il, pw.data(), work, lwork, iwork, liwork);
        else if constexpr (std::is_same_v<T, std::complex<float>>)
            return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, in, pa.data(), il, pw.data(), work, lwork, rwork,
                                       lrwork, iwork, liwork);
        else
            return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, in, pa.data(), il, pw.data(), work, lwork, rwork,
                                       lrwork, iwork, liwork);
    };
    int info = call(&work_size, -1, &rwork_size, -1, &iwork_size, -1);  // workspace query
    if (info != 0) return info;
    Padded<T> work{int64_t(std::real(work_size))};
    Padded<R> rwork{int64_t(rwork_size)};
    Padded<lapack_int> iwork(iwork_size);
    info = call(work.data(), lapack_int(std::real(work_size)), rwork.data(), lapack_int(rwork_size), iwork.data(),
                iwork_size);
    std::copy(pa.data(), pa.data() + entries, a);
    std::copy(pw.data(), pw.data() + n, w);
    return info;
}

/// The n×n Q of the QR of a (overwritten by Q), LAPACKE_xgeqrf then xorgqr / xungqr.
template <class T>
int lapacke_qr_q(int64_t n, T* a, int64_t lda) {
    std::vector<T> tau(size_t(std::max<int64_t>(n, 1)));
    const int in = int(n), il = int(lda);
    int info = 0;
    if constexpr (std::is_same_v<T, float>) {
        info = LAPACKE_sgeqrf(LAPACK_COL_MAJOR, in, in, a, il, tau.data());
        if (info == 0) info = LAPACKE_sorgqr(LAPACK_COL_MAJOR, in, in, in, a, il, tau.data());
    } else if constexpr (std::is_same_v<T, double>) {
        info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, in, in, a, il, tau.data());
        if (info == 0) info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, in, in, in, a, il, tau.data());
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
        info = LAPACKE_cgeqrf(LAPACK_COL_MAJOR, in, in, a, il, tau.data());
        if (info == 0) info = LAPACKE_cungqr(LAPACK_COL_MAJOR, in, in, in, a, il, tau.data());
    } else {
        info = LAPACKE_zgeqrf(LAPACK_COL_MAJOR, in, in, a, il, tau.data());
        if (info == 0) info = LAPACKE_zungqr(LAPACK_COL_MAJOR, in, in, in, a, il, tau.data());
    }
    return info;
}

/// ‖M‖∞ of the rows×kVectors array m (leading dimension rows), in double; NaN kept.
template <class T>
double inf_norm(const std::vector<T>& m, int64_t rows) {
    double best = 0;
    for (int64_t i = 0; i < rows; ++i) {
        double s = 0;
        for (int64_t c = 0; c < kVectors; ++c) s += std::abs(m[size_t(i + c * rows)]);
        if (!(s <= best)) best = s;
    }
    return best;
}

}  // namespace

template <class T>
std::vector<T> hermitian_from_triangle(Uplo uplo, int64_t n, const T* a, int64_t lda) {
    uplo_char(uplo);
    const int64_t ld = std::max<int64_t>(n, 1);
    std::vector<T> full(size_t(ld * std::max<int64_t>(n, 1)), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            if (i == j) full[size_t(i + j * ld)] = T(std::real(a[i + j * lda]));
            else if (in_triangle(uplo, i, j)) full[size_t(i + j * ld)] = a[i + j * lda];
            else full[size_t(i + j * ld)] = conjugate(a[j + i * lda]);
        }
    return full;
}

template <class T>
double eig_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* z, int64_t ldz, const real_t<T>* w) {
    if (n == 0) return 0;
    std::vector<T> r = hermitian_from_triangle(uplo, n, a, lda);
    const double norm_a = lange('1', n, n, r.data(), n);
    // zw = Z·diag(w), then r = A − zw·Zᴴ.
    std::vector<T> zw(size_t(n * n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) zw[size_t(i + j * n)] = z[i + j * ldz] * w[j];
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, n, n, n, T(-1), zw.data(), n, z, ldz, T(1), r.data(), n);
    const double num = lange('1', n, n, r.data(), n);
    if (!std::isfinite(norm_a)) return NAN;
    // / (n·max(‖A‖, tiny)·eps) as num / max(‖A‖, tiny) / (n·eps): no underflow for a tiny A.
    return ratio(num / std::max(norm_a, tiny<T>()), double(n) * eps<T>());
}

template <class T>
double orthogonality(int64_t n, const T* z, int64_t ldz) {
    if (n == 0) return 0;
    // r = I − Zᴴ·Z on the upper triangle (xHERK), mirrored for xLANGE.
    std::vector<T> r(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) r[size_t(i + i * n)] = T(1);
    cpu::herk<T>(Uplo::Upper, Trans::ConjTrans, n, n, real_t<T>(-1), z, ldz, real_t<T>(1), r.data(), n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j + 1; i < n; ++i) r[size_t(i + j * n)] = conjugate(r[size_t(j + i * n)]);
    return ratio(lange('1', n, n, r.data(), n), double(n) * eps<T>());
}

template <class T>
std::vector<real_t<T>> ref_eigenvalues(Uplo uplo, int64_t n, const T* a, int64_t lda) {
    const char u = uplo_char(uplo);
    std::vector<real_t<T>> w(static_cast<size_t>(n));
    if (n == 0) return w;
    std::vector<T> copy(size_t(n * n));
    for (int64_t j = 0; j < n; ++j) std::copy(a + j * lda, a + j * lda + n, copy.begin() + j * n);
    const int info = lapacke_heevd<T>('N', u, n, copy.data(), n, w.data());
    if (info != 0)
        throw Error(std::string("tessera::check::ref_eigenvalues: LAPACKE_") + prec_letter<T>() +
                    (is_complex_v<T> ? "heevd" : "syevd") + " returned info " + std::to_string(info));
    return w;
}

template <class T>
double eigenvalue_error(int64_t n, double norm_a, const real_t<T>* w, const real_t<T>* w_ref) {
    if (n == 0) return 0;
    double num = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double d = std::abs(double(w[i]) - double(w_ref[i]));
        if (!(d <= num)) num = d;  // keeps a NaN
    }
    if (!std::isfinite(norm_a) || !(norm_a >= 0)) return NAN;
    return ratio(num / std::max(norm_a, tiny<T>()), double(n) * eps<T>());
}

template <class T>
double eigenvalue_error(Uplo uplo, int64_t n, const T* a, int64_t lda, const real_t<T>* w) {
    if (n == 0) return 0;
    const auto w_ref = ref_eigenvalues(uplo, n, a, lda);
    const double norm_a = double(ref_lanhe<T>('1', uplo_char(uplo), n, a, lda));
    return eigenvalue_error<T>(n, norm_a, w, w_ref.data());
}

template <class T>
HeevdCheckRandom<T>::HeevdCheckRandom(Uplo uplo, const TileMatrix<T>& A) : n_(A.n()), norm_a_(0), trace_(0) {
    uplo_char(uplo);
    if (A.m() != A.n())
        throw Error("tessera::check::HeevdCheckRandom: argument 'A' is " + std::to_string(A.m()) + "x" +
                    std::to_string(A.n()) + ", must be square");
    A.acquire_host();
    const int64_t n = n_, ld = std::max<int64_t>(n, 1), nb = A.nb();
    x_ = random_matrix<T>(n, kVectors, ld, 7);
    for (T& v : x_) v += T(1);  // [0.5, 1.5): no cancellation in ‖X‖
    ax_.assign(size_t(ld * kVectors), T(0));
    std::vector<double> colsum(size_t(n), 0.0);
    std::vector<T> full;
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            if (!in_triangle(uplo, i, j)) continue;
            const T* t = A.tile_data(i, j);
            if (!t) throw Error("tessera::check::HeevdCheckRandom: A's tiles must all be local (one process)");
            const int64_t r = A.tile_rows(i), c = A.tile_cols(j), tld = A.tile_ld(i);
            if (i == j) {  // the diagonal tile: the Hermitian block of its uplo triangle
                full = hermitian_from_triangle(uplo, r, t, tld);
                for (int64_t q = 0; q < c; ++q) {
                    trace_ += double(std::real(t[q + q * tld]));
                    for (int64_t p = 0; p < r; ++p) colsum[size_t(j * nb + q)] += std::abs(full[size_t(p + q * r)]);
                }
                cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, r, kVectors, c, T(1), full.data(), r, x_.data() + j * nb, ld,
                             T(1), ax_.data() + i * nb, ld);
                continue;
            }
            // An off-diagonal tile A_ij counts twice: A_ij·x_j in rows i, A_ijᴴ·x_i in rows j.
            for (int64_t q = 0; q < c; ++q)
                for (int64_t p = 0; p < r; ++p) {
                    const double v = std::abs(t[p + q * tld]);
                    colsum[size_t(j * nb + q)] += v;
                    colsum[size_t(i * nb + p)] += v;
                }
            cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, r, kVectors, c, T(1), t, tld, x_.data() + j * nb, ld, T(1),
                         ax_.data() + i * nb, ld);
            cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, c, kVectors, r, T(1), t, tld, x_.data() + i * nb, ld, T(1),
                         ax_.data() + j * nb, ld);
        }
    for (double s : colsum)
        if (!(s <= norm_a_)) norm_a_ = s;  // keeps a NaN
}

template <class T>
double HeevdCheckRandom<T>::residual(const TileMatrix<T>& Z, const std::vector<real_t<T>>& w) const {
    const int64_t n = n_, ld = std::max<int64_t>(n, 1);
    if (Z.m() != n || Z.n() != n || int64_t(w.size()) != n)
        throw Error("tessera::check::HeevdCheckRandom::residual: Z is " + std::to_string(Z.m()) + "x" +
                    std::to_string(Z.n()) + " and w has " + std::to_string(w.size()) + " entries, must be " +
                    std::to_string(n) + "x" + std::to_string(n) + " and " + std::to_string(n));
    if (n == 0) return 0;
    Z.acquire_host();
    const int64_t nb = Z.nb();
    // y = Zᴴ·X, then Λ·y, then v = Z·y.
    std::vector<T> y(size_t(ld * kVectors), T(0)), v(size_t(ld * kVectors), T(0));
    for (int64_t j = 0; j < Z.nt(); ++j)
        for (int64_t i = 0; i < Z.mt(); ++i) {
            const T* t = Z.tile_data(i, j);
            if (!t) throw Error("tessera::check::HeevdCheckRandom::residual: Z's tiles must all be local (one process)");
            cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, Z.tile_cols(j), kVectors, Z.tile_rows(i), T(1), t,
                         Z.tile_ld(i), x_.data() + i * nb, ld, T(1), y.data() + j * nb, ld);
        }
    for (int64_t c = 0; c < kVectors; ++c)
        for (int64_t i = 0; i < n; ++i) y[size_t(i + c * ld)] *= w[size_t(i)];
    for (int64_t j = 0; j < Z.nt(); ++j)
        for (int64_t i = 0; i < Z.mt(); ++i)
            cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, Z.tile_rows(i), kVectors, Z.tile_cols(j), T(1), Z.tile_data(i, j),
                         Z.tile_ld(i), y.data() + j * nb, ld, T(1), v.data() + i * nb, ld);
    for (size_t i = 0; i < v.size(); ++i) v[i] = ax_[i] - v[i];
    if (!std::isfinite(norm_a_)) return NAN;
    const double num = inf_norm(v, ld) / std::max(norm_a_, tiny<T>());
    return ratio(num, inf_norm(x_, ld) * double(n) * eps<T>());
}

template <class T>
double HeevdCheckRandom<T>::trace_error(const std::vector<real_t<T>>& w) const {
    if (int64_t(w.size()) != n_)
        throw Error("tessera::check::HeevdCheckRandom::trace_error: w has " + std::to_string(w.size()) +
                    " entries, must have " + std::to_string(n_));
    if (n_ == 0) return 0;
    long double sum = 0;
    for (real_t<T> v : w) sum += (long double)v;
    if (!std::isfinite(norm_a_)) return NAN;
    const double num = std::abs(double(sum - (long double)trace_)) / std::max(norm_a_, tiny<T>());
    return ratio(num, double(n_) * eps<T>());
}

template <class T>
std::vector<T> hermitian_with_spectrum(int64_t n, const std::vector<real_t<T>>& lambda, uint64_t seed) {
    check_arg(int64_t(lambda.size()) == n, "check::hermitian_with_spectrum", "lambda.size()", (long long)lambda.size(),
              "must equal n");
    const int64_t ld = std::max<int64_t>(n, 1);
    std::vector<T> a(size_t(ld * ld), T(0));
    if (n == 0) return a;
    std::vector<T> q = random_matrix<T>(n, n, ld, seed);
    const int info = lapacke_qr_q<T>(n, q.data(), ld);
    if (info != 0)
        throw Error("tessera::check::hermitian_with_spectrum: LAPACK's QR returned info " + std::to_string(info));
    std::vector<T> ql(q);  // Q·diag(λ)
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) ql[size_t(i + j * ld)] *= lambda[size_t(j)];
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, n, n, n, T(1), ql.data(), ld, q.data(), ld, T(0), a.data(), ld);
    for (int64_t j = 0; j < n; ++j) {  // exactly Hermitian: the lower triangle mirrored, the diagonal real
        a[size_t(j + j * ld)] = T(std::real(a[size_t(j + j * ld)]));
        for (int64_t i = j + 1; i < n; ++i) a[size_t(j + i * ld)] = conjugate(a[size_t(i + j * ld)]);
    }
    return a;
}

template <class R>
std::vector<R> geometric_spectrum(int64_t n, double cond, bool alternate_signs) {
    std::vector<R> s(size_t(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i) {
        const double v = n > 1 ? std::pow(cond, -double(i) / double(n - 1)) : 1.0;
        s[size_t(i)] = R(alternate_signs && i % 2 == 1 ? -v : v);
    }
    return s;
}

template <class R>
std::vector<R> clustered_spectrum(int64_t n, double cond) {
    std::vector<R> s(size_t(std::max<int64_t>(n, 0)));
    const R base = R(1.0 / cond), ulp = base * std::numeric_limits<R>::epsilon();
    for (int64_t i = 0; i < n; ++i) s[size_t(i)] = i == 0 ? R(1) : base + R((i % 5) - 2) * ulp;
    return s;
}

template <class R>
std::vector<R> repeated_spectrum(int64_t n) {
    std::vector<R> s(size_t(std::max<int64_t>(n, 0)));
    const int64_t half = n / 2, rest = n - half;
    for (int64_t i = 0; i < half; ++i) s[size_t(i)] = R(1) / R(3);
    for (int64_t k = 0; k < rest; ++k) s[size_t(half + k)] = R(-1 + double(k) / double(rest));  // [−1, 0)
    return s;
}

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template std::vector<T> hermitian_from_triangle(Uplo, int64_t, const T*, int64_t);                            \
    template double eig_residual(Uplo, int64_t, const T*, int64_t, const T*, int64_t, const real_t<T>*);          \
    template double orthogonality(int64_t, const T*, int64_t);                                                    \
    template std::vector<real_t<T>> ref_eigenvalues(Uplo, int64_t, const T*, int64_t);                            \
    template double eigenvalue_error<T>(int64_t, double, const real_t<T>*, const real_t<T>*);                     \
    template double eigenvalue_error(Uplo, int64_t, const T*, int64_t, const real_t<T>*);                         \
    template class HeevdCheckRandom<T>;                                                                           \
    template std::vector<T> hermitian_with_spectrum<T>(int64_t, const std::vector<real_t<T>>&, uint64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

#define TESSERA_INSTANTIATE_REAL(R)                                               \
    template std::vector<R> geometric_spectrum<R>(int64_t, double, bool);         \
    template std::vector<R> clustered_spectrum<R>(int64_t, double);               \
    template std::vector<R> repeated_spectrum<R>(int64_t);
TESSERA_INSTANTIATE_REAL(float)
TESSERA_INSTANTIATE_REAL(double)
#undef TESSERA_INSTANTIATE_REAL

}  // namespace tessera::check

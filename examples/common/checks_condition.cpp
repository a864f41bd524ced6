// LAPACKE references of the condition number estimates and their acceptance (checks_condition.hpp).
#include "examples/common/checks_condition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_norms.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/cblas_lapacke.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {

namespace {
constexpr int kCol = LAPACK_COL_MAJOR;

// Workspaces of the xxxCON routines: `work` of w·n entries of T, iwork (real) or rwork (complex) of
// r·n entries (xGECON: 4n and n real, 2n and 2n complex; xPOCON, xTRCON: 3n and n, 2n and n).
template <class T>
struct ConWork {
    std::vector<T> work;
    std::vector<lapack_int> iwork;
    std::vector<real_t<T>> rwork;
    ConWork(int64_t n, int wr, int wc, int rc) {
        const auto m = size_t(std::max<int64_t>(n, 1));
        work.resize(m * size_t(is_complex_v<T> ? wc : wr));
        iwork.resize(m);
        rwork.resize(m * size_t(rc));
    }
};

template <class R>
R from_inverse_norm(R anorm, R ainvnm) {
    return ainvnm > 0 && std::isfinite(double(ainvnm)) ? (R(1) / ainvnm) / anorm : R(0);
}
}  // namespace

template <class T>
real_t<T> ref_gecon(char norm, int64_t n, const T* lu, int64_t ld, real_t<T> anorm) {
    ConWork<T> w(n, 4, 2, 2);
    real_t<T> rc = 0;
    const int in = int(n), il = int(ld);
    if constexpr (std::is_same_v<T, float>) LAPACKE_sgecon_work(kCol, norm, in, lu, il, anorm, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dgecon_work(kCol, norm, in, lu, il, anorm, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_cgecon_work(kCol, norm, in, lu, il, anorm, &rc, w.work.data(), w.rwork.data());
    else LAPACKE_zgecon_work(kCol, norm, in, lu, il, anorm, &rc, w.work.data(), w.rwork.data());
    return rc;
}

template <class T>
real_t<T> ref_pocon(char uplo, int64_t n, const T* f, int64_t ld, real_t<T> anorm) {
    ConWork<T> w(n, 3, 2, 1);
    real_t<T> rc = 0;
    const int in = int(n), il = int(ld);
    if constexpr (std::is_same_v<T, float>) LAPACKE_spocon_work(kCol, uplo, in, f, il, anorm, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dpocon_work(kCol, uplo, in, f, il, anorm, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_cpocon_work(kCol, uplo, in, f, il, anorm, &rc, w.work.data(), w.rwork.data());
    else LAPACKE_zpocon_work(kCol, uplo, in, f, il, anorm, &rc, w.work.data(), w.rwork.data());
    return rc;
}

template <class T>
real_t<T> ref_trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t ld) {
    ConWork<T> w(n, 3, 2, 1);
    real_t<T> rc = 0;
    const int in = int(n), il = int(ld);
    if constexpr (std::is_same_v<T, float>) LAPACKE_strcon_work(kCol, norm, uplo, diag, in, a, il, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dtrcon_work(kCol, norm, uplo, diag, in, a, il, &rc, w.work.data(), w.iwork.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_ctrcon_work(kCol, norm, uplo, diag, in, a, il, &rc, w.work.data(), w.rwork.data());
    else LAPACKE_ztrcon_work(kCol, norm, uplo, diag, in, a, il, &rc, w.work.data(), w.rwork.data());
    return rc;
}

template <class T>
real_t<T> exact_gecon(char norm, int64_t n, const T* lu, int64_t ld, const int64_t* ipiv, real_t<T> anorm) {
    if (n == 0) return 1;
    std::vector<T> inv(size_t(n * n));
    cpu::lacpy(Uplo::General, n, n, lu, ld, inv.data(), n);
    std::vector<lapack_int> piv(ipiv, ipiv + n);
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_sgetri(kCol, int(n), inv.data(), int(n), piv.data());
    else if constexpr (std::is_same_v<T, double>) info = LAPACKE_dgetri(kCol, int(n), inv.data(), int(n), piv.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>) info = LAPACKE_cgetri(kCol, int(n), inv.data(), int(n), piv.data());
    else info = LAPACKE_zgetri(kCol, int(n), inv.data(), int(n), piv.data());
    if (info > 0) return 0;
    return from_inverse_norm(anorm, ref_lange<T>(norm, n, n, inv.data(), n));
}

template <class T>
real_t<T> exact_pocon(char uplo, int64_t n, const T* f, int64_t ld, real_t<T> anorm) {
    if (n == 0) return 1;
    std::vector<T> inv(size_t(n * n));
    cpu::lacpy(Uplo::General, n, n, f, ld, inv.data(), n);
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_spotri(kCol, uplo, int(n), inv.data(), int(n));
    else if constexpr (std::is_same_v<T, double>) info = LAPACKE_dpotri(kCol, uplo, int(n), inv.data(), int(n));
    else if constexpr (std::is_same_v<T, std::complex<float>>) info = LAPACKE_cpotri(kCol, uplo, int(n), inv.data(), int(n));
    else info = LAPACKE_zpotri(kCol, uplo, int(n), inv.data(), int(n));
    if (info > 0) return 0;
    return from_inverse_norm(anorm, ref_lanhe<T>('1', uplo, n, inv.data(), n));
}

template <class T>
real_t<T> exact_trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t ld) {
    if (n == 0) return 1;
    const real_t<T> anorm = ref_lantr<T>(norm, uplo, diag, n, n, a, ld);
    if (!(anorm > 0)) return 0;
    std::vector<T> inv(size_t(n * n));
    const Uplo u = uplo == 'L' || uplo == 'l' ? Uplo::Lower : Uplo::Upper;
    const Diag d = diag == 'U' || diag == 'u' ? Diag::Unit : Diag::NonUnit;
    if (cpu::trtri(u, d, n, a, ld, inv.data(), n) > 0) return 0;
    return from_inverse_norm(anorm, ref_lantr<T>(norm, uplo, diag, n, n, inv.data(), n));
}

template <class T>
double rcond_error(int64_t n, real_t<T> est, real_t<T> ref, real_t<T> exact) {
    const double e = double(est), r = double(ref), x = double(exact);
    if (std::isnan(e) || e < 0) return std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // The larger of a/b and b/a: 1 for two zeros, ∞ for one zero.
    auto factor = [inf](double a, double b) { return a == b ? 1.0 : a == 0 || b == 0 ? inf : std::max(a / b, b / a); };
    double worst = factor(e, r);
    if (x >= 0) {
        const double eps = double(std::numeric_limits<real_t<T>>::epsilon()) / 2;
        const double tol = x > 0 ? std::min(0.5, 10.0 * double(std::max<int64_t>(n, 1)) * eps / x) : 0.0;
        if (e < x * (1 - tol)) return inf;  // below the lower bound (or nonzero where exact is 0: est/0)
        worst = std::max(worst, x == 0 ? (e == 0 ? 1.0 : inf) : e / x);
    }
    return 6.0 * worst;
}

#define TESSERA_INSTANTIATE(T)                                                                          \
    template real_t<T> ref_gecon<T>(char, int64_t, const T*, int64_t, real_t<T>);                      \
    template real_t<T> ref_pocon<T>(char, int64_t, const T*, int64_t, real_t<T>);                      \
    template real_t<T> ref_trcon<T>(char, char, char, int64_t, const T*, int64_t);                     \
    template real_t<T> exact_gecon<T>(char, int64_t, const T*, int64_t, const int64_t*, real_t<T>);    \
    template real_t<T> exact_pocon<T>(char, int64_t, const T*, int64_t, real_t<T>);                    \
    template real_t<T> exact_trcon<T>(char, char, char, int64_t, const T*, int64_t);                   \
    template double rcond_error<T>(int64_t, real_t<T>, real_t<T>, real_t<T>);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check

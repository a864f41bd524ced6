// Condition number estimates (LAPACK xGECON, xPOCON, xTRCON): Higham's 1-norm estimator (xLACN2,
// reverse communication, on the host) driving triangular solves with the tile factors, one
// synchronous product A⁻¹·x or A⁻ᴴ·x per step on an n×1 view of the estimator's vector
// (tessera/condition.hpp).
#include "tessera/condition.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/common.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"
#include "tessera/blas3.hpp"
#include "tessera/cholesky.hpp"
#include "tessera/norms.hpp"

namespace tessera {

namespace {

/// ᴴ for complex T, ᵀ for real T (the op xLACN2's kase = 2 asks for).
template <class T>
constexpr Trans conj_trans() {
    return is_complex_v<T> ? Trans::ConjTrans : Trans::Trans;
}

/// An estimate of ‖B‖₁ for the n×n operator B given by `apply(kase, X, seq)`, which submits
/// X := B·X (kase 1) or X := Bᴴ·X (kase 2) into seq for the n×1 X (xLACN2's loop, as xGECON runs
/// it). Each product is waited for and its vector brought to the host (a view of the estimator's
/// own vector). A product that is not finite everywhere (plain trsm overflowed where xLATRS would
/// have scaled, or met an exactly zero pivot) ends the estimate as +∞.
template <class T, class Apply>
real_t<T> estimate_norm1(int64_t n, int64_t nb, Apply apply) {
    using R = real_t<T>;
    const auto len = static_cast<size_t>(n);
    std::vector<T> x(len), v(len);
    std::vector<int> isgn(len);
    int isave[3] = {0, 0, 0}, kase = 0;
    R est = 0;
    for (;;) {
        cpu::lacn2<T>(n, v.data(), x.data(), isgn.data(), est, kase, isave);
        if (kase == 0) return est;
        {
            TileMatrix<T> X = TileMatrix<T>::view(x.data(), n, 1, n, nb);
            Sequence seq;
            apply(kase, X, seq);
            seq.wait();
            X.acquire_host();
        }
        for (const T& e : x)
            if (!std::isfinite(std::real(e)) || !std::isfinite(std::imag(e))) return std::numeric_limits<R>::infinity();
    }
}

void check_norm(const char* func, Norm norm) {
    check_char_arg(norm == Norm::One || norm == Norm::Inf, func, "norm", char(norm), "must be One or Inf ('O', '1', 'I')");
}

template <class T>
void check_square(const char* func, const TileMatrix<T>& A) {
    check_arg(A.m() == A.n(), func, "A", A.m(), "rows must equal columns");
    detail::require_one_process(func);
}

template <class R>
void check_anorm(const char* func, R anorm) {
    // Not `anorm >= 0`: a NaN passes here and propagates to rcond (xGECON since Reference-LAPACK PR 765).
    if (anorm < 0)
        throw Error(std::string("tessera::") + func + ": argument 'anorm' = " + std::to_string(double(anorm)) +
                    " must be >= 0");
}

/// LAPACK's quick returns shared by gecon and pocon: true (with rcond set) for n = 0 (1), anorm = 0
/// (0) and a NaN anorm (NaN).
template <class R>
bool quick_rcond(int64_t n, R anorm, R& rcond) {
    if (n == 0) rcond = 1;
    else if (anorm == 0) rcond = 0;
    else if (std::isnan(anorm)) rcond = anorm;
    else return false;
    return true;
}

/// (1/ainvnm)/anorm as xGECON and xPOCON form it: 0 when the estimate is 0 (LAPACK leaves rcond 0)
/// or infinite, and never NaN for anorm > 0.
template <class R>
R rcond_from(R anorm, R ainvnm) {
    if (ainvnm == 0 || !std::isfinite(ainvnm)) return 0;
    return (R(1) / ainvnm) / anorm;
}

}  // namespace

template <class T>
real_t<T> gecon(Norm norm, const TileMatrix<T>& A, real_t<T> anorm) {
    using R = real_t<T>;
    check_norm("gecon", norm);
    check_square("gecon", A);
    check_anorm("gecon", anorm);
    R rcond;
    if (quick_rcond(A.n(), anorm, rcond)) return rcond;
    // ‖A⁻¹‖₁ = ‖A⁻ᴴ‖∞: for Inf the estimator's two products swap (xGECON's KASE1).
    const int kase1 = norm == Norm::One ? 1 : 2;
    const R ainvnm = estimate_norm1<T>(A.n(), A.nb(), [&](int kase, TileMatrix<T>& X, Sequence& seq) {
        const Side L = Side::Left;
        if (kase == kase1) {  // A⁻¹·x = U⁻¹·L⁻¹·x (P left out: it does not change the norms)
            trsm_async(L, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A, X, seq);
            trsm_async(L, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A, X, seq);
        } else {  // A⁻ᴴ·x = L⁻ᴴ·U⁻ᴴ·x
            trsm_async(L, Uplo::Upper, conj_trans<T>(), Diag::NonUnit, T(1), A, X, seq);
            trsm_async(L, Uplo::Lower, conj_trans<T>(), Diag::Unit, T(1), A, X, seq);
        }
    });
    return rcond_from(anorm, ainvnm);
}

template <class T>
real_t<T> pocon(Uplo uplo, const TileMatrix<T>& A, real_t<T> anorm) {
    using R = real_t<T>;
    check_char_arg(uplo == Uplo::Lower || uplo == Uplo::Upper, "pocon", "uplo", char(uplo), "must be Lower or Upper");
    check_square("pocon", A);
    check_anorm("pocon", anorm);
    R rcond;
    if (quick_rcond(A.n(), anorm, rcond)) return rcond;
    // A⁻¹ is Hermitian: both of the estimator's products are A⁻¹·x, the two triangular solves of potrs.
    const R ainvnm = estimate_norm1<T>(A.n(), A.nb(), [&](int, TileMatrix<T>& X, Sequence& seq) {
        potrs_async(uplo, A, X, seq);
    });
    return rcond_from(anorm, ainvnm);
}

template <class T>
real_t<T> trcon(Norm norm, Uplo uplo, Diag diag, const TileMatrix<T>& A) {
    using R = real_t<T>;
    check_norm("trcon", norm);
    check_char_arg(uplo == Uplo::Lower || uplo == Uplo::Upper, "trcon", "uplo", char(uplo), "must be Lower or Upper");
    check_char_arg(diag == Diag::Unit || diag == Diag::NonUnit, "trcon", "diag", char(diag), "must be Unit or NonUnit");
    check_square("trcon", A);
    if (A.n() == 0) return 1;
    const R anorm = lantr(norm, uplo, diag, A);
    if (!(anorm > 0)) return 0;  // xTRCON: rcond stays 0 unless ‖A‖ > 0 (a NaN ‖A‖ included)
    const int kase1 = norm == Norm::One ? 1 : 2;
    const R ainvnm = estimate_norm1<T>(A.n(), A.nb(), [&](int kase, TileMatrix<T>& X, Sequence& seq) {
        trsm_async(Side::Left, uplo, kase == kase1 ? Trans::NoTrans : conj_trans<T>(), diag, T(1), A, X, seq);
    });
    if (ainvnm == 0 || !std::isfinite(ainvnm)) return 0;
    return (R(1) / anorm) / ainvnm;  // xTRCON's order of the divisions
}

namespace lapack {

namespace {

Norm parse_norm(char norm, const char* func) {
    const bool ok = norm == 'O' || norm == 'o' || norm == '1' || norm == 'I' || norm == 'i';
    check_char_arg(ok, func, "norm", norm, "must be O, 1 or I");
    return norm == 'I' || norm == 'i' ? Norm::Inf : Norm::One;
}

// The checks the three forms share after their characters (LAPACK's order: n, lda, then anorm by the
// caller); rcond must not be null. Returns the resolved options.
template <class T>
Options prepare(const char* func, const char* family, int64_t n, const T* a, int64_t lda, const void* rcond,
                const Options& opts) {
    check_dim(func, "n", n);
    check_arg(lda >= std::max<int64_t>(1, n), func, "lda", lda, "must be >= max(1, n)");
    check_arg(rcond != nullptr, func, "rcond", 0, "must not be null");
    check_arg(a != nullptr || n == 0, func, "a", 0, "must not be null");
    const Options o = detail::with_tuned_nb<T>(opts, family, func, n);
    detail::require_one_process(func);
    return o;
}

// gecon and pocon: the LAPACK-layout checks, the quick returns (NaN anorm: info = −5), then `tile_form`.
template <class T, class F>
int64_t factor_lapack(const char* func, const char* family, int64_t n, const T* a, int64_t lda, real_t<T> anorm,
                      real_t<T>* rcond, const Options& opts, F tile_form) {
    const Options o = prepare(func, family, n, a, lda, rcond, opts);
    check_anorm(func, anorm);
    if (quick_rcond(n, anorm, *rcond)) return std::isnan(anorm) ? -5 : 0;
    auto A = detail::lapack_tiles(a, lda, n, n, o, func, "lda");
    *rcond = tile_form(A);
    return 0;
}

}  // namespace

template <class T>
int64_t gecon(char norm, int64_t n, const T* a, int64_t lda, real_t<T> anorm, real_t<T>* rcond, const Options& opts) {
    const Norm nm = parse_norm(norm, "lapack::gecon");
    return factor_lapack("lapack::gecon", "getrf", n, a, lda, anorm, rcond, opts,
                         [&](const TileMatrix<T>& A) { return tessera::gecon(nm, A, anorm); });
}

template <class T>
int64_t pocon(char uplo, int64_t n, const T* a, int64_t lda, real_t<T> anorm, real_t<T>* rcond, const Options& opts) {
    const bool ok = uplo == 'L' || uplo == 'l' || uplo == 'U' || uplo == 'u';
    check_char_arg(ok, "lapack::pocon", "uplo", uplo, "must be L or U");
    const Uplo u = uplo_from_char(uplo);
    return factor_lapack("lapack::pocon", "potrf", n, a, lda, anorm, rcond, opts,
                         [&](const TileMatrix<T>& A) { return tessera::pocon(u, A, anorm); });
}

template <class T>
int64_t trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t lda, real_t<T>* rcond,
              const Options& opts) {
    const char* f = "lapack::trcon";
    const Norm nm = parse_norm(norm, f);
    check_char_arg(uplo == 'L' || uplo == 'l' || uplo == 'U' || uplo == 'u', f, "uplo", uplo, "must be L or U");
    const Uplo u = uplo_from_char(uplo);
    const Diag d = diag_from_char(diag);
    const Options o = prepare(f, "gemm", n, a, lda, rcond, opts);
    if (n == 0) {
        *rcond = 1;
        return 0;
    }
    auto A = detail::lapack_tiles(a, lda, n, n, o, f, "lda");
    *rcond = tessera::trcon(nm, u, d, A);
    return 0;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template real_t<T> gecon<T>(Norm, const TileMatrix<T>&, real_t<T>);                                          \
    template real_t<T> pocon<T>(Uplo, const TileMatrix<T>&, real_t<T>);                                          \
    template real_t<T> trcon<T>(Norm, Uplo, Diag, const TileMatrix<T>&);                                         \
    template int64_t lapack::gecon<T>(char, int64_t, const T*, int64_t, real_t<T>, real_t<T>*, const Options&);  \
    template int64_t lapack::pocon<T>(char, int64_t, const T*, int64_t, real_t<T>, real_t<T>*, const Options&);  \
    template int64_t lapack::trcon<T>(char, char, char, int64_t, const T*, int64_t, real_t<T>*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

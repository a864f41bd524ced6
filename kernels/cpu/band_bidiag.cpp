// gb2bd: upper band → real upper bidiagonal by bulge chasing with Householder reflectors, keeping
// them (band_bidiag.hpp). xLARFG makes each reflector, xLARF applies it to the working band, whose
// rectangular pieces are column-major matrices of leading dimension ldw − 1.
#include "kernels/cpu/band_bidiag.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <memory>
#include <complex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cpu/cblas_lapacke.hpp"
#include "runtime/precisions.hpp"

extern "C" {
void slarf_(const char*, const int*, const int*, const float*, const int*, const float*, float*, const int*, float*,
            size_t);
void dlarf_(const char*, const int*, const int*, const double*, const int*, const double*, double*, const int*,
            double*, size_t);
void clarf_(const char*, const int*, const int*, const std::complex<float>*, const int*, const std::complex<float>*,
            std::complex<float>*, const int*, std::complex<float>*, size_t);
void zlarf_(const char*, const int*, const int*, const std::complex<double>*, const int*, const std::complex<double>*,
            std::complex<double>*, const int*, std::complex<double>*, size_t);
}

namespace tessera::cpu {
namespace {

// xLARFG on (alpha, x(0 … len−2) with stride incx): alpha becomes β, x becomes v(1 …); returns τ.
template <class T>
T larfg(int64_t len, T* alpha, T* x, int64_t incx) {
    T tau(0);
    const int in = int(len), inc = int(incx);
    if constexpr (std::is_same_v<T, float>) LAPACKE_slarfg_work(in, alpha, x, inc, &tau);
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dlarfg_work(in, alpha, x, inc, &tau);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACKE_clarfg_work(in, alpha, x, inc, &tau);
    else LAPACKE_zlarfg_work(in, alpha, x, inc, &tau);
    return tau;
}

// C = H·C (side 'L') or C·H (side 'R'), H = I − τ·v·vᴴ, C m×n: LAPACK's xLARF (LAPACKE has no
// form of it), as the LAPACK in OpenBLAS exports it (gfortran ABI: arguments by reference, a hidden
// length for the CHARACTER argument).
template <class T>
void larf(char side, int64_t m, int64_t n, const T* v, T tau, T* c, int64_t ldc, T* work) {
    const int im = int(m), in = int(n), il = int(ldc), one = 1;
    if constexpr (std::is_same_v<T, float>) slarf_(&side, &im, &in, v, &one, &tau, c, &il, work, 1);
    else if constexpr (std::is_same_v<T, double>) dlarf_(&side, &im, &in, v, &one, &tau, c, &il, work, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>) clarf_(&side, &im, &in, v, &one, &tau, c, &il, work, 1);
    else zlarf_(&side, &im, &in, v, &one, &tau, c, &il, work, 1);
}

[[noreturn]] void throw_oom(const char* what) {
    throw Error(std::string("tessera::cpu::gb2bd: out of memory for ") + what);
}

}  // namespace

// One side's reflectors in BandReflectors' layout: sweep s's on rows s+1 … n−1 at v[slot[s] + r − (s+1)],
// τ of the one starting at row r at tau[(s / kd)·n + r].
template <class T>
struct BandBidiagChase<T>::Kept {
    std::vector<T> v, tau;
    std::vector<int64_t> slot;
    Kept(int64_t n, int64_t kd) : tau(size_t(((n - 2) / kd + 1) * n), T(0)), slot(size_t(n - 1)) {
        int64_t off = 0;
        for (int64_t s = 0; s + 1 < n; ++s) slot[size_t(s)] = off, off += n - 1 - s;
        v.assign(size_t(off), T(0));
    }
    // Keep H(s, ·) starting at row r: v(0) = 1, v(1 … len−1) from x with stride incx.
    void keep(int64_t n, int64_t kd, int64_t s, int64_t r, int64_t len, const T* x, int64_t incx, T t) {
        T* dst = v.data() + slot[size_t(s)] + (r - s - 1);
        dst[0] = T(1);
        for (int64_t q = 1; q < len; ++q) dst[q] = x[(q - 1) * incx];
        tau[size_t((s / kd) * n + r)] = t;
    }
};

template <class T>
BandBidiagChase<T>::BandBidiagChase(int64_t n, int64_t kd, const T* ab, int64_t ldab, bool want_u, bool want_v)
    : n_(n), kd_(std::min(kd, std::max<int64_t>(n - 1, 0))), p0_(1) {
    const int64_t top = kd;  // ab's row of the diagonal
    if (n == 0) return;
    if constexpr (is_complex_v<T>)  // every other diagonal entry becomes a reflector's real β
        if (std::abs(ab[top]) != real_t<T>(0)) p0_ = ab[top] / std::abs(ab[top]);
    try {
        w_.assign(size_t((3 * kd_ + 1) * n), T(0));
        if (kd_ > 0 && want_u) left_ = std::make_unique<Kept>(n, kd_);
        if (kd_ > 0 && want_v) right_ = std::make_unique<Kept>(n, kd_);
    } catch (const std::bad_alloc&) {
        throw_oom("the working band and the reflectors");
    }
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = std::max<int64_t>(0, j - kd_); i <= j; ++i)
            *at(i, j) = (i == 0 && kd_ > 0 ? conjugate(p0_) : T(1)) * ab[(top + i - j) + j * ldab];
}

template <class T>
BandBidiagChase<T>::~BandBidiagChase() = default;

template <class T>
int64_t BandBidiagChase<T>::steps(int64_t s) const {
    if (kd_ == 0 || s + 1 >= n_) return 0;
    // Step 0 always; step t ≥ 1 while its block starts before the last column: s+1+t·kd ≤ n−2.
    return 1 + (n_ - 3 - s >= 0 ? (n_ - 3 - s) / kd_ : 0);
}

template <class T>
void BandBidiagChase<T>::run(int64_t s, int64_t t0, int64_t t1) {
    const int64_t n = n_, kd = kd_, ldm = 3 * kd;
    thread_local std::vector<T> work, v;
    if (int64_t(work.size()) < 2 * kd + 1) work.resize(size_t(2 * kd + 1));
    if (int64_t(v.size()) < kd) v.resize(size_t(kd));
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t c = s + 1 + t * kd, ce = std::min(c + kd - 1, n - 1), len = ce - c + 1;
        const int64_t r = t == 0 ? s : c - kd;
        // Right reflector: row r's entries in columns c … ce, all but the first, annihilated.
        T* x = at(r, c);
        for (int64_t q = 0; q < len; ++q) x[q * ldm] = conjugate(x[q * ldm]);
        const T tau_r = larfg<T>(len, x, x + ldm, ldm);
        if (right_) right_->keep(n, kd, s, c, len, x + ldm, ldm, tau_r);
        v[0] = T(1);  // v = (1, x(1 …)), contiguous for xLARF; the row keeps β
        for (int64_t q = 1; q < len; ++q) v[size_t(q)] = x[q * ldm], x[q * ldm] = T(0);
        if (ce > r) larf<T>('R', ce - r, len, v.data(), tau_r, at(r + 1, c), ldm, work.data());
        // Left reflector: column c below the diagonal annihilated, applied up to column c + 2kd − 1.
        T* y = at(c, c);
        const T tau_l = larfg<T>(len, y, y + 1, 1);
        if (left_) left_->keep(n, kd, s, c, len, y + 1, 1, tau_l);
        const T y0 = y[0];
        y[0] = T(1);
        const int64_t cend = std::min(ce + kd, n - 1);
        if (cend > c) larf<T>('L', len, cend - c, y, conjugate(tau_l), at(c, c + 1), ldm, work.data());
        y[0] = y0;
        std::fill(y + 1, y + len, T(0));
    }
}

template <class T>
void BandBidiagChase<T>::finish(real_t<T>* d, real_t<T>* e, BandReflectors<T>* u2, BandReflectors<T>* v2,
                                int64_t group) {
    using R = real_t<T>;
    const int64_t n = n_, kd = kd_;
    if (u2) *u2 = BandReflectors<T>();
    if (v2) *v2 = BandReflectors<T>();
    if (n == 0) return;
    std::vector<T> phase;
    try {
        if (u2 && is_complex_v<T>) phase.assign(size_t(n), T(1));
    } catch (const std::bad_alloc&) {
        throw_oom("the phases");
    }
    for (int64_t i = 0; i < n; ++i) {
        const T b = *at(i, i);
        if (kd == 0 && is_complex_v<T>) {  // diagonal: the moduli, the phases into U2
            d[i] = std::abs(b);
            if (!phase.empty() && d[i] != R(0)) phase[size_t(i)] = b / d[i];
        } else {
            d[i] = R(std::real(b));
        }
        if (i + 1 < n) e[i] = kd == 0 ? R(0) : R(std::real(*at(i, i + 1)));
    }
    if (kd > 0 && !phase.empty()) phase[0] = p0_;
    const int64_t g = group > 0 ? group : default_group(std::max<int64_t>(kd, 1));
    try {
        if (kd == 0) {
            if (u2) *u2 = phase.empty() ? BandReflectors<T>(std::vector<T>(size_t(n), T(1))) : BandReflectors<T>(std::move(phase));
            if (v2) *v2 = BandReflectors<T>(std::vector<T>(size_t(n), T(1)));
            return;
        }
        if (u2 && left_)
            *u2 = BandReflectors<T>(n, kd, g, std::move(left_->v), std::move(left_->slot), left_->tau.data(), std::move(phase));
        if (v2 && right_) *v2 = BandReflectors<T>(n, kd, g, std::move(right_->v), std::move(right_->slot), right_->tau.data());
    } catch (const Error&) {
        if (u2) *u2 = BandReflectors<T>();
        if (v2) *v2 = BandReflectors<T>();
        throw;
    }
}

template <class T>
int gb2bd(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* u2,
          BandReflectors<T>* v2, int64_t group) {
    if (n < 0) return -1;
    if (kd < 0) return -2;
    if (ldab < kd + 1) return -4;
    if (group < 0) return -9;
    if (n > INT_MAX / 4) throw Error("tessera::cpu::gb2bd: n = " + std::to_string(n) + " exceeds LAPACK's 32-bit indices");
    if (u2) *u2 = BandReflectors<T>();
    if (v2) *v2 = BandReflectors<T>();
    BandBidiagChase<T> chase(n, kd, ab, ldab, u2 != nullptr, v2 != nullptr);
    for (int64_t s = 0; s < chase.sweeps(); ++s) chase.run(s, 0, chase.steps(s));
    chase.finish(d, e, u2, v2, group);
    return 0;
}

#define TESSERA_INSTANTIATE(T)        \
    template class BandBidiagChase<T>; \
    template int gb2bd<T>(int64_t, int64_t, const T*, int64_t, real_t<T>*, real_t<T>*, BandReflectors<T>*, BandReflectors<T>*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu

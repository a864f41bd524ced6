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

template <class T>
T conj_of(T x) {
    if constexpr (is_complex_v<T>) return std::conj(x);
    else return x;
}

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

// One side's reflectors in BandReflectors' layout: sweep s's on rows s+1 … n−1 at v[slot[s] + r − (s+1)],
// τ of the one starting at row r at tau[(s / kd)·n + r].
template <class T>
struct Kept {
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

[[noreturn]] void throw_oom(const char* what) {
    throw Error(std::string("tessera::cpu::gb2bd: out of memory for ") + what);
}

}  // namespace

template <class T>
int gb2bd(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* u2,
          BandReflectors<T>* v2, int64_t group) {
    using R = real_t<T>;
    if (n < 0) return -1;
    if (kd < 0) return -2;
    if (ldab < kd + 1) return -4;
    if (group < 0) return -9;
    if (n > INT_MAX / 4) throw Error("tessera::cpu::gb2bd: n = " + std::to_string(n) + " exceeds LAPACK's 32-bit indices");
    const int64_t top = kd;  // ab's row of the diagonal
    kd = std::min(kd, std::max<int64_t>(n - 1, 0));
    const int64_t g = group > 0 ? group : default_group(kd);
    if (u2) *u2 = BandReflectors<T>();
    if (v2) *v2 = BandReflectors<T>();
    if (n == 0) return 0;

    // B(0, 0)'s phase moves into U2 (complex): every other diagonal entry is a reflector's real β.
    std::vector<T> phase;
    const T b00 = ab[top];
    T p0(1);
    if constexpr (is_complex_v<T>)
        if (std::abs(b00) != R(0)) p0 = b00 / std::abs(b00);
    if (kd == 0) {  // diagonal: complex entries become their moduli, the phases go into U2
        try {
            if (u2) phase.assign(size_t(n), T(1));
        } catch (const std::bad_alloc&) {
            throw_oom("the phases");
        }
        for (int64_t i = 0; i < n; ++i) {
            const T b = ab[top + i * ldab];
            if constexpr (is_complex_v<T>) {
                d[i] = std::abs(b);
                if (u2 && d[i] != R(0)) phase[size_t(i)] = b / d[i];
            } else {
                d[i] = b;
            }
            if (i + 1 < n) e[i] = R(0);
        }
        if (u2) *u2 = BandReflectors<T>(std::move(phase));
        if (v2) *v2 = BandReflectors<T>(std::vector<T>(size_t(n), T(1)));
        return 0;
    }

    // The working band: kd rows below the diagonal (the fill of a right reflector), 2kd above (the
    // fill of a left one); W(i, j) at w[ku + i − j + j·ldw].
    const int64_t ku = 2 * kd, ldw = 3 * kd + 1, ldm = ldw - 1;
    std::vector<T> w, work, v;
    std::unique_ptr<Kept<T>> left, right;
    try {
        w.assign(size_t(ldw * n), T(0));
        work.resize(size_t(2 * kd + 1));
        v.resize(size_t(kd));
        if (u2) left = std::make_unique<Kept<T>>(n, kd);
        if (v2) right = std::make_unique<Kept<T>>(n, kd);
        if (u2 && is_complex_v<T>) phase.assign(size_t(n), T(1));
    } catch (const std::bad_alloc&) {
        throw_oom("the working band and the reflectors");
    }
    auto at = [&](int64_t i, int64_t j) { return w.data() + (ku + i - j) + j * ldw; };
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = std::max<int64_t>(0, j - kd); i <= j; ++i)
            *at(i, j) = (i == 0 ? conj_of(p0) : T(1)) * ab[(top + i - j) + j * ldab];
    if (!phase.empty()) phase[0] = p0;

    for (int64_t s = 0; s + 1 < n; ++s)
        for (int64_t c = s + 1, step = 0; c <= n - 1; c += kd, ++step) {
            const int64_t ce = std::min(c + kd - 1, n - 1), len = ce - c + 1;
            if (step > 0 && len == 1) break;  // nothing left to chase
            const int64_t r = step == 0 ? s : c - kd;
            // Right reflector: row r's entries in columns c … ce, all but the first, annihilated.
            T* x = at(r, c);
            for (int64_t q = 0; q < len; ++q) x[q * ldm] = conj_of(x[q * ldm]);
            const T tau_r = larfg<T>(len, x, x + ldm, ldm);
            if (right) right->keep(n, kd, s, c, len, x + ldm, ldm, tau_r);
            v[0] = T(1);  // v = (1, x(1 …)), contiguous for xLARF; the row keeps β
            for (int64_t q = 1; q < len; ++q) v[size_t(q)] = x[q * ldm], x[q * ldm] = T(0);
            if (ce > r) larf<T>('R', ce - r, len, v.data(), tau_r, at(r + 1, c), ldm, work.data());
            // Left reflector: column c below the diagonal annihilated, applied up to column c + 2kd − 1.
            T* y = at(c, c);
            const T tau_l = larfg<T>(len, y, y + 1, 1);
            if (left) left->keep(n, kd, s, c, len, y + 1, 1, tau_l);
            const T y0 = y[0];
            y[0] = T(1);
            const int64_t cend = std::min(ce + kd, n - 1);
            if (cend > c) larf<T>('L', len, cend - c, y, conj_of(tau_l), at(c, c + 1), ldm, work.data());
            y[0] = y0;
            std::fill(y + 1, y + len, T(0));
        }
    for (int64_t i = 0; i < n; ++i) d[i] = R(std::real(*at(i, i)));
    for (int64_t i = 0; i + 1 < n; ++i) e[i] = R(std::real(*at(i, i + 1)));
    try {
        if (u2) *u2 = BandReflectors<T>(n, kd, g, std::move(left->v), std::move(left->slot), left->tau.data(), std::move(phase));
        if (v2) *v2 = BandReflectors<T>(n, kd, g, std::move(right->v), std::move(right->slot), right->tau.data());
    } catch (const Error&) {
        if (u2) *u2 = BandReflectors<T>();
        if (v2) *v2 = BandReflectors<T>();
        throw;
    }
    return 0;
}

#define TESSERA_INSTANTIATE(T) \
    template int gb2bd<T>(int64_t, int64_t, const T*, int64_t, real_t<T>*, real_t<T>*, BandReflectors<T>*, BandReflectors<T>*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu

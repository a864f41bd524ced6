// tessera-solve's power-of-2 scaling of A·x = b into LAPACK's safe range of the precision T (s, d,
// c or z), as xGELS scales A and B with xLASCL, and the way back to the original solution.
// Header-only; the arrays are column-major (lda = m), entries compared by their modulus |re + i·im|.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "examples/solve/matrix_market.hpp"
#include "tessera/types.hpp"

namespace tessera::solve {

/// The double-precision type that holds an entry of T exactly: double, or std::complex<double>.
template <class T>
using wide_t = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;

/// "single", "double", "single complex" or "double complex".
template <class T>
const char* precision_name() {
    if constexpr (is_complex_v<T>) return sizeof(real_t<T>) == 4 ? "single complex" : "double complex";
    else return sizeof(T) == 4 ? "single" : "double";
}

/// LAPACK's safe range for scaling (xGELS with xLASCL): [smlnum, bignum], smlnum = tiny/eps of
/// T's real type.
template <class T>
double smlnum() {
    using R = real_t<T>;
    return double(std::numeric_limits<R>::min()) / double(std::numeric_limits<R>::epsilon());
}

/// |re + i·im| in long double: |re| exactly for a real entry; the modulus of two finite doubles
/// may exceed the largest double (1e308 + 1e308·i), and must still give a scale.
inline long double modulus(std::complex<double> v) {
    return std::hypot((long double)v.real(), (long double)v.imag());
}
inline long double modulus(double v) { return std::fabs((long double)v); }

/// Power of 2 that brings `amax`, the largest modulus of an operand's entries, just inside
/// [smlnum, bignum] of T (0 when it is inside already, or zero), as xGELS scales A and B before
/// factoring. Powers of 2 change no digit: only entries pushed below T's normal range lose bits,
/// and those lie far below the backward error eps·‖A‖ of the solve. Moving no further than the
/// range's edge keeps that loss to the least, as LAPACK does.
template <class T>
int scale_exponent(long double amax) {
    const double lo = smlnum<T>(), hi = 1 / lo;  // both powers of 2
    if (amax == 0 || (amax >= lo && amax <= hi)) return 0;
    return amax > hi ? std::ilogb(hi) - std::ilogb(amax) - 1 : std::ilogb(lo) - std::ilogb(amax);
}

/// Entry k of M in wide_t<T> (M complex only when T is: tessera-solve refuses a real precision for a
/// complex file).
template <class T>
wide_t<T> entry(const MMMatrix& M, size_t k) {
    if constexpr (is_complex_v<T>) return {M.a[k], M.im.empty() ? 0.0 : M.im[k]};
    else return M.a[k];
}

/// 2^e·v in double (exact unless it leaves double's range).
inline double times_pow2(double v, int e) { return std::ldexp(v, e); }
inline std::complex<double> times_pow2(std::complex<double> v, int e) {
    return {std::ldexp(v.real(), e), std::ldexp(v.imag(), e)};
}

/// 2^e·v rounded to T.
template <class T>
T scaled(wide_t<T> v, int e) {
    const wide_t<T> w = times_pow2(v, e);
    if constexpr (is_complex_v<T>) return T(real_t<T>(w.real()), real_t<T>(w.imag()));
    else return T(w);
}

/// The system actually solved, in precision T: a = 2^ea·A and b = 2^eb·B. Its solution y gives the
/// original one, x = 2^(ea − eb)·y; the backward error is the same for both (every term of
/// ‖b − A·x‖ / (‖A‖·‖x‖ + ‖b‖) scales by 2^eb).
template <class T>
struct ScaledSystem {
    std::vector<T> a, b;
    int ea = 0, eb = 0;
};

/// Scale A, then form b (b = (2^ea·A)·1 when `B` is null, in double: the original A·1 may not be
/// representable, a 2×2 of ±1e308 sums to 2e308) and scale it too if it leaves T's safe range.
/// Prints one "scaling" line for each operand scaled.
template <class T>
ScaledSystem<T> scale_system(const MMMatrix& A, const MMMatrix* B) {
    const char* prec = precision_name<T>();
    const double lo = smlnum<T>(), hi = 1 / lo;
    const size_t size = A.a.size();
    ScaledSystem<T> s;
    long double amax = 0;
    for (size_t k = 0; k < size; ++k) amax = std::max(amax, modulus(entry<T>(A, k)));
    s.ea = scale_exponent<T>(amax);
    s.a.resize(size);
    for (size_t k = 0; k < size; ++k) s.a[k] = scaled<T>(entry<T>(A, k), s.ea);
    if (s.ea != 0)
        std::printf("scaling   A multiplied by 2^%d: max |a_ij| = %.3Lg is outside [%.3g, %.3g], LAPACK's safe range in %s "
                    "(as xGELS scales)\n", s.ea, amax, lo, hi, prec);
    std::vector<wide_t<T>> b(size_t(B ? B->a.size() : A.m), 0.0);
    if (B) {
        for (size_t k = 0; k < b.size(); ++k) b[k] = entry<T>(*B, k);
    } else {
        for (int64_t j = 0; j < A.n; ++j)
            for (int64_t i = 0; i < A.m; ++i) b[size_t(i)] += times_pow2(entry<T>(A, size_t(i + j * A.m)), s.ea);
    }
    long double bmax = 0;
    for (const auto& v : b) bmax = std::max(bmax, modulus(v));
    const int eb = scale_exponent<T>(bmax);
    s.b.resize(b.size());
    for (size_t k = 0; k < b.size(); ++k) s.b[k] = scaled<T>(b[k], eb);
    s.eb = eb + (B ? 0 : s.ea);
    if (eb != 0)
        std::printf("scaling   b%s multiplied by 2^%d: max |b_i| = %.3Lg is outside [%.3g, %.3g] in %s\n",
                    B ? "" : " = (scaled A)*1", eb, bmax, lo, hi, prec);
    if (s.ea != 0 || s.eb != 0)
        std::printf("scaling   solving 2^%d A x' = 2^%d b; x = 2^%d x' is reported, the solution of the original system\n",
                    s.ea, s.eb, s.ea - s.eb);
    return s;
}

/// x = 2^e·y in double (y n×nrhs), or false and the message saying which entry overflowed the
/// range of T's real type (in its real or imaginary part).
template <class T>
bool unscale(const std::vector<T>& y, int64_t n, int e, std::vector<wide_t<T>>& x, std::string& overflow) {
    using R = real_t<T>;
    const double max = double(std::numeric_limits<R>::max());
    x.resize(y.size());
    for (size_t k = 0; k < y.size(); ++k) {
        x[k] = times_pow2(wide_t<T>(y[k]), e);
        if (std::abs(std::real(x[k])) <= max && std::abs(std::imag(x[k])) <= max) continue;
        char value[96], text[256];
        if constexpr (is_complex_v<T>)
            std::snprintf(value, sizeof value, "(%.3g, %.3g)", double(y[k].real()), double(y[k].imag()));
        else std::snprintf(value, sizeof value, "%.3g", double(y[k]));
        std::snprintf(text, sizeof text, "x(%lld,%lld) = %s * 2^%d exceeds the largest %s (%.3g)",
                      (long long)(int64_t(k) % n + 1), (long long)(int64_t(k) / n + 1), value, e,
                      sizeof(R) == 4 ? "float" : "double", max);
        overflow = text;
        return false;
    }
    return true;
}

}  // namespace tessera::solve

// CPU tile kernels converting between a high precision (d, z) and its low one (s, c): LAPACK's
// xLAG2S / xLAT2S / xLAG2C / xLAT2C (down, with the overflow test) and xLAG2D / xLAG2Z (up). Plain
// loops, no StarPU.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/types.hpp"

namespace tessera::cpu {

/// The low precision of T: float for double, std::complex<float> for std::complex<double>.
template <class T>
using low_t = std::conditional_t<is_complex_v<T>, std::complex<float>, float>;

/// Whether x (a real or an imaginary part) lies outside ±FLT_MAX, xLAG2S's RMAX = SLAMCH('O');
/// false for NaN.
inline bool lag2_out(double x) {
    const double rmax = double(std::numeric_limits<float>::max());
    return x < -rmax || x > rmax;
}

/// Calls f(i, j) for the entries of the m×n region, or of its uplo trapezoid (Uplo::General: all of
/// it), column by column; stops and returns true as soon as f returns true.
template <class F>
bool any_in_trapezoid(Uplo uplo, int64_t m, int64_t n, F f) {
    for (int64_t j = 0; j < n; ++j) {
        const int64_t lo = uplo == Uplo::Lower ? std::min(j, m) : 0;
        const int64_t hi = uplo == Uplo::Upper ? std::min(j + 1, m) : m;
        for (int64_t i = lo; i < hi; ++i)
            if (f(i, j)) return true;
    }
    return false;
}

/// B = alpha·A rounded to low_t<T> on the m×n region, or on its uplo trapezoid (Uplo::General: all of
/// it); alpha a power of 2 (exact; 1: LAPACK's conversion). Returns 1, leaving B partly written, as
/// soon as an entry of alpha·A (a real or an imaginary part) lies outside ±FLT_MAX (lag2_out), else
/// 0. NaN is converted, not reported.
template <class T>
int lag2_down(Uplo uplo, int64_t m, int64_t n, double alpha, const T* A, int64_t lda, low_t<T>* B, int64_t ldb) {
    return any_in_trapezoid(uplo, m, n, [&](int64_t i, int64_t j) {
        const T a = A[i + j * lda] * real_t<T>(alpha);
        if (lag2_out(std::real(a)) || lag2_out(std::imag(a))) return true;
        B[i + j * ldb] = low_t<T>(a);
        return false;
    }) ? 1 : 0;
}

/// lag2_down's test alone: whether an entry of alpha·A on the m×n region or its uplo trapezoid (a
/// real or an imaginary part) lies outside ±FLT_MAX. Reads A only.
template <class T>
bool lag2_overflows(Uplo uplo, int64_t m, int64_t n, double alpha, const T* A, int64_t lda) {
    return any_in_trapezoid(uplo, m, n, [&](int64_t i, int64_t j) {
        const T a = A[i + j * lda] * real_t<T>(alpha);
        return lag2_out(std::real(a)) || lag2_out(std::imag(a));
    });
}

/// B = A (accumulate false) or B = B + A (true), A m×n in low_t<T> widened to T (xLAG2D, then
/// xAXPY in the refinement's update).
template <class T>
void lag2_up(bool accumulate, int64_t m, int64_t n, const low_t<T>* A, int64_t lda, T* B, int64_t ldb) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            const T a = T(A[i + j * lda]);
            B[i + j * ldb] = accumulate ? B[i + j * ldb] + a : a;
        }
}

}  // namespace tessera::cpu

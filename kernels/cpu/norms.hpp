// Per-tile partials of LAPACK's matrix norms (xLANGE, xLANSY, xLANHE, xLANTR) and their
// combination. Header-only, no StarPU. The OpenCL kernel tessera_norm_tile (kernels/opencl/norms.cl)
// computes the same partials with the same operations in the same order (moduli by norm_modulus,
// sums from the first row or column to the last), so that a tile's max, column sums and row sums
// are bit-for-bit the same whichever worker computes them.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "tessera/types.hpp"

namespace tessera::cpu {

/// What a norm tile task writes into its partial vector (lengths for an m×n tile):
enum class NormPart : int32_t {
    ColMax = 0,     ///< n: max over each column (NaN wins, as LAPACK's DISNAN tests)
    ColSum = 1,     ///< n: Σ over each column
    RowSum = 2,     ///< m: Σ over each row
    ColSsq = 3,     ///< 2n: each column's (scale, sumsq) of xLASSQ, scale·√sumsq its 2-norm
    ColRowSum = 4,  ///< n + m: the column sums, then the row sums
};
/// Which entries of the tile count, and how:
enum class NormTile : int32_t {
    General = 0,   ///< every entry, |a_ij|
    Lower = 1,     ///< the lower trapezoid i ≥ j (xLANTR's diagonal tile), 0 above
    Upper = 2,     ///< the upper trapezoid i ≤ j, 0 below
    SymLower = 3,  ///< square tile, symmetric or Hermitian from its lower triangle: a_ij for i < j is a_ji
    SymUpper = 4,  ///< the same from its upper triangle
};

/// The partial's length for an m×n tile.
inline int64_t norm_part_length(NormPart part, int64_t m, int64_t n) {
    switch (part) {
        case NormPart::ColMax: case NormPart::ColSum: return n;
        case NormPart::RowSum: return m;
        case NormPart::ColSsq: return 2 * n;
        case NormPart::ColRowSum: return n + m;
    }
    return 0;
}

/// |x| computed by operations that IEEE 754 and OpenCL both round correctly (fma, sqrt and, in
/// double, division), so that a CPU worker and an OpenCL device give the same bits: real |x|;
/// single complex sqrt(re² + im²) in double, rounded once; double complex t·sqrt(1 + (u/t)²),
/// t = max(|re|, |im|), u = min (no overflow for entries near the largest double). NaN in either
/// part gives NaN, an infinite part +Inf (LAPACK's ABS).
template <class T>
real_t<T> norm_modulus(T x) {
    if constexpr (!is_complex_v<T>) {
        return std::abs(x);
    } else {
        using R = real_t<T>;
        const R re = std::abs(x.real()), im = std::abs(x.imag());
        if (std::isnan(re) || std::isnan(im)) return std::numeric_limits<R>::quiet_NaN();
        if (std::isinf(re) || std::isinf(im)) return std::numeric_limits<R>::infinity();
        if constexpr (std::is_same_v<R, float>) {
            const double dr = re, di = im;
            return float(std::sqrt(std::fma(dr, dr, di * di)));
        } else {
            const double t = re > im ? re : im, u = re > im ? im : re;
            if (t == 0) return 0;
            const double q = u / t;
            return t * std::sqrt(std::fma(q, q, 1.0));
        }
    }
}

/// The modulus a norm counts at (r, c) of an m×n tile (column-major, leading dimension lda) of
/// shape `tile`; `unit`: the diagonal of a Lower/Upper tile counts as ones (Diag::Unit);
/// `herm`: the diagonal of a Sym tile counts its real part only (xLANHE).
template <class T>
real_t<T> norm_entry(NormTile tile, bool unit, bool herm, const T* a, int64_t lda, int64_t r, int64_t c) {
    using R = real_t<T>;
    switch (tile) {
        case NormTile::General: break;
        case NormTile::Lower:
        case NormTile::Upper:
            if (tile == NormTile::Lower ? r < c : r > c) return R(0);
            if (r == c && unit) return R(1);
            break;
        case NormTile::SymLower:
        case NormTile::SymUpper:
            if (r == c) return herm ? std::abs(std::real(a[r + c * lda])) : norm_modulus(a[r + c * lda]);
            if (tile == NormTile::SymLower ? r < c : r > c) return norm_modulus(a[c + r * lda]);
            break;
    }
    return norm_modulus(a[r + c * lda]);
}

/// One step of xLASSQ: (scale, sumsq) ← the pair of scale²·sumsq + x², x = |x| ≥ 0 (zeros skipped).
template <class R>
void lassq_update(R x, R& scale, R& sumsq) {
    if (x != R(0)) {  // NaN too: it reaches sumsq
        if (scale < x) {
            const R q = scale / x;
            sumsq = R(1) + sumsq * q * q;
            scale = x;
        } else {
            const R q = x / scale;
            sumsq += q * q;
        }
    }
}

/// LAPACK's xCOMBSSQ: (scale, sumsq) ← the pair of scale²·sumsq + s2²·q2.
template <class R>
void combine_ssq(R& scale, R& sumsq, R s2, R q2) {
    if (std::isnan(s2) || std::isnan(q2)) { sumsq = q2 + s2; return; }  // NaN propagates
    if (s2 == R(0) || q2 == R(0)) return;
    if (scale >= s2) {
        const R q = s2 / scale;
        sumsq += q2 * q * q;
    } else {
        const R q = scale / s2;
        sumsq = q2 + sumsq * q * q;
        scale = s2;
    }
}

/// The column sums of an n×n symmetric or Hermitian tile stored in one triangle (at(r, c): the
/// modulus counted at (r, c), the mirrored entry for the other triangle), each column summed from
/// row 0 to n − 1 as the loop over at(r, c) would (the same bits as the OpenCL kernel), with the
/// stored triangle read column by column: stored entry (i, j) is term i of column j's sum and term j
/// of column i's, and the stored columns taken in order give every sum its terms in order. Reading
/// the mirrored entries along rows instead took 117 ms for a 4096² tile, 0.3 ms on a GPU.
template <class R, class At>
void sym_col_sums(bool lower, int64_t n, const At& at, R* out) {
    for (int64_t c = 0; c < n; ++c) out[c] = 0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i) {
            const R x = at(i, j);
            out[j] += x;
            if (i != j) out[i] += x;
        }
}

/// The partial `part` of the m×n tile a (leading dimension lda) into out[0, norm_part_length).
template <class T>
void norm_tile(NormPart part, NormTile tile, bool unit, bool herm, int64_t m, int64_t n, const T* a, int64_t lda,
               real_t<T>* out) {
    using R = real_t<T>;
    auto at = [&](int64_t r, int64_t c) { return norm_entry(tile, unit, herm, a, lda, r, c); };
    switch (part) {
        case NormPart::ColMax:
            for (int64_t c = 0; c < n; ++c) {
                R v = 0;
                for (int64_t r = 0; r < m; ++r) {
                    const R x = at(r, c);
                    if (v < x || std::isnan(x)) v = x;
                }
                out[c] = v;
            }
            break;
        case NormPart::ColSum:
        case NormPart::ColRowSum:
            if (part == NormPart::ColSum && (tile == NormTile::SymLower || tile == NormTile::SymUpper)) {
                sym_col_sums(tile == NormTile::SymLower, n, at, out);
                break;
            }
            for (int64_t c = 0; c < n; ++c) {
                R s = 0;
                for (int64_t r = 0; r < m; ++r) s += at(r, c);
                out[c] = s;
            }
            if (part == NormPart::ColSum) break;
            out += n;
            [[fallthrough]];
        case NormPart::RowSum:
            // Each row's sum in column order as before (the same bits as the OpenCL kernel), the
            // tile read column by column: a row at a time strides through the whole tile (3 to 5
            // times slower at nb = 1024, a tile larger than L2).
            for (int64_t r = 0; r < m; ++r) out[r] = 0;
            for (int64_t c = 0; c < n; ++c)
                for (int64_t r = 0; r < m; ++r) out[r] += at(r, c);
            break;
        case NormPart::ColSsq:
            for (int64_t c = 0; c < n; ++c) {
                R scale = 0, sumsq = 1;
                for (int64_t r = 0; r < m; ++r) lassq_update(at(r, c), scale, sumsq);
                out[2 * c] = scale;
                out[2 * c + 1] = sumsq;
            }
            break;
    }
}

}  // namespace tessera::cpu

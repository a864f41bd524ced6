// tessera_norm_tile: per-tile partials of LAPACK's matrix norms (xLANGE, xLANSY, xLANHE, xLANTR),
// the device form of cpu::norm_tile (kernels/cpu/norms.hpp), which documents `part` and `tile`:
//   part 0 column max, 1 column sums, 2 row sums, 3 per-column (scale, sumsq) of xLASSQ,
//        4 column sums then row sums;
//   tile 0 General, 1 Lower / 2 Upper trapezoid (unit: diagonal as ones), 3 SymLower / 4 SymUpper
//        (the other triangle mirrored; herm: the diagonal's real part only).
// The same operations in the same order as the CPU kernel (moduli through fma, sqrt and double
// division, which OpenCL rounds correctly; each sum from the first entry to the last), so that a
// tile's max and sums are bit-for-bit the CPU's. (A single-complex program on a device without
// cl_khr_fp64 takes the moduli in float, possibly an ulp apart.)
// Launch: 1-D, one work-item per output line (column, or row for the row sums), any local size.

#if defined(TESSERA_PREC_C) && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define TESSERA_NORM_C_IN_DOUBLE 1
#endif

inline real_t tessera_norm_modulus(const scalar_t x)
{
#ifdef TESSERA_COMPLEX
    const real_t re = fabs(x.x), im = fabs(x.y);
    if (isnan(re) || isnan(im)) return (real_t)NAN;
    if (isinf(re) || isinf(im)) return (real_t)INFINITY;
#if defined(TESSERA_PREC_Z)
    const double t = re > im ? re : im, u = re > im ? im : re;
    if (t == 0.0) return 0.0;
    const double q = u / t;
    return t * sqrt(fma(q, q, 1.0));
#elif defined(TESSERA_NORM_C_IN_DOUBLE)
    const double dr = re, di = im;
    return (float)sqrt(fma(dr, dr, di * di));
#else
    const float t = re > im ? re : im, u = re > im ? im : re;
    if (t == 0.0f) return 0.0f;
    const float q = u / t;
    return t * sqrt(fma(q, q, 1.0f));
#endif
#else
    return fabs(x);
#endif
}

inline real_t tessera_norm_entry(const int tile, const int unit, const int herm, __global const scalar_t* A,
                                 const int lda, const int r, const int c)
{
    if (tile == 1 || tile == 2) {
        if (tile == 1 ? r < c : r > c) return (real_t)0;
        if (r == c && unit) return (real_t)1;
    } else if (tile == 3 || tile == 4) {
        if (r == c) return herm ? fabs(S_REAL(A[r + (long)c * lda])) : tessera_norm_modulus(A[r + (long)c * lda]);
        if (tile == 3 ? r < c : r > c) return tessera_norm_modulus(A[c + (long)r * lda]);
    }
    return tessera_norm_modulus(A[r + (long)c * lda]);
}

__kernel void tessera_norm_tile(const int part, const int tile, const int unit, const int herm, const int m,
                                const int n, __global const scalar_t* A0, const ulong offA, const int lda,
                                __global real_t* out0, const ulong offOut)
{
    const int t = (int)get_global_id(0);
    __global const scalar_t* A = A0 + offA;
    __global real_t* out = out0 + offOut;
    const int lines = part == 2 ? m : part == 4 ? n + m : n;
    if (t >= lines) return;
    if (part == 2 || (part == 4 && t >= n)) {  // row sum
        const int r = part == 4 ? t - n : t;
        real_t s = (real_t)0;
        for (int c = 0; c < n; ++c) s += tessera_norm_entry(tile, unit, herm, A, lda, r, c);
        out[t] = s;
        return;
    }
    const int c = t;
    if (part == 0) {
        real_t v = (real_t)0;
        for (int r = 0; r < m; ++r) {
            const real_t x = tessera_norm_entry(tile, unit, herm, A, lda, r, c);
            if (v < x || isnan(x)) v = x;
        }
        out[c] = v;
    } else if (part == 3) {
        real_t scale = (real_t)0, sumsq = (real_t)1;
        for (int r = 0; r < m; ++r) {
            const real_t x = tessera_norm_entry(tile, unit, herm, A, lda, r, c);
            if (x != (real_t)0) {
                if (scale < x) {
                    const real_t q = scale / x;
                    sumsq = (real_t)1 + sumsq * q * q;
                    scale = x;
                } else {
                    const real_t q = x / scale;
                    sumsq += q * q;
                }
            }
        }
        out[2 * c] = scale;
        out[2 * c + 1] = sumsq;
    } else {  // column sum (parts 1 and 4)
        real_t s = (real_t)0;
        for (int r = 0; r < m; ++r) s += tessera_norm_entry(tile, unit, herm, A, lda, r, c);
        out[c] = s;
    }
}

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
// Launch: 1-D work-groups of NORM_WG work-items, each reducing NORM_LINES lines (columns, or rows for
// the row sums) of the tile: the column strips first (parts 0, 1, 3, 4), then the row strips (parts
// 2, 4). A strip goes through local memory NORM_CHUNK entries per line at a time (two buffers, the
// group loading the next chunk while the first NORM_LINES work-items each reduce their line's
// entries of the current one in order), read with the lanes running down the rows, as the memory
// does. One work-item per line reading its line straight from global memory, as before, left a 4096
// tile to 128 warps and read columns uncoalesced: ‖A‖∞'s tiles of the mixed solvers took 0.53 ms each
// on an H200, 0.30 ms with this kernel (bench/gpu_notes.md).

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

#define NORM_LINES 32  // lines per work-group, one reducing work-item each
#define NORM_CHUNK 64  // entries of each line per staged chunk
#define NORM_WG 256
#define NORM_PAD (NORM_CHUNK + 1)  // a line's stride in local memory: the reducing lanes on distinct banks

// Reduce entries 0 .. len−1 of a staged line into the line's state (v, w): the max (part 0), the sum
// (1, 2, 4) or xLASSQ's (scale, sumsq) (3), in order, as cpu::norm_tile does.
inline void tessera_norm_reduce(const int part, __local const real_t* x, const int len, real_t* v, real_t* w)
{
    if (part == 0) {
        for (int i = 0; i < len; ++i)
            if (*v < x[i] || isnan(x[i])) *v = x[i];
    } else if (part == 3) {
        for (int i = 0; i < len; ++i) {
            const real_t e = x[i];
            if (e != (real_t)0) {
                if (*v < e) {
                    const real_t q = *v / e;
                    *w = (real_t)1 + *w * q * q;
                    *v = e;
                } else {
                    const real_t q = e / *v;
                    *w += q * q;
                }
            }
        }
    } else {
        for (int i = 0; i < len; ++i) *v += x[i];
    }
}

// Stage chunk `k` of the strip (lines line0 .. line0+NORM_LINES−1, entries k·NORM_CHUNK ..) into
// buf[line][pos]: in a column strip entry pos of a line is row k·NORM_CHUNK + pos, in a row strip
// column k·NORM_CHUNK + pos. The lanes run down the rows either way.
inline void tessera_norm_stage(__local real_t* buf, const int rows, const int tile, const int unit, const int herm,
                               __global const scalar_t* A, const int lda, const int m, const int n, const int line0,
                               const int k)
{
    const int lid = (int)get_local_id(0);
    const int base = k * NORM_CHUNK;
    if (!rows) {  // column strip: pos = row offset (fast), line = column
        TESSERA_UNROLL
        for (int i = 0; i < NORM_LINES * NORM_CHUNK / NORM_WG; ++i) {
            const int e = lid + i * NORM_WG, pos = e % NORM_CHUNK, line = e / NORM_CHUNK;
            const int r = base + pos, c = line0 + line;
            if (r < m && c < n) buf[line * NORM_PAD + pos] = tessera_norm_entry(tile, unit, herm, A, lda, r, c);
        }
    } else {  // row strip: line = row (fast), pos = column offset
        TESSERA_UNROLL
        for (int i = 0; i < NORM_LINES * NORM_CHUNK / NORM_WG; ++i) {
            const int e = lid + i * NORM_WG, line = e % NORM_LINES, pos = e / NORM_LINES;
            const int r = line0 + line, c = base + pos;
            if (r < m && c < n) buf[line * NORM_PAD + pos] = tessera_norm_entry(tile, unit, herm, A, lda, r, c);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void tessera_norm_tile(const int part, const int tile, const int unit, const int herm, const int m,
                       const int n, __global const scalar_t* A0, const ulong offA, const int lda,
                       __global real_t* out0, const ulong offOut)
{
    __local real_t stage[2][NORM_LINES * NORM_PAD];
    __global const scalar_t* A = A0 + offA;
    __global real_t* out = out0 + offOut;
    const int lid = (int)get_local_id(0), g = (int)get_group_id(0);
    const int col_groups = part == 2 ? 0 : (n + NORM_LINES - 1) / NORM_LINES;
    const int rows = g >= col_groups;  // uniform over the group
    const int line0 = (rows ? g - col_groups : g) * NORM_LINES;
    const int len = rows ? n : m;  // entries per line
    const int chunks = (len + NORM_CHUNK - 1) / NORM_CHUNK;
    const int my_line = line0 + lid, lines = rows ? m : n;
    real_t v = (real_t)0, w = (real_t)1;  // the max or sum, or (scale, sumsq)

    tessera_norm_stage(stage[0], rows, tile, unit, herm, A, lda, m, n, line0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < chunks; ++k) {
        if (k + 1 < chunks) tessera_norm_stage(stage[(k + 1) & 1], rows, tile, unit, herm, A, lda, m, n, line0, k + 1);
        if (lid < NORM_LINES && my_line < lines)
            tessera_norm_reduce(rows ? 1 : part, stage[k & 1] + lid * NORM_PAD, min(NORM_CHUNK, len - k * NORM_CHUNK),
                                &v, &w);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid >= NORM_LINES || my_line >= lines) return;
    if (rows) out[(part == 4 ? n : 0) + my_line] = v;
    else if (part == 3) out[2 * my_line] = v, out[2 * my_line + 1] = w;
    else out[my_line] = v;
}

#undef NORM_LINES
#undef NORM_CHUNK
#undef NORM_WG
#undef NORM_PAD

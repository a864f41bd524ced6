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
// 2, 4). A strip goes through local memory NORM_CHUNK entries per line at a time (two buffers: the
// first NORM_LINES work-items each reduce their line's entries of one chunk in order while the group
// stages the next from registers, whose loads of the two chunks after it are in flight), read with
// the lanes running down the rows, as the memory does. One work-item per line reading its line
// straight from global memory, as before, left a 4096 tile to 128 warps and read columns
// uncoalesced: ‖A‖∞'s tiles of the mixed solvers took 0.53 ms each on an H200, 0.30 ms with one
// chunk staged at a time (bench/gpu_notes.md).

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

// An entry's value is loaded (tessera_norm_load) apart from its modulus (tessera_norm_value), so that
// the loads of later chunks stay in flight while a chunk is reduced. tessera_norm_load reads A(r, c)
// (the mirrored A(c, r) across a symmetric tile's other triangle) where the entry needs it, and
// nothing where it does not (outside a trapezoid, a unit diagonal).
inline int tessera_norm_reads(const int tile, const int unit, const int r, const int c)
{
    if (tile == 1 || tile == 2) return !(tile == 1 ? r < c : r > c) && !(r == c && unit);
    return 1;
}

inline scalar_t tessera_norm_load(const int tile, const int unit, __global const scalar_t* A, const int lda,
                                  const int r, const int c)
{
    if (!tessera_norm_reads(tile, unit, r, c)) return S_ZERO;
    if ((tile == 3 && r < c) || (tile == 4 && r > c)) return A[c + (long)r * lda];
    return A[r + (long)c * lda];
}

inline real_t tessera_norm_value(const int tile, const int unit, const int herm, const scalar_t v, const int r,
                                 const int c)
{
    if (tile == 1 || tile == 2) {
        if (tile == 1 ? r < c : r > c) return (real_t)0;
        if (r == c && unit) return (real_t)1;
    } else if ((tile == 3 || tile == 4) && r == c && herm) {
        return fabs(S_REAL(v));
    }
    return tessera_norm_modulus(v);
}

#ifndef TESSERA_NORM_LINES
#define TESSERA_NORM_LINES 32  // lines per work-group, one reducing work-item each
#endif
#ifndef TESSERA_NORM_CHUNK
#define TESSERA_NORM_CHUNK 64  // entries of each line per staged chunk
#endif
#ifndef TESSERA_NORM_WG
#define TESSERA_NORM_WG 256  // work-items per work-group
#endif
#define NORM_LINES TESSERA_NORM_LINES
#define NORM_CHUNK TESSERA_NORM_CHUNK
#define NORM_WG TESSERA_NORM_WG
#define NORM_PAD (NORM_CHUNK + 1)  // a line's stride in local memory: the reducing lanes on distinct banks
#if NORM_LINES > NORM_WG || (NORM_LINES * NORM_CHUNK) % NORM_WG != 0
#error "TESSERA_NORM_LINES must be at most TESSERA_NORM_WG, and LINES * CHUNK a multiple of WG"
#endif
#if NORM_LINES * NORM_PAD > 3072
#error "TESSERA_NORM_LINES * (TESSERA_NORM_CHUNK + 1) must be at most 3072 (two stages in 48 KB of doubles)"
#endif

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

#define NORM_PER_ITEM (NORM_LINES * NORM_CHUNK / NORM_WG)  // entries a work-item stages per chunk

// Entry i of this work-item's share of chunk `k` of the strip (lines line0 .. line0+NORM_LINES−1,
// entries k·NORM_CHUNK ..): its line and position in the line, and its row r and column c in the
// tile. In a column strip entry pos of a line is row k·NORM_CHUNK + pos, in a row strip column
// k·NORM_CHUNK + pos. The lanes run down the rows either way.
inline void tessera_norm_slot(const int rows, const int line0, const int k, const int i, int* line, int* pos, int* r,
                              int* c)
{
    const int e = (int)get_local_id(0) + i * NORM_WG;
    if (!rows) {  // column strip: pos = row offset (fast), line = column
        *pos = e % NORM_CHUNK, *line = e / NORM_CHUNK;
        *r = k * NORM_CHUNK + *pos, *c = line0 + *line;
    } else {  // row strip: line = row (fast), pos = column offset
        *line = e % NORM_LINES, *pos = e / NORM_LINES;
        *r = line0 + *line, *c = k * NORM_CHUNK + *pos;
    }
}

// Issue the loads of this work-item's share of chunk k into v (not waited for here).
inline void tessera_norm_fetch(scalar_t v[NORM_PER_ITEM], const int rows, const int tile, const int unit,
                               __global const scalar_t* A, const int lda, const int m, const int n, const int line0,
                               const int k)
{
    TESSERA_UNROLL
    for (int i = 0; i < NORM_PER_ITEM; ++i) {
        int line, pos, r, c;
        tessera_norm_slot(rows, line0, k, i, &line, &pos, &r, &c);
        v[i] = (r < m && c < n) ? tessera_norm_load(tile, unit, A, lda, r, c) : S_ZERO;
    }
}

// Stage chunk k, fetched into v, as buf[line][pos] = the entries' values.
inline void tessera_norm_stage(__local real_t* buf, const scalar_t v[NORM_PER_ITEM], const int rows, const int tile,
                               const int unit, const int herm, const int m, const int n, const int line0, const int k)
{
    TESSERA_UNROLL
    for (int i = 0; i < NORM_PER_ITEM; ++i) {
        int line, pos, r, c;
        tessera_norm_slot(rows, line0, k, i, &line, &pos, &r, &c);
        if (r < m && c < n) buf[line * NORM_PAD + pos] = tessera_norm_value(tile, unit, herm, v[i], r, c);
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

    // Chunk k is reduced from local memory while chunks k+1 and k+2 are in flight in registers (p0,
    // p1 in turn: the loop is unrolled by two so that neither is copied, which would wait for it).
    scalar_t p0[NORM_PER_ITEM], p1[NORM_PER_ITEM];
    tessera_norm_fetch(p0, rows, tile, unit, A, lda, m, n, line0, 0);
    tessera_norm_stage(stage[0], p0, rows, tile, unit, herm, m, n, line0, 0);
    if (chunks > 1) tessera_norm_fetch(p0, rows, tile, unit, A, lda, m, n, line0, 1);
    if (chunks > 2) tessera_norm_fetch(p1, rows, tile, unit, A, lda, m, n, line0, 2);
    barrier(CLK_LOCAL_MEM_FENCE);
#define NORM_STEP(k, p)                                                                                           \
    {                                                                                                             \
        if (lid < NORM_LINES && my_line < lines)                                                                  \
            tessera_norm_reduce(rows ? 1 : part, stage[(k) & 1] + lid * NORM_PAD,                                 \
                                min(NORM_CHUNK, len - (k) * NORM_CHUNK), &v, &w);                                 \
        if ((k) + 1 < chunks) tessera_norm_stage(stage[((k) + 1) & 1], p, rows, tile, unit, herm, m, n, line0, (k) + 1); \
        if ((k) + 3 < chunks) tessera_norm_fetch(p, rows, tile, unit, A, lda, m, n, line0, (k) + 3);              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    }
    for (int k = 0; k < chunks; k += 2) {
        NORM_STEP(k, p0)
        if (k + 1 < chunks) NORM_STEP(k + 1, p1)
    }
#undef NORM_STEP
    if (lid >= NORM_LINES || my_line >= lines) return;
    if (rows) out[(part == 4 ? n : 0) + my_line] = v;
    else if (part == 3) out[2 * my_line] = v, out[2 * my_line + 1] = w;
    else out[my_line] = v;
}

#undef NORM_LINES
#undef NORM_CHUNK
#undef NORM_WG
#undef NORM_PER_ITEM
#undef NORM_PAD

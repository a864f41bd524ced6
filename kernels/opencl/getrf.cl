// Partial-pivoting LU of a panel (launch_getrf.cpp): the unblocked leaf, in one work-group, or for a
// tall leaf over many work-groups (one launch per column, or one launch with a grid barrier between
// columns), and the conversion of the panel's pivots to LAPACK's 1-based rows of the whole matrix.
// Column-major.

#define TESSERA_GETRF_WG 256
#define TESSERA_GETRF_LEAF_MAX 64

#ifdef TESSERA_COMPLEX
#define S_ABS1(a) (fabs((a).x) + fabs((a).y))  /* LAPACK's cabs1, what izamax compares */
#else
#define S_ABS1(a) fabs(a)
#endif

// The work-group's first largest candidate: every work-item offers (v, i, g) (g: what travels with
// it); all get the largest v, ties to the lowest i, as izamax's first maximum. Local arrays of
// TESSERA_GETRF_WG entries; they are free again when it returns.
typedef struct { real_t v; int i, g; } getrf_best_t;
inline getrf_best_t getrf_best(__local real_t* bv, __local int* bi, __local int* bg, const real_t v, const int i,
                               const int g)
{
    const int lid = (int)get_local_id(0);
    bv[lid] = v;
    bi[lid] = i;
    bg[lid] = g;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = TESSERA_GETRF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            const real_t ov = bv[lid + s];
            const int oi = bi[lid + s];
            if (ov > bv[lid] || (ov == bv[lid] && oi < bi[lid])) {
                bv[lid] = ov;
                bi[lid] = oi;
                bg[lid] = bg[lid + s];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    getrf_best_t r;
    r.v = bv[0];
    r.i = bi[0];
    r.g = bg[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// Row i's rank-1 update, A(i, j) −= l·U(j) for j0 ≤ j < nc with U(j) = u[j·ustride]: eight
// columns at a time, all their loads issued before any store (a loop of load, FMA, store per column
// waits out the memory latency once per column, since a store may alias the next load).
#define TESSERA_GETRF_CHUNK 8
#define TESSERA_GETRF_ROW_UPDATE(NAME, UPTR)                                                               \
    inline void NAME(__global scalar_t* Ai, const int lda, const scalar_t l, UPTR u, const long ustride,     \
                     const int j0, const int nc)                                                             \
    {                                                                                                        \
        for (int jc = j0; jc < nc; jc += TESSERA_GETRF_CHUNK) {                                              \
            scalar_t a[TESSERA_GETRF_CHUNK], b[TESSERA_GETRF_CHUNK];                                         \
            for (int t = 0; t < TESSERA_GETRF_CHUNK; ++t) if (jc + t < nc) {               \
                a[t] = Ai[(long)(jc + t) * lda];                                                             \
                b[t] = u[(long)(jc + t) * ustride];                                                          \
            }                                                                                                \
            for (int t = 0; t < TESSERA_GETRF_CHUNK; ++t) if (jc + t < nc)                 \
                Ai[(long)(jc + t) * lda] = S_FMA(-l, b[t], a[t]);                                            \
        }                                                                                                    \
    }
TESSERA_GETRF_ROW_UPDATE(getrf_row_update, __global const scalar_t*)
// The same with U in memory other work-groups write while this kernel runs (read past the L1 cache).
TESSERA_GETRF_ROW_UPDATE(getrf_row_update_shared, volatile __global const scalar_t*)

// tessera_getrf_leaf: LAPACK xGETF2 on the m×nc block at A (nc ≤ TESSERA_GETRF_LEAF_MAX, m ≥ nc).
// For column c: the pivot is the first row of largest cabs1 at or below c; it is swapped with row
// c across the whole panel, columns jlo ≤ j < jhi of A (jlo ≤ 0, jhi ≥ nc: the panel's columns
// left and right of the block, so that the recursion needs no interchanges of its own); the column
// below is scaled by the pivot's inverse (not when it is 0) and the block's trailing columns get
// the rank-1 update. piv[offPiv + c] = prow0 + p + 1; the first zero
// pivot sets *info = icol0 + c + 1 unless *info is set already (first ≠ 0 clears it first).
// Launch: 1-D, exactly one work-group of TESSERA_GETRF_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_GETRF_WG, 1, 1)))
void tessera_getrf_leaf(const int m, const int nc, __global scalar_t* A, const ulong offA, const int lda,
                                 __global int* piv, const ulong offPiv, const int prow0,
                                 __global int* info, const int icol0, const int first, const int jlo,
                                 const int jhi)
{
    __local real_t best_v[TESSERA_GETRF_WG];
    __local int best_i[TESSERA_GETRF_WG];
    __local int best_g[TESSERA_GETRF_WG];
    const int lid = (int)get_local_id(0);
    A += offA;
    if (first && lid == 0) *info = 0;
    for (int c = 0; c < nc; ++c) {
        __global scalar_t* col = A + (long)c * lda;
        real_t bv = (real_t)-1;
        int bi = c;
        for (int i = c + lid; i < m; i += TESSERA_GETRF_WG) {
            const real_t v = S_ABS1(col[i]);
            if (v > bv) { bv = v; bi = i; }
        }
        const int p = getrf_best(best_v, best_i, best_g, bv, bi, 0).i;
        if (p != c)
            for (int j = jlo + lid; j < jhi; j += TESSERA_GETRF_WG) {
                const scalar_t x = A[c + (long)j * lda];
                A[c + (long)j * lda] = A[p + (long)j * lda];
                A[p + (long)j * lda] = x;
            }
        barrier(CLK_GLOBAL_MEM_FENCE);
        // The pivot row read where it is (a __local copy of it read back zeros on PoCL 3.1 in real
        // precisions): element j at prow[j·lda].
        __global const scalar_t* prow = A + c;
        const scalar_t pivot = prow[(long)c * lda];
        const bool zero = S_IS_ZERO(pivot);
        if (lid == 0) {
            piv[offPiv + c] = prow0 + p + 1;
            if (zero && *info == 0) *info = icol0 + c + 1;
        }
        const scalar_t r = zero ? S_ONE : S_INV(pivot);
        for (int i = c + 1 + lid; i < m; i += TESSERA_GETRF_WG) {
            scalar_t l = col[i];
            if (!zero) l = S_MUL(l, r);
            col[i] = l;
            getrf_row_update(A + i, lda, l, prow, lda, c + 1, nc);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}

// Step c (0 ≤ c ≤ nc) of the xGETF2 leaf spread over G work-groups, for tall blocks: work-group g
// owns rows [g·rows_per_wg, (g+1)·rows_per_wg) of the block. Step c first finishes column c − 1
// (c > 0): every work-group reduces the candidates that step c − 1 wrote (the first row of largest
// cabs1, as izamax picks it), the owner of row c − 1 stores the pivot row there, the owner of the
// pivot row stores row c − 1's old values there, and every row below c − 1 is scaled and gets the
// rank-1 update. Then (c < nc) it searches column c: each work-group writes its candidate (cabs1,
// row) and the candidate row's nc values, and the owner of row c saves that row's values, for step
// c + 1. Candidates and saved rows alternate between two buffers by the parity of c, so a step never
// reads what it writes; they are the only memory a work-group reads that others write, and are read
// past the L1 cache (volatile), so that the steps may also run in one launch (tessera_getrf_leaf_grid).
// piv, info and the interchanges across the panel (jlo, jhi) as in tessera_getrf_leaf. Buffers:
// cand_v[2·G], cand_i[2·G], cand_row[2·G·nc] (row r of work-group g at (parity·G + g)·nc),
// saved_row[2·nc], all already offset.
inline void getrf_step(const int m, const int nc, const int c, const int rows_per_wg, __global scalar_t* A,
                       const int lda, __global int* piv, const ulong offPiv, const int prow0, __global int* info,
                       const int icol0, const int first, const int jlo, const int jhi,
                       volatile __global real_t* cand_v, volatile __global int* cand_i,
                       volatile __global scalar_t* cand_row, volatile __global scalar_t* saved_row,
                       __local real_t* best_v, __local int* best_i, __local int* best_g)
{
    const int lid = (int)get_local_id(0), g = (int)get_group_id(0), G = (int)get_num_groups(0);
    const int r0 = g * rows_per_wg, r1 = min(m, r0 + rows_per_wg);
    if (c > 0) {
        const int k = c - 1, par = k & 1;
        // The pivot of column k: the best of the G candidates, ties to the first row.
        real_t bv = (real_t)-2;
        int bi = m, bg = 0;
        for (int t = lid; t < G; t += TESSERA_GETRF_WG) {
            const real_t v = cand_v[par * G + t];
            const int i = cand_i[par * G + t];
            if (v > bv || (v == bv && i < bi)) { bv = v; bi = i; bg = t; }
        }
        const getrf_best_t best = getrf_best(best_v, best_i, best_g, bv, bi, bg);
        const int win = best.g, p = best.i;
        volatile __global const scalar_t* prow = cand_row + (long)(par * G + win) * nc;  // the pivot row, element j at prow[j]
        volatile __global const scalar_t* old = saved_row + par * nc;  // row k before the interchange
        const scalar_t pivot = prow[k];
        const bool zero = S_IS_ZERO(pivot);
        if (g == 0 && lid == 0) {
            if (first && k == 0) *info = 0;
            piv[offPiv + k] = prow0 + p + 1;
            if (zero && *info == 0) *info = icol0 + k + 1;
        }
        if (p != k) {
            // nc ≤ TESSERA_GETRF_LEAF_MAX < TESSERA_GETRF_WG: work-item j moves element j of a row.
            if (k >= r0 && k < r1 && lid < nc) A[k + (long)lid * lda] = prow[lid];
            if (p >= r0 && p < r1 && lid < nc) A[p + (long)lid * lda] = old[lid];
            // The panel's columns outside the block, which no other work-group reads: swapped in
            // place, spread over the work-groups (column j always by the same one).
            for (int j = jlo + g * TESSERA_GETRF_WG + lid; j < jhi; j += G * TESSERA_GETRF_WG)
                if (j < 0 || j >= nc) {
                    const scalar_t x = A[k + (long)j * lda];
                    A[k + (long)j * lda] = A[p + (long)j * lda];
                    A[p + (long)j * lda] = x;
                }
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        const scalar_t r = zero ? S_ONE : S_INV(pivot);
        for (int i = max(r0, k + 1) + lid; i < r1; i += TESSERA_GETRF_WG) {
            scalar_t l = A[i + (long)k * lda];
            if (!zero) l = S_MUL(l, r);
            A[i + (long)k * lda] = l;
            getrf_row_update_shared(A + i, lda, l, prow, 1, k + 1, nc);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    if (c < nc) {  // the search of column c over this work-group's rows at or below c
        const int par = c & 1;
        __global const scalar_t* col = A + (long)c * lda;
        // As tessera_getrf_leaf: row c when no entry compares larger than −1 (a column of NaNs).
        real_t bv = (real_t)-1;
        int bi = max(r0, c) < r1 ? max(r0, c) : m;
        for (int i = max(r0, c) + lid; i < r1; i += TESSERA_GETRF_WG) {
            const real_t v = S_ABS1(col[i]);
            if (v > bv) { bv = v; bi = i; }
        }
        const getrf_best_t best = getrf_best(best_v, best_i, best_g, bv, bi, 0);
        const int bi0 = best.i;
        if (lid == 0) {
            cand_v[par * G + g] = best.v;
            cand_i[par * G + g] = bi0;
        }
        if (bi0 < m && lid < nc) cand_row[(long)(par * G + g) * nc + lid] = A[bi0 + (long)lid * lda];
        if (c >= r0 && c < r1 && lid < nc) saved_row[par * nc + lid] = A[c + (long)lid * lda];
    }
}

// tessera_getrf_leaf_step: step c of getrf_step, one launch per column (nc + 1 launches per leaf, in
// order on one queue). Launch: 1-D, G work-groups of TESSERA_GETRF_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_GETRF_WG, 1, 1)))
void tessera_getrf_leaf_step(const int m, const int nc, const int c, const int rows_per_wg,
                             __global scalar_t* A, const ulong offA, const int lda,
                             __global int* piv, const ulong offPiv, const int prow0,
                             __global int* info, const int icol0, const int first, const int jlo, const int jhi,
                             __global real_t* cand_v, const ulong offV, __global int* cand_i, const ulong offI,
                             __global scalar_t* cand_row, const ulong offR, __global scalar_t* saved_row,
                             const ulong offS)
{
    __local real_t best_v[TESSERA_GETRF_WG];
    __local int best_i[TESSERA_GETRF_WG];
    __local int best_g[TESSERA_GETRF_WG];
    getrf_step(m, nc, c, rows_per_wg, A + offA, lda, piv, offPiv, prow0, info, icol0, first, jlo, jhi, cand_v + offV,
               cand_i + offI, cand_row + offR, saved_row + offS, best_v, best_i, best_g);
}

// Device-wide memory order for the grid barrier: NVIDIA's membar.gl (what CUDA's __threadfence
// is); elsewhere OpenCL's global fence.
#if defined(TESSERA_NV_SM)
#define GETRF_GRID_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define GETRF_GRID_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
// Spins of a work-group waiting at the grid barrier before it gives up: a few seconds on an H100
// (a spin is one L2 read, 0.1–0.3 µs) and on CPU devices (a few ns each).
#if defined(TESSERA_NV_SM)
#define GETRF_GRID_SPINS (1 << 24)
#else
#define GETRF_GRID_SPINS (1 << 30)
#endif

// The work-groups of one launch wait for each other (grid[0]: arrivals, grid[1]: generation,
// grid[2]: set when one gave up). Every work-group must be resident at once, which the launcher
// ensures by launching at most one per compute unit on a GPU. Returns 0, in every work-item of every
// work-group sooner or later, when a work-group waited GETRF_GRID_SPINS spins in vain (then the
// leaf is abandoned and reported through info).
inline int getrf_grid_sync(volatile __global int* grid, const int G, __local int* flag)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        GETRF_GRID_FENCE();
        const int gen = grid[1];
        if (atomic_inc(&grid[0]) == G - 1) {  // the last to arrive opens the next generation
            grid[0] = 0;
            GETRF_GRID_FENCE();
            atomic_inc(&grid[1]);
        } else {
            for (int s = 0; grid[1] == gen; ++s)
                if (grid[2] || s == GETRF_GRID_SPINS) {
                    grid[2] = 1;
                    break;
                }
        }
        GETRF_GRID_FENCE();
        *flag = grid[2] == 0;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    return *flag;
}

// tessera_getrf_leaf_grid: all nc + 1 steps of getrf_step in one launch, the work-groups meeting at
// a grid barrier between steps (grid: three ints, 0 before the launch). When the barrier gives up,
// the work-groups stop and *info = −1 (the launcher's caller reports it as an error).
// Launch: 1-D, G ≤ compute units work-groups of TESSERA_GETRF_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_GETRF_WG, 1, 1)))
void tessera_getrf_leaf_grid(const int m, const int nc, const int rows_per_wg,
                             __global scalar_t* A, const ulong offA, const int lda,
                             __global int* piv, const ulong offPiv, const int prow0,
                             __global int* info, const int icol0, const int first, const int jlo, const int jhi,
                             __global real_t* cand_v, const ulong offV, __global int* cand_i, const ulong offI,
                             __global scalar_t* cand_row, const ulong offR, __global scalar_t* saved_row,
                             const ulong offS, __global int* grid, const ulong offG)
{
    __local real_t best_v[TESSERA_GETRF_WG];
    __local int best_i[TESSERA_GETRF_WG];
    __local int best_g[TESSERA_GETRF_WG];
    __local int flag;
    const int G = (int)get_num_groups(0);
    for (int c = 0; c <= nc; ++c) {
        getrf_step(m, nc, c, rows_per_wg, A + offA, lda, piv, offPiv, prow0, info, icol0, first, jlo, jhi,
                   cand_v + offV, cand_i + offI, cand_row + offR, saved_row + offS, best_v, best_i, best_g);
        if (c < nc && !getrf_grid_sync(grid + offG, G, &flag)) {
            if (get_group_id(0) == 0 && get_local_id(0) == 0) *info = -1;
            return;
        }
    }
}

// tessera_getrf_pivots: out[offOut + t] = row0 + piv[offPiv + t] for t < n (panel rows → rows of
// the matrix, 1-based, 64-bit as the pivots handle holds them). Launch: 1-D, any sizes ≥ n.
__kernel void tessera_getrf_pivots(const int n, __global const int* piv, const ulong offPiv, const long row0,
                                   __global long* out, const ulong offOut)
{
    const int t = (int)get_global_id(0);
    if (t < n) out[offOut + t] = row0 + piv[offPiv + t];
}

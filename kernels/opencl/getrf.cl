// Partial-pivoting LU of a panel (launch_getrf.cpp): the unblocked leaf, in one work-group, or for a
// tall leaf over many work-groups (one launch per column, or one launch whose work-groups keep their
// rows in registers and meet at a grid barrier between columns), and the conversion of the panel's
// pivots to LAPACK's 1-based rows of the whole matrix. Column-major.

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

// a replaces itself by b when b is larger, or as large from a lower row.
#define GETRF_TAKE_BETTER(av, ai, ag, bv_, bi_, bg_)                                               \
    if ((bv_) > (av) || ((bv_) == (av) && (bi_) < (ai))) {                                        \
        av = (bv_);                                                                                \
        ai = (bi_);                                                                                \
        ag = (bg_);                                                                                \
    }

#if defined(TESSERA_NV_SM)
#ifndef TESSERA_NV_ASM
#define TESSERA_NV_ASM asm  // as gemm_nv.cl: offline analysis with clang uses __asm__
#endif
// The warp's best (v, i, g) in every lane: five butterfly rounds of shuffles.
inline void getrf_warp_best(real_t* v, int* i, int* g)
{
TESSERA_UNROLL
    for (int s = 16; s > 0; s >>= 1) {
        const real_t ov = tessera_shfl_xor_real(*v, s);
        const int oi = tessera_shfl_xor(*i, s), og = tessera_shfl_xor(*g, s);
        GETRF_TAKE_BETTER(*v, *i, *g, ov, oi, og)
    }
}
// On an NVIDIA GPU: each warp reduces its 32 offers by shuffles, the warps' bests meet in local
// memory, and every warp reduces those (two work-group barriers instead of eight rounds).
inline getrf_best_t getrf_best(__local real_t* bv, __local int* bi, __local int* bg, real_t v, int i, int g)
{
    const int lid = (int)get_local_id(0), lane = lid & 31, warps = TESSERA_GETRF_WG / 32;
    getrf_warp_best(&v, &i, &g);
    if (lane == 0) {
        bv[lid >> 5] = v;
        bi[lid >> 5] = i;
        bg[lid >> 5] = g;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    getrf_best_t r;
    r.v = lane < warps ? bv[lane] : (real_t)-3;
    r.i = lane < warps ? bi[lane] : INT_MAX;
    r.g = lane < warps ? bg[lane] : 0;
    getrf_warp_best(&r.v, &r.i, &r.g);
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#else
inline getrf_best_t getrf_best(__local real_t* bv, __local int* bi, __local int* bg, const real_t v, const int i,
                               const int g)
{
    const int lid = (int)get_local_id(0);
    bv[lid] = v;
    bi[lid] = i;
    bg[lid] = g;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = TESSERA_GETRF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) GETRF_TAKE_BETTER(bv[lid], bi[lid], bg[lid], bv[lid + s], bi[lid + s], bg[lid + s])
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    getrf_best_t r;
    r.v = bv[0];
    r.i = bi[0];
    r.g = bg[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#endif

// The pivot of a step of a leaf over G work-groups: the best of their candidates (cabs1 in
// cand_v, row in cand_i, work-group t's at par·G + t), ties to the first row, as izamax; .i is the
// row, .g the work-group that offered it. The candidates may have been written by other work-groups
// of the same launch (tessera_getrf_leaf_grid), so they are read past the L1 cache.
inline getrf_best_t getrf_pivot(volatile __global const real_t* cand_v, volatile __global const int* cand_i,
                                const int par, const int G, const int m, __local real_t* bv, __local int* bi,
                                __local int* bg)
{
    real_t v = (real_t)-2;
    int i = m, w = 0;
    for (int t = (int)get_local_id(0); t < G; t += TESSERA_GETRF_WG) {
        const real_t tv = cand_v[par * G + t];
        const int ti = cand_i[par * G + t];
        GETRF_TAKE_BETTER(v, i, w, tv, ti, t)
    }
    return getrf_best(bv, bi, bg, v, i, w);
}

// Row i's rank-1 update, A(i, j) −= l·U(j) for j0 ≤ j < nc with U(j) = u[j·ustride]: eight
// columns at a time, all their loads issued before any store (a loop of load, FMA, store per column
// waits out the memory latency once per column, since a store may alias the next load).
#define TESSERA_GETRF_CHUNK 8
inline void getrf_row_update(__global scalar_t* Ai, const int lda, const scalar_t l, __global const scalar_t* u,
                             const long ustride, const int j0, const int nc)
{
    for (int jc = j0; jc < nc; jc += TESSERA_GETRF_CHUNK) {
        scalar_t a[TESSERA_GETRF_CHUNK], b[TESSERA_GETRF_CHUNK];
TESSERA_UNROLL
        for (int t = 0; t < TESSERA_GETRF_CHUNK; ++t)
            if (jc + t < nc) {
                a[t] = Ai[(long)(jc + t) * lda];
                b[t] = u[(long)(jc + t) * ustride];
            }
TESSERA_UNROLL
        for (int t = 0; t < TESSERA_GETRF_CHUNK; ++t)
            if (jc + t < nc) Ai[(long)(jc + t) * lda] = S_FMA(-l, b[t], a[t]);
    }
}

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

// tessera_getrf_leaf_step: step c (0 ≤ c ≤ nc) of the same xGETF2 leaf spread over many
// work-groups, for tall blocks: work-group g owns rows [g·rows_per_wg, (g+1)·rows_per_wg) of the
// block, and one launch per column replaces the single work-group's loop (nc + 1 launches per leaf,
// in order on one queue). Step c first finishes column c − 1 (c > 0): every work-group reduces the
// candidates that step c − 1 wrote (the first row of largest cabs1, as izamax picks it), the owner of
// row c − 1 stores the pivot row there, the owner of the pivot row stores row c − 1's old values
// there, and every row below c − 1 is scaled and gets the rank-1 update. Then (c < nc) it searches
// column c: each work-group writes its candidate (cabs1, row) and the candidate row's nc values, and
// the owner of row c saves that row's values, for step c + 1. Candidates and saved rows alternate
// between two buffers by the parity of c, so a step never reads what it writes. piv, info and the
// interchanges across the panel (jlo, jhi) as in tessera_getrf_leaf. Buffers: cand_v[2·G],
// cand_i[2·G], cand_row[2·G·nc] (row r of work-group g at (parity·G + g)·nc), saved_row[2·nc].
// Launch: 1-D, G work-groups of TESSERA_GETRF_WG work-items.
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
    const int lid = (int)get_local_id(0), g = (int)get_group_id(0), G = (int)get_num_groups(0);
    const int r0 = g * rows_per_wg, r1 = min(m, r0 + rows_per_wg);
    A += offA;
    cand_v += offV;
    cand_i += offI;
    cand_row += offR;
    saved_row += offS;
    if (c > 0) {
        const int k = c - 1, par = k & 1;
        const getrf_best_t best = getrf_pivot(cand_v, cand_i, par, G, m, best_v, best_i, best_g);
        const int win = best.g, p = best.i;
        __global const scalar_t* prow = cand_row + (long)(par * G + win) * nc;  // the pivot row, element j at prow[j]
        __global const scalar_t* old = saved_row + par * nc;                      // row k before the interchange
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
            // The panel's columns outside the block, which no other work-group reads in this step:
            // swapped in place, spread over the work-groups.
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
            getrf_row_update(A + i, lda, l, prow, 1, k + 1, nc);
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

// The exchange between the work-groups of a one-launch leaf (tessera_getrf_leaf_grid). grid[0] is
// set when a work-group gave up waiting; grid[1 + g] is the tag of the last column work-group g
// published (tags grow through the panel). A work-group publishes column c's candidate (its value,
// row and the row's values) and then its tag; the others wait for the tag, read the candidate
// after it, and reduce the G candidates themselves: one exchange through memory per column, no
// counter that every work-group increments in turn. The tag is stored and read by the prelude's
// tessera_flag_publish and tessera_flag_read (release and acquire at GPU scope on NVIDIA).
// Spins of a work-item waiting for a tag before it gives up: a few seconds on an H100 (a spin is
// one L2 read, 0.1–0.3 µs) and on CPU devices (a few ns each). A build with 0 (a test) gives up at
// every wait.
#ifndef GETRF_GRID_SPINS
#if defined(TESSERA_NV_SM)
#define GETRF_GRID_SPINS (1 << 24)
#else
#define GETRF_GRID_SPINS (1 << 30)
#endif
#endif

// This work-group publishes its column: the work-group's stores (candidate, rows) are ordered
// before its tag by the barrier and the release.
inline void getrf_grid_publish(volatile __global int* grid, const int g, const int tag)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) tessera_flag_publish(grid + 1 + g, tag);
}

// The pivot of a column of a one-launch leaf: work-item t waits for work-group t's tag (and t +
// TESSERA_GETRF_WG, …) to reach this column's (it may be past it: a work-group can publish the
// next column before another has read this one), then reads its candidate; the work-group reduces
// them as getrf_pivot.
// *ok becomes 0 in every work-item when a wait gave up or another work-group had (grid[0]), and
// grid[0] is then set for the others.
inline getrf_best_t getrf_grid_pivot(volatile __global int* grid, const int tag, volatile __global const real_t* cand_v,
                                     volatile __global const int* cand_i, const int par, const int G, const int m,
                                     __local real_t* bv, __local int* bi, __local int* bg, __local int* stop,
                                     int* ok)
{
    real_t v = (real_t)-2;
    int i = m, w = 0, quit = 0;
    for (int t = (int)get_local_id(0); t < G && !quit; t += TESSERA_GETRF_WG) {
        for (int s = 0;; ++s) {
            if (GETRF_GRID_SPINS != 0 && tessera_flag_read(grid + 1 + t) >= tag) break;
            if (s >= GETRF_GRID_SPINS || grid[0]) {
                grid[0] = 1;
                quit = 1;
                break;
            }
        }
        if (quit) break;
        const real_t tv = cand_v[par * G + t];
        const int ti = cand_i[par * G + t];
        GETRF_TAKE_BETTER(v, i, w, tv, ti, t)
    }
    if (get_local_id(0) == 0) *stop = grid[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (quit) *stop = 1;
    const getrf_best_t r = getrf_best(bv, bi, bg, v, i, w);  // its barriers order *stop
    *ok = *stop == 0;
    return r;
}

#ifndef TESSERA_GETRF_LEAF
#define TESSERA_GETRF_LEAF 32  // the launcher's leaf width (param_table.hpp's default)
#endif
// Rows each work-item of tessera_getrf_leaf_grid keeps in registers: on an NVIDIA GPU one row of at
// most 64 doubles (a row of 32 doubles takes 178 registers and none spill, two rows spilled:
// ptxas -v for sm_90; launch_getrf.cpp's grid_rows_per_item() says the same), 0 (no such leaves)
// for wider rows; 8 on other devices.
#if defined(TESSERA_NV_SM)
#ifdef TESSERA_COMPLEX
#define GETRF_GRID_WORDS (2 * TESSERA_GETRF_LEAF)
#else
#define GETRF_GRID_WORDS TESSERA_GETRF_LEAF
#endif
#define GETRF_GRID_RPT (GETRF_GRID_WORDS <= 64 ? 1 : 0)
#else
#define GETRF_GRID_RPT 8
#endif

// tessera_getrf_leaf_grid: the xGETF2 leaf of a tall block (nc ≤ TESSERA_GETRF_LEAF) in one launch,
// its G work-groups exchanging their candidates once per column through grid (1 + G ints, 0 before
// the panel's first such launch; getrf_grid_pivot). Work-group g owns rows [g·rows_per_wg,
// (g+1)·rows_per_wg) (rows_per_wg a multiple of TESSERA_GETRF_WG, at most GETRF_GRID_RPT rows per
// work-item), and each work-item keeps the columns not yet factored of its rows in registers,
// shifted one place per column so that every index is a constant (v[t][j] is column c + j at
// column c): a column costs two work-group reductions and one exchange, and the only memory
// traffic is the candidates and the finished values (each row's multiplier, the pivot row). For
// column c: each work-group finds its candidate (first largest cabs1 at or below c) and publishes
// it with its row, and the owner of row c saves that row (buffers alternate by the parity of c, as
// in tessera_getrf_leaf_step, and are read past the L1 cache; a work-group reaches column c + 2
// only after every other has published c + 1, so it never overwrites what one still reads); then
// every work-group reduces the G candidates to the pivot (ties to the first row), the owners of
// rows c and p exchange their registers, the columns of the two rows already in memory (left of c)
// are interchanged there (column j always by the same work-group, past the L1 cache: other
// work-groups wrote them), row c is stored, and every row below c stores its multiplier and
// updates the rest. piv, info, jlo and jhi as in tessera_getrf_leaf; when a wait gives up (or
// rows_per_wg is not as above), the work-groups stop and grid[0] is set (the launcher reports it
// as an error). Launch: 1-D, G ≤ compute units work-groups of TESSERA_GETRF_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_GETRF_WG, 1, 1)))
void tessera_getrf_leaf_grid(const int m, const int nc, const int rows_per_wg,
                             __global scalar_t* A, const ulong offA, const int lda,
                             __global int* piv, const ulong offPiv, const int prow0,
                             __global int* info, const int icol0, const int first, const int jlo, const int jhi,
                             __global real_t* cand_v_, const ulong offV, __global int* cand_i_, const ulong offI,
                             __global scalar_t* cand_row_, const ulong offR, __global scalar_t* saved_row_,
                             const ulong offS, __global int* grid, const ulong offG)
{
    __local real_t best_v[TESSERA_GETRF_WG];
    __local int best_i[TESSERA_GETRF_WG];
    __local int best_g[TESSERA_GETRF_WG];
    __local scalar_t urow[TESSERA_GETRF_LEAF];  // the pivot row from column c on
    __local int stop;
    const int lid = (int)get_local_id(0), g = (int)get_group_id(0), G = (int)get_num_groups(0);
    const int r0 = g * rows_per_wg, r1 = min(m, r0 + rows_per_wg), rpt = rows_per_wg / TESSERA_GETRF_WG;
    volatile __global int* gridv = grid + offG;
    if (rpt < 1 || rpt > GETRF_GRID_RPT || rpt * TESSERA_GETRF_WG != rows_per_wg) {  // uniform; never so launched
        if (lid == 0) gridv[0] = 1;
        return;
    }
    volatile __global real_t* cand_v = cand_v_ + offV;
    volatile __global int* cand_i = cand_i_ + offI;
    volatile __global scalar_t* cand_row = cand_row_ + offR;
    volatile __global scalar_t* saved_row = saved_row_ + offS;
    A += offA;
    volatile __global scalar_t* Av = A;

    scalar_t v[GETRF_GRID_RPT > 0 ? GETRF_GRID_RPT : 1][TESSERA_GETRF_LEAF];
TESSERA_UNROLL
    for (int t = 0; t < GETRF_GRID_RPT; ++t) {
        const int i = r0 + lid + t * TESSERA_GETRF_WG;
TESSERA_UNROLL
        for (int j = 0; j < TESSERA_GETRF_LEAF; ++j)
            v[t][j] = (t < rpt && i < r1 && j < nc) ? A[i + (long)j * lda] : S_ZERO;
    }
    for (int c = 0; c < nc; ++c) {
        const int par = c & 1, left = nc - c;  // columns c .. nc−1 are v[t][0 .. left−1]
        // This work-group's candidate for column c (row c when nothing compares larger than −1).
        real_t bv = (real_t)-1;
        int bi = max(r0, c) < r1 ? max(r0, c) : m;
TESSERA_UNROLL
        for (int t = 0; t < GETRF_GRID_RPT; ++t) {
            const int i = r0 + lid + t * TESSERA_GETRF_WG;
            if (t < rpt && i >= c && i < r1) {
                const real_t a = S_ABS1(v[t][0]);
                if (a > bv) { bv = a; bi = i; }
            }
        }
        const getrf_best_t best = getrf_best(best_v, best_i, best_g, bv, bi, 0);
        if (lid == 0) {
            cand_v[par * G + g] = best.v;
            cand_i[par * G + g] = best.i;
        }
TESSERA_UNROLL
        for (int t = 0; t < GETRF_GRID_RPT; ++t) {
            const int i = r0 + lid + t * TESSERA_GETRF_WG;
            if (t < rpt && i < r1 && (i == best.i || i == c))
TESSERA_UNROLL
                for (int j = 0; j < TESSERA_GETRF_LEAF; ++j)
                    if (j < left) {
                        if (i == best.i) cand_row[(long)(par * G + g) * nc + c + j] = v[t][j];
                        if (i == c) saved_row[par * nc + c + j] = v[t][j];
                    }
        }
        const int tag = prow0 + c + 1;  // the panel's column, counted from 1: new in every leaf of the panel
        getrf_grid_publish(gridv, g, tag);
        int ok;
        const getrf_best_t win =
            getrf_grid_pivot(gridv, tag, cand_v, cand_i, par, G, m, best_v, best_i, best_g, &stop, &ok);
        if (!ok) return;  // uniform
        const int p = win.i;
        volatile __global const scalar_t* prow = cand_row + (long)(par * G + win.g) * nc + c;
        volatile __global const scalar_t* old = saved_row + par * nc + c;  // row c before the interchange
        if (lid < left) urow[lid] = prow[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        const scalar_t pivot = urow[0];
        const bool zero = S_IS_ZERO(pivot);
        if (g == 0 && lid == 0) {
            if (first && c == 0) *info = 0;
            piv[offPiv + c] = prow0 + p + 1;
            if (zero && *info == 0) *info = icol0 + c + 1;
        }
        if (p != c) {
TESSERA_UNROLL
            for (int t = 0; t < GETRF_GRID_RPT; ++t) {
                const int i = r0 + lid + t * TESSERA_GETRF_WG;
                if (t < rpt && i == c)
TESSERA_UNROLL
                    for (int j = 0; j < TESSERA_GETRF_LEAF; ++j) v[t][j] = j < left ? urow[j] : S_ZERO;
                if (t < rpt && i == p)
TESSERA_UNROLL
                    for (int j = 0; j < TESSERA_GETRF_LEAF; ++j) v[t][j] = j < left ? old[j] : S_ZERO;
            }
            for (int j = jlo + g * TESSERA_GETRF_WG + lid; j < jhi; j += G * TESSERA_GETRF_WG)
                if (j < c || j >= nc) {
                    const scalar_t x = Av[c + (long)j * lda];
                    Av[c + (long)j * lda] = Av[p + (long)j * lda];
                    Av[p + (long)j * lda] = x;
                }
        }
        const scalar_t r = zero ? S_ONE : S_INV(pivot);
TESSERA_UNROLL
        for (int t = 0; t < GETRF_GRID_RPT; ++t) {
            const int i = r0 + lid + t * TESSERA_GETRF_WG;
            if (t < rpt && i == c) {  // row c of U, final
TESSERA_UNROLL
                for (int j = 0; j < TESSERA_GETRF_LEAF; ++j)
                    if (j < left) A[i + (long)(c + j) * lda] = v[t][j];
            } else if (t < rpt && i > c && i < r1) {
                scalar_t l = v[t][0];
                if (!zero) l = S_MUL(l, r);
                A[i + (long)c * lda] = l;
TESSERA_UNROLL
                for (int j = 1; j < TESSERA_GETRF_LEAF; ++j)
                    if (j < left) v[t][j] = S_FMA(-l, urow[j], v[t][j]);
            }
TESSERA_UNROLL
            for (int j = 0; j + 1 < TESSERA_GETRF_LEAF; ++j) v[t][j] = v[t][j + 1];
            v[t][TESSERA_GETRF_LEAF - 1] = S_ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // urow is written again by the next column
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

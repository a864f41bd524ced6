// tessera_trtri_blocks: inverses of the diagonal blocks of a triangular matrix, for the blocked
// xTRSM of launch.cpp (invert the diagonal blocks, then solve leaves with tessera_trsm_leaf below
// and the rest with GEMMs, as MAGMA's trsm does; the inversion of one block is LAPACK's xTRTI2).
//
// M is dim×dim triangular, addressed through strides, M(i,p) = A[i·sai + p·sap], conjugated when
// `conj`, so that the launcher's M = op(A) or op(A)ᵀ costs nothing; `lower` says whether M (not A) is lower
// triangular. Only M's referenced triangle is read, and its diagonal is not read when `unit`.
// Diagonal block K covers rows and columns k0 = K·BS .. k0 + kn − 1, kn = min(BS, dim − k0).
//
// Output: W(K) = M(K,K)⁻¹ as a dense kn×kn column-major block, W(K)(i,p) = W[K·strideK + i +
// p·ldw], zero in its other triangle: the blocked trsm packs the blocks (ldw = BS, strideK = BS²),
// the recursive trtri places them on the diagonal of its output (strideK = BS·(ldw + 1)).
//
// One work-group of BS work-items per block. The block is staged in local memory (loads
// coalesced along whichever index of A is contiguous) as a lower triangular L: L = M(K,K) when
// lower, else L(r,c) = M(K,K)(kn−1−r, kn−1−c), the reversal that makes an upper triangle lower
// and commutes with inversion. L is inverted in place in two steps:
// - its diagonal sub-blocks of TRTRI_LEAF (16) rows at once, each column by column from the right
//   as in xTRTI2: with the diagonal inverted first and the columns right of j already inverted,
//     L⁻¹(r, j) = −L⁻¹(j,j) · Σ_{j<p≤r} L⁻¹(r,p)·L(p,j)   for r > j in j's sub-block,
//   one row r per work-item, two barriers per column;
// - then pairs of inverted h×h blocks merged into 2h×2h ones, h = 16, 32, …, all pairs at once,
//   as xTRTRI's blocked step: [L11 0; L21 L22]⁻¹ has W21 = −W22·(L21·W11), X = L21·W11 in local
//   memory (BS·BS/4 scalars at most).
// So the sequential part is 16 columns and log2(BS/16) products, not BS columns (on an H100 the
// launch for 64-row blocks went from 56 to 36 µs; bench/gpu_task_shapes.md, session 10).
// Then W(K) is written back (reversed again). BS·(BS+1) + BS²/4 scalars of local memory: BS = 64
// takes 41 KB in double, BS = 32 21 KB in complex double.
//
// Launch: local size BS, global size ceil(dim/BS)·BS.

#ifndef TESSERA_TRSM_BS
#define TESSERA_TRSM_BS 64  // rows and columns of a diagonal block (= work-items per work-group)
#endif

#define TRTRI_BS TESSERA_TRSM_BS
#define TRTRI_LEAF (TRTRI_BS < 16 ? TRTRI_BS : 16)  // rows of the sub-blocks inverted column by column

// Row/column x of the block in L's order: reversed within the first kn when M is upper.
int tessera_trtri_rev(const int x, const int kn, const int upper)
{
    return (upper && x < kn) ? kn - 1 - x : x;
}

#if TRTRI_BS > 64
#error "TESSERA_TRSM_BS above 64: tessera_trtri_blocks merges blocks of 16 up to 64 only"
#endif

// One merge step: pairs of inverted h×h blocks of L (row-major, leading dimension BS + 1) at b,
// 2h apart, become 2h×2h ones: X = L21·W11, then W21 = −W22·X. A step has BS·h/2 entries, h/2
// per work-item: entry e = lid + t·BS is pair e / h², row i = e mod h, column c = (e / h) mod h.
// The loops over p are outermost, so that a work-item's h/2 multiply-adds per p are independent
// (one entry per work-item at a time left two warps waiting on local memory: 40 µs a block of
// 64). The triangles above the blocks' diagonals are zero, so p runs over whole blocks.
void tessera_trtri_merge(__local scalar_t* L, __local scalar_t* X, const int h)
{
    const int lid = (int)get_local_id(0);
    scalar_t acc[TRTRI_BS / 4];
TESSERA_UNROLL
    for (int t = 0; t < h / 2; ++t) acc[t] = S_ZERO;
    for (int p = 0; p < h; ++p) {
TESSERA_UNROLL
        for (int t = 0; t < h / 2; ++t) {
            const int e = lid + t * TRTRI_BS, b = e / (h * h) * 2 * h, i = e % h, c = e / h % h;
            acc[t] = S_FMA(L[(b + h + i) * (TRTRI_BS + 1) + b + p], L[(b + p) * (TRTRI_BS + 1) + b + c], acc[t]);
        }
    }
TESSERA_UNROLL
    for (int t = 0; t < h / 2; ++t) {
        X[lid + t * TRTRI_BS] = acc[t];
        acc[t] = S_ZERO;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < h; ++p) {
TESSERA_UNROLL
        for (int t = 0; t < h / 2; ++t) {
            const int e = lid + t * TRTRI_BS, b = e / (h * h) * 2 * h, i = e % h, c = e / h % h;
            acc[t] = S_FMA(L[(b + h + i) * (TRTRI_BS + 1) + b + h + p], X[e - e % (h * h) + c * h + p], acc[t]);
        }
    }
TESSERA_UNROLL
    for (int t = 0; t < h / 2; ++t) {  // W21 in L21's place: the second product read only W22 and X
        const int e = lid + t * TRTRI_BS, b = e / (h * h) * 2 * h, i = e % h, c = e / h % h;
        L[(b + h + i) * (TRTRI_BS + 1) + b + c] = -acc[t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(TRTRI_BS, 1, 1)))
void tessera_trtri_blocks(const int dim, const int lower, const int unit, const int conj,
                          __global const scalar_t* A, const ulong offA, const int sai, const int sap,
                          __global scalar_t* W, const ulong offW, const int ldw, const ulong strideK)
{
    __local scalar_t L[TRTRI_BS][TRTRI_BS + 1];
    __local scalar_t X[TRTRI_BS * TRTRI_BS / 4 + 1];

    const int lid = (int)get_local_id(0);
    const int k0 = (int)get_group_id(0) * TRTRI_BS;
    const int kn = min(TRTRI_BS, dim - k0);
    const int upper = !lower;
    A += offA + (ulong)k0 * (ulong)(sai + sap);
    W += offW + (ulong)get_group_id(0) * strideK;

    // Stage M(K,K): its referenced triangle, 1 on the diagonal when unit, identity padding.
    const int along_i = (sai == 1);  // M(i,p) contiguous along i
TESSERA_UNROLL_BY(8)
    for (int it = 0; it < TRTRI_BS; ++it) {  // unrolled: several loads in flight per work-item
        const int e = it * TRTRI_BS + lid;
        const int i = along_i ? e % TRTRI_BS : e / TRTRI_BS;
        const int p = along_i ? e / TRTRI_BS : e % TRTRI_BS;
        scalar_t v = (i == p) ? S_ONE : S_ZERO;
        if (i < kn && p < kn && (lower ? p <= i : p >= i) && !(unit && i == p)) {
            v = A[(long)i * sai + (long)p * sap];
            if (conj) v = S_CONJ(v);
        }
        L[tessera_trtri_rev(i, kn, upper)][tessera_trtri_rev(p, kn, upper)] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    L[lid][lid] = S_INV(L[lid][lid]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // The sub-blocks of TRTRI_LEAF: column jj = LEAF−2 .. 0 of each at once (the padding, past kn,
    // is the identity: its own inverse, and it stays decoupled).
    const int b0 = lid - lid % TRTRI_LEAF;  // first row of this work-item's sub-block
    for (int jj = TRTRI_LEAF - 2; jj >= 0; --jj) {
        const int j = b0 + jj;
        scalar_t s = S_ZERO;
        const int active = lid > j;
        if (active) {
TESSERA_UNROLL_BY(4)
            for (int p = j + 1; p <= lid; ++p) s = S_FMA(L[lid][p], L[p][j], s);
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // column j read by all before it is overwritten
        if (active) L[lid][j] = -S_MUL(L[j][j], s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#if TRTRI_BS > 16
    tessera_trtri_merge(&L[0][0], X, 16);
#endif
#if TRTRI_BS > 32
    tessera_trtri_merge(&L[0][0], X, 32);
#endif

TESSERA_UNROLL_BY(8)
    for (int it = 0; it < TRTRI_BS; ++it) {
        const int e = it * TRTRI_BS + lid, i = e % TRTRI_BS, p = e / TRTRI_BS;
        if (i < kn && p < kn)
            W[i + (long)p * ldw] = L[tessera_trtri_rev(i, kn, upper)][tessera_trtri_rev(p, kn, upper)];
    }
}

// tessera_trsm_leaf: the solve M·X = alpha·Y on a leaf of the blocked trsm, rows r0 .. r0 + ln of
// M and Y (r0 a multiple of BS, ln ≤ a few BS), in one launch: the sub-blocks K of BS rows in
// the order of the substitution (forward when M is lower, backward when upper), each
//   Y(K) = alpha·Y(K) − Σ_J M(K,J)·X(J)   over the sub-blocks J of the leaf already solved,
//   X(K) = W(K)·Y(K)                      W(K) = M(K,K)⁻¹ from tessera_trtri_blocks.
// The updates from rows outside the leaf have been applied by the launcher's GEMMs, alpha
// included. Y(i,v) = B[i·sbi + v·sbv] (Left: B; Right: Bᵀ) is overwritten by X; M(i,p) =
// A[i·sai + p·sap], conjugated when `conj`, is read only in the blocks below (lower) or above the
// diagonal; W(K) is dense, column-major with leading dimension BS, at W[K·BS²] for the global
// block index K = row / BS.
//
// One work-group of BS·TRSM_NG work-items per TRSM_NG·TRSM_NV columns of Y: work-item (t, g)
// owns row t of the current sub-block in the g-th group of TRSM_NV columns and keeps those
// entries in registers. Every operand passes through local memory, loaded by the whole
// work-group along whichever index is contiguous: the BS×BS block of −M(K,J) or W(K) (G below,
// shared by the column groups) and the BS×(NG·NV) block of X(J) or Y(K) (V below); the inner
// loop then reads only local memory. An X(J) the work-group solved earlier is read back from B
// after a global-memory barrier. BS·(BS + 1 + NG·NV) scalars of local memory: 37 KB in double
// at BS 64, NG 4, NV 2.
//
// Launch: local size BS·TRSM_NG, global size ceil(nvec / (TRSM_NG·TRSM_NV))·BS·TRSM_NG.

#ifndef TESSERA_TRSM_NV
#define TESSERA_TRSM_NV 2  // columns of Y per work-item of tessera_trsm_leaf
#endif
#ifndef TESSERA_TRSM_NG
#define TESSERA_TRSM_NG 4  // groups of TRSM_NV columns per work-group of tessera_trsm_leaf
#endif

#define TRSM_NV TESSERA_TRSM_NV
#define TRSM_NT (TRTRI_BS * TESSERA_TRSM_NG)  // work-items
#define TRSM_VW (TRSM_NV * TESSERA_TRSM_NG)   // columns of Y per work-group
#define TRSM_LDG (TRTRI_BS + 1)

// G[r·LDG + p] = sign·P(r, p) for r < rn, p < pn (conjugated when conj), zero elsewhere;
// P(r, p) = P[r·si + p·sp].
void tessera_trsm_load_g(__local scalar_t* G, __global const scalar_t* P, const int si, const int sp, const int rn,
                         const int pn, const int conj, const real_t sign)
{
    const int along_r = (si == 1);
TESSERA_UNROLL_BY(8)
    for (int it = 0; it < TRTRI_BS * TRTRI_BS / TRSM_NT; ++it) {  // unrolled: several loads in flight
        const int e = it * TRSM_NT + (int)get_local_id(0);
        const int r = along_r ? e % TRTRI_BS : e / TRTRI_BS;
        const int p = along_r ? e / TRTRI_BS : e % TRTRI_BS;
        scalar_t g = S_ZERO;
        if (r < rn && p < pn) {
            g = P[(long)r * si + (long)p * sp];
            if (conj) g = S_CONJ(g);
        }
        G[r * TRSM_LDG + p] = sign * g;
    }
}

// The BS×VW block of Y at (y0, v0) and V[r·VW + c]: V = Y (zero outside r < kn, c < nv) or,
// when `store`, Y = V within r < kn, c < nv.
void tessera_trsm_move_v(__local scalar_t* V, __global scalar_t* B, const int y0, const int kn, const int v0,
                         const int nv, const int sbi, const int sbv, const int store)
{
    const int along_i = (sbi == 1);
TESSERA_UNROLL
    for (int it = 0; it < TRSM_NV; ++it) {
        const int e = it * TRSM_NT + (int)get_local_id(0);
        const int r = along_i ? e % TRTRI_BS : e / TRSM_VW;
        const int c = along_i ? e / TRTRI_BS : e % TRSM_VW;
        const int in = r < kn && c < nv;
        __global scalar_t* y = B + (long)(y0 + r) * sbi + (long)(v0 + c) * sbv;
        if (!store) V[r * TRSM_VW + c] = in ? *y : S_ZERO;
        else if (in) *y = V[r * TRSM_VW + c];
    }
}

__kernel __attribute__((reqd_work_group_size(TRSM_NT, 1, 1)))
void tessera_trsm_leaf(const int r0, const int ln, const int nvec, const int lower, const int conj,
                       const scalar_t alpha, __global const scalar_t* A, const ulong offA, const int sai,
                       const int sap, __global const scalar_t* W, const ulong offW, __global scalar_t* B,
                       const ulong offB, const int sbi, const int sbv)
{
    __local scalar_t G[TRTRI_BS * TRSM_LDG];
    __local scalar_t V[TRTRI_BS * TRSM_VW];
    scalar_t acc[TRSM_NV];

    const int t = (int)get_local_id(0) % TRTRI_BS;            // row of the sub-block
    const int cg = (int)get_local_id(0) / TRTRI_BS * TRSM_NV;  // first column of V of this work-item
    const int v0 = (int)get_group_id(0) * TRSM_VW, nv = min(TRSM_VW, nvec - v0);
    const int nsub = (ln + TRTRI_BS - 1) / TRTRI_BS;
    A += offA;
    W += offW;
    B += offB;

    for (int s = 0; s < nsub; ++s) {
        const int k = lower ? s : nsub - 1 - s;
        const int y0 = r0 + k * TRTRI_BS, kn = min(TRTRI_BS, ln - k * TRTRI_BS);
        // The X(J) stored by the previous sub-block visible, G and V free.
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        tessera_trsm_move_v(V, B, y0, kn, v0, nv, sbi, sbv, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int c = 0; c < TRSM_NV; ++c) acc[c] = S_MUL(alpha, V[t * TRSM_VW + cg + c]);

        // Y(K) += (−M(K,J))·X(J) for the sub-blocks J solved before K.
        for (int d = 0; d < s; ++d) {
            const int j = lower ? d : nsub - 1 - d;
            const int x0 = r0 + j * TRTRI_BS, jn = min(TRTRI_BS, ln - j * TRTRI_BS);
            barrier(CLK_LOCAL_MEM_FENCE);
            tessera_trsm_load_g(G, A + (long)y0 * sai + (long)x0 * sap, sai, sap, kn, jn, conj, (real_t)-1);
            tessera_trsm_move_v(V, B, x0, jn, v0, nv, sbi, sbv, 0);
            barrier(CLK_LOCAL_MEM_FENCE);
TESSERA_UNROLL_BY(4)
            for (int p = 0; p < jn; ++p) {
                const scalar_t g = G[t * TRSM_LDG + p];
                for (int c = 0; c < TRSM_NV; ++c) acc[c] = S_FMA(g, V[p * TRSM_VW + cg + c], acc[c]);
            }
        }

        // X(K) = W(K)·Y(K).
        barrier(CLK_LOCAL_MEM_FENCE);
        tessera_trsm_load_g(G, W + (long)(y0 / TRTRI_BS) * (TRTRI_BS * TRTRI_BS), 1, TRTRI_BS, kn, kn, 0, (real_t)1);
        for (int c = 0; c < TRSM_NV; ++c) V[t * TRSM_VW + cg + c] = acc[c];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int c = 0; c < TRSM_NV; ++c) acc[c] = S_ZERO;
TESSERA_UNROLL_BY(4)
        for (int p = 0; p < kn; ++p) {
            const scalar_t g = G[t * TRSM_LDG + p];
            for (int c = 0; c < TRSM_NV; ++c) acc[c] = S_FMA(g, V[p * TRSM_VW + cg + c], acc[c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int c = 0; c < TRSM_NV; ++c) V[t * TRSM_VW + cg + c] = acc[c];
        barrier(CLK_LOCAL_MEM_FENCE);
        tessera_trsm_move_v(V, B, y0, kn, v0, nv, sbi, sbv, 1);
    }
}

// tessera_trsm_chain: the whole solve M·X = alpha·Y for at most TRSM_CHAIN_NC columns of Y (the
// solves of one right-hand side) in one launch, one work-group per diagonal block K of BS rows, the
// blocks meeting through memory instead of through launches. M, Y, W and conj as in
// tessera_trsm_leaf, over all dim rows; alpha is applied here.
//   X(K) = W(K)·(alpha·Y(K) − Σ_J M(K,J)·X(J))   over the blocks J before K in the substitution.
// A work-group takes its place s in the substitution from a ticket (sync[0], atomically
// incremented) rather than from its group id, so it waits only on blocks whose work-groups have
// started: it never waits on a work-group the device has not scheduled, whatever the order or
// residency of work-groups. Block J's X(J) is ready when its tag sync[1 + J] is set (getrf.cl's
// the prelude's tessera_flag_publish / tessera_flag_read: release / acquire), and is then read past the L1 cache.
// The work-group folds in, in one pass, every block already solved (at its start most are), and
// waits only when none is; the last block before K, M(K,J) of the diagonal's neighbour, is loaded
// into registers at the start, with W(K) and alpha·Y(K), so that what follows its tag is
// arithmetic on registers and local memory. Work-item (t, g) owns row t of the block and the g-th
// of NG shares of a block's columns (PG = BS/NG); each X(J) is staged in local memory, and the
// shares meet there (NG·BS·TRSM_CHAIN_NC scalars).
// sync holds 1 + ceil(dim/BS) ints, zero before the launch (the launcher fills them).
// Launch: local size BS·TRSM_NG, global size ceil(dim/BS)·BS·TRSM_NG.

#define TRSM_CHAIN_NC 8                              // columns of Y at most (param_table.hpp's kTrsmChainColumns)
#define TRSM_CHAIN_PG (TRTRI_BS / TESSERA_TRSM_NG)  // columns of a block in a work-item's share
#define TRSM_CHAIN_INLINE static inline __attribute__((always_inline))  // its arrays stay in registers

// acc += M(K,J)·X(J) over this work-item's row t and share p0 .. p0 + PG of J's rows (m: M(K,J)'s
// entries of that share, zero outside the block). X(J) is staged in Xs first (Xs[p·NC + c], columns
// below nvec), each entry read once from memory, past the L1 cache, by one work-item: read by every
// work-item from memory, as volatile loads that the device issues one after another, a block's 16
// reads took most of the 8 µs a block cost (H200). A barrier on each side of the staging: the first
// also ends the previous fold's reads of Xs.
TRSM_CHAIN_INLINE void tessera_trsm_chain_fold(scalar_t* acc, const scalar_t* m, __local scalar_t* Xs,
                                               volatile __global const scalar_t* B, const int x0, const int jn,
                                               const int p0, const int nvec, const int sbi, const int sbv)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = (int)get_local_id(0); e < TRTRI_BS * nvec; e += TRSM_NT) {
        const int p = e % TRTRI_BS, c = e / TRTRI_BS;
        Xs[p * TRSM_CHAIN_NC + c] = p < jn ? B[(long)(x0 + p) * sbi + (long)c * sbv] : S_ZERO;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
TESSERA_UNROLL
    for (int q = 0; q < TRSM_CHAIN_PG; ++q) {
        const int p = p0 + q;
TESSERA_UNROLL
        for (int c = 0; c < TRSM_CHAIN_NC; ++c)
            if (c < nvec) acc[c] = S_FMA(m[q], Xs[p * TRSM_CHAIN_NC + c], acc[c]);
    }
}

// m = this work-item's share of M(K,J) (rows y0 + t, kn of them; columns x0 + p0 .., jn of them).
TRSM_CHAIN_INLINE void tessera_trsm_chain_load(scalar_t* m, __global const scalar_t* A, const int y0, const int kn,
                                               const int x0, const int jn, const int t, const int p0, const int sai,
                                               const int sap, const int conj)
{
TESSERA_UNROLL
    for (int q = 0; q < TRSM_CHAIN_PG; ++q) {
        const int p = p0 + q;
        scalar_t v = S_ZERO;
        if (t < kn && p < jn) {
            v = A[(long)(y0 + t) * sai + (long)(x0 + p) * sap];
            if (conj) v = S_CONJ(v);
        }
        m[q] = v;
    }
}

__kernel __attribute__((reqd_work_group_size(TRSM_NT, 1, 1)))
void tessera_trsm_chain(const int dim, const int nvec, const int lower, const int conj, const scalar_t alpha,
                        __global const scalar_t* A, const ulong offA, const int sai, const int sap,
                        __global const scalar_t* W, const ulong offW, __global scalar_t* B_, const ulong offB,
                        const int sbi, const int sbv, __global int* sync_, const ulong offS)
{
    __local scalar_t P[TESSERA_TRSM_NG * TRTRI_BS * TRSM_CHAIN_NC];  // X(J) staged (folds), then the shares' partial sums [g][t][c]
    __local int ticket, ready;

    const int lid = (int)get_local_id(0);
    const int t = lid % TRTRI_BS, g = lid / TRTRI_BS, p0 = g * TRSM_CHAIN_PG;
    volatile __global int* sync = sync_ + offS;
    volatile __global scalar_t* B = B_ + offB;
    A += offA;
    W += offW;
    if (lid == 0) ticket = atomic_inc(sync);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int nblk = (dim + TRTRI_BS - 1) / TRTRI_BS, s = ticket;
#define TRSM_CHAIN_BLOCK(d) (lower ? (d) : nblk - 1 - (d))  // the block d-th in the substitution
    const int K = TRSM_CHAIN_BLOCK(s);
    const int y0 = K * TRTRI_BS, kn = min(TRTRI_BS, dim - y0);

    // Registers loaded before any wait: W(K)'s share, alpha·Y(K) (g = 0), the last block's M(K,J).
    scalar_t acc[TRSM_CHAIN_NC], yk[TRSM_CHAIN_NC], w[TRSM_CHAIN_PG], m_last[TRSM_CHAIN_PG];
TESSERA_UNROLL
    for (int q = 0; q < TRSM_CHAIN_PG; ++q) {
        const int p = p0 + q;
        w[q] = (t < kn && p < kn) ? W[(long)K * (TRTRI_BS * TRTRI_BS) + t + (long)p * TRTRI_BS] : S_ZERO;
    }
TESSERA_UNROLL
    for (int c = 0; c < TRSM_CHAIN_NC; ++c) {
        acc[c] = S_ZERO;
        yk[c] = (g == 0 && t < kn && c < nvec) ? S_MUL(alpha, B[(long)(y0 + t) * sbi + (long)c * sbv]) : S_ZERO;
    }
    const int j_last = TRSM_CHAIN_BLOCK(s - 1), x_last = j_last * TRTRI_BS, n_last = min(TRTRI_BS, dim - x_last);
    if (s > 0) tessera_trsm_chain_load(m_last, A, y0, kn, x_last, n_last, t, p0, sai, sap, conj);

    // acc = Σ_J M(K,J)·X(J) over the blocks before the last, in passes over those already solved.
    for (int d = 0; d < s - 1;) {
        if (lid == 0) {
            int r = d;
            while (r == d)
                while (r < s - 1 && tessera_flag_read(sync + 1 + TRSM_CHAIN_BLOCK(r)) != 0) ++r;
            ready = r;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        const int r = ready;
        for (; d < r; ++d) {
            const int x0 = TRSM_CHAIN_BLOCK(d) * TRTRI_BS, jn = min(TRTRI_BS, dim - x0);
            scalar_t m[TRSM_CHAIN_PG];
            tessera_trsm_chain_load(m, A, y0, kn, x0, jn, t, p0, sai, sap, conj);
            tessera_trsm_chain_fold(acc, m, P, B, x0, jn, p0, nvec, sbi, sbv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // `ready` read by all before it is written again
    }
    if (s > 0) {
        if (lid == 0)
            while (tessera_flag_read(sync + 1 + j_last) == 0) {
            }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        tessera_trsm_chain_fold(acc, m_last, P, B, x_last, n_last, p0, nvec, sbi, sbv);
    }
#undef TRSM_CHAIN_BLOCK

    // P[0][t][c] = y(t, c) = alpha·Y(K)(t, c) − Σ_g acc (zero past kn or nvec), after every fold's reads.
    barrier(CLK_LOCAL_MEM_FENCE);
TESSERA_UNROLL
    for (int c = 0; c < TRSM_CHAIN_NC; ++c) P[(g * TRTRI_BS + t) * TRSM_CHAIN_NC + c] = acc[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g == 0)
TESSERA_UNROLL
        for (int c = 0; c < TRSM_CHAIN_NC; ++c) {
            scalar_t y = yk[c];
            for (int h = 0; h < TESSERA_TRSM_NG; ++h) y -= P[(h * TRTRI_BS + t) * TRSM_CHAIN_NC + c];
            P[t * TRSM_CHAIN_NC + c] = (t < kn && c < nvec) ? y : S_ZERO;
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    // X(K) = W(K)·y, this work-item's share of the columns of W(K); the shares summed by g = 0.
TESSERA_UNROLL
    for (int c = 0; c < TRSM_CHAIN_NC; ++c) acc[c] = S_ZERO;
TESSERA_UNROLL
    for (int q = 0; q < TRSM_CHAIN_PG; ++q)
TESSERA_UNROLL
        for (int c = 0; c < TRSM_CHAIN_NC; ++c) acc[c] = S_FMA(w[q], P[(p0 + q) * TRSM_CHAIN_NC + c], acc[c]);
    barrier(CLK_LOCAL_MEM_FENCE);
TESSERA_UNROLL
    for (int c = 0; c < TRSM_CHAIN_NC; ++c) P[(g * TRTRI_BS + t) * TRSM_CHAIN_NC + c] = acc[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g == 0 && t < kn)
        for (int c = 0; c < nvec; ++c) {
            scalar_t x = S_ZERO;
            for (int h = 0; h < TESSERA_TRSM_NG; ++h) x += P[(h * TRTRI_BS + t) * TRSM_CHAIN_NC + c];
            B[(long)(y0 + t) * sbi + (long)c * sbv] = x;
        }
    // X(K)'s stores ordered before its tag by the barrier and the release (getrf_grid_publish).
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) tessera_flag_publish(sync + 1 + K, 1);
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef TRTRI_LEAF
#undef TRSM_CHAIN_INLINE
#undef TRSM_CHAIN_PG
#undef TRSM_CHAIN_NC
#undef TRSM_LDG
#undef TRSM_VW
#undef TRSM_NT
#undef TRSM_NV
#undef TRTRI_BS

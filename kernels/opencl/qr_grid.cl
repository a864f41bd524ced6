// Householder QR of a tall leaf of a column panel (launch_qr_panel.cpp's geqrf_panel) in one launch
// over many work-groups that keep their rows in registers and meet once per column through memory.
// The exchange is getrf.cl's (GETRF_GRID_SPINS: the program holds the .cl files in alphabetical
// order, getrf.cl first) with the prelude's tessera_flag_publish, tessera_flag_read and
// tessera_shfl_xor_real.

#ifndef TESSERA_QR_LEAF
#define TESSERA_QR_LEAF 32
#endif
#define QRG_WG 256
// Columns of a leaf the registers hold: TESSERA_QR_LEAF, at most 16 for complex (two words each).
#if defined(TESSERA_COMPLEX) && TESSERA_QR_LEAF > 16
#define QRG_L 16
#else
#define QRG_L TESSERA_QR_LEAF
#endif
// Rows per work-item: one on an NVIDIA GPU (the registers), eight elsewhere (launch_qr_panel.cpp
// says the same); tessera_qr_leaf_grid_tall takes up to twice as many, for leaves taller than the
// compute units hold at QRG_RPT.
#if defined(TESSERA_NV_SM)
#define QRG_RPT 1
#else
#define QRG_RPT 8
#endif
#define QRG_RPT_TALL (2 * QRG_RPT)

#ifdef TESSERA_COMPLEX
#define QRG_ABSMAX(a) fmax(fabs((a).x), fabs((a).y))
#define QRG_IMAG(a) ((a).y)
#else
#define QRG_ABSMAX(a) fabs(a)
#define QRG_IMAG(a) ((real_t)0)
#endif

// The work-group's largest v (every work-item gets it); red holds QRG_WG reals.
inline real_t qrg_wg_max(__local real_t* red, real_t v)
{
    const int lid = (int)get_local_id(0);
#if defined(TESSERA_NV_SM)
TESSERA_UNROLL
    for (int s = 16; s > 0; s >>= 1) v = fmax(v, tessera_shfl_xor_real(v, s));
    if ((lid & 31) == 0) red[lid >> 5] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    real_t r = red[0];
    for (int w = 1; w < QRG_WG / 32; ++w) r = fmax(r, red[w]);
#else
    red[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = QRG_WG / 2; s > 0; s >>= 1) {
        if (lid < s) red[lid] = fmax(red[lid], red[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const real_t r = red[0];
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// xLARFG's reflector of (alpha, x) from xnorm = ‖x‖: beta = −sign(Re alpha)·‖(alpha, x)‖ (scaled:
// no overflow), tau = (beta − alpha) / beta, mult = 1 / (alpha − beta), x's scaling; H = I (tau = 0,
// beta = Re alpha, mult = 1) when x = 0 and alpha is real. No rescaling of tiny norms. qr_panel.cl's
// one-work-group leaf takes it too.
inline void qr_reflector(const scalar_t alpha, const real_t xnorm, scalar_t* tau, scalar_t* mult, real_t* beta)
{
    const real_t ar = S_REAL(alpha), ai = QRG_IMAG(alpha);
    *tau = S_ZERO, *mult = S_ONE, *beta = ar;
    if (xnorm == (real_t)0 && ai == (real_t)0) return;
    const real_t w = fmax(fmax(fabs(ar), fabs(ai)), xnorm);
    const real_t h = w * sqrt((ar / w) * (ar / w) + (ai / w) * (ai / w) + (xnorm / w) * (xnorm / w));
    *beta = ar >= (real_t)0 ? -h : h;
#ifdef TESSERA_COMPLEX
    *tau = (scalar_t)((*beta - ar) / *beta, -ai / *beta);
    *mult = S_INV((scalar_t)(ar - *beta, ai));
#else
    *tau = (*beta - ar) / *beta;
    *mult = (real_t)1 / (ar - *beta);
#endif
}

#if defined(TESSERA_NV_SM)
inline scalar_t qrg_shfl(const scalar_t x, const int mask)
{
#ifdef TESSERA_COMPLEX
    return (scalar_t)(tessera_shfl_xor_real(x.x, mask), tessera_shfl_xor_real(x.y, mask));
#else
    return tessera_shfl_xor_real(x, mask);
#endif
}
#endif

// tessera_qr_leaf_grid (and tessera_qr_leaf_grid_tall): xGEQR2 on the m×nc leaf A (nc ≤ QRG_L ≤ m), its G work-groups (at most one
// per compute unit, all resident) exchanging once per column through memory; the same contract as
// qr_panel.cl's tessera_qr_leaf with tri = 1: R on and above the diagonal, V (unit diagonal not
// stored) below it, the leaf's T (xLARFT, upper triangle only) in Tf.
// Work-group g owns rows [g·rows_per_wg, (g+1)·rows_per_wg) (rows_per_wg = QRG_WG·rpt, rpt ≤
// QRG_RPT, or QRG_RPT_TALL for _tall), each work-item rpt rows, each row's nc columns in registers v[t][0 .. QRG_L): at column
// c, v[t][j] is column c + j of the row for j < nc − c, and v[t][QRG_L − c + p] is its V(i, p) for
// p < c (every column rotates the registers one place and appends the row's new V entry), so that
// every index is a constant. Column c, with x the entries below the diagonal:
//  - each work-group publishes its largest |x_i| (s_g), Σ|x_i/s_g|², and Σ conj(x_i/s_g)·v[t][j]
//    for every register j ≥ 1 (the future columns' products and the finished reflectors'); the
//    owner of row c publishes that row's registers; then its tag;
//  - every work-group waits for the G tags, combines the partial sums scaled by s_g / max s (as
//    xLASSQ: no overflow or underflow in the norm), and computes xLARFG's beta, tau and 1/(alpha −
//    beta) itself; H(c)ᴴ updates its rows, each row's V entry is stored; work-group 0 stores row c
//    of R and T's column c (T(0:c, c) = −tau·T(0:c, 0:c)·V(:, 0:c)ᴴ·v; no rescaling of tiny
//    norms, as qr_panel.cl's leaf).
// The exchange (buffers alternate by the parity of c, read past the L1 cache; a work-group reaches
// column c + 2 only after every other has published c + 1): smax[2·G] reals, part[2·G·QRG_L]
// scalars, crow[2·QRG_L] scalars, grid[1 + G] ints (0 before the panel's first such launch;
// tags tag0 + c + 1 grow through the panel). When a wait gives up (or rows_per_wg is not as
// above), every work-group stops and grid[0] is set; the launcher reports it.
//
// qrg_leaf_grid: the body of both kernels below, for work-items of at most `cap` rows (QRG_RPT or
// QRG_RPT_TALL: a constant once inlined, so the registers of rows beyond it vanish). The __local
// arrays are the kernel's: rred[QRG_WG], sred[QRG_WG], tot, coef and uq[QRG_L], stop[1].
inline void qrg_leaf_grid(const int cap, const int m, const int nc, const int rows_per_wg, const int tag0,
                          __global scalar_t* A, const ulong offA, const int lda,
                          __global scalar_t* Tf, const ulong offT, const int ldt,
                          __global real_t* smax_, const ulong offM, __global scalar_t* part_, const ulong offP,
                          __global scalar_t* crow_, const ulong offC, __global int* grid, const ulong offG,
                          __local real_t* rred, __local scalar_t* sred, __local scalar_t* tot, __local scalar_t* coef,
                          __local scalar_t* uq, __local int* stop_)
{
    const int lid = (int)get_local_id(0), g = (int)get_group_id(0), G = (int)get_num_groups(0);
    const int r0 = g * rows_per_wg, r1 = min(m, r0 + rows_per_wg), rpt = rows_per_wg / QRG_WG;
    volatile __global int* gridv = grid + offG;
    if (rpt < 1 || rpt > cap || rpt * QRG_WG != rows_per_wg || nc > QRG_L) {  // uniform; never so launched
        if (lid == 0) gridv[0] = 1;
        return;
    }
    volatile __global real_t* smax = smax_ + offM;
    volatile __global scalar_t* part = part_ + offP;
    volatile __global scalar_t* crow = crow_ + offC;
    A += offA;
    Tf += offT;

    scalar_t v[QRG_RPT_TALL][QRG_L];
TESSERA_UNROLL
    for (int t = 0; t < QRG_RPT_TALL; ++t) {
        const int i = r0 + lid + t * QRG_WG;
TESSERA_UNROLL
        for (int j = 0; j < QRG_L; ++j) v[t][j] = (t < cap && t < rpt && i < r1 && j < nc) ? A[i + (long)j * lda] : S_ZERO;
    }
    for (int c = 0; c < nc; ++c) {
        const int par = c & 1, left = nc - c;
        // This work-group's scale and sums over its rows below the diagonal.
        real_t mx = (real_t)0;
TESSERA_UNROLL
        for (int t = 0; t < QRG_RPT_TALL && t < cap; ++t) {
            const int i = r0 + lid + t * QRG_WG;
            if (t < rpt && i > c && i < r1) mx = fmax(mx, QRG_ABSMAX(v[t][0]));
        }
        const real_t s_g = qrg_wg_max(rred, mx);
        const real_t inv = s_g > (real_t)0 ? (real_t)1 / s_g : (real_t)0;
        scalar_t acc[QRG_L];
TESSERA_UNROLL
        for (int j = 0; j < QRG_L; ++j) acc[j] = S_ZERO;
TESSERA_UNROLL
        for (int t = 0; t < QRG_RPT_TALL && t < cap; ++t) {
            const int i = r0 + lid + t * QRG_WG;
            if (t < rpt && i > c && i < r1) {
                const scalar_t xs = S_CONJ(v[t][0] * inv);
TESSERA_UNROLL
                for (int j = 0; j < QRG_L; ++j) acc[j] = S_FMA(xs, v[t][j], acc[j]);
            }
        }
#if defined(TESSERA_NV_SM)
        {   // each warp's sums: lane l ends with the warp's sum of acc[l mod QRG_L] in acc[0]
            const int lane = lid & 31;
            // Round h: a lane keeps the half of its sums its lane bit h selects and adds its partner's
            // (both halves travel: a select between two entries of acc would put acc in memory).
#define QRG_ROUND(h)                                                   \
            if (QRG_L > (h)) {                                         \
                const int upper = (lane & (h)) != 0;                   \
                TESSERA_UNROLL                                         \
                for (int j = 0; j < (h); ++j) {                        \
                    const scalar_t lo = acc[j], hi = acc[j + (h)];     \
                    const scalar_t plo = qrg_shfl(lo, (h)), phi = qrg_shfl(hi, (h)); \
                    acc[j] = upper ? hi + phi : lo + plo;              \
                }                                                      \
            }
            QRG_ROUND(16) QRG_ROUND(8) QRG_ROUND(4) QRG_ROUND(2) QRG_ROUND(1)
#undef QRG_ROUND
            if (QRG_L <= 16) acc[0] += qrg_shfl(acc[0], 16);
            if (QRG_L <= 8) acc[0] += qrg_shfl(acc[0], 8);
            if (QRG_L <= 4) acc[0] += qrg_shfl(acc[0], 4);
            if (lane < QRG_L) sred[(lid >> 5) * QRG_L + lane] = acc[0];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < QRG_L) {
                scalar_t s = S_ZERO;
                for (int w = 0; w < QRG_WG / 32; ++w) s += sred[w * QRG_L + lid];
                tot[lid] = s;
            }
        }
#else
        for (int j = 0; j < QRG_L; ++j) {
            sred[lid] = acc[j];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int s = QRG_WG / 2; s > 0; s >>= 1) {
                if (lid < s) sred[lid] += sred[lid + s];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (lid == 0) tot[j] = sred[0];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < QRG_L)  // slot 0: Σ|x_i/s_g|² (the product there is Σ conj(x_i/s_g)·x_i)
            part[(long)(par * G + g) * QRG_L + lid] = lid == 0 ? S_FROM_REAL(S_REAL(tot[0]) * inv) : tot[lid];
        if (lid == 0) smax[par * G + g] = s_g;
TESSERA_UNROLL
        for (int t = 0; t < QRG_RPT_TALL && t < cap; ++t)
            if (t < rpt && r0 + lid + t * QRG_WG == c)
TESSERA_UNROLL
                for (int j = 0; j < QRG_L; ++j) crow[par * QRG_L + j] = v[t][j];
        const int tag = tag0 + c + 1;
        getrf_grid_publish(gridv, g, tag);
        // Wait for every work-group's column c.
        int quit = 0;
        for (int t = lid; t < G && !quit; t += QRG_WG)
            for (int s = 0;; ++s) {
                if (GETRF_GRID_SPINS != 0 && tessera_flag_read(gridv + 1 + t) >= tag) break;
                if (s >= GETRF_GRID_SPINS || gridv[0]) {
                    gridv[0] = 1;
                    quit = 1;
                    break;
                }
            }
        if (lid == 0) *stop_ = gridv[0];
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (quit) *stop_ = 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (*stop_) return;  // uniform
        // Combine: smax over the groups, then the scaled sums (chunks of groups per work-item).
        real_t my = (real_t)0;
        for (int t = lid; t < G; t += QRG_WG) my = fmax(my, smax[par * G + t]);
        const real_t amax = qrg_wg_max(rred, my);
        const real_t ainv = amax > (real_t)0 ? (real_t)1 / amax : (real_t)0;
        {
            const int q = lid % QRG_L, chunk = lid / QRG_L, chunks = QRG_WG / QRG_L;
            scalar_t s = S_ZERO;
            for (int t = chunk; t < G; t += chunks) {
                const real_t f = smax[par * G + t] * ainv;
                const scalar_t p = part[(long)(par * G + t) * QRG_L + q];
                s += q == 0 ? S_FROM_REAL(f * f * S_REAL(p)) : p * f;
            }
            sred[lid] = s;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < QRG_L) {
                scalar_t r = S_ZERO;
                for (int k = 0; k < chunks; ++k) r += sred[k * QRG_L + lid];
                tot[lid] = r;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        // xLARFG of (alpha, x), every work-item.
        scalar_t tau, mult;
        real_t beta;
        qr_reflector(crow[par * QRG_L], amax * sqrt(S_REAL(tot[0])), &tau, &mult, &beta);
        const scalar_t cm = S_CONJ(mult) * amax;  // vᴴ·X(:, c + j) = row c's + cm·tot[j]
        if (lid >= 1 && lid < left) {
            const scalar_t w = crow[par * QRG_L + lid] + S_MUL(cm, tot[lid]);
            coef[lid] = S_MUL(S_CONJ(tau), w);
        }
        if (g == 0 && lid < c) {
            const int pos = QRG_L - c + lid;
            uq[lid] = S_CONJ(crow[par * QRG_L + pos]) + S_MUL(mult * amax, S_CONJ(tot[pos]));
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (g == 0) {  // row c of R, T's column c
            if (lid == 0) A[c + (long)c * lda] = S_FROM_REAL(beta);
            else if (lid < left) A[c + (long)(c + lid) * lda] = crow[par * QRG_L + lid] - coef[lid];
            if (lid < c) {
                scalar_t s = S_ZERO;
                for (int q = lid; q < c; ++q) s = S_FMA(Tf[lid + (long)q * ldt], uq[q], s);
                Tf[lid + (long)c * ldt] = -S_MUL(tau, s);
            }
            if (lid == c) Tf[c + (long)c * ldt] = tau;
        }
TESSERA_UNROLL
        for (int t = 0; t < QRG_RPT_TALL && t < cap; ++t) {
            const int i = r0 + lid + t * QRG_WG;
            const scalar_t vi = S_MUL(mult, v[t][0]);
            if (t < rpt && i > c && i < r1) {
                A[i + (long)c * lda] = vi;
TESSERA_UNROLL
                for (int j = 1; j < QRG_L; ++j)
                    if (j < left) v[t][j] = S_FMA(-coef[j], vi, v[t][j]);
            }
TESSERA_UNROLL
            for (int j = 0; j + 1 < QRG_L; ++j) v[t][j] = v[t][j + 1];
            v[t][QRG_L - 1] = vi;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // tot, coef, uq are written again by the next column
    }
}

// Launch: 1-D, G work-groups of QRG_WG work-items; rows_per_wg = QRG_WG·rpt, rpt ≤ QRG_RPT.
#define QRG_KERNEL_ARGS                                                                                      \
    const int m, const int nc, const int rows_per_wg, const int tag0, __global scalar_t *A, const ulong offA, \
        const int lda, __global scalar_t *Tf, const ulong offT, const int ldt, __global real_t *smax_,        \
        const ulong offM, __global scalar_t *part_, const ulong offP, __global scalar_t *crow_,              \
        const ulong offC, __global int *grid, const ulong offG
#define QRG_KERNEL_BODY(cap)                                                                                 \
    __local real_t rred[QRG_WG];                                                                             \
    __local scalar_t sred[QRG_WG];                                                                           \
    __local scalar_t tot[QRG_L];  /* this work-group's sums, then the combined ones */                       \
    __local scalar_t coef[QRG_L]; /* conj(tau)·w_j of the columns right of c */                              \
    __local scalar_t uq[QRG_L];   /* V(:, q)ᴴ·v for T's column */                                            \
    __local int stop[1];                                                                                     \
    qrg_leaf_grid(cap, m, nc, rows_per_wg, tag0, A, offA, lda, Tf, offT, ldt, smax_, offM, part_, offP, crow_, \
                  offC, grid, offG, rred, sred, tot, coef, uq, stop)
__kernel __attribute__((reqd_work_group_size(QRG_WG, 1, 1))) void tessera_qr_leaf_grid(QRG_KERNEL_ARGS)
{
    QRG_KERNEL_BODY(QRG_RPT);
}
// tessera_qr_leaf_grid_tall: the same for rpt ≤ QRG_RPT_TALL (more registers per work-item).
__kernel __attribute__((reqd_work_group_size(QRG_WG, 1, 1))) void tessera_qr_leaf_grid_tall(QRG_KERNEL_ARGS)
{
    QRG_KERNEL_BODY(QRG_RPT_TALL);
}

// tessera_qr_take_r: on the rows×cols block of P at the panel's (r0, r0 + shift), whose R has
// become final, element (i, j) with shift + j − i > 0 moves to R (same position, ld ldr) and
// becomes 0 in P, with shift + j − i = 0 moves and becomes 1; the rest (V) stays. So P holds V
// with its unit diagonal and zeros above, for plain GEMMs. Launch: 1-D, any size ≥ rows·cols.
__kernel void tessera_qr_take_r(const int rows, const int cols, const int shift,
                                __global scalar_t* P, const ulong offP, const int ldp,
                                __global scalar_t* R, const ulong offR, const int ldr)
{
    const long e = (long)get_global_id(0);
    if (e >= (long)rows * cols) return;
    const int i = (int)(e % rows), j = (int)(e / rows), d = shift + j - i;
    if (d < 0) return;
    __global scalar_t* p = P + offP + i + (long)j * ldp;
    R[offR + i + (long)j * ldr] = *p;
    *p = d == 0 ? S_ONE : S_ZERO;
}

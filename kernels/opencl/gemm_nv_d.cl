// tessera_nvgemm_* in double: FP64 tensor cores (gemm_nv.cl describes the family and holds the
// shared helpers: block order, split k, the reduction).
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_D)
// ================================ double: FP64 tensor cores ================================

#ifndef TESSERA_NVD_MMA
#define TESSERA_NVD_MMA 1688  // 1688 = m16n8k8 (sm_90), 884 = m8n8k4 (sm_80+, half rate on sm_90)
#endif
#ifndef TESSERA_NVD_STAGES
#define TESSERA_NVD_STAGES 4  // slabs in flight, 2..4 (local memory: STAGES·(BM + BN)·64 bytes)
#endif
#ifndef TESSERA_NVD_WM
#define TESSERA_NVD_WM 1  // warps along m (64 rows each): 1, 2 or 4
#endif
#ifndef TESSERA_NVD_WN
#define TESSERA_NVD_WN 4  // warps along n (32 columns each): 1, 2 or 4
#endif
#ifndef TESSERA_NVD_STAGGER
#define TESSERA_NVD_STAGGER 1  // 1: half of the warps issue the next slab's copies before their fragment loads
#endif
#ifndef TESSERA_NVD_PREFETCH
#define TESSERA_NVD_PREFETCH 0  // 1: NN kernel loads slab s+1's fragments before slab s's mma (two register sets)
#endif
#ifndef TESSERA_NVD_PF_SPLIT
#define TESSERA_NVD_PF_SPLIT 2  // with PREFETCH: m16 tiles (of 4) whose mma of slab s precede the barrier
#endif
#ifndef TESSERA_NVD_PF_LATE
#define TESSERA_NVD_PF_LATE 0  // with PREFETCH: 1 = issue the copies after the slab's mma (fewer registers live)
#endif
#ifndef TESSERA_NVD_BIG
#if TESSERA_NV_SM >= 90 && TESSERA_NVD_MMA == 1688 && TESSERA_NVD_WN == 4
#define TESSERA_NVD_BIG 1  // 1: also build tessera_nvgemm_nn_big (128×128, prefetch) for large NN products
#else
#define TESSERA_NVD_BIG 0
#endif
#endif
#ifndef TESSERA_NVD_DIAG_NOCOPY
#define TESSERA_NVD_DIAG_NOCOPY 0  // measurement only, results wrong: no copies after the first STAGES slabs
#endif
#if TESSERA_NV_SM < 90 && TESSERA_NVD_MMA != 884
#undef TESSERA_NVD_MMA
#define TESSERA_NVD_MMA 884  // m16n8k8 f64 needs sm_90
#endif

// The block's warps along m (WM_) is an argument of the body (a constant in each kernel): the
// kernels of one program may have different block shapes (tessera_nvgemm_nn_big).
#define NVD_BM (64 * WM_)
#define NVD_BN (32 * TESSERA_NVD_WN)
#define NVD_NW (WM_ * TESSERA_NVD_WN)
#define NVD_NT (32 * NVD_NW)       // work-items per work-group
#define NVD_SA (NVD_BM * 8)        // doubles per A slab (k slabs of 8)
#define NVD_SB (NVD_BN * 8)
#define NVD_INLINE static inline __attribute__((always_inline))  // specialized per kernel: trans flags are constants

#ifdef TESSERA_NV_EMULATE
// PoCL test mode: each mma shape emulated through local memory, following the PTX ISA fragment
// layouts to the letter (every work-item of the work-group calls it, as in the real kernel), and
// cp.async as a plain copy. Rows/cols: A(M×K) from a[v], B(K×N) from b[v], C(M×N) into c[v].
#define NVD_EMU_DECL __local double emu_a[4 * TESSERA_NVD_WN][16 * 8], emu_b[4 * TESSERA_NVD_WN][8 * 8];
#define NVD_EMU_ARGS , emu_a, emu_b
#define NVD_EMU_PARAMS , __local double (*emu_a)[16 * 8], __local double (*emu_b)[8 * 8]
static inline void nvd_emu(int M, int K, const double* a, int na, const double* b, int nb, double* c,
                           __local double (*emu_a)[16 * 8], __local double (*emu_b)[8 * 8])
{
    const int lane = (int)get_local_id(0) & 31, w = (int)get_local_id(0) >> 5;
    const int g = lane >> 2, t = lane & 3;
    for (int v = 0; v < na; ++v) {
        const int row = M == 8 ? g : g + 8 * (v & 1), col = M == 8 ? t : t + 4 * (v >> 1);
        emu_a[w][row * K + col] = a[v];
    }
    for (int v = 0; v < nb; ++v) emu_b[w][(t + 4 * v) * 8 + g] = b[v];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = 0; v < M / 4; ++v) {
        const int row = g + 8 * (v >> 1), col = 2 * t + (v & 1);
        double s = c[v];
        for (int kk = 0; kk < K; ++kk) s = fma(emu_a[w][row * K + kk], emu_b[w][kk * 8 + col], s);
        c[v] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#define NVD_MMA884(c0, c1, a0, b0) do { double a_[1] = {a0}, b_[1] = {b0}, c_[2] = {c0, c1}; \
    nvd_emu(8, 4, a_, 1, b_, 1, c_, emu_a, emu_b); c0 = c_[0]; c1 = c_[1]; } while (0)
#define NVD_MMA1688(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) do { double a_[4] = {a0, a1, a2, a3}, \
    b_[2] = {b0, b1}, c_[4] = {c0, c1, c2, c3}; nvd_emu(16, 8, a_, 4, b_, 2, c_, emu_a, emu_b); \
    c0 = c_[0]; c1 = c_[1]; c2 = c_[2]; c3 = c_[3]; } while (0)
// cp.async: `bytes` of `size` come from src, the rest is zero-filled.
static inline void nvd_cp(__local double* dst, __global const double* src, const int size, const int bytes)
{
    for (int i = 0; i < size / 8; ++i) dst[i] = 8 * i < bytes ? src[i] : 0.0;
}
#define NVD_CP8(dst, src) nvd_cp(dst, src, 8, 8)
#define NVD_CP16(dst, src) nvd_cp(dst, src, 16, 16)
#define NVD_CP8Z(dst, src, bytes) nvd_cp(dst, src, 8, bytes)
#define NVD_CP16Z(dst, src, bytes) nvd_cp(dst, src, 16, bytes)
#else
#define NVD_EMU_DECL
#define NVD_EMU_ARGS
#define NVD_EMU_PARAMS
#define NVD_MMA884(c0, c1, a0, b0)                                                              \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "                 \
                            "{%0,%1}, {%2}, {%3}, {%0,%1};"                                   \
                            : "+d"(c0), "+d"(c1) : "d"(a0), "d"(b0))
#define NVD_MMA1688(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1)                                     \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "                \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"            \
                            : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)                          \
                            : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1))
// cp.async global → local of 8 or 16 bytes, through L1 (.ca: the two work-groups of an SM often
// read the same data; bypassing L1 with .cg measured 8 % slower); the Z forms copy only `bytes`
// and zero-fill the rest (src must still be a valid, aligned address).
#define NVD_CP8(dst, src) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 8;" \
                                                  :: "r"(NVG_LADDR(dst)), "l"(src) : "memory")
#define NVD_CP16(dst, src) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16;" \
                                                   :: "r"(NVG_LADDR(dst)), "l"(src) : "memory")
#define NVD_CP8Z(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" \
                                                          :: "r"(NVG_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
#define NVD_CP16Z(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" \
                                                           :: "r"(NVG_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
#endif

// ---- Local memory layout (indices in doubles, in the mma's own row and k numbering) ----
// A slab (BM rows × 8 k): rows r and r+8 of a 16-row group, same k, share a 16-byte chunk, so the
// two fragment loads of an m16n8k8 are its A operand {a0, a1}, {a2, a3} as they stand; f(k) swizzles.
#define NVD_XA(r, k) (128 * ((r) >> 4) + 16 * (k) + 2 * (((r) & 7) ^ (2 * ((k) & 3) + ((k) >> 2))) + (((r) >> 3) & 1))
// B slab (BN columns × 8 k): k and k+4 of one column share a chunk: the B operand {b0, b1}.
#define NVD_XB(r, k) ((r) * 8 + 2 * (((k) & 3) ^ (((r) >> 1) & 3)) + ((k) >> 2))
// The mma numbering relabels the slab's k and each 16-row group's rows of op(A) (a relabeling of
// a sum's terms and of C's rows, undone in the epilogue), so that physically adjacent elements
// share a chunk: k = 2q, 2q+1 are mma k q, q+4 (a B chunk), rows 2i, 2i+1 are mma rows i, i+8
// (an A chunk). Copies of the natural orientations then move 16 contiguous bytes per chunk.
#define NVD_KM(kp) (((kp) >> 1) + 4 * ((kp) & 1))                          // slab k → mma k
#define NVD_RM(rp) (((rp) & ~15) + (((rp) & 15) >> 1) + 8 * ((rp) & 1))    // row of op(A) → mma row
#define NVD_RP(rm) (((rm) & ~15) + 2 * ((rm) & 7) + (((rm) >> 3) & 1))     // mma row → row of op(A)

// ---- Copies of one slab ----
// Copy j of work-item lid, c = lid + NT·j, starts at element (r, kk) of the slab (r: row of op(A)
// or column of op(B) within the block, kk: k within the slab). A "pair" copy, used for the
// natural orientations, also covers the next element along the contiguous direction:
//   A, op(A) = A (contiguous along r): pair of rows     r = 2·(c mod BM/2), kk = c / (BM/2)
//   A, op(A) = Aᵀ (contiguous along k): one element      kk = c mod 8,       r = c / 8
//   B, op(B) = B (contiguous along k): pair along k      kk = 2·(c mod 4),   r = c / 4
//   B, op(B) = Bᵀ (contiguous along r): one element      r = c mod BN,       kk = c / BN
// Each map is linear in j, so copy j of slab s reads P + 8s·sk + j·step. A warp's copy reads 512
// (A pairs), 8 × 64 (B pairs), 4 × 64 (A elements) or 256 (B elements) contiguous bytes.
NVD_INLINE void nvd_copy_map(const int WM_, const int isA, const int pair, const int c, int* r, int* kk)
{
    if (isA && pair)  { *r = 2 * (c % (NVD_BM / 2)); *kk = c / (NVD_BM / 2); }
    else if (isA)     { *kk = c & 7; *r = c >> 3; }
    else if (pair)    { *kk = 2 * (c & 3); *r = c >> 2; }
    else              { *r = c % NVD_BN; *kk = c / NVD_BN; }
}
NVD_INLINE int nvd_local_index(const int isA, const int r, const int kk)
{
    return isA ? NVD_XA(NVD_RM(r), NVD_KM(kk)) : NVD_XB(r, NVD_KM(kk));
}
#define NVD_NCOPY(R, pair) ((pair) ? 4 * (R) / NVD_NT : 8 * (R) / NVD_NT)  // copies per work-item
#define NVD_MAXCOPY 16

// Per work-item and matrix: P = first element of copy 0 at slab 0, step = distance between copies,
// x[j] = local index of copy j (all constant over slabs); computed once. Both macros read `lid`
// (and NVD_COPY_SLAB `aligned`) of nvd_gemm_body, where they are used.
#define NVD_COPY_SETUP(isA, pair, base, sr, sk, P, step, x)                                      \
    do {                                                                                           \
        int r0_, k0_, r1_, k1_;                                                                    \
        nvd_copy_map(WM_, isA, pair, lid, &r0_, &k0_);                                                  \
        nvd_copy_map(WM_, isA, pair, lid + NVD_NT, &r1_, &k1_);                                         \
        P = (base) + r0_ * (sr) + k0_ * (sk);                                                      \
        step = (r1_ - r0_) * (sr) + (k1_ - k0_) * (sk);                                            \
        _Pragma("unroll") for (int j_ = 0; j_ < NVD_MAXCOPY; ++j_) {                               \
            int r_, k_;                                                                            \
            nvd_copy_map(WM_, isA, pair, lid + NVD_NT * j_, &r_, &k_);                                  \
            x[j_] = nvd_local_index(isA, r_, k_);                                                  \
        }                                                                                          \
    } while (0)

// Issue the copies of slab s (k from 8s) into X. fast: the block is inside the matrix and the
// slab inside k (no masks). aligned: pair copies are 16-byte aligned (one 16-byte copy; else two
// of 8). Elsewhere missing elements are zero-filled: rows of op(A) / columns of op(B) from
// r_first + r ≥ r_total, and k ≥ k_total; base = element (r_first, 0), which exists.
#define NVD_COPY_SLAB(isA, pair, X, P, step, sk, base, x, s, fast, r_first, r_total, k_total)     \
    do {                                                                                           \
        const int n_ = NVD_NCOPY((isA) ? NVD_BM : NVD_BN, pair);                                   \
        __global const double* Ps_ = (P) + 8 * (s) * (sk);                                         \
        if (fast) {                                                                                \
            _Pragma("unroll") for (int j_ = 0; j_ < NVD_MAXCOPY; ++j_) {                           \
                if (j_ >= n_) break;                                                               \
                __global const double* src_ = Ps_ + j_ * (step);                                   \
                __local double* dst_ = (X) + x[j_];                                                \
                if ((pair) && aligned) NVD_CP16(dst_, src_);                                       \
                else if (pair) { NVD_CP8(dst_, src_); NVD_CP8(dst_ + 1, src_ + 1); }               \
                else NVD_CP8(dst_, src_);                                                          \
            }                                                                                      \
        } else {                                                                                   \
            __global const double* B0_ = (base) + 8 * (s) * (sk);                                  \
            _Pragma("unroll") for (int j_ = 0; j_ < NVD_MAXCOPY; ++j_) {                           \
                if (j_ >= n_) break;                                                               \
                int r_, k_;                                                                        \
                nvd_copy_map(WM_, isA, pair, lid + NVD_NT * j_, &r_, &k_);                              \
                const int first_ = (r_first) + r_ < (r_total) && 8 * (s) + k_ < (k_total);         \
                /* the pair's second element: the next row (A) or the next k (B) */                \
                const int second_ = first_ && ((isA) ? (r_first) + r_ + 1 < (r_total)              \
                                                     : 8 * (s) + k_ + 1 < (k_total));              \
                __global const double* src_ = first_ ? Ps_ + j_ * (step) : B0_;                    \
                __local double* dst_ = (X) + x[j_];                                                \
                if ((pair) && aligned) NVD_CP16Z(dst_, src_, 8 * first_ + 8 * second_);            \
                else if (pair) {                                                                   \
                    NVD_CP8Z(dst_, src_, 8 * first_);                                              \
                    NVD_CP8Z(dst_ + 1, second_ ? src_ + 1 : B0_, 8 * second_);                     \
                } else NVD_CP8Z(dst_, src_, 8 * first_);                                           \
            }                                                                                      \
        }                                                                                          \
    } while (0)

// C = alpha·op(A)·op(B) + beta·C for one block of C (see the file's header).
NVD_INLINE void nvd_gemm_body(const int transA, const int transB, const int aligned, const int m, const int n,
                                 const int k, const double alpha, __global const double* A, const int lda,
                                 __global const double* B, const int ldb, const double beta,
                                 __global double* C, const int ldc, const int tri,
                                 __local double* As, __local double* Bs, const int WM_, const int ST_, const int PF_,
                                 const int PL_ NVD_EMU_PARAMS)
{
    int bm, bn;
    nvg_block_coords(m, n, NVD_BM, NVD_BN, &bm, &bn);
    const int i0 = bm * NVD_BM, j0 = bn * NVD_BN;
    if (tri == 1 && i0 + NVD_BM - 1 < j0) return;  // uniform over the work-group
    if (tri == 2 && j0 + NVD_BN - 1 < i0) return;

    const int lid = (int)get_local_id(0), warp = lid >> 5, lane = lid & 31;
    const int g = lane >> 2, t = lane & 3;
    const int wm = warp % WM_, wn = warp / WM_;

    double acc[8][4][2];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) { acc[i][j][0] = 0.0; acc[i][j][1] = 0.0; }

    // op(A)(r, kk) = A[r·a_sr + kk·a_sk], op(B)(kk, r) = B[r·b_sr + kk·b_sk].
    const int a_pair = !transA, b_pair = !transB;  // natural orientations: pair copies
    const long a_sr = transA ? lda : 1, a_sk = transA ? 1 : lda;
    const long b_sr = transB ? 1 : ldb, b_sk = transB ? ldb : 1;
    __global const double* Ab = A + i0 * a_sr;  // element (i0, 0) of op(A)
    __global const double* Bb = B + j0 * b_sr;  // element (0, j0) of op(B)
    __global const double* Ap;
    __global const double* Bp;
    long a_step, b_step;
    int ax[NVD_MAXCOPY], bx[NVD_MAXCOPY];
    NVD_COPY_SETUP(1, a_pair, Ab, a_sr, a_sk, Ap, a_step, ax);
    NVD_COPY_SETUP(0, b_pair, Bb, b_sr, b_sk, Bp, b_step, bx);
    const int inside = i0 + NVD_BM <= m && j0 + NVD_BN <= n;
    const int nslab = (alpha == 0.0) ? 0 : (k + 7) / 8;
    const int nfull = (alpha == 0.0) ? 0 : k / 8;
// NVD_ISSUE_F(sl, buf, 1): the caller knows every slab is interior (no masks compiled in).
#define NVD_ISSUE(sl, buf) NVD_ISSUE_F(sl, buf, 0)
#define NVD_ISSUE_F(sl, buf, all_fast)                                                             \
    do {                                                                                           \
        if (TESSERA_NVD_DIAG_NOCOPY && (sl) >= ST_) break;                          \
        const int fast_s = (all_fast) || (inside && (sl) < nfull);                                 \
        NVD_COPY_SLAB(1, a_pair, As + (buf) * NVD_SA, Ap, a_step, a_sk, Ab, ax, sl, fast_s, i0, m, k); \
        NVD_COPY_SLAB(0, b_pair, Bs + (buf) * NVD_SB, Bp, b_step, b_sk, Bb, bx, sl, fast_s, j0, n, k); \
    } while (0)

    // Fragment chunks of this work-item, constant over slabs: fa[2p + h] = rows 16p + g and
    // 16p + 8 + g of the warp tile at k = t + 4h; fb[j] = column 8j + g at k = t (and t + 4).
    int fa[8], fb[4];
#pragma unroll
    for (int i = 0; i < 8; ++i) fa[i] = NVD_XA(64 * wm + 16 * (i >> 1) + g, t + 4 * (i & 1)) >> 1;
#pragma unroll
    for (int j = 0; j < 4; ++j) fb[j] = NVD_XB(32 * wn + 8 * j + g, t) >> 1;

    // Fragments of one slab from buffer `buf`: af[2p] = (A(g, t), A(g+8, t)) of m16 tile p, af[2p+1]
    // the same at t + 4; bf[j] = (B(t), B(t+4)) of n8 tile j. Then the slab's 16 mma.
#define NVD_LOAD_FRAGS(buf, af, bf)                                                                \
    do {                                                                                           \
        __local const double2* A2_ = (__local const double2*)(As + (buf) * NVD_SA);                \
        __local const double2* B2_ = (__local const double2*)(Bs + (buf) * NVD_SB);                \
        _Pragma("unroll") for (int i_ = 0; i_ < 8; ++i_) af[i_] = A2_[fa[i_]];                     \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_) bf[j_] = B2_[fb[j_]];                     \
    } while (0)
// The slab's mma for m16 tiles p0 <= p < p1 (all n8 tiles j).
#if TESSERA_NVD_MMA == 1688
#define NVD_MMA_PART(af, bf, p0, p1)                                                               \
    do {                                                                                           \
        _Pragma("unroll") for (int p_ = p0; p_ < p1; ++p_)                                         \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_)                                           \
            NVD_MMA1688(acc[2 * p_][j_][0], acc[2 * p_][j_][1], acc[2 * p_ + 1][j_][0],            \
                        acc[2 * p_ + 1][j_][1], af[2 * p_].x, af[2 * p_].y, af[2 * p_ + 1].x,      \
                        af[2 * p_ + 1].y, bf[j_].x, bf[j_].y);                                     \
    } while (0)
#elif TESSERA_NVD_MMA == 884
#define NVD_MMA_PART(af, bf, p0, p1)                                                               \
    do {                                                                                           \
        _Pragma("unroll") for (int p_ = p0; p_ < p1; ++p_)                                         \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_) {                                         \
            NVD_MMA884(acc[2 * p_][j_][0], acc[2 * p_][j_][1], af[2 * p_].x, bf[j_].x);            \
            NVD_MMA884(acc[2 * p_][j_][0], acc[2 * p_][j_][1], af[2 * p_ + 1].x, bf[j_].y);        \
            NVD_MMA884(acc[2 * p_ + 1][j_][0], acc[2 * p_ + 1][j_][1], af[2 * p_].y, bf[j_].x);    \
            NVD_MMA884(acc[2 * p_ + 1][j_][0], acc[2 * p_ + 1][j_][1], af[2 * p_ + 1].y, bf[j_].y); \
        }                                                                                          \
    } while (0)
#else
#error "TESSERA_NVD_MMA must be 884 or 1688"
#endif
#define NVD_MMA_SLAB(af, bf) NVD_MMA_PART(af, bf, 0, 4)
    // The next slab's copies: before the fragment loads in the second half of the warps
    // (TESSERA_NVD_STAGGER), after them in the first, which spreads the loads after a barrier.
    const int early = TESSERA_NVD_STAGGER && (warp >= NVD_NW / 2);

    if (PF_ && !transA && !transB && aligned) {
        // Slab s+1's fragments are loaded before slab s's mma, into a second register set, so that no
        // mma waits for a fragment load after a barrier. A slab's buffer is free once every work-item
        // has loaded its fragments, i.e. at the barrier of the next iteration: STAGES slabs in flight.
#pragma unroll
        for (int s = 0; s < ST_; ++s) {
            if (s < nslab) NVD_ISSUE(s, s);
            NVG_CP_COMMIT();
        }
        double2 afA[8], bfA[4], afB[8], bfB[4];
        if (nslab > 0) {
            NVG_CP_WAITN(ST_ - 1);
            barrier(CLK_LOCAL_MEM_FENCE);
            NVD_LOAD_FRAGS(0, afA, bfA);
        }
        // Step s (fragments of slab s in afc/bfc): groups 0 .. STAGES+s-1 are committed (one slab
        // each), so slab s+1 has landed once at most STAGES-2 are pending; after the barrier the
        // buffer of slab s is free for slab s+STAGES.
        // The mma of slab s for the first TESSERA_NVD_PF_SPLIT m16 tiles precede that barrier: their
        // fragment registers are free before the next set is loaded, and the rest of the mma covers
        // the loads after it (runs 10–11: 2 of 4 best; with 0 NVIDIA's compile spills, and it is slowest).
#if TESSERA_NVD_PF_SPLIT < 0 || TESSERA_NVD_PF_SPLIT > 3
#error "TESSERA_NVD_PF_SPLIT must be 0 to 3"
#endif
#define NVD_PF_BEFORE(af, bf) NVD_MMA_PART(af, bf, 0, TESSERA_NVD_PF_SPLIT)
#define NVD_PF_AFTER(af, bf) NVD_MMA_PART(af, bf, TESSERA_NVD_PF_SPLIT, 4)
#define NVD_PF_STEP(sl, afc, bfc, afn, bfn, F)                                                     \
    do {                                                                                           \
        NVD_PF_BEFORE(afc, bfc);                                                                   \
        if ((sl) + 1 < nslab) {                                                                    \
            NVG_CP_WAITN(ST_ - 2);                                                   \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
            if (!PL_ && early && (sl) + ST_ < nslab)                \
                NVD_ISSUE_F((sl) + ST_, (sl) % ST_, F);              \
            NVD_LOAD_FRAGS(((sl) + 1) % ST_, afn, bfn);                             \
            if (!PL_ && !early && (sl) + ST_ < nslab)               \
                NVD_ISSUE_F((sl) + ST_, (sl) % ST_, F);              \
        }                                                                                          \
        NVD_PF_AFTER(afc, bfc);                                                                    \
        if ((sl) + 1 < nslab) {                                                                    \
            if (PL_ && (sl) + ST_ < nslab)                          \
                NVD_ISSUE_F((sl) + ST_, (sl) % ST_, F);              \
            NVG_CP_COMMIT();                                                                       \
        }                                                                                          \
    } while (0)
        // Interior blocks with whole slabs run a loop with no masked copies compiled in: fewer
        // registers live across the loop (the general path's bounds and bases are dead there).
        if (inside && nfull == nslab) {
            for (int s = 0; s < nslab; s += 2) {
                NVD_PF_STEP(s, afA, bfA, afB, bfB, 1);
                if (s + 1 < nslab) NVD_PF_STEP(s + 1, afB, bfB, afA, bfA, 1);
            }
        } else {
            for (int s = 0; s < nslab; s += 2) {
                NVD_PF_STEP(s, afA, bfA, afB, bfB, 0);
                if (s + 1 < nslab) NVD_PF_STEP(s + 1, afB, bfB, afA, bfA, 0);
            }
        }
#undef NVD_PF_STEP
#undef NVD_PF_BEFORE
#undef NVD_PF_AFTER
    } else {
        // Prologue: slabs 0 .. STAGES-2 in flight (one commit group per slab, empty ones included).
#pragma unroll
        for (int s = 0; s < ST_ - 1; ++s) {
            if (s < nslab) NVD_ISSUE(s, s);
            NVG_CP_COMMIT();
        }

        for (int s = 0; s < nslab; ++s) {
            // Slab s has landed once at most STAGES-2 groups are pending; after the barrier every
            // work-item has also finished slab s-1, whose buffer the copies of slab s+STAGES-1 reuse.
            NVG_CP_WAITN(ST_ - 2);
            barrier(CLK_LOCAL_MEM_FENCE);
            double2 af[8], bf[4];
            const int sn = s + ST_ - 1;
            if (early && sn < nslab) NVD_ISSUE(sn, sn % ST_);
            NVD_LOAD_FRAGS(s % ST_, af, bf);
            if (!early && sn < nslab) NVD_ISSUE(sn, sn % ST_);
            NVG_CP_COMMIT();
            NVD_MMA_SLAB(af, bf);
        }
    }
#undef NVD_LOAD_FRAGS
#undef NVD_MMA_SLAB
#undef NVD_MMA_PART
    NVG_CP_WAIT(0);
#undef NVD_ISSUE
#undef NVD_ISSUE_F

    // Epilogue: C = alpha·acc + beta·C (C not read when beta == 0). acc[i] holds mma row
    // 64·wm + 16·(i/2) + g + 8·(i mod 2), i.e. row 64·wm + 16·(i/2) + 2g + (i mod 2) of C. A row's
    // 8 values of C are all loaded before any is stored (stores in between would hold each load
    // back behind the one before: the compiler cannot tell the addresses apart). The bounds test
    // stays written out: the float kernels' nvs_in_c here moved the 255-register allocation and
    // cost 4 % at n = 8192 (bench/gpu_task_shapes.md, session 13).
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = i0 + NVD_RP(64 * wm + 16 * (i >> 1) + g + 8 * (i & 1));
        if (row >= m) continue;
        double old[8];
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            const int col = j0 + 32 * wn + 8 * (x >> 1) + 2 * t + (x & 1);
            const int in = col < n && !((tri == 1 && row < col) || (tri == 2 && row > col));
            old[x] = (in && beta != 0.0) ? C[row + (long)col * ldc] : 0.0;
        }
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            const int col = j0 + 32 * wn + 8 * (x >> 1) + 2 * t + (x & 1);
            if (col >= n || (tri == 1 && row < col) || (tri == 2 && row > col)) continue;
            const double v = alpha * acc[i][x >> 1][x & 1];
            C[row + (long)col * ldc] = (beta == 0.0) ? v : fma(beta, old[x], v);
        }
    }
}

// tessera_nvgemm_XY: pair copies 16-byte aligned (the launcher checks: for every matrix in its
// natural orientation, offset and leading dimension even); tessera_nvgemm_XY_u: any alignment.
#define NVD_KERNEL(name, ta, tb, aligned, WM, ST, PF, PL)                                         \
    __kernel __attribute__((reqd_work_group_size(32 * (WM) * TESSERA_NVD_WN, 1, 1)))             \
    void name(const int m, const int n, const int k, const double alpha,                          \
              __global const double* A, const ulong offA, const int lda,                          \
              __global const double* B, const ulong offB, const int ldb, const double beta,       \
              __global double* C, const ulong offC, const int ldc, const int tri)                 \
    {                                                                                             \
        __local double2 As2[(ST) * 64 * (WM) * 8 / 2];                                            \
        __local double2 Bs2[(ST) * 32 * TESSERA_NVD_WN * 8 / 2];                                  \
        NVD_EMU_DECL                                                                              \
        NVG_SPLIT_ARGS(ta, tb, 1);                                                                \
        nvd_gemm_body(ta, tb, aligned, m, n, k_, alpha, A + oA_, lda, B + oB_, ldb, beta,         \
                      C + oC_, ldc, tri, (__local double*)As2, (__local double*)Bs2, WM, ST, PF,  \
                      PL NVD_EMU_ARGS);                                                           \
    }
#define NVD_KERNEL_STD(name, ta, tb, aligned) \
    NVD_KERNEL(name, ta, tb, aligned, TESSERA_NVD_WM, TESSERA_NVD_STAGES, TESSERA_NVD_PREFETCH, TESSERA_NVD_PF_LATE)
NVD_KERNEL_STD(tessera_nvgemm_nn, 0, 0, 1)
NVD_KERNEL_STD(tessera_nvgemm_nt, 0, 1, 1)
NVD_KERNEL_STD(tessera_nvgemm_tn, 1, 0, 1)
NVD_KERNEL_STD(tessera_nvgemm_tt, 1, 1, 1)
NVD_KERNEL_STD(tessera_nvgemm_nn_u, 0, 0, 0)
NVD_KERNEL_STD(tessera_nvgemm_nt_u, 0, 1, 0)
NVD_KERNEL_STD(tessera_nvgemm_tn_u, 1, 0, 0)
NVD_KERNEL_STD(tessera_nvgemm_tt_u, 1, 1, 0)

#if TESSERA_NVD_BIG
// tessera_nvgemm_nn_big: NN with 16-byte copies in 128×128 blocks (WM = 2), 3 stages, the fragment
// prefetch and copies after the mma; the launcher takes it for NN when the 128×128 blocks fill
// every compute unit at least once. Its block is tessera_nvgemm_geometry_big's (WM, WN, 1).
NVD_KERNEL(tessera_nvgemm_nn_big, 0, 0, 1, 2, 3, 1, 1)
__kernel __attribute__((reqd_work_group_size(2, TESSERA_NVD_WN, 1)))
void tessera_nvgemm_geometry_big(__global int* unused)
{
    if (unused) unused[0] = 0;
}
#endif

// Never launched: its reqd_work_group_size tells the launcher the block of C, (64·WM) × (32·WN).
__kernel __attribute__((reqd_work_group_size(TESSERA_NVD_WM, TESSERA_NVD_WN, 1)))
void tessera_nvgemm_geometry(__global int* unused)
{
    if (unused) unused[0] = 0;
}

// The NVD_* helpers stay defined: gemm_nv_d_mbar.cl follows in the program and uses them (and
// undefines them at its end).
#endif  // TESSERA_REAL_D
#endif  // TESSERA_NV_SM

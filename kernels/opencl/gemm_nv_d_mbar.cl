// tessera_nvgemm_nn_mbar, tessera_nvgemm_nt_mbar (and, prepared, _tn_mbar): C = alpha·op(A)·op(B) +
// beta·C in double on sm_90, op(B) = B or Bᵀ (op(A) = A; Aᵀ for _tn), whose slabs are tracked by mbarriers instead of work-group barriers. Uses
// gemm_nv_d.cl's helpers (mma, cp.async, row relabeling), which this file undefines at its end, and
// gemm_nv.cl's mbarrier helpers. In PoCL's emulated program only when asked (-DTESSERA_NVD_MBAR=1 with
// `gpu_gemm --check --emulate`): its mbarrier waits are then work-group barriers (gemm_nv.cl).
//
// Why: with one work-group barrier per slab, every warp waits for the slowest before each slab, and
// then all queue their fragment loads together. Here each slab buffer has two mbarriers: `full`,
// on which every work-item's cp.async of the slab arrive as they land
// (cp.async.mbarrier.arrive.noinc), and `empty`, on which every work-item arrives once it has loaded
// its fragments. A work-item waits on `full` before its fragment loads and on `empty` before copying
// into a buffer again, TESSERA_NVD_MBAR_LAG steps after the one that read it, so warps drift apart
// by up to LAG + 1 slabs and ST − LAG slabs are in flight. Measured on an H100 (bench/gpu_gemm.sh,
// dgemm NN and NT), against the cp.async kernels with barriers (tessera_nvgemm_nn_big, tessera_nvgemm_nt):
// NN +14..20 %, NT +13..18 % at n = 2048..8192 (two comparisons, each within one run, chained).
// (Sessions 15–16 copied the slabs with the TMA engine, cp.async.bulk, instead: 2–6 % slower.)
//
// Scope: whole blocks and slabs only (the launcher, gemm_select.cpp, checks m and n multiples of
// 128, k of 8, 16-byte aligned offsets and leading dimensions, no triangle, and enough blocks for
// every compute unit). 128×128 blocks of 8 warps (2 along m, 4 along n; each a 64×32 tile, as in
// gemm_nv_d.cl), slabs of 8 k in TESSERA_NVD_MBAR_ST buffers, the next slab's fragments loaded
// amid the current slab's mma (two register sets, as tessera_nvgemm_nn_big).
//
// Prepared, not yet measured (bench/gpu_gemm.sh with VARIANTS_D measures them), each off by default:
// TESSERA_NVD_MBAR_TRI (xSYRK's triangles), TESSERA_NVD_MBAR_FEW (gemm_select.cpp: fewer blocks
// than units, split k), TESSERA_NVD_MBAR_PTR and TESSERA_NVD_MBAR_B8 (fewer registers: NT spills),
// TESSERA_NVD_MBAR_TN (tessera_nvgemm_tn_mbar: NN's loop, Aᵀ's slabs copied 8 bytes at a time
// into A's layout, for gemqrt's and tpmqrt's W = Vᴴ·C).
//
// Local layout: A's slab (and Bᵀ's) is 8 k-columns of 128 rows at a stride of NVDM_SA = 130 doubles;
// the padding makes the 16-byte fragment loads conflict-free (8 work-items of a quarter warp hit
// banks 8t + 4g + {0..3}). B's slab is 128 columns of 8 k, unpadded (a quarter warp's loads are 128
// contiguous bytes). The mma numbering is gemm_nv_d.cl's: the slab's k pairs (2q, 2q+1) are mma k
// (q, q+4), physical rows 2i, 2i+1 of each 16-row group are mma rows i, i+8 (NVD_RP), and the columns
// of Bᵀ are paired the same way: physical columns 2c, 2c+1 of a 16-column group are column c of n8
// tiles 2q and 2q+1, so one 16-byte load holds the b0 (or b1) of two n8 tiles.
//
// Local memory: ST·(8·130 + 8·130 or 128·8)·8 bytes (83.2 / 82.6 KB at ST = 5): above OpenCL's usual
// 48 KB, which NVIDIA's driver 580 accepts for sm_90 (ptxas reports the static size; it runs).
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_D)

#ifndef TESSERA_NVD_MBAR
#if TESSERA_NV_SM >= 90 && TESSERA_NVD_MMA == 1688 && !defined(TESSERA_NV_EMULATE)
#define TESSERA_NVD_MBAR 1  // build tessera_nvgemm_nn_mbar and tessera_nvgemm_nt_mbar
#else
#define TESSERA_NVD_MBAR 0
#endif
#endif
#ifndef TESSERA_NVD_MBAR_ST
#define TESSERA_NVD_MBAR_ST 5  // slab buffers (local memory: 16.6 KB each)
#endif
#ifndef TESSERA_NVD_MBAR_LAG
#define TESSERA_NVD_MBAR_LAG 1  // a buffer is refilled this many steps after the step that read it
#endif
#ifndef TESSERA_NVD_MBAR_PTR
#define TESSERA_NVD_MBAR_PTR 0  // 1: the copies' sources are running pointers, advanced slab by slab
#endif
#ifndef TESSERA_NVD_MBAR_B8
#define TESSERA_NVD_MBAR_B8 0  // 1: Bᵀ's fragments by two 8-byte loads per n8 tile, columns unpaired (NT)
#endif
#ifndef TESSERA_NVD_MBAR_TN
#define TESSERA_NVD_MBAR_TN 0  // 1: also tessera_nvgemm_tn_mbar (C = alpha·Aᵀ·B + beta·C)
#endif
#ifndef TESSERA_NVD_MBAR_TRI
#define TESSERA_NVD_MBAR_TRI 0  // 1: the kernels honour `tri` (xSYRK's triangle), and are taken for it
#endif

#if TESSERA_NVD_MBAR
#define NVDM_ST TESSERA_NVD_MBAR_ST
#define NVDM_SA 130               // doubles between the k-columns of a slab of A or Bᵀ
#define NVDM_SLAB (8 * NVDM_SA)   // doubles per slab of A or of Bᵀ
#define NVDM_SLAB_NN (128 * 8)    // doubles per slab of B (columns of 8 k, unpadded)
// One 128×128 block of C = alpha·op(A)·op(B) + beta·C; ta: op(A) = Aᵀ, else A; nn: op(B) = B, else
// Bᵀ (constants per kernel; ta only with nn).
NVD_INLINE void nvdm_gemm(const int ta, const int nn, const int m, const int n, const int k, const double alpha,
                          __global const double* A, const int lda, __global const double* B, const int ldb,
                          const double beta, __global double* C, const int ldc, const int tri, __local double* As,
                          __local double* Bs, __local ulong* full, __local ulong* empty NVD_EMU_PARAMS)
{
    int bm, bn;
    nvg_block_coords(m, n, 128, 128, &bm, &bn);
    const int i0 = bm * 128, j0 = bn * 128;
#if TESSERA_NVD_MBAR_TRI
    // Blocks outside the triangle leave at once (uniform over the work-group, before any barrier);
    // the blocks are square, so only diagonal blocks (i0 == j0) straddle it.
    if ((tri == 1 && i0 < j0) || (tri == 2 && i0 > j0)) return;
    const int diag = tri != 0 && i0 == j0;
#define NVDM_OUTSIDE(row, col) (diag && (tri == 1 ? (row) < (col) : (row) > (col)))
#else
#define NVDM_OUTSIDE(row, col) false
#endif
    const int lid = (int)get_local_id(0), warp = lid >> 5, lane = lid & 31;
    const int g = lane >> 2, t = lane & 3, wm = warp & 1, wn = warp >> 1;
    double acc[8][4][2];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j][0] = acc[i][j][1] = 0.0;
    const int nslab = (alpha == 0.0) ? 0 : k / 8;
    const int slab_b = nn ? NVDM_SLAB_NN : NVDM_SLAB;  // doubles per B buffer
    const int pairs = TESSERA_NVD_MBAR_B8 ? 0 : !nn;       // Bᵀ's columns paired (below)

    // This work-item's 16-byte chunks of a slab, slab s at + 8s·ld (A, Bᵀ) or + 8s (B): of A and Bᵀ,
    // k-column lid/64, rows 2·(lid mod 64) and the next, and the same 4 k-columns on (local offset
    // cdst, + 4·SA); of B, chunks 2·lid and 2·lid + 512 of the slab (column lid/4 and lid/4 + 64, k
    // pair lid mod 4). Of Aᵀ (TESSERA_NVD_MBAR_TN; rows of op(A) are A's columns, k-contiguous), four
    // 8-byte copies into A's layout: k lid mod 8 of rows 2·(lid/16) + (lid/8 mod 2) + 32q, q < 4
    // (local offset adst + 32q): a half warp's 16 copies are two rows' 64 contiguous bytes, and land
    // in 16 distinct 8-byte banks (2k + row mod 16). With TESSERA_NVD_MBAR_PTR, asrc and bsrc are
    // advanced to the next slab after each issue (the slabs are issued in order: 0 .. ST − 1, then
    // one per step).
    const int arow = 2 * (lid >> 4) + ((lid >> 3) & 1), akk = lid & 7;  // Aᵀ's copies
    __global const double* asrc = ta ? A + (long)(i0 + arow) * lda + akk
                                     : A + i0 + 2 * (lid & 63) + (long)(lid >> 6) * lda;
    __global const double* bsrc = nn ? B + (long)(j0 + (lid >> 2)) * ldb + 2 * (lid & 3)
                                     : B + j0 + 2 * (lid & 63) + (long)(lid >> 6) * ldb;
    const int cdst = (lid >> 6) * NVDM_SA + 2 * (lid & 63), adst = akk * NVDM_SA + arow;
    if (lid == 0) {
        for (int b = 0; b < NVDM_ST; ++b) {
            NVG_MBAR_INIT(full + b, 256);  // every work-item's copies
            NVG_MBAR_INIT(empty + b, 256);
        }
        NVG_MBAR_INIT_FENCE();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if TESSERA_NVD_MBAR_PTR
#define NVDM_K(sl) 0L  // slab sl's distance in k from asrc (and Bᵀ's bsrc); NVDM_KN: from B's bsrc
#define NVDM_KN(sl) 0
#define NVDM_ADVANCE() (asrc += ta ? 8 : 8 * lda, bsrc += nn ? 8 : 8 * ldb)
#else
#define NVDM_K(sl) (8L * (sl))
#define NVDM_KN(sl) (8 * (sl))
#define NVDM_ADVANCE() ((void)0)
#endif
#define NVDM_ISSUE(sl)                                                                              \
    do {                                                                                            \
        const int b_ = (sl) % NVDM_ST;                                                              \
        if (ta) {                                                                                   \
            _Pragma("unroll") for (int q_ = 0; q_ < 4; ++q_)                                        \
                NVD_CP8(As + b_ * NVDM_SLAB + adst + 32 * q_, asrc + 32L * q_ * lda + NVDM_KN(sl)); \
        } else {                                                                                    \
            NVD_CP16(As + b_ * NVDM_SLAB + cdst, asrc + NVDM_K(sl) * lda);                          \
            NVD_CP16(As + b_ * NVDM_SLAB + cdst + 4 * NVDM_SA, asrc + (NVDM_K(sl) + 4) * lda);      \
        }                                                                                           \
        if (!nn) {                                                                                  \
            NVD_CP16(Bs + b_ * NVDM_SLAB + cdst, bsrc + NVDM_K(sl) * ldb);                          \
            NVD_CP16(Bs + b_ * NVDM_SLAB + cdst + 4 * NVDM_SA, bsrc + (NVDM_K(sl) + 4) * ldb);      \
        } else {                                                                                    \
            NVD_CP16(Bs + b_ * NVDM_SLAB_NN + 2 * lid, bsrc + NVDM_KN(sl));                         \
            NVD_CP16(Bs + b_ * NVDM_SLAB_NN + 2 * lid + 512, bsrc + 64L * ldb + NVDM_KN(sl));       \
        }                                                                                           \
        NVDM_ADVANCE();                                                                             \
        NVG_CP_ARRIVE(full + b_);                                                                   \
    } while (0)

    // Fragment chunks (double2 indices from the slab's start): A2[fa + NVDM_FA(2p + h)] = rows of
    // m16 tile p at physical k 2t + h. Bᵀ: B2[fb + NVDM_FB(2q + h)] = the column pair of 16-column
    // group q at physical k 2t + h; B: B2[fb + 32j] = physical k 2t, 2t + 1 of n8 tile j's column g.
    // Bᵀ unpaired (TESSERA_NVD_MBAR_B8), in doubles: B1[fb + 8j] and B1[fb + 8j + SA] = physical k
    // 2t and 2t + 1 of n8 tile j's column g, as B's (8-byte loads, conflict-free: a half warp's 16
    // hit 8-byte banks 4t + g). One base register per operand; the rest are immediate offsets.
    const int fa = t * NVDM_SA + 32 * wm + g;
    const int fb = nn ? 4 * (32 * wn + g) + t : pairs ? t * NVDM_SA + 16 * wn + g : 2 * t * NVDM_SA + 32 * wn + g;
#define NVDM_FA(i) (((i) & 1) * (NVDM_SA / 2) + 8 * ((i) >> 1))
#define NVDM_FB(j) (!pairs ? 32 * (j) : ((j) & 1) * (NVDM_SA / 2) + 8 * ((j) >> 1))
    // Slab sl's fragments, once it has landed; then this work-item is done with its buffer.
#define NVDM_LOAD(sl, af, bf)                                                                       \
    do {                                                                                            \
        const int b_ = (sl) % NVDM_ST;                                                              \
        nvg_mbar_wait(full + b_, ((sl) / NVDM_ST) & 1);                                             \
        __local const double2* A2_ = (__local const double2*)(As + b_ * NVDM_SLAB) + fa;            \
        __local const double2* B2_ = (__local const double2*)(Bs + b_ * slab_b) + fb;               \
        _Pragma("unroll") for (int i_ = 0; i_ < 8; ++i_) af[i_] = A2_[NVDM_FA(i_)];                 \
        __local const double* B1_ = (Bs + b_ * slab_b) + fb;                                        \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_)                                            \
            bf[j_] = nn || pairs ? B2_[NVDM_FB(j_)] : (double2)(B1_[8 * j_], B1_[8 * j_ + NVDM_SA]);  \
        NVG_MBAR_ARRIVE(empty + b_);                                                                \
    } while (0)
// The mma of m16 tiles p0 <= p < p1. n8 tile j's (b0, b1): B (and Bᵀ unpaired), bf[j]; Bᵀ paired,
// half j mod 2 of bf[2·(j/2)] and bf[2·(j/2) + 1].
#define NVDM_B(v, e) ((e) ? (v).y : (v).x)
#define NVDM_B0(bf, j) (!pairs ? bf[j].x : NVDM_B(bf[(j) & 2], (j) & 1))
#define NVDM_B1(bf, j) (!pairs ? bf[j].y : NVDM_B(bf[((j) & 2) + 1], (j) & 1))
#define NVDM_MMA(af, bf, p0, p1)                                                                    \
    do {                                                                                            \
        _Pragma("unroll") for (int p_ = p0; p_ < p1; ++p_)                                          \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_)                                            \
            NVD_MMA1688(acc[2 * p_][j_][0], acc[2 * p_][j_][1], acc[2 * p_ + 1][j_][0],             \
                        acc[2 * p_ + 1][j_][1], af[2 * p_].x, af[2 * p_].y, af[2 * p_ + 1].x,       \
                        af[2 * p_ + 1].y, NVDM_B0(bf, j_), NVDM_B1(bf, j_));                        \
    } while (0)
    // Step sl: half of slab sl's mma, slab sl+1's fragments, the other half, a refill.
#define NVDM_STEP(sl, afc, bfc, afn, bfn)                                                           \
    do {                                                                                            \
        NVDM_MMA(afc, bfc, 0, 2);                                                                   \
        if ((sl) + 1 < nslab) NVDM_LOAD((sl) + 1, afn, bfn);                                        \
        NVDM_MMA(afc, bfc, 2, 4);                                                                   \
        NVDM_REFILL(sl);                                                                            \
    } while (0)
// Once every work-item has read slab r = sl − LAG (loaded in step r − 1), its buffer takes slab r + ST.
#define NVDM_REFILL(sl)                                                                             \
    do {                                                                                            \
        const int r_ = (sl) - TESSERA_NVD_MBAR_LAG;                                                 \
        if (r_ >= 0 && r_ + NVDM_ST < nslab) {                                                      \
            nvg_mbar_wait(empty + r_ % NVDM_ST, (r_ / NVDM_ST) & 1);                                \
            NVDM_ISSUE(r_ + NVDM_ST);                                                               \
        }                                                                                           \
    } while (0)
#pragma unroll
    for (int s = 0; s < NVDM_ST; ++s)
        if (s < nslab) NVDM_ISSUE(s);
    double2 afA[8], bfA[4], afB[8], bfB[4];
    if (nslab > 0) NVDM_LOAD(0, afA, bfA);
    for (int s = 0; s < nslab; s += 2) {
        NVDM_STEP(s, afA, bfA, afB, bfB);
        if (s + 1 < nslab) NVDM_STEP(s + 1, afB, bfB, afA, bfA);
    }
#undef NVDM_STEP
#undef NVDM_REFILL
#undef NVDM_MMA
#undef NVDM_B
#undef NVDM_B0
#undef NVDM_B1
#undef NVDM_LOAD
#undef NVDM_FA
#undef NVDM_FB
#undef NVDM_ISSUE
#undef NVDM_K
#undef NVDM_KN
#undef NVDM_ADVANCE

    // Epilogue: acc[i][j][x] is mma row 64·wm + 16·(i/2) + g + 8·(i mod 2) and column 2t + x of n8
    // tile j: B (and Bᵀ unpaired), column 32·wn + 8j + 2t + x of the block; Bᵀ paired, column
    // 32·wn + 16·(j/2) + 2·(2t + x) + j mod 2 (the pairing above). A row's values of C are all loaded before any is stored (as in
    // nvd_gemm_body).
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = i0 + NVD_RP(64 * wm + 16 * (i >> 1) + g + 8 * (i & 1));
        double old[8];
#define NVDM_COL(j, x) (j0 + 32 * wn + (!pairs ? 8 * (j) + 2 * t + (x) : 16 * ((j) >> 1) + 2 * (2 * t + (x)) + ((j) & 1)))
#pragma unroll
        for (int x = 0; x < 8; ++x)
            old[x] = NVDM_OUTSIDE(row, NVDM_COL(x >> 1, x & 1)) ? 0.0
                     : beta != 0.0                                ? C[row + (long)NVDM_COL(x >> 1, x & 1) * ldc]
                                                                  : 0.0;
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            if (NVDM_OUTSIDE(row, NVDM_COL(x >> 1, x & 1))) continue;
            const double v = alpha * acc[i][x >> 1][x & 1];
            C[row + (long)NVDM_COL(x >> 1, x & 1) * ldc] = (beta == 0.0) ? v : fma(beta, old[x], v);
        }
#undef NVDM_COL
    }
#undef NVDM_OUTSIDE
}

// Arguments as tessera_nvgemm_nt's, _nn's and _tn's (tri 0 unless TESSERA_NVD_MBAR_TRI); their
// block is tessera_nvgemm_geometry_mbar's.
#define NVDM_KERNEL(name, ta, nn)                                                                   \
    __kernel __attribute__((reqd_work_group_size(256, 1, 1)))                                      \
    void name(const int m, const int n, const int k, const double alpha, __global const double* A, \
              const ulong offA, const int lda, __global const double* B, const ulong offB, const int ldb, \
              const double beta, __global double* C, const ulong offC, const int ldc, const int tri) \
    {                                                                                               \
        __local double2 As2[NVDM_ST * NVDM_SLAB / 2];                                               \
        __local double2 Bs2[NVDM_ST * ((nn) ? NVDM_SLAB_NN : NVDM_SLAB) / 2];                       \
        __local ulong bars[2 * NVDM_ST];                                                            \
        NVD_EMU_DECL                                                                                \
        NVG_SPLIT_ARGS(ta, !(nn), 1);                                                               \
        nvdm_gemm(ta, nn, m, n, k_, alpha, A + oA_, lda, B + oB_, ldb, beta, C + oC_, ldc, tri,     \
                  (__local double*)As2, (__local double*)Bs2, bars, bars + NVDM_ST NVD_EMU_ARGS);    \
    }
NVDM_KERNEL(tessera_nvgemm_nt_mbar, 0, 0)
NVDM_KERNEL(tessera_nvgemm_nn_mbar, 0, 1)
#if TESSERA_NVD_MBAR_TN
NVDM_KERNEL(tessera_nvgemm_tn_mbar, 1, 1)
#endif
#undef NVDM_KERNEL
// Never launched: its reqd_work_group_size (2, 4, 1) tells the launcher the block of C, 128 × 128.
__kernel __attribute__((reqd_work_group_size(2, 4, 1)))
void tessera_nvgemm_geometry_mbar(__global int* unused)
{
    if (unused) unused[0] = 0;
}
#undef NVDM_ST
#undef NVDM_SA
#undef NVDM_SLAB
#undef NVDM_SLAB_NN
#endif  // TESSERA_NVD_MBAR

// Internal helpers of gemm_nv_d.cl end here: later files of the concatenated program may reuse
// these names.
#undef NVD_BM
#undef NVD_BN
#undef NVD_NW
#undef NVD_NT
#undef NVD_SA
#undef NVD_SB
#undef NVD_INLINE
#undef NVD_EMU_DECL
#undef NVD_EMU_ARGS
#undef NVD_EMU_PARAMS
#undef NVD_MMA884
#undef NVD_MMA1688
#undef NVD_CP8
#undef NVD_CP16
#undef NVD_CP8Z
#undef NVD_CP16Z
#undef NVD_XA
#undef NVD_XB
#undef NVD_KM
#undef NVD_RM
#undef NVD_RP
#undef NVD_NCOPY
#undef NVD_MAXCOPY
#undef NVD_COPY_SETUP
#undef NVD_COPY_SLAB
#undef NVD_KERNEL
#undef NVD_KERNEL_STD
#endif  // TESSERA_REAL_D
#endif  // TESSERA_NV_SM

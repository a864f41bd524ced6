// tessera_nvgemm_nt_bulk: C = alpha·A·Bᵀ + beta·C in double on sm_90, its slabs copied by the TMA
// engine (cp.async.bulk) instead of per-work-item cp.async. Uses gemm_nv_d.cl's helpers (mma, row
// relabeling), which this file undefines at its end. Not in PoCL's emulated program (below).
//
// Why: the Cholesky's trailing updates are NT. With Bᵀ, a slab of 8 k is 8 contiguous runs of 128
// elements (1 KB) in each operand, so one work-item per warp can issue a whole slab: 16 bulk copies
// per slab instead of hundreds of 8- and 16-byte cp.async spread over the work-group (Bᵀ goes 8
// bytes at a time there): no copy registers and almost no copy instructions beside the mma. Measured on an H100 (bench/gpu_notes.md, session 15): +0.3–6 %
// over tessera_nvgemm_nt at n = 2048..8192 and at the tile shapes of 2048 and 4096.
//
// Scope: whole blocks and slabs only (the launcher, gemm_select.cpp, checks m and n multiples of
// 128, k of 8, 16-byte aligned offsets and leading dimensions, no triangle, and enough blocks for
// every compute unit). 128×128 blocks of 8 warps (2 along m, 4 along n; each a 64×32 tile, as in
// gemm_nv_d.cl), slabs of 8 k, TESSERA_NVD_BULK_ST of them in flight.
//
// Synchronization: lane 0 of warp w copies k-column w of the slab from A and from Bᵀ and counts
// their 2 KB on the slab buffer's `full` mbarrier (mbarrier.arrive.expect_tx; the copies complete
// the transaction); every work-item waits on `full` before loading its fragments and then arrives on
// the buffer's `empty` mbarrier; lane 0 waits on `empty` before reusing the buffer. No work-group
// barrier in the loop, so warps drift apart by up to a slab (a work-group barrier per slab instead
// measured 20 % slower).
//
// Local layout: a k-column of 128 rows of A (columns of Bᵀ) at a stride of NVDB_SA = 130 doubles;
// the padding makes the 16-byte fragment loads conflict-free (8 work-items of a quarter warp hit
// banks 8t + 4g + {0..3}). The mma numbering is gemm_nv_d.cl's: the slab's k pairs (2q, 2q+1) are mma
// k (q, q+4), physical rows 2i, 2i+1 of each 16-row group are mma rows i, i+8 (NVD_RP), and the
// columns of Bᵀ are paired the same way: physical columns 2c, 2c+1 of a 16-column group are column c
// of n8 tiles 2q and 2q+1, so one 16-byte load holds the b0 (or b1) of two n8 tiles.
//
// Local memory: ST·2·8·130·8 bytes (66.6 KB at ST = 4): above OpenCL's usual 48 KB, which NVIDIA's
// driver 580 accepts for sm_90 (ptxas reports the static size; it runs).
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_D)

#ifndef TESSERA_NVD_BULK
#if TESSERA_NV_SM >= 90 && TESSERA_NVD_MMA == 1688 && !defined(TESSERA_NV_EMULATE)
#define TESSERA_NVD_BULK 1  // build tessera_nvgemm_nt_bulk
#else
#define TESSERA_NVD_BULK 0
#endif
#endif
#if TESSERA_NVD_BULK && defined(TESSERA_NV_EMULATE)
#error "tessera_nvgemm_nt_bulk has no PoCL emulation (PoCL 3.1 crashed running it; the GPU check covers it)"
#endif
#ifndef TESSERA_NVD_BULK_ST
#define TESSERA_NVD_BULK_ST 4  // slabs in flight (H100: 3 −4 %, 5 −2 %, 6 and 9 −2 %)
#endif

#if TESSERA_NVD_BULK
#define NVDB_ST TESSERA_NVD_BULK_ST
#define NVDB_SA 130               // doubles between the k-columns of a slab
#define NVDB_SLAB (8 * NVDB_SA)   // doubles per slab and operand
#define NVDB_INIT(bar, count) TESSERA_NV_ASM volatile("mbarrier.init.shared::cta.b64 [%0], %1;" \
                                                      :: "r"(NVD_LADDR(bar)), "r"(count) : "memory")
#define NVDB_INIT_FENCE() \
    TESSERA_NV_ASM volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory")
#define NVDB_EXPECT(bar, bytes)                                                                     \
    TESSERA_NV_ASM volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" \
                            :: "r"(NVD_LADDR(bar)), "r"(bytes) : "memory")
#define NVDB_ARRIVE(bar) TESSERA_NV_ASM volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" \
                                                 :: "r"(NVD_LADDR(bar)) : "memory")
// 128 doubles (1 KB) from src to dst, completing 1 KB of bar's transaction count.
#define NVDB_BULK(dst, src, bar)                                                                    \
    TESSERA_NV_ASM volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];" \
                            :: "r"(NVD_LADDR(dst)), "l"(src), "r"(NVD_LADDR(bar)) : "memory")
// Wait until the phase of parity `parity` of bar has completed.
static inline void nvdb_wait(__local ulong* bar, const uint parity)
{
    uint done;
    do {
        TESSERA_NV_ASM volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                                "selp.u32 %0, 1, 0, p;\n\t}"
                                : "=r"(done) : "r"(NVD_LADDR(bar)), "r"(parity) : "memory");
    } while (!done);
}

NVD_INLINE void nvdb_gemm_nt(const int m, const int n, const int k, const double alpha, __global const double* A,
                             const int lda, __global const double* B, const int ldb, const double beta,
                             __global double* C, const int ldc, __local double* As, __local double* Bs,
                             __local ulong* full, __local ulong* empty)
{
    int bm, bn;
    nvg_block_coords(m, n, 128, 128, &bm, &bn);
    const int i0 = bm * 128, j0 = bn * 128;
    const int lid = (int)get_local_id(0), warp = lid >> 5, lane = lid & 31;
    const int g = lane >> 2, t = lane & 3, wm = warp & 1, wn = warp >> 1;
    const int lead = lane == 0;  // issues k-column `warp` of each slab, of A and of Bᵀ
    double acc[8][4][2];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j][0] = acc[i][j][1] = 0.0;
    const int nslab = (alpha == 0.0) ? 0 : k / 8;

    __global const double* asrc = A + i0 + (long)warp * lda;  // slab s: + 8s·lda
    __global const double* bsrc = B + j0 + (long)warp * ldb;  // slab s: + 8s·ldb
    if (lid == 0) {
        for (int b = 0; b < NVDB_ST; ++b) {
            NVDB_INIT(full + b, 8);
            NVDB_INIT(empty + b, 256);
        }
        NVDB_INIT_FENCE();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#define NVDB_ISSUE(sl)                                                                              \
    do {                                                                                            \
        const int b_ = (sl) % NVDB_ST;                                                              \
        if (lead) {                                                                                 \
            NVDB_EXPECT(full + b_, 2048u);                                                          \
            NVDB_BULK(As + b_ * NVDB_SLAB + warp * NVDB_SA, asrc + 8L * (sl) * lda, full + b_);     \
            NVDB_BULK(Bs + b_ * NVDB_SLAB + warp * NVDB_SA, bsrc + 8L * (sl) * ldb, full + b_);     \
        }                                                                                           \
    } while (0)

    // Fragment chunks (double2 indices): fa[2p + h] = rows of m16 tile p at physical k 2t + h;
    // fb[2q + h] = the column pair of 16-column group q at physical k 2t + h.
    int fa[8], fb[4];
#pragma unroll
    for (int i = 0; i < 8; ++i) fa[i] = ((2 * t + (i & 1)) * NVDB_SA + 64 * wm + 16 * (i >> 1) + 2 * g) >> 1;
#pragma unroll
    for (int j = 0; j < 4; ++j) fb[j] = ((2 * t + (j & 1)) * NVDB_SA + 32 * wn + 16 * (j >> 1) + 2 * g) >> 1;
    // Slab sl's fragments, once it has landed; then this work-item is done with its buffer.
#define NVDB_LOAD(sl, af, bf)                                                                       \
    do {                                                                                            \
        const int b_ = (sl) % NVDB_ST;                                                              \
        nvdb_wait(full + b_, ((sl) / NVDB_ST) & 1);                                                 \
        __local const double2* A2_ = (__local const double2*)(As + b_ * NVDB_SLAB);                 \
        __local const double2* B2_ = (__local const double2*)(Bs + b_ * NVDB_SLAB);                 \
        _Pragma("unroll") for (int i_ = 0; i_ < 8; ++i_) af[i_] = A2_[fa[i_]];                      \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_) bf[j_] = B2_[fb[j_]];                      \
        NVDB_ARRIVE(empty + b_);                                                                    \
    } while (0)
// The mma of m16 tiles p0 <= p < p1; n8 tile j = 2q + e takes (b0, b1) from half e of bf[2q], bf[2q+1].
#define NVDB_B(v, e) ((e) ? (v).y : (v).x)
#define NVDB_MMA(af, bf, p0, p1)                                                                    \
    do {                                                                                            \
        _Pragma("unroll") for (int p_ = p0; p_ < p1; ++p_)                                          \
        _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_)                                            \
            NVD_MMA1688(acc[2 * p_][j_][0], acc[2 * p_][j_][1], acc[2 * p_ + 1][j_][0],             \
                        acc[2 * p_ + 1][j_][1], af[2 * p_].x, af[2 * p_].y, af[2 * p_ + 1].x,       \
                        af[2 * p_ + 1].y, NVDB_B(bf[j_ & 2], j_ & 1), NVDB_B(bf[(j_ & 2) + 1], j_ & 1)); \
    } while (0)
    // Step sl: half of slab sl's mma, slab sl+1's fragments, the other half; then, once every
    // work-item has read slab sl, slab sl + ST's copies into its buffer.
#define NVDB_STEP(sl, afc, bfc, afn, bfn)                                                           \
    do {                                                                                            \
        NVDB_MMA(afc, bfc, 0, 2);                                                                   \
        if ((sl) + 1 < nslab) NVDB_LOAD((sl) + 1, afn, bfn);                                        \
        NVDB_MMA(afc, bfc, 2, 4);                                                                   \
        if ((sl) + NVDB_ST < nslab) {                                                               \
            if (lead) nvdb_wait(empty + (sl) % NVDB_ST, ((sl) / NVDB_ST) & 1);                      \
            NVDB_ISSUE((sl) + NVDB_ST);                                                             \
        }                                                                                           \
    } while (0)
#pragma unroll
    for (int s = 0; s < NVDB_ST; ++s)
        if (s < nslab) NVDB_ISSUE(s);
    double2 afA[8], bfA[4], afB[8], bfB[4];
    if (nslab > 0) NVDB_LOAD(0, afA, bfA);
    for (int s = 0; s < nslab; s += 2) {
        NVDB_STEP(s, afA, bfA, afB, bfB);
        if (s + 1 < nslab) NVDB_STEP(s + 1, afB, bfB, afA, bfA);
    }
#undef NVDB_STEP
#undef NVDB_MMA
#undef NVDB_B
#undef NVDB_LOAD
#undef NVDB_ISSUE

    // Epilogue: acc[i][j][x] is mma row 64·wm + 16·(i/2) + g + 8·(i mod 2) and column 2t + x of n8
    // tile j, i.e. physical column 16·(j/2) + 2·(2t + x) + j mod 2 of the warp tile. A row's values of
    // C are all loaded before any is stored (as in nvd_gemm_body).
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = i0 + NVD_RP(64 * wm + 16 * (i >> 1) + g + 8 * (i & 1));
        double old[8];
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            const int j = x >> 1, col = j0 + 32 * wn + 16 * (j >> 1) + 2 * (2 * t + (x & 1)) + (j & 1);
            old[x] = beta != 0.0 ? C[row + (long)col * ldc] : 0.0;
        }
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            const int j = x >> 1, col = j0 + 32 * wn + 16 * (j >> 1) + 2 * (2 * t + (x & 1)) + (j & 1);
            const double v = alpha * acc[i][j][x & 1];
            C[row + (long)col * ldc] = (beta == 0.0) ? v : fma(beta, old[x], v);
        }
    }
}

// Arguments as tessera_nvgemm_nt's (tri must be 0); its block is tessera_nvgemm_geometry_big's.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void tessera_nvgemm_nt_bulk(const int m, const int n, const int k, const double alpha, __global const double* A,
                            const ulong offA, const int lda, __global const double* B, const ulong offB, const int ldb,
                            const double beta, __global double* C, const ulong offC, const int ldc, const int tri)
{
    __local double2 As2[NVDB_ST * NVDB_SLAB / 2];
    __local double2 Bs2[NVDB_ST * NVDB_SLAB / 2];
    __local ulong bars[2 * NVDB_ST];
    NVG_SPLIT_ARGS(0, 1, 1);
    nvdb_gemm_nt(m, n, k_, alpha, A + oA_, lda, B + oB_, ldb, beta, C + oC_, ldc, (__local double*)As2,
                 (__local double*)Bs2, bars, bars + NVDB_ST);
}
#undef NVDB_ST
#undef NVDB_SA
#undef NVDB_SLAB
#undef NVDB_INIT
#undef NVDB_INIT_FENCE
#undef NVDB_EXPECT
#undef NVDB_ARRIVE
#undef NVDB_BULK
#endif  // TESSERA_NVD_BULK

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
#undef NVD_LADDR
#undef NVD_CP8
#undef NVD_CP16
#undef NVD_CP8Z
#undef NVD_CP16Z
#undef NVD_CP_COMMIT
#undef NVD_CP_WAIT
#undef NVD_CP_WAIT_
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
#undef NVD_CP_WAITN
#endif  // TESSERA_REAL_D
#endif  // TESSERA_NV_SM

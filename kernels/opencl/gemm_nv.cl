// tessera_nvgemm_{nn,nt,tn,tt}: C = alpha·op(A)·op(B) + beta·C for NVIDIA GPUs of compute
// capability ≥ 8.0 (built only when build_options() defines TESSERA_NV_SM; every other device,
// PoCL included, never compiles this file's body). Column-major, offsets in elements, any m, n, k.
//
//   double: FP64 tensor cores through inline-PTX mma.sync (m16n8k8 by default; m16n8k4 and m8n8k4
//           selectable; m8n8k4 runs at half rate on sm_90), local memory filled with cp.async.
//   float:  FP32 FMA only (no TF32: results keep FP32 accuracy).
//
// Double. A work-group of TESSERA_NVD_WM × TESSERA_NVD_WN warps computes a (64·WM) × (32·WN)
// block of C; each warp a 64×32 tile, 64 accumulators per work-item laid out as the mma C
// fragments: acc[i][j][e] = C(64·wm + 8i + g, 32·wn + 8j + 2t + e), g = lane/4, t = lane%4.
// k advances in slabs of 8; TESSERA_NVD_STAGES slabs are in flight (cp.async, zero-filled outside
// the matrices), one barrier per slab. Local memory holds a slab as X[r][8] (r = row of op(A) or
// column of op(B)), the k values permuted and XOR-swizzled so that one 16-byte load gives a
// work-item both k = t and k = t + 4 of its fragment, and fragment loads as well as the copies of
// both global patterns (r-contiguous and k-contiguous) are free of bank conflicts:
//   X(r, k) = r·8 + 2·((k mod 4) xor ((r/2) mod 4)) + k/4.
//
// Float. 256 work-items, a 128×128 block, each work-item an 8×8 register tile; slabs of
// TESSERA_NVS_BK staged through registers into k-major local memory, float4 fragment loads.
//
// Launch (gemm_select.cpp): local size = the kernel's reqd_work_group_size ((32·WM·WN, 1, 1), or
// (32, WM, WN) with TESSERA_NVD_WG3D, for double; (256, 1, 1) for float); global = local × (number
// of blocks, 1, 1). The double block shape is read off the never-launched tessera_nvgemm_geometry's
// reqd_work_group_size (WM, WN, 1). Blocks are ordered in groups of TESSERA_NV_GROUP block rows so
// that concurrently running work-groups share A and B in L2. `tri`: 0 = all of C, 1 = lower
// triangle only (i ≥ j), 2 = upper (i ≤ j); serves xSYRK.
//
// Defaults = the fastest measured on an H100 (bench/gpu_notes.md): double 128×64 blocks (two
// work-groups per SM), m16n8k8, 2 stages; float BK 16 with 8×4-work-item warps.

#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80

#ifndef TESSERA_NV_ASM
#define TESSERA_NV_ASM asm  // offline analysis with clang (tools/tune/ptx_report.sh) uses __asm__
#endif
#ifndef TESSERA_NV_GROUP
#define TESSERA_NV_GROUP 8  // block rows per rasterization group
#endif

// Map the linear work-group id to (block row, block column), grouped along the rows.
static inline void nvg_block_coords(const int m, const int n, const int BM, const int BN, int* bm, int* bn)
{
    const int pid = (int)get_group_id(0);
    const int nbm = (m + BM - 1) / BM, nbn = (n + BN - 1) / BN;
    const int per_group = TESSERA_NV_GROUP * nbn;
    const int first = (pid / per_group) * TESSERA_NV_GROUP;
    const int rows = min(nbm - first, TESSERA_NV_GROUP);
    const int in_group = pid % per_group;
    *bm = first + in_group % rows;
    *bn = in_group / rows;
}

#if defined(TESSERA_PREC_D)
// ================================ double: FP64 tensor cores ================================

#ifndef TESSERA_NVD_MMA
#define TESSERA_NVD_MMA 1688  // 1688 = m16n8k8, 1684 = m16n8k4 (sm_90), 884 = m8n8k4 (sm_80+)
#endif
#ifndef TESSERA_NVD_STAGES
#define TESSERA_NVD_STAGES 2  // slabs in flight, 2..4 (local memory: STAGES·(BM + BN)·64 bytes)
#endif
#ifndef TESSERA_NVD_WM
#define TESSERA_NVD_WM 2  // warps along m (64 rows each)
#endif
#ifndef TESSERA_NVD_WN
#define TESSERA_NVD_WN 2  // warps along n (32 columns each)
#endif
#ifndef TESSERA_NVD_WG3D
#define TESSERA_NVD_WG3D 0  // work-group shape: 0 = (32·WM·WN, 1, 1), 1 = (32, WM, WN)
#endif
#ifndef TESSERA_NVD_SPLIT
#define TESSERA_NVD_SPLIT 0  // mma groups (of 4, out of 4) issued before the next slab's copies
#endif
#ifndef TESSERA_NVD_ALAYOUT
#define TESSERA_NVD_ALAYOUT 0  // 1: A slabs as row pairs (r, r+8): mma A operands without register moves
#endif
#ifndef TESSERA_NVD_COPY
#define TESSERA_NVD_COPY 1  // copy addressing: 0 = full address per slab, 1 = 32-bit offsets + row mask
#endif
#if TESSERA_NV_SM < 90 && TESSERA_NVD_MMA != 884
#undef TESSERA_NVD_MMA
#define TESSERA_NVD_MMA 884  // the m16n8k* f64 shapes need sm_90
#endif

#define NVD_BM (64 * TESSERA_NVD_WM)
#define NVD_BN (32 * TESSERA_NVD_WN)
#define NVD_NW (TESSERA_NVD_WM * TESSERA_NVD_WN)
#define NVD_BK 8
#define NVD_RA (NVD_BM / (16 * NVD_NW))  // copy rounds of 16 rows per warp, A
#define NVD_RB (NVD_BN / (16 * NVD_NW))  // and B
#if NVD_RA < 1 || NVD_RB < 1 || NVD_BM % (16 * NVD_NW) != 0 || NVD_BN % (16 * NVD_NW) != 0
#error "TESSERA_NVD_WM/WN: each of 64·WM and 32·WN must be a multiple of 16·WM·WN"
#endif
#define NVD_SA (NVD_BM * NVD_BK)  // doubles per A slab
#define NVD_SB (NVD_BN * NVD_BK)

static inline int nvd_lid(void)
{
#if TESSERA_NVD_WG3D
    return (int)get_local_id(0) + 32 * ((int)get_local_id(1) + TESSERA_NVD_WM * (int)get_local_id(2));
#else
    return (int)get_local_id(0);
#endif
}
#if TESSERA_NVD_WG3D
#define NVD_WG 32, TESSERA_NVD_WM, TESSERA_NVD_WN
#else
#define NVD_WG 32 * NVD_NW, 1, 1
#endif

#ifdef TESSERA_NV_EMULATE
// PoCL test mode: each mma shape emulated through local memory, following the PTX ISA fragment
// layouts to the letter (every work-item of the work-group calls it, as in the real kernel), and
// cp.async as a plain copy. Rows/cols: A(M×K) from a[v], B(K×N) from b[v], C(M×N) into c[v].
#define NVD_EMU_DECL __local double emu_a[NVD_NW][16 * 8], emu_b[NVD_NW][8 * 8];
#define NVD_EMU_ARGS , emu_a, emu_b
#define NVD_EMU_PARAMS , __local double (*emu_a)[16 * 8], __local double (*emu_b)[8 * 8]
static inline void nvd_emu(int M, int K, const double* a, int na, const double* b, int nb, double* c,
                           __local double (*emu_a)[16 * 8], __local double (*emu_b)[8 * 8])
{
    const int lane = nvd_lid() & 31, w = nvd_lid() >> 5;
    const int g = lane >> 2, t = lane & 3;
    for (int v = 0; v < na; ++v) {
        int row, col;
        if (M == 8) { row = g; col = t; }
        else if (K == 4) { row = g + 8 * v; col = t; }
        else { row = g + 8 * (v & 1); col = t + 4 * (v >> 1); }
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
#define NVD_MMA1684(c0, c1, c2, c3, a0, a1, b0) do { double a_[2] = {a0, a1}, b_[1] = {b0}, \
    c_[4] = {c0, c1, c2, c3}; nvd_emu(16, 4, a_, 2, b_, 1, c_, emu_a, emu_b); \
    c0 = c_[0]; c1 = c_[1]; c2 = c_[2]; c3 = c_[3]; } while (0)
#define NVD_MMA1688(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) do { double a_[4] = {a0, a1, a2, a3}, \
    b_[2] = {b0, b1}, c_[4] = {c0, c1, c2, c3}; nvd_emu(16, 8, a_, 4, b_, 2, c_, emu_a, emu_b); \
    c0 = c_[0]; c1 = c_[1]; c2 = c_[2]; c3 = c_[3]; } while (0)
static inline void nvd_cp_async8(__local double* dst, __global const double* src, const int bytes)
{
    *dst = bytes ? *src : 0.0;
}
#define NVD_CP_COMMIT() ((void)0)
#define NVD_CP_WAIT(n) ((void)0)
#else
#define NVD_EMU_DECL
#define NVD_EMU_ARGS
#define NVD_EMU_PARAMS
#define NVD_MMA884(c0, c1, a0, b0)                                                              \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "                 \
                            "{%0,%1}, {%2}, {%3}, {%0,%1};"                                   \
                            : "+d"(c0), "+d"(c1) : "d"(a0), "d"(b0))
#define NVD_MMA1684(c0, c1, c2, c3, a0, a1, b0)                                                 \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "                \
                            "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                     \
                            : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3) : "d"(a0), "d"(a1), "d"(b0))
#define NVD_MMA1688(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1)                                     \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "                \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"            \
                            : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)                          \
                            : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1))
// 8 bytes global → local, zero-filled when bytes == 0 (src must still be a valid address).
static inline void nvd_cp_async8(__local double* dst, __global const double* src, const int bytes)
{
    const uint s = (uint)(ulong)dst;
    TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;"
                            :: "r"(s), "l"(src), "r"(bytes) : "memory");
}
#define NVD_CP_COMMIT() TESSERA_NV_ASM volatile("cp.async.commit_group;" ::: "memory")
#define NVD_CP_WAIT_(n) TESSERA_NV_ASM volatile("cp.async.wait_group " #n ";" ::: "memory")
#define NVD_CP_WAIT(n) NVD_CP_WAIT_(n)
#endif

// Local index of element (r, k) of a slab, in doubles; its 16-byte chunk is that / 2.
#define NVD_X(r, k) ((r) * 8 + 2 * (((k) & 3) ^ (((r) >> 1) & 3)) + ((k) >> 2))
// TESSERA_NVD_ALAYOUT: A slabs keep rows r and r+8 (same k) in one 16-byte chunk, so the two
// fragment loads of an m16n8k8 are its A operand (a0, a1), (a2, a3) as they stand:
//   XA(r, k) = 128·(r/16) + 16k + 2·((r mod 8) xor f(k)) + (r/8 mod 2), f(k) = 2·(k mod 4) + k/4,
// conflict-free for the fragment loads and for copies that give a half-warp 16 consecutive rows
// (r-contiguous) or rows r and r+8 (k-contiguous).
#define NVD_XA(r, k) (128 * ((r) >> 4) + 16 * (k) + 2 * (((r) & 7) ^ (2 * ((k) & 3) + ((k) >> 2))) + (((r) >> 3) & 1))
#define NVD_ELEM_RA(rc, w, l, rho, q) \
    (16 * ((w) + NVD_NW * (rho)) + ((rc) ? ((l) & 15) : 8 * (((l) >> 3) & 1) + ((l) >> 4) + 2 * (q)))
#define NVD_ELEM_KA(rc, l, q) ((rc) ? 4 * ((l) >> 4) + (q) : ((l) & 7))

// Element e = 4·rho + q of this work-item in a slab: row r, k index kk (both within the slab).
// rcontig: the global matrix is contiguous along r (op(A) = A, or op(B) = Bᵀ).
#define NVD_ELEM_R(rc, w, l, rho, q) \
    (16 * ((w) + NVD_NW * (rho)) + ((rc) ? ((l) & 7) + 8 * ((l) >> 4) : ((l) >> 3) + 4 * (q)))
#define NVD_ELEM_K(rc, l, q) ((rc) ? 4 * (((l) >> 3) & 1) + (q) : ((l) & 7))

// Per matrix and work-item, what the copies of every slab need: element offsets from the
// work-item's first element (32-bit), which rows exist (bit e), and the local indices.
#define NVD_COPY_PREP(P, off, x, okmask, base, sr, sk, rc, ROUNDS, r0, R_total, ER, EK, XF)     \
    do {                                                                                           \
        const int r00 = ER(rc, warp, lane, 0, 0), k00 = EK(rc, lane, 0);                           \
        P = (base) + (long)r00 * (sr) + (long)k00 * (sk);                                          \
        okmask = 0;                                                                                \
        for (int rho = 0; rho < (ROUNDS); ++rho)                                                   \
            for (int q = 0; q < 4; ++q) {                                                          \
                const int r_ = ER(rc, warp, lane, rho, q), k_ = EK(rc, lane, q);                   \
                off[4 * rho + q] = (int)((r_ - r00) * (sr) + (k_ - k00) * (sk));                   \
                x[4 * rho + q] = XF(r_, k_);                                                       \
                okmask |= ((r0) + r_ < (R_total)) << (4 * rho + q);                                \
            }                                                                                      \
    } while (0)

// Copy slab kb into local X. Ps: the work-item's first element at this slab; Bs0: element (r0, kb),
// which exists, stands in for missing ones (copied with size 0: zero fill). full: all k exist.
#if TESSERA_NVD_COPY
#define NVD_COPY_SLAB(X, Ps, Bs0, off, x, okmask, rc, ROUNDS, kb, k_total, full, ER, EK, XF)        \
    do {                                                                                           \
        for (int e = 0; e < 4 * (ROUNDS); ++e) {                                                   \
            int ok = (okmask >> e) & 1;                                                            \
            if (!(full)) ok = ok && (kb) + EK(rc, lane, e & 3) < (k_total);                        \
            nvd_cp_async8((X) + x[e], ok ? (Ps) + off[e] : (Bs0), ok ? 8 : 0);                     \
        }                                                                                          \
    } while (0)
#else  // as in the first measured version: the whole address per element and slab, k always checked
#define NVD_COPY_SLAB(X, Ps, Bs0, off, x, okmask, rc, ROUNDS, kb, k_total, full, ER, EK, XF)        \
    do {                                                                                           \
        for (int e = 0; e < 4 * (ROUNDS); ++e) {                                                   \
            const int r_ = ER(rc, warp, lane, e >> 2, e & 3), k_ = EK(rc, lane, e & 3);            \
            const int ok = ((okmask >> e) & 1) && (kb) + k_ < (k_total);                           \
            nvd_cp_async8((X) + XF(r_, k_), ok ? (Bs0) + r_ * (rc ? 1L : ld_) + k_ * (rc ? (long)ld_ : 1L) \
                          : (Bs0), ok ? 8 : 0);                                                    \
        }                                                                                          \
    } while (0)
#endif

#if TESSERA_NVD_ALAYOUT
#define NVD_AER NVD_ELEM_RA
#define NVD_AEK NVD_ELEM_KA
#define NVD_AX NVD_XA
#else
#define NVD_AER NVD_ELEM_R
#define NVD_AEK NVD_ELEM_K
#define NVD_AX NVD_X
#endif

static inline void nvd_gemm_body(const int transA, const int transB, const int m, const int n, const int k,
                                 const double alpha, __global const double* A, const int lda,
                                 __global const double* B, const int ldb, const double beta,
                                 __global double* C, const int ldc, const int tri,
                                 __local double* As, __local double* Bs NVD_EMU_PARAMS)
{
    int bm, bn;
    nvg_block_coords(m, n, NVD_BM, NVD_BN, &bm, &bn);
    const int i0 = bm * NVD_BM, j0 = bn * NVD_BN;
    if (tri == 1 && i0 + NVD_BM - 1 < j0) return;  // uniform over the work-group
    if (tri == 2 && j0 + NVD_BN - 1 < i0) return;

    const int lid = nvd_lid(), warp = lid >> 5, lane = lid & 31;
    const int g = lane >> 2, t = lane & 3;
    const int wm = warp % TESSERA_NVD_WM, wn = warp / TESSERA_NVD_WM;

    double acc[8][4][2];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) { acc[i][j][0] = 0.0; acc[i][j][1] = 0.0; }

    const int a_rc = !transA, b_rc = transB;  // op(A) contiguous along rows? op(B) along columns?
    const long a_sr = a_rc ? 1 : lda, a_sk = a_rc ? lda : 1;
    const long b_sr = b_rc ? 1 : ldb, b_sk = b_rc ? ldb : 1;
    __global const double* Ab = A + i0 * a_sr;  // element (i0, 0) of op(A)
    __global const double* Bb = B + j0 * b_sr;  // element (0, j0) of op(B)
    const int nslab = (alpha == 0.0) ? 0 : (k + NVD_BK - 1) / NVD_BK;
    const int nfull = (alpha == 0.0) ? 0 : k / NVD_BK;

    __global const double* Ap;
    __global const double* Bp;
    int a_off[4 * NVD_RA], a_x[4 * NVD_RA], b_off[4 * NVD_RB], b_x[4 * NVD_RB], a_ok, b_ok;
    NVD_COPY_PREP(Ap, a_off, a_x, a_ok, Ab, a_sr, a_sk, a_rc, NVD_RA, i0, m, NVD_AER, NVD_AEK, NVD_AX);
    NVD_COPY_PREP(Bp, b_off, b_x, b_ok, Bb, b_sr, b_sk, b_rc, NVD_RB, j0, n, NVD_ELEM_R, NVD_ELEM_K, NVD_X);

    // Fragment chunk indices of this work-item, constant over slabs.
    int fa[8], fb[4];
#pragma unroll
#if TESSERA_NVD_ALAYOUT  // fa[2p + h]: rows 16p + g and 16p + 8 + g, k = t + 4h
    for (int i = 0; i < 8; ++i) { const int r = 64 * wm + 16 * (i >> 1) + g; fa[i] = NVD_XA(r, t + 4 * (i & 1)) >> 1; }
#else
    for (int i = 0; i < 8; ++i) { const int r = 64 * wm + 8 * i + g; fa[i] = NVD_X(r, t) >> 1; }
#endif
#pragma unroll
    for (int j = 0; j < 4; ++j) { const int r = 32 * wn + 8 * j + g; fb[j] = NVD_X(r, t) >> 1; }

#if TESSERA_NVD_COPY
#define NVD_ISSUE(sl, buf)                                                                         \
    do {                                                                                           \
        const int kb_ = (sl) * NVD_BK;                                                             \
        __local double* Ax_ = As + (buf) * NVD_SA;                                                 \
        __local double* Bx_ = Bs + (buf) * NVD_SB;                                                 \
        __global const double* Aps_ = Ap + kb_ * a_sk;                                             \
        __global const double* Bps_ = Bp + kb_ * b_sk;                                             \
        __global const double* Ab0_ = Ab + kb_ * a_sk;                                             \
        __global const double* Bb0_ = Bb + kb_ * b_sk;                                             \
        if ((sl) < nfull) {                                                                        \
            NVD_COPY_SLAB(Ax_, Aps_, Ab0_, a_off, a_x, a_ok, a_rc, NVD_RA, kb_, k, 1, NVD_AER, NVD_AEK, NVD_AX);             \
            NVD_COPY_SLAB(Bx_, Bps_, Bb0_, b_off, b_x, b_ok, b_rc, NVD_RB, kb_, k, 1, NVD_ELEM_R, NVD_ELEM_K, NVD_X);             \
        } else {                                                                                   \
            NVD_COPY_SLAB(Ax_, Aps_, Ab0_, a_off, a_x, a_ok, a_rc, NVD_RA, kb_, k, 0, NVD_AER, NVD_AEK, NVD_AX);             \
            NVD_COPY_SLAB(Bx_, Bps_, Bb0_, b_off, b_x, b_ok, b_rc, NVD_RB, kb_, k, 0, NVD_ELEM_R, NVD_ELEM_K, NVD_X);             \
        }                                                                                          \
    } while (0)
#else
#define NVD_ISSUE(sl, buf)                                                                         \
    do {                                                                                           \
        const int kb_ = (sl) * NVD_BK;                                                             \
        {                                                                                          \
            const int ld_ = lda;                                                                   \
            NVD_COPY_SLAB(As + (buf) * NVD_SA, 0, Ab + kb_ * a_sk, 0, 0, a_ok, a_rc, NVD_RA, kb_, k, 0, NVD_AER, NVD_AEK, NVD_AX); \
        }                                                                                          \
        {                                                                                          \
            const int ld_ = ldb;                                                                   \
            NVD_COPY_SLAB(Bs + (buf) * NVD_SB, 0, Bb + kb_ * b_sk, 0, 0, b_ok, b_rc, NVD_RB, kb_, k, 0, NVD_ELEM_R, NVD_ELEM_K, NVD_X); \
        }                                                                                          \
    } while (0)
#endif

    // Prologue: slabs 0 .. STAGES-2 in flight (one commit group per slab, empty ones included).
#pragma unroll
    for (int s = 0; s < TESSERA_NVD_STAGES - 1; ++s) {
        if (s < nslab) NVD_ISSUE(s, s);
        NVD_CP_COMMIT();
    }

    for (int s = 0; s < nslab; ++s) {
        // Slab s has landed once at most STAGES-2 groups are pending; after the barrier every
        // work-item has also finished slab s-1, whose buffer the copies of slab s+STAGES-1 reuse.
        NVD_CP_WAIT(TESSERA_NVD_STAGES - 2);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int cur = s % TESSERA_NVD_STAGES;
        __local const double2* A2 = (__local const double2*)(As + cur * NVD_SA);
        __local const double2* B2 = (__local const double2*)(Bs + cur * NVD_SB);
        double2 af[8], bf[4];  // .x: k = t, .y: k = t + 4
#pragma unroll
        for (int i = 0; i < 8; ++i) af[i] = A2[fa[i]];
#pragma unroll
        for (int j = 0; j < 4; ++j) bf[j] = B2[fb[j]];

        // mma group p: rows 16p .. 16p+15 of the warp tile, all 32 columns, k = 0..7 of the slab.
#if TESSERA_NVD_ALAYOUT  // af[2p] = (A(g, t), A(g+8, t)), af[2p+1] = (A(g, t+4), A(g+8, t+4))
#if TESSERA_NVD_MMA == 884
#define NVD_MMA_GROUP(p)                                                                           \
        for (int j = 0; j < 4; ++j) {                                                              \
            NVD_MMA884(acc[2 * (p)][j][0], acc[2 * (p)][j][1], af[2 * (p)].x, bf[j].x);            \
            NVD_MMA884(acc[2 * (p)][j][0], acc[2 * (p)][j][1], af[2 * (p) + 1].x, bf[j].y);        \
            NVD_MMA884(acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], af[2 * (p)].y, bf[j].x);    \
            NVD_MMA884(acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], af[2 * (p) + 1].y, bf[j].y); \
        }
#elif TESSERA_NVD_MMA == 1684
#define NVD_MMA_GROUP(p)                                                                           \
        for (int j = 0; j < 4; ++j) {                                                              \
            NVD_MMA1684(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p)].x, af[2 * (p)].y, bf[j].x);                                    \
            NVD_MMA1684(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p) + 1].x, af[2 * (p) + 1].y, bf[j].y);                            \
        }
#elif TESSERA_NVD_MMA == 1688
#define NVD_MMA_GROUP(p)                                                                           \
        for (int j = 0; j < 4; ++j)                                                                \
            NVD_MMA1688(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p)].x, af[2 * (p)].y, af[2 * (p) + 1].x, af[2 * (p) + 1].y, bf[j].x, bf[j].y);
#else
#error "TESSERA_NVD_MMA must be 884, 1684 or 1688"
#endif
#else
#if TESSERA_NVD_MMA == 884
#define NVD_MMA_GROUP(p)                                                                           \
        for (int h = 0; h < 2; ++h)                                                                \
            for (int j = 0; j < 4; ++j) {                                                          \
                NVD_MMA884(acc[2 * (p) + h][j][0], acc[2 * (p) + h][j][1], af[2 * (p) + h].x, bf[j].x); \
                NVD_MMA884(acc[2 * (p) + h][j][0], acc[2 * (p) + h][j][1], af[2 * (p) + h].y, bf[j].y); \
            }
#elif TESSERA_NVD_MMA == 1684
#define NVD_MMA_GROUP(p)                                                                           \
        for (int j = 0; j < 4; ++j) {                                                              \
            NVD_MMA1684(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p)].x, af[2 * (p) + 1].x, bf[j].x);                                \
            NVD_MMA1684(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p)].y, af[2 * (p) + 1].y, bf[j].y);                                \
        }
#elif TESSERA_NVD_MMA == 1688
#define NVD_MMA_GROUP(p)                                                                           \
        for (int j = 0; j < 4; ++j)                                                                \
            NVD_MMA1688(acc[2 * (p)][j][0], acc[2 * (p)][j][1], acc[2 * (p) + 1][j][0], acc[2 * (p) + 1][j][1], \
                        af[2 * (p)].x, af[2 * (p) + 1].x, af[2 * (p)].y, af[2 * (p) + 1].y, bf[j].x, bf[j].y);
#else
#error "TESSERA_NVD_MMA must be 884, 1684 or 1688"
#endif
#endif  // TESSERA_NVD_ALAYOUT
        // The next slab's copies go after TESSERA_NVD_SPLIT mma groups: mma.sync and cp.async are
        // both volatile asm, so this order holds, and the copies issue while the tensor pipe works.
#if TESSERA_NVD_SPLIT > 0
        NVD_MMA_GROUP(0)
#endif
#if TESSERA_NVD_SPLIT > 1
        NVD_MMA_GROUP(1)
#endif
#if TESSERA_NVD_SPLIT > 2
        NVD_MMA_GROUP(2)
#endif
        {
            const int sn = s + TESSERA_NVD_STAGES - 1;
            if (sn < nslab) NVD_ISSUE(sn, sn % TESSERA_NVD_STAGES);
            NVD_CP_COMMIT();
        }
#if TESSERA_NVD_SPLIT <= 0
        NVD_MMA_GROUP(0)
#endif
#if TESSERA_NVD_SPLIT <= 1
        NVD_MMA_GROUP(1)
#endif
#if TESSERA_NVD_SPLIT <= 2
        NVD_MMA_GROUP(2)
#endif
        NVD_MMA_GROUP(3)
#undef NVD_MMA_GROUP
    }
    NVD_CP_WAIT(0);
#undef NVD_ISSUE

    // Epilogue: C = alpha·acc + beta·C (C not read when beta == 0).
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = i0 + 64 * wm + 8 * i + g;
        if (row >= m) continue;
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int col = j0 + 32 * wn + 8 * j + 2 * t + e;
                if (col >= n) continue;
                if ((tri == 1 && row < col) || (tri == 2 && row > col)) continue;
                __global double* c = C + row + (long)col * ldc;
                const double v = alpha * acc[i][j][e];
                *c = (beta == 0.0) ? v : fma(beta, *c, v);
            }
    }
}

#define NVD_KERNEL(name, ta, tb)                                                                  \
    __kernel __attribute__((reqd_work_group_size(NVD_WG)))                                       \
    void name(const int m, const int n, const int k, const double alpha,                          \
              __global const double* A, const ulong offA, const int lda,                          \
              __global const double* B, const ulong offB, const int ldb, const double beta,       \
              __global double* C, const ulong offC, const int ldc, const int tri)                 \
    {                                                                                             \
        __local double2 As2[TESSERA_NVD_STAGES * NVD_SA / 2];                                     \
        __local double2 Bs2[TESSERA_NVD_STAGES * NVD_SB / 2];                                     \
        NVD_EMU_DECL                                                                              \
        nvd_gemm_body(ta, tb, m, n, k, alpha, A + offA, lda, B + offB, ldb, beta, C + offC, ldc, \
                      tri, (__local double*)As2, (__local double*)Bs2 NVD_EMU_ARGS);              \
    }
NVD_KERNEL(tessera_nvgemm_nn, 0, 0)
NVD_KERNEL(tessera_nvgemm_nt, 0, 1)
NVD_KERNEL(tessera_nvgemm_tn, 1, 0)
NVD_KERNEL(tessera_nvgemm_tt, 1, 1)

// Never launched: its reqd_work_group_size tells the launcher the block of C, (64·WM) × (32·WN).
__kernel __attribute__((reqd_work_group_size(TESSERA_NVD_WM, TESSERA_NVD_WN, 1)))
void tessera_nvgemm_geometry(__global int* unused)
{
    if (unused) unused[0] = 0;
}

#elif defined(TESSERA_PREC_S)
// ===================================== float: FP32 FMA =====================================
// 16×16 work-items, each an 8×8 register tile: rows 4·tx + {0..3} and 64 + 4·tx + {0..3},
// columns 4·ty + {0..3} and 64 + 4·ty + {0..3}. Local slabs are k-major (As[k][r], row length
// 128 + 4) so that a work-item reads its 8 values of op(A) and op(B) per k as four float4.

#ifndef TESSERA_NVS_BK
#define TESSERA_NVS_BK 16  // k per slab: 8 or 16
#endif
#ifndef TESSERA_NVS_WARP
#define TESSERA_NVS_WARP 1  // work-items of a warp: 0 = 16 (m) × 2 (n), 1 = 8 × 4 (fewer local-memory wavefronts)
#endif
#define NVS_BM 128
#define NVS_BN 128
#define NVS_NT 256
#define NVS_LD (NVS_BM + 4)
#define NVS_SLAB (TESSERA_NVS_BK * NVS_LD)
#define NVS_PER (NVS_BM * TESSERA_NVS_BK / NVS_NT)  // elements of each matrix per work-item per slab

// Element q of this work-item in a 128×BK slab: (r + dr·q, kk + dk·q).
static inline void nvs_slab_map(const int rcontig, int* r, int* kk, int* dr, int* dk)
{
    const int lid = (int)get_local_id(0);
    if (rcontig) { *r = lid & 127; *kk = lid >> 7; *dr = 0; *dk = 2; }
    else         { *r = lid / TESSERA_NVS_BK; *kk = lid % TESSERA_NVS_BK; *dr = NVS_NT / TESSERA_NVS_BK; *dk = 0; }
}

static inline void nvs_gemm_body(const int transA, const int transB, const int m, const int n, const int k,
                          const float alpha, __global const float* A, const int lda,
                          __global const float* B, const int ldb, const float beta,
                          __global float* C, const int ldc, const int tri,
                          __local float* As, __local float* Bs)
{
    int bm, bn;
    nvg_block_coords(m, n, NVS_BM, NVS_BN, &bm, &bn);
    const int i0 = bm * NVS_BM, j0 = bn * NVS_BN;
    if (tri == 1 && i0 + NVS_BM - 1 < j0) return;
    if (tri == 2 && j0 + NVS_BN - 1 < i0) return;

    const int lid = (int)get_local_id(0);
#if TESSERA_NVS_WARP
    const int tx = (lid & 7) + 8 * ((lid >> 5) & 1), ty = ((lid >> 3) & 3) + 4 * (lid >> 6);
#else
    const int tx = lid & 15, ty = lid >> 4;
#endif

    float acc[8][8];
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) acc[r][c] = 0.0f;

    const int a_rc = !transA, b_rc = transB;
    int ar, ak, adr, adk, br, bk, bdr, bdk;
    nvs_slab_map(a_rc, &ar, &ak, &adr, &adk);
    nvs_slab_map(b_rc, &br, &bk, &bdr, &bdk);
    const long a_sr = a_rc ? 1 : lda, a_sk = a_rc ? lda : 1;
    const long b_sr = b_rc ? 1 : ldb, b_sk = b_rc ? ldb : 1;
    __global const float* Ap = A + (i0 + ar) * a_sr + ak * a_sk;
    __global const float* Bp = B + (j0 + br) * b_sr + bk * b_sk;
    const long a_dq = adr * a_sr + adk * a_sk, b_dq = bdr * b_sr + bdk * b_sk;
    int a_x[NVS_PER], b_x[NVS_PER];
    int a_rok[NVS_PER], b_rok[NVS_PER];
#pragma unroll
    for (int q = 0; q < NVS_PER; ++q) {
        a_x[q] = (ak + adk * q) * NVS_LD + ar + adr * q;
        b_x[q] = (bk + bdk * q) * NVS_LD + br + bdr * q;
        a_rok[q] = i0 + ar + adr * q < m;
        b_rok[q] = j0 + br + bdr * q < n;
    }
    const int nslab = (alpha == 0.0f) ? 0 : (k + TESSERA_NVS_BK - 1) / TESSERA_NVS_BK;

    float pa[NVS_PER], pb[NVS_PER];
    if (nslab > 0) {
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) {
            pa[q] = (a_rok[q] && ak + adk * q < k) ? Ap[q * a_dq] : 0.0f;
            pb[q] = (b_rok[q] && bk + bdk * q < k) ? Bp[q * b_dq] : 0.0f;
        }
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) { As[a_x[q]] = pa[q]; Bs[b_x[q]] = pb[q]; }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = 0; s < nslab; ++s) {
        const int cur = s & 1;
        if (s + 1 < nslab) {
            const int kb = (s + 1) * TESSERA_NVS_BK;
#pragma unroll
            for (int q = 0; q < NVS_PER; ++q) {
                pa[q] = (a_rok[q] && kb + ak + adk * q < k) ? Ap[q * a_dq + (long)kb * a_sk] : 0.0f;
                pb[q] = (b_rok[q] && kb + bk + bdk * q < k) ? Bp[q * b_dq + (long)kb * b_sk] : 0.0f;
            }
        }
        __local const float* Ac = As + cur * NVS_SLAB;
        __local const float* Bc = Bs + cur * NVS_SLAB;
#pragma unroll
        for (int kk = 0; kk < TESSERA_NVS_BK; ++kk) {
            const float4 a0 = vload4(0, Ac + kk * NVS_LD + 4 * tx);
            const float4 a1 = vload4(0, Ac + kk * NVS_LD + 64 + 4 * tx);
            const float4 b0 = vload4(0, Bc + kk * NVS_LD + 4 * ty);
            const float4 b1 = vload4(0, Bc + kk * NVS_LD + 64 + 4 * ty);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
        }
        if (s + 1 < nslab) {
            __local float* An = As + (cur ^ 1) * NVS_SLAB;
            __local float* Bn = Bs + (cur ^ 1) * NVS_SLAB;
#pragma unroll
            for (int q = 0; q < NVS_PER; ++q) { An[a_x[q]] = pa[q]; Bn[b_x[q]] = pb[q]; }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int c = 0; c < 8; ++c) {
        const int col = j0 + 4 * ty + (c & 3) + 64 * (c >> 2);
        if (col >= n) continue;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = i0 + 4 * tx + (r & 3) + 64 * (r >> 2);
            if (row >= m) continue;
            if ((tri == 1 && row < col) || (tri == 2 && row > col)) continue;
            __global float* p = C + row + (long)col * ldc;
            const float v = alpha * acc[r][c];
            *p = (beta == 0.0f) ? v : fma(beta, *p, v);
        }
    }
}

#define NVS_KERNEL(name, ta, tb)                                                                  \
    __kernel __attribute__((reqd_work_group_size(NVS_NT, 1, 1)))                                 \
    void name(const int m, const int n, const int k, const float alpha,                           \
              __global const float* A, const ulong offA, const int lda,                           \
              __global const float* B, const ulong offB, const int ldb, const float beta,         \
              __global float* C, const ulong offC, const int ldc, const int tri)                  \
    {                                                                                             \
        __local float4 As4[2 * NVS_SLAB / 4];                                                     \
        __local float4 Bs4[2 * NVS_SLAB / 4];                                                     \
        nvs_gemm_body(ta, tb, m, n, k, alpha, A + offA, lda, B + offB, ldb, beta, C + offC, ldc, \
                      tri, (__local float*)As4, (__local float*)Bs4);                             \
    }
NVS_KERNEL(tessera_nvgemm_nn, 0, 0)
NVS_KERNEL(tessera_nvgemm_nt, 0, 1)
NVS_KERNEL(tessera_nvgemm_tn, 1, 0)
NVS_KERNEL(tessera_nvgemm_tt, 1, 1)

#endif  // precision

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef NVD_BK
#undef NVD_BM
#undef NVD_BN
#undef NVD_COPY_PREP
#undef NVD_COPY_SLAB
#undef NVD_CP_COMMIT
#undef NVD_CP_WAIT
#undef NVD_CP_WAIT_
#undef NVD_ELEM_K
#undef NVD_ELEM_R
#undef NVD_EMU_ARGS
#undef NVD_EMU_DECL
#undef NVD_EMU_PARAMS
#undef NVD_KERNEL
#undef NVD_MMA1684
#undef NVD_MMA1688
#undef NVD_MMA884
#undef NVD_NW
#undef NVD_RA
#undef NVD_RB
#undef NVD_SA
#undef NVD_SB
#undef NVD_X
#undef NVD_XA
#undef NVD_ELEM_RA
#undef NVD_ELEM_KA
#undef NVD_AER
#undef NVD_AEK
#undef NVD_AX
#undef NVD_WG
#undef NVS_BM
#undef NVS_BN
#undef NVS_KERNEL
#undef NVS_LD
#undef NVS_NT
#undef NVS_PER
#undef NVS_SLAB
#endif  // TESSERA_NV_SM

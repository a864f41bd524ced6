// tessera_nvgemm_{nn,nt,tn,tt}[_u]: C = alpha·op(A)·op(B) + beta·C for NVIDIA GPUs of compute
// capability ≥ 8.0 (built only when build_options() defines TESSERA_NV_SM; every other device,
// PoCL included, never compiles this file's body). Column-major, offsets in elements, any m, n, k.
//
//   double: FP64 tensor cores through inline-PTX mma.sync (m16n8k8 on sm_90; m8n8k4, half rate
//           there, on sm_80), local memory filled with cp.async.
//   float:  FP32 FMA only (no TF32: results keep FP32 accuracy).
//
// Double. A work-group of TESSERA_NVD_WM × TESSERA_NVD_WN warps computes a (64·WM) × (32·WN)
// block of C; each warp a 64×32 tile, 64 accumulators per work-item in the mma C-fragment layout.
// k advances in slabs of 8; TESSERA_NVD_STAGES slabs are in flight (cp.async, zero-filled outside
// the matrices), one barrier per slab. The local layouts (NVD_XA, NVD_XB) give each fragment load
// an mma operand as it stands, with no bank conflicts; relabeling the slab's k and the rows of each
// 16-row group (NVD_KM, NVD_RM) makes physically adjacent elements share a 16-byte chunk, so a
// matrix in its natural orientation (A or B untransposed) is copied 16 bytes at a time. Blocks
// entirely inside C and slabs entirely inside k copy with no masks at all. The _u kernels copy 8
// bytes at a time, for odd offsets or leading dimensions.
//
// Fragment prefetch (tessera_nvgemm_nn_big, and any NN kernel with TESSERA_NVD_PREFETCH=1): the
// fragments of slab s+1 are loaded into a second register set right after the barrier that makes
// slab s+1 visible, before the rest of slab s's mma (TESSERA_NVD_PF_SPLIT of its 4 m16 tiles come
// before that barrier), so that no mma waits for a fragment load after a barrier; interior blocks
// run a copy of the loop with no masked copies compiled in, and (PF_LATE) the copies are issued
// after the mma: both keep the kernel within 255 registers without spills. Only the NN kernel
// with 16-byte copies fits; the others keep one fragment set.
//
// Block shapes: the body takes WM (and the stages) as arguments, so kernels of one program may
// differ. The eight tessera_nvgemm_XY[_u] use TESSERA_NVD_WM/STAGES; tessera_nvgemm_nn_big
// (TESSERA_NVD_BIG, on by default for sm_90) is 128×128, 3 stages, prefetch, and the launcher takes
// it for NN with 16-byte copies when its blocks cover every compute unit at least once.
//
// Float. 256 work-items, a 128×128 block, each work-item an 8×8 register tile; slabs of
// TESSERA_NVS_BK copied by cp.async into k-major local memory, float4 fragment loads.
//
// Launch (gemm_select.cpp): local size = the kernel's reqd_work_group_size ((32·WM·WN, 1, 1) for
// double, (256, 1, 1) for float); global = local × (number of blocks, S, 1), S > 1 (at most
// TESSERA_NV_SPLITK) splitting k into partial products (nvg_split_k) that tessera_nvgemm_reduce
// adds up. The double block shape is read off the never-launched tessera_nvgemm_geometry's
// reqd_work_group_size (WM, WN, 1) (tessera_nvgemm_geometry_big's for tessera_nvgemm_nn_big).
// Blocks are ordered in groups of TESSERA_NV_GROUP block rows so that concurrently running
// work-groups share A and B in L2. `tri`: 0 = all of C, 1 = lower triangle only (i ≥ j), 2 =
// upper (i ≤ j); serves xSYRK.
//
// Defaults = the fastest measured on an H100 (bench/gpu_notes.md, run 4): double 64×128 blocks
// (two work-groups per SM), m16n8k8, 4 stages, staggered copies; float BK 16 with 8×4 warps. Large
// NN products: tessera_nvgemm_nn_big, +4 % at n = 2048 and 4096, +6 % at 8192 against the 64×128
// kernel in the same run (bench/gpu_notes.md, sixth session, run 13).

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

// Split k. The launcher's second grid dimension has S = get_num_groups(1) work-groups: work-group
// (·, s) computes the product over k in [s·kc, s·kc + kc), kc = 8·⌈k / 8S⌉, into slice s of C,
// C + s·ldc·n; tessera_nvgemm_reduce then adds the slices. S = 1 leaves everything as it is.
// ta, tb: whether op(A), op(B) are transposed (k runs along A's rows, B's columns).
static inline void nvg_split_k(const int ta, const int tb, int* k, ulong* offA, const int lda, ulong* offB,
                               const int ldb, ulong* offC, const int ldc, const int n)
{
    const int S = (int)get_num_groups(1), s = (int)get_group_id(1);
    if (S == 1) return;
    const int kc = 8 * ((*k + 8 * S - 1) / (8 * S)), k0 = min(*k, s * kc);
    *offA += ta ? (ulong)k0 : (ulong)k0 * (ulong)lda;
    *offB += tb ? (ulong)k0 * (ulong)ldb : (ulong)k0;
    *offC += (ulong)s * (ulong)ldc * (ulong)n;
    *k = min(kc, *k - k0);
}

// In a kernel with the arguments k, offA, lda, offB, ldb, offC, ldc, n: this work-group's k_ and
// offsets oA_, oB_, oC_ (nvg_split_k when `split`, else the arguments).
#define NVG_SPLIT_ARGS(ta, tb, split)                                                              \
    int k_ = k;                                                                                    \
    ulong oA_ = offA, oB_ = offB, oC_ = offC;                                                      \
    if (split) nvg_split_k(ta, tb, &k_, &oA_, lda, &oB_, ldb, &oC_, ldc, n)

// C = beta·C + Σ_s W_s over the m×n C (its lower triangle for tri = 1, upper for tri = 2), the S
// slices W_s = W + s·ldw·n of a split-k product (alpha already applied). One work-item per element.
__kernel void tessera_nvgemm_reduce(const int m, const int n, const int S, const real_t beta,
                                    __global const real_t* W, const int ldw, __global real_t* C, const ulong offC,
                                    const int ldc, const int tri)
{
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i >= m || j >= n || (tri == 1 && i < j) || (tri == 2 && i > j)) return;
    real_t sum = 0;
    for (int s = 0; s < S; ++s) sum += W[i + (long)j * ldw + (long)s * ldw * n];
    __global real_t* c = C + offC + i + (long)j * ldc;
    *c = (beta == 0) ? sum : fma(beta, *c, sum);
}

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
#define NVD_MMA1688(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1)                                     \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "                \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"            \
                            : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)                          \
                            : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1))
// cp.async global → local of 8 or 16 bytes, through L1 (.ca: the two work-groups of an SM often
// read the same data; bypassing L1 with .cg measured 8 % slower); the Z forms copy only `bytes`
// and zero-fill the rest (src must still be a valid, aligned address).
#define NVD_LADDR(p) ((uint)(ulong)(p))
#define NVD_CP8(dst, src) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 8;" \
                                                  :: "r"(NVD_LADDR(dst)), "l"(src) : "memory")
#define NVD_CP16(dst, src) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16;" \
                                                   :: "r"(NVD_LADDR(dst)), "l"(src) : "memory")
#define NVD_CP8Z(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" \
                                                          :: "r"(NVD_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
#define NVD_CP16Z(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" \
                                                           :: "r"(NVD_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
#define NVD_CP_COMMIT() TESSERA_NV_ASM volatile("cp.async.commit_group;" ::: "memory")
#define NVD_CP_WAIT_(n) TESSERA_NV_ASM volatile("cp.async.wait_group " #n ";" ::: "memory")
#define NVD_CP_WAIT(n) NVD_CP_WAIT_(n)
#endif
// cp.async.wait_group needs an immediate: n is a constant of the kernel, folded to one branch.
#define NVD_CP_WAITN(n)                                                                            \
    do {                                                                                           \
        if ((n) <= 0) NVD_CP_WAIT(0);                                                              \
        else if ((n) == 1) NVD_CP_WAIT(1);                                                         \
        else if ((n) == 2) NVD_CP_WAIT(2);                                                         \
        else NVD_CP_WAIT(3);                                                                       \
    } while (0)

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
            NVD_CP_COMMIT();
        }
        double2 afA[8], bfA[4], afB[8], bfB[4];
        if (nslab > 0) {
            NVD_CP_WAITN(ST_ - 1);
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
            NVD_CP_WAITN(ST_ - 2);                                                   \
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
            NVD_CP_COMMIT();                                                                       \
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
            NVD_CP_COMMIT();
        }

        for (int s = 0; s < nslab; ++s) {
            // Slab s has landed once at most STAGES-2 groups are pending; after the barrier every
            // work-item has also finished slab s-1, whose buffer the copies of slab s+STAGES-1 reuse.
            NVD_CP_WAITN(ST_ - 2);
            barrier(CLK_LOCAL_MEM_FENCE);
            double2 af[8], bf[4];
            const int sn = s + ST_ - 1;
            if (early && sn < nslab) NVD_ISSUE(sn, sn % ST_);
            NVD_LOAD_FRAGS(s % ST_, af, bf);
            if (!early && sn < nslab) NVD_ISSUE(sn, sn % ST_);
            NVD_CP_COMMIT();
            NVD_MMA_SLAB(af, bf);
        }
    }
#undef NVD_LOAD_FRAGS
#undef NVD_MMA_SLAB
#undef NVD_MMA_PART
    NVD_CP_WAIT(0);
#undef NVD_ISSUE
#undef NVD_ISSUE_F

    // Epilogue: C = alpha·acc + beta·C (C not read when beta == 0). acc[i] holds mma row
    // 64·wm + 16·(i/2) + g + 8·(i mod 2), i.e. row 64·wm + 16·(i/2) + 2g + (i mod 2) of C.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = i0 + NVD_RP(64 * wm + 16 * (i >> 1) + g + 8 * (i & 1));
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

#elif defined(TESSERA_REAL_S)
// ===================================== float: FP32 FMA =====================================
// 16×16 work-items, each an 8×8 register tile: rows 4·tx + {0..3} and 64 + 4·tx + {0..3},
// columns 4·ty + {0..3} and 64 + 4·ty + {0..3}. Local slabs are k-major (X[k][r], row length
// 128 + 4) so that a work-item reads its 8 values of op(A) and op(B) per k as four float4.
// Two slab buffers, one barrier per slab: slab s + 1 travels by cp.async while slab s is
// multiplied, with no registers staged. A source contiguous along r (A untransposed, B transposed)
// comes in 16-byte copies, a warp's 32 covering 128 rows of one k, where its offset and leading
// dimension are multiples of 4 (kernels without _u; the _u kernels take any); a source contiguous
// along k (A transposed, B untransposed) in 4-byte copies, a warp covering 8 k × 4 rows. Every copy
// pattern meets 32 distinct banks; everything outside op(X) is zero-filled.

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

#ifdef TESSERA_NV_EMULATE
#define NVS_CP4(dst, src, bytes) (*(dst) = (bytes) ? *(src) : 0.0f)
#define NVS_CP16(dst, src, bytes) do { for (int i_ = 0; i_ < 4; ++i_) (dst)[i_] = 4 * i_ < (bytes) ? (src)[i_] : 0.0f; } while (0)
#define NVS_CP_COMMIT() ((void)0)
#define NVS_CP_WAIT() ((void)0)
#define NVS_OPAQUE(x) (x)
#else
// cp.async global → local of `bytes` (the rest zero-filled; src must still be a valid address).
#define NVS_CP4(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" \
                                                         :: "r"((uint)(ulong)(dst)), "l"(src), "r"(bytes) : "memory")
#define NVS_CP16(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" \
                                                          :: "r"((uint)(ulong)(dst)), "l"(src), "r"(bytes) : "memory")
#define NVS_CP_COMMIT() TESSERA_NV_ASM volatile("cp.async.commit_group;" ::: "memory")
#define NVS_CP_WAIT() TESSERA_NV_ASM volatile("cp.async.wait_group 0;" ::: "memory")
// x, which the compiler cannot see through: the copies' addresses are computed per slab instead of
// hoisted into registers live across the loop. Hoisted, they took the kernels to 150-237 registers,
// one work-group per SM and 5-15 % less (bench/gpu_task_shapes.md, session 12).
static inline int nvs_opaque(const int x) { int y; TESSERA_NV_ASM volatile("mov.b32 %0, %1;" : "=r"(y) : "r"(x)); return y; }
#define NVS_OPAQUE(x) nvs_opaque(x)
#endif

// Start this work-item's copies of one 128×BK slab of op(X) into dst: X points at op(X)(x0, kb),
// rows_left = rows of op(X) from x0, k_left = k from kb; element (r, kk) lies at X[r + kk·ld] (rc)
// or X[kk + r·ld]; vec: 16-byte copies for rc (X and ld multiples of 4 floats).
static inline void nvs_copy_slab(const int rc, const int vec, __global const float* X, const int ld_,
                                 const int rows_left, const int k_left, __local float* dst)
{
    const int lid = (int)get_local_id(0), ld = NVS_OPAQUE(ld_);
    if (rc && vec) {
        const int r = 4 * (lid & 31), k0 = lid >> 5, bytes = clamp(4 * (rows_left - r), 0, 16);
#pragma unroll
        for (int q = 0; q < TESSERA_NVS_BK / 8; ++q) {
            const int kk = k0 + 8 * q, ok = bytes > 0 && kk < k_left;
            NVS_CP16(dst + kk * NVS_LD + r, ok ? X + r + (long)kk * ld : X, ok ? bytes : 0);
        }
    } else if (rc) {
        const int r = lid & 127, k0 = lid >> 7, rok = r < rows_left;
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) {
            const int kk = k0 + 2 * q, ok = rok && kk < k_left;
            NVS_CP4(dst + kk * NVS_LD + r, ok ? X + r + (long)kk * ld : X, ok ? 4 : 0);
        }
    } else {
        const int k0 = lid & 7, r0 = ((lid >> 3) & 3) + 4 * (lid >> 5);
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) {
            const int dk = 8 * (q % (TESSERA_NVS_BK / 8)), dr = 32 * (q / (TESSERA_NVS_BK / 8));
            const int ok = r0 + dr < rows_left && k0 + dk < k_left;
            NVS_CP4(dst + (k0 + dk) * NVS_LD + r0 + dr, ok ? X + k0 + dk + (long)(r0 + dr) * ld : X, ok ? 4 : 0);
        }
    }
}

static inline void nvs_gemm_body(const int transA, const int transB, const int vec, const int m, const int n,
                                 const int k, const float alpha, __global const float* A, const int lda,
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
    __global const float* Ap = A + (a_rc ? i0 : (long)i0 * lda);
    __global const float* Bp = B + (b_rc ? j0 : (long)j0 * ldb);
    const long a_step = a_rc ? (long)TESSERA_NVS_BK * lda : TESSERA_NVS_BK;
    const long b_step = b_rc ? (long)TESSERA_NVS_BK * ldb : TESSERA_NVS_BK;
    const int nslab = (alpha == 0.0f) ? 0 : (k + TESSERA_NVS_BK - 1) / TESSERA_NVS_BK;

    if (nslab > 0) {
        nvs_copy_slab(a_rc, vec, Ap, lda, m - i0, k, As);
        nvs_copy_slab(b_rc, vec, Bp, ldb, n - j0, k, Bs);
    }
    for (int s = 0; s < nslab; ++s) {
        NVS_CP_COMMIT();
        NVS_CP_WAIT();                 // this work-item's copies of slab s have landed
        barrier(CLK_LOCAL_MEM_FENCE);  // everyone's have, and slab s − 1's buffer is free
        if (s + 1 < nslab) {
            const int kb = (s + 1) * TESSERA_NVS_BK, next = ((s + 1) & 1) * NVS_SLAB;
            nvs_copy_slab(a_rc, vec, Ap + (s + 1) * a_step, lda, m - i0, k - kb, As + next);
            nvs_copy_slab(b_rc, vec, Bp + (s + 1) * b_step, ldb, n - j0, k - kb, Bs + next);
        }
        __local const float4* Ac = (__local const float4*)(As + (s & 1) * NVS_SLAB);
        __local const float4* Bc = (__local const float4*)(Bs + (s & 1) * NVS_SLAB);
#pragma unroll
        for (int kk = 0; kk < TESSERA_NVS_BK; ++kk) {
            const float4 a0 = Ac[kk * (NVS_LD / 4) + tx], a1 = Ac[kk * (NVS_LD / 4) + 16 + tx];
            const float4 b0 = Bc[kk * (NVS_LD / 4) + ty], b1 = Bc[kk * (NVS_LD / 4) + 16 + ty];
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
        }
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

// tessera_nvgemm_XY[_u]: no split k; tessera_nvgemm_XY[_u]_split: the same with nvg_split_k, for
// the launcher's split products only. A float kernel of at most 128 registers runs two work-groups
// per SM, and these sit at that edge: the split's few instructions took some of them to 129-139
// registers and 27 instead of 41 TFLOP/s, and which ones changed with every small edit
// (bench/gpu_task_shapes.md, session 9). Split products are small, where the split gains more
// than a kernel over the edge loses. TN has no r-contiguous source, hence no _u twin.
#define NVS_KERNEL(name, ta, tb, vec, split)                                                      \
    __kernel __attribute__((reqd_work_group_size(NVS_NT, 1, 1)))                                 \
    void name(const int m, const int n, const int k, const float alpha,                           \
              __global const float* A, const ulong offA, const int lda,                           \
              __global const float* B, const ulong offB, const int ldb, const float beta,         \
              __global float* C, const ulong offC, const int ldc, const int tri)                  \
    {                                                                                             \
        __local float4 As4[2 * NVS_SLAB / 4];                                                     \
        __local float4 Bs4[2 * NVS_SLAB / 4];                                                     \
        NVG_SPLIT_ARGS(ta, tb, split);                                                            \
        nvs_gemm_body(ta, tb, vec, m, n, k_, alpha, A + oA_, lda, B + oB_, ldb, beta, C + oC_,    \
                      ldc, tri, (__local float*)As4, (__local float*)Bs4);                        \
    }
NVS_KERNEL(tessera_nvgemm_nn, 0, 0, 1, 0)
NVS_KERNEL(tessera_nvgemm_nt, 0, 1, 1, 0)
NVS_KERNEL(tessera_nvgemm_tn, 1, 0, 1, 0)
NVS_KERNEL(tessera_nvgemm_tt, 1, 1, 1, 0)
NVS_KERNEL(tessera_nvgemm_nn_u, 0, 0, 0, 0)
NVS_KERNEL(tessera_nvgemm_nt_u, 0, 1, 0, 0)
NVS_KERNEL(tessera_nvgemm_tt_u, 1, 1, 0, 0)
NVS_KERNEL(tessera_nvgemm_nn_split, 0, 0, 1, 1)
NVS_KERNEL(tessera_nvgemm_nt_split, 0, 1, 1, 1)
NVS_KERNEL(tessera_nvgemm_tn_split, 1, 0, 1, 1)
NVS_KERNEL(tessera_nvgemm_tt_split, 1, 1, 1, 1)
NVS_KERNEL(tessera_nvgemm_nn_u_split, 0, 0, 0, 1)
NVS_KERNEL(tessera_nvgemm_nt_u_split, 0, 1, 0, 1)
NVS_KERNEL(tessera_nvgemm_tt_u_split, 1, 1, 0, 1)

#endif  // precision

// Internal helpers end here: later files of the concatenated program may reuse these names.
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
#undef NVS_BM
#undef NVS_BN
#undef NVS_KERNEL
#undef NVS_LD
#undef NVS_NT
#undef NVS_PER
#undef NVS_SLAB
#undef NVG_SPLIT_ARGS
#endif  // TESSERA_NV_SM

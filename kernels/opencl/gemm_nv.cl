// tessera_nvgemm_{nn,nt,tn,tt}[_u]: C = alpha·op(A)·op(B) + beta·C for NVIDIA GPUs of compute
// capability ≥ 8.0 (built only when build_options() defines TESSERA_NV_SM; every other device,
// PoCL included, never compiles this file's body). Column-major, offsets in elements, any m, n, k.
//
//   double (gemm_nv_d.cl): FP64 tensor cores through inline-PTX mma.sync (m16n8k8 on sm_90;
//           m8n8k4, half rate there, on sm_80), local memory filled with cp.async.
//   float (gemm_nv_s.cl): FP32 FMA (results keep FP32 accuracy); gemm_nv_tf32.cl's _tf32 kernels
//           (the same blocks and copies on TF32 tensor cores, unit roundoff 2^-11) only where a
//           caller asks for them (ocl::Tf32Products: the mixed solvers' LowFactorization::Tf32).
// This file: the family's description and what both share (block order, split k, the reduction,
// cp.async groups, mbarriers).
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
// NN and NT on sm_90 (gemm_nv_d_mbar.cl): tessera_nvgemm_nn_mbar and _nt_mbar, 128×128 blocks whose
// slabs are tracked by mbarriers instead of work-group barriers, for whole blocks and slabs; NN
// +14..20 % over tessera_nvgemm_nn_big, NT +13..18 % over tessera_nvgemm_nt at n = 2048..8192
// (bench/gpu_gemm.sh, dgemm NN and NT, H100).
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
// reqd_work_group_size (WM, WN, 1) (tessera_nvgemm_geometry_big's for tessera_nvgemm_nn_big,
// tessera_nvgemm_geometry_mbar's for the _mbar kernels).
// Blocks are ordered in groups of TESSERA_NV_GROUP block rows so that concurrently running
// work-groups share A and B in L2. `tri`: 0 = all of C, 1 = lower triangle only (i ≥ j), 2 =
// upper (i ≤ j); serves xSYRK.
//
// Defaults = the fastest measured on an H100 (bench/gpu_gemm.sh, dgemm and sgemm NN): double 64×128 blocks
// (two work-groups per SM), m16n8k8, 4 stages, staggered copies; float BK 16 with 8×4 warps. Large
// NN products: tessera_nvgemm_nn_big, +4 % at n = 2048 and 4096, +6 % at 8192 against the 64×128
// kernel in the same run (bench/gpu_gemm.sh, dgemm NN n = 2048, 4096, 8192).

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

// A local pointer as PTX's shared-memory address (cp.async, mbarriers).
#define NVG_LADDR(p) ((uint)(ulong)(p))
// cp.async groups (PoCL's emulation copies synchronously: nothing to wait for). NVG_CP_WAIT's n is
// an immediate; NVG_CP_WAITN takes a constant expression of the kernel, folded to one branch.
#ifdef TESSERA_NV_EMULATE
#define NVG_CP_COMMIT() ((void)0)
#define NVG_CP_WAIT(n) ((void)0)
#else
#define NVG_CP_COMMIT() TESSERA_NV_ASM volatile("cp.async.commit_group;" ::: "memory")
#define NVG_CP_WAIT(n) TESSERA_NV_ASM volatile("cp.async.wait_group " #n ";" ::: "memory")
#endif
#define NVG_CP_WAITN(n)                                                                            \
    do {                                                                                           \
        if ((n) <= 0) NVG_CP_WAIT(0);                                                              \
        else if ((n) == 1) NVG_CP_WAIT(1);                                                         \
        else if ((n) == 2) NVG_CP_WAIT(2);                                                         \
        else NVG_CP_WAIT(3);                                                                       \
    } while (0)

#ifdef TESSERA_NV_EMULATE
// PoCL's emulation (copies synchronous): every wait on an mbarrier is a work-group barrier. The
// kernels wait in uniform control flow, and each wait's condition (every work-item's copies of a
// slab issued, or its fragments loaded) holds in program order before it, so the barrier is the
// same synchronization, only stronger.
#define NVG_MBAR_INIT(bar, count) ((void)0)
#define NVG_MBAR_INIT_FENCE() ((void)0)
#define NVG_MBAR_ARRIVE(bar) ((void)0)
#define NVG_CP_ARRIVE(bar) ((void)0)
#define nvg_mbar_wait(bar, parity) barrier(CLK_LOCAL_MEM_FENCE)
#else
// mbarriers in local memory (sm_90), for kernels whose slab buffers each have a `full` and an `empty`
// barrier instead of a work-group barrier per slab (gemm_nv_d_mbar.cl; gemm_nv_s.cl with
// TESSERA_NVS_MBAR).
#define NVG_MBAR_INIT(bar, count) TESSERA_NV_ASM volatile("mbarrier.init.shared::cta.b64 [%0], %1;" \
                                                          :: "r"(NVG_LADDR(bar)), "r"(count) : "memory")
// After the initializations, before the work-group barrier that publishes them: the barriers made
// visible to the other work-items and to the copies' arrivals.
#define NVG_MBAR_INIT_FENCE() \
    TESSERA_NV_ASM volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory")
#define NVG_MBAR_ARRIVE(bar) TESSERA_NV_ASM volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" \
                                                     :: "r"(NVG_LADDR(bar)) : "memory")
// One arrival on bar once this work-item's cp.async issued so far have landed (counted in bar's
// expected arrivals: .noinc).
#define NVG_CP_ARRIVE(bar) TESSERA_NV_ASM volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" \
                                                   :: "r"(NVG_LADDR(bar)) : "memory")
// Wait until the phase of parity `parity` of bar has completed.
static inline void nvg_mbar_wait(__local ulong* bar, const uint parity)
{
    uint done;
    do {
        TESSERA_NV_ASM volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                                "selp.u32 %0, 1, 0, p;\n\t}"
                                : "=r"(done) : "r"(NVG_LADDR(bar)), "r"(parity) : "memory");
    } while (!done);
}
#endif

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

// The NVG_* helpers stay defined: gemm_nv_d.cl and gemm_nv_s.cl follow in the program (files in
// alphabetical order) and use them.
#endif  // TESSERA_NV_SM

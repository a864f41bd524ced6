// tessera_nvgemm_*_tf32 and tessera_nvgemm_*_f16 in float: products on NVIDIA tensor cores with
// FP32 accumulators (gemm_nv.cl describes the family). The float kernels' blocks, slabs and copies
// (gemm_nv_s.cl's helpers: 128×128 blocks of 256 work-items, k-major slabs X[k][r] of row NVS_LD =
// 132, cp.async, the staged B), multiplied by mma.sync with the operands rounded to
//   _tf32: TF32 (as cvt.rna rounds, 10 explicit mantissa bits, unit roundoff 2^-11, FP32's range), by
//          m16n8k8 .tf32;
//   _f16:  FP16 (cvt.rn, the same 10 bits and unit roundoff, but finite only up to 65504,
//          subnormal below 2^-14, zero below 2^-25), by m16n8k16 .f16: twice the work per
//          instruction on the same registers; NT and TN forms only (see the kernels' list). The
//          caller keeps the operands in range (the mixed Cholesky scales A so that its largest
//          diagonal entry lies in [2^14, 2^15): every entry of A is then below 2^15, of L below 2^7.5).
// Not a float GEMM's accuracy: the launcher takes these kernels only inside an ocl::TensorProducts
// scope (the mixed-precision solvers' low-precision factorization, whose refinement restores FP64
// accuracy).
//
// A warp computes a 64×32 tile (warps 2 along m × 4 along n): 4 m16 × 4 n8 mma tiles, 64 FP32
// accumulators per work-item. Lane (g, t) = (lane / 4, lane % 4) holds rows 4g..4g+3 and
// 32+4g..32+4g+3 of the warp's 64 and columns 8t..8t+7 of its 32: the mma's row g and g + 8 of
// m16 tile i are rows 2i and 2i + 1 of the lane's eight, column c of n8 tile j is 4c + j, and the
// C fragments are the lane's 8×8 block. TF32: the mma's k = t and t + 4 of each 8-deep step are
// slab k 2t and 2t + 1. FP16 (each register two halves, the lower k in the lower 16 bits): the
// mma's k is the slab's own, so the lane reads slab k 2t, 2t+1, 2t+8 and 2t+9. Either way every
// fragment comes in float4 loads that meet distinct banks per quarter-warp (16-byte unit 2t + g
// + const mod 8, as NVS_LD ≡ 1 unit mod 8).
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_S)

#ifdef TESSERA_NV_EMULATE
// PoCL test mode: the mma through local memory, after the PTX ISA's fragment layouts, operands
// rounded as cvt.rna.tf32.f32 and cvt.rn.f16x2.f32 round them. m16n8k8 .tf32: a0 (g, t), a1 (g+8, t),
// a2 (g, t+4), a3 (g+8, t+4); b0 (t, g), b1 (t+4, g). m16n8k16 .f16: a0 (g, 2t..2t+1), a1 (g+8,
// 2t..2t+1), a2 (g, 2t+8..2t+9), a3 (g+8, 2t+8..2t+9); b0 (2t..2t+1, g), b1 (2t+8..2t+9, g). Both:
// c0, c1 (g, 2t + {0,1}), c2, c3 (g+8, 2t + {0,1}).
#define NVT_EMU_DECL __local float emu_a[8][16 * 16], emu_b[8][16 * 8];
#define NVT_EMU_ARGS , emu_a, emu_b
#define NVT_EMU_PARAMS , __local float (*emu_a)[16 * 16], __local float (*emu_b)[16 * 8]
typedef float nvt_tf32_t;
typedef float2 nvt_pair_t;  // (lower k, higher k), rounded
static inline float nvt_tf32_rna(const float x) { return as_float((as_uint(x) + 0x1000u) & 0xffffe000u); }
#define nvt_tf32_add nvt_tf32_rna  // the emulated mma reads every bit: both roundings clear the low 13
// To nearest FP16, ties to even; overflow to ±Inf; subnormals in steps of 2^-24; NaN stays NaN.
static inline float nvt_fp16(const float x)
{
    if (!(fabs(x) >= 0x1p-14f)) return rint(x * 0x1p24f) * 0x1p-24f;
    const uint u = as_uint(x);
    const float r = as_float((u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u);
    return fabs(r) > 65504.0f ? copysign(INFINITY, x) : r;
}
static inline float2 nvt_pack(const float lo, const float hi) { return (float2)(nvt_fp16(lo), nvt_fp16(hi)); }
// c += the warp's 16×kd by kd×8 product, the operands already in emu_a (row-major, 16 a row) and
// emu_b (k-major, 8 a row).
static inline void nvt_emu_product(float* c, const int kd, __local float (*emu_a)[16 * 16],
                                   __local float (*emu_b)[16 * 8])
{
    const int lane = (int)get_local_id(0) & 31, w = (int)get_local_id(0) >> 5, g = lane >> 2, t = lane & 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = 0; v < 4; ++v) {
        const int row = g + 8 * (v >> 1), col = 2 * t + (v & 1);
        float s = c[v];
        for (int kk = 0; kk < kd; ++kk) s = fma(emu_a[w][row * 16 + kk], emu_b[w][kk * 8 + col], s);
        c[v] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
static inline void nvt_emu_tf32(float* c, const float a0, const float a1, const float a2, const float a3,
                                const float b0, const float b1, __local float (*emu_a)[16 * 16],
                                __local float (*emu_b)[16 * 8])
{
    const int lane = (int)get_local_id(0) & 31, w = (int)get_local_id(0) >> 5, g = lane >> 2, t = lane & 3;
    emu_a[w][g * 16 + t] = a0, emu_a[w][(g + 8) * 16 + t] = a1;
    emu_a[w][g * 16 + t + 4] = a2, emu_a[w][(g + 8) * 16 + t + 4] = a3;
    emu_b[w][t * 8 + g] = b0, emu_b[w][(t + 4) * 8 + g] = b1;
    nvt_emu_product(c, 8, emu_a, emu_b);
}
static inline void nvt_emu_f16(float* c, const float2 a0, const float2 a1, const float2 a2, const float2 a3,
                               const float2 b0, const float2 b1, __local float (*emu_a)[16 * 16],
                               __local float (*emu_b)[16 * 8])
{
    const int lane = (int)get_local_id(0) & 31, w = (int)get_local_id(0) >> 5, g = lane >> 2, t = lane & 3;
    __local float* a = emu_a[w];
    a[g * 16 + 2 * t] = a0.x, a[g * 16 + 2 * t + 1] = a0.y;
    a[(g + 8) * 16 + 2 * t] = a1.x, a[(g + 8) * 16 + 2 * t + 1] = a1.y;
    a[g * 16 + 2 * t + 8] = a2.x, a[g * 16 + 2 * t + 9] = a2.y;
    a[(g + 8) * 16 + 2 * t + 8] = a3.x, a[(g + 8) * 16 + 2 * t + 9] = a3.y;
    __local float* b = emu_b[w];
    b[2 * t * 8 + g] = b0.x, b[(2 * t + 1) * 8 + g] = b0.y;
    b[(2 * t + 8) * 8 + g] = b1.x, b[(2 * t + 9) * 8 + g] = b1.y;
    nvt_emu_product(c, 16, emu_a, emu_b);
}
#define NVT_MMA_TF32(c, a0, a1, a2, a3, b0, b1) nvt_emu_tf32(c, a0, a1, a2, a3, b0, b1, emu_a, emu_b)
#define NVT_MMA_F16(c, a0, a1, a2, a3, b0, b1) nvt_emu_f16(c, a0, a1, a2, a3, b0, b1, emu_a, emu_b)
#else
#define NVT_EMU_DECL
#define NVT_EMU_ARGS
#define NVT_EMU_PARAMS
typedef uint nvt_tf32_t;
typedef uint nvt_pair_t;
// To TF32, rounded to nearest, ties away from zero, two ways. cvt.rna.tf32.f32 becomes a compare and
// about four integer operations in NVIDIA's code: 24 conversions per 16 mma made 64 % of the NT
// kernel's instructions, which bound it (Nsight Compute through tools/nv_profile). The mma reads a
// .tf32 operand's upper 19 bits and ignores the lower 13, so adding half a TF32 ulp to the bits rounds
// the same in one integer add (CUTLASS's round_half_ulp_truncate); unlike cvt.rna it makes ±∞ and
// the floats within half a TF32 ulp of ±FLT_MAX NaN instead of ±∞ (overflow either way, which the
// mixed solvers rule out before factoring). The kernels whose B is staged (NN, TN) keep cvt.rna: with
// the add NVIDIA's OpenCL ran them 20 % slower (NN 74 against 93 TFLOP/s at n = 8192, H200), with
// -cl-nv-maxrregcount=128 too, where the CUDA driver's build of the same PTX ran NN at 93 either way;
// why is open (bench/gpu_notes.md, "The TF32 GEMM's conversions").
static inline uint nvt_tf32_rna(const float x)
{
    uint y;
    TESSERA_NV_ASM("cvt.rna.tf32.f32 %0, %1;" : "=r"(y) : "f"(x));
    return y;
}
static inline uint nvt_tf32_add(const float x) { return as_uint(x) + 0x1000u; }
static inline uint nvt_pack(const float lo, const float hi)
{
    uint y;
    TESSERA_NV_ASM("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(y) : "f"(hi), "f"(lo));
    return y;
}
#define NVT_MMA_TF32(c, a0, a1, a2, a3, b0, b1)                                                     \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                   \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                \
                            : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])               \
                            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
#define NVT_MMA_F16(c, a0, a1, a2, a3, b0, b1)                                                      \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "                    \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                \
                            : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])               \
                            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
#endif

// An operand to TF32 in the body of a kernel whose local rna_ says which way.
#define NVT_TF32(x_) (rna_ ? nvt_tf32_rna(x_) : nvt_tf32_add(x_))

// acc += the warp's share of one k-major slab pair (As_, Bs_: the warp's first row and column
// already added) in TF32, step by step of 8 k.
#define NVT_SLAB_MMA_TF32(As_, Bs_)                                                                \
    do {                                                                                           \
        _Pragma("unroll") for (int h = 0; h < TESSERA_NVS_BK / 8; ++h) {                           \
            __local const float* a_ = (As_) + (8 * h + 2 * t) * NVS_LD;                            \
            __local const float* b_ = (Bs_) + (8 * h + 2 * t) * NVS_LD;                            \
            const float4 al0 = *(__local const float4*)a_, ah0 = *(__local const float4*)(a_ + 32); \
            const float4 al1 = *(__local const float4*)(a_ + NVS_LD);                              \
            const float4 ah1 = *(__local const float4*)(a_ + NVS_LD + 32);                         \
            const float4 b0v = *(__local const float4*)b_, b1v = *(__local const float4*)(b_ + NVS_LD); \
            const nvt_tf32_t a[4][4] = {                                                           \
                {NVT_TF32(al0.x), NVT_TF32(al0.y), NVT_TF32(al1.x), NVT_TF32(al1.y)},              \
                {NVT_TF32(al0.z), NVT_TF32(al0.w), NVT_TF32(al1.z), NVT_TF32(al1.w)},              \
                {NVT_TF32(ah0.x), NVT_TF32(ah0.y), NVT_TF32(ah1.x), NVT_TF32(ah1.y)},              \
                {NVT_TF32(ah0.z), NVT_TF32(ah0.w), NVT_TF32(ah1.z), NVT_TF32(ah1.w)}};             \
            const nvt_tf32_t b[2][4] = {{NVT_TF32(b0v.x), NVT_TF32(b0v.y), NVT_TF32(b0v.z), NVT_TF32(b0v.w)}, \
                                        {NVT_TF32(b1v.x), NVT_TF32(b1v.y), NVT_TF32(b1v.z), NVT_TF32(b1v.w)}}; \
            _Pragma("unroll") for (int i = 0; i < 4; ++i)                                          \
            _Pragma("unroll") for (int j = 0; j < 4; ++j)                                          \
                NVT_MMA_TF32(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[0][j], b[1][j]);      \
        }                                                                                          \
    } while (0)

// The same in FP16: one m16n8k16 step per slab, its operands from slab k 2t, 2t+1, 2t+8, 2t+9
// (slabs of 16 k only: with TESSERA_NVS_BK = 8, or built with -DTESSERA_NVT_F16=0, the program has
// no _f16 kernels and Fp16 scopes take the _tf32 ones).
#ifndef TESSERA_NVT_F16
#define TESSERA_NVT_F16 1
#endif
#define NVT_HAS_F16 (TESSERA_NVS_BK == 16 && TESSERA_NVT_F16)
#if NVT_HAS_F16
#define NVT_SLAB_MMA_F16(As_, Bs_)                                                                 \
    do {                                                                                           \
        __local const float* a_ = (As_) + 2 * t * NVS_LD;                                          \
        __local const float* b_ = (Bs_) + 2 * t * NVS_LD;                                          \
        float4 al[4], ah[4], bv[4];                                                                \
        _Pragma("unroll") for (int s_ = 0; s_ < 4; ++s_) {                                         \
            const int o_ = ((s_ & 1) + 8 * (s_ >> 1)) * NVS_LD;                                    \
            al[s_] = *(__local const float4*)(a_ + o_);                                            \
            ah[s_] = *(__local const float4*)(a_ + o_ + 32);                                       \
            bv[s_] = *(__local const float4*)(b_ + o_);                                            \
        }                                                                                          \
        /* m16 tile i: lane rows x, y (i = 0, 2) or z, w (i = 1, 3) of al (i < 2) or ah */         \
        const nvt_pair_t a[4][4] = {                                                               \
            {nvt_pack(al[0].x, al[1].x), nvt_pack(al[0].y, al[1].y),                               \
             nvt_pack(al[2].x, al[3].x), nvt_pack(al[2].y, al[3].y)},                              \
            {nvt_pack(al[0].z, al[1].z), nvt_pack(al[0].w, al[1].w),                               \
             nvt_pack(al[2].z, al[3].z), nvt_pack(al[2].w, al[3].w)},                              \
            {nvt_pack(ah[0].x, ah[1].x), nvt_pack(ah[0].y, ah[1].y),                               \
             nvt_pack(ah[2].x, ah[3].x), nvt_pack(ah[2].y, ah[3].y)},                              \
            {nvt_pack(ah[0].z, ah[1].z), nvt_pack(ah[0].w, ah[1].w),                               \
             nvt_pack(ah[2].z, ah[3].z), nvt_pack(ah[2].w, ah[3].w)}};                             \
        const nvt_pair_t b[2][4] = {                                                               \
            {nvt_pack(bv[0].x, bv[1].x), nvt_pack(bv[0].y, bv[1].y),                               \
             nvt_pack(bv[0].z, bv[1].z), nvt_pack(bv[0].w, bv[1].w)},                              \
            {nvt_pack(bv[2].x, bv[3].x), nvt_pack(bv[2].y, bv[3].y),                               \
             nvt_pack(bv[2].z, bv[3].z), nvt_pack(bv[2].w, bv[3].w)}};                             \
        _Pragma("unroll") for (int i = 0; i < 4; ++i)                                              \
        _Pragma("unroll") for (int j = 0; j < 4; ++j)                                              \
            NVT_MMA_F16(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[0][j], b[1][j]);           \
    } while (0)
#else
#define NVT_SLAB_MMA_F16(As_, Bs_) do { } while (0)
#endif

#ifndef TESSERA_NVT_F16_STAGES
#define TESSERA_NVT_F16_STAGES 3  // slab buffers of the FP16 kernels whose B is not staged; 2: gemm_nv_s.cl's loop
#endif
// This work-item's copies of slab sl of op(A) and op(B) into slab buffer buf.
#define NVT_COPY_SLABS(sl, buf)                                                                     \
    do {                                                                                            \
        const int kb_ = (sl) * TESSERA_NVS_BK;                                                      \
        nvs_copy_slab(a_rc, vec, Ap + (sl) * a_step, lda, m - i0, k - kb_, As + (buf) * NVS_SLAB);  \
        nvs_copy_slab(b_rc, vec, Bp + (sl) * b_step, ldb, n - j0, k - kb_, Bs + (buf) * NVS_SLAB);  \
    } while (0)
// The slab loop of the FP16 kernels whose B is not staged, with TESSERA_NVT_F16_STAGES buffers:
// slabs s + 1 … s + STAGES − 1 in flight while slab s is multiplied, one cp.async group per slab
// (empty ones too), one barrier per slab. At slab s a work-item waits until its copies of slab s
// have landed (at most STAGES − 2 later groups pending) and passes the barrier: everyone's copies
// have landed and everyone has multiplied slab s − 1, whose buffer then takes slab s + STAGES − 1.
// (H200, gpu_gemm --bench --prec s --fp16 --forms nt, TFLOP/s at n = 4096 / 8192: 2 buffers 143.0 /
// 152.2, 3 163.5 / 169.1, 4 115.2 / 126.7; the TF32 kernels lost with 3 and 4: NT 104.6 / 118.1 and
// 105.5 / 118.7 against 128.0 / 135.1; bench/gpu_notes.md, "NN tensor products through Bᵀ".)
#define NVT_STAGES_LOOP(PRODUCT)                                                                    \
    do {                                                                                            \
        _Pragma("unroll") for (int p = 0; p < TESSERA_NVT_F16_STAGES - 1; ++p) {                    \
            if (p < nslab) NVT_COPY_SLABS(p, p);                                                    \
            NVG_CP_COMMIT();                                                                        \
        }                                                                                           \
        int cur = 0, nxt = TESSERA_NVT_F16_STAGES - 1; /* buffers of slab s and s + STAGES − 1 */   \
        for (int s = 0; s < nslab; ++s) {                                                           \
            NVG_CP_WAITN(TESSERA_NVT_F16_STAGES - 2);                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                           \
            if (s + TESSERA_NVT_F16_STAGES - 1 < nslab) NVT_COPY_SLABS(s + TESSERA_NVT_F16_STAGES - 1, nxt); \
            NVG_CP_COMMIT();                                                                        \
            PRODUCT(As + cur * NVS_SLAB, Bs + cur * NVS_SLAB);                                      \
            cur = cur + 1 == TESSERA_NVT_F16_STAGES ? 0 : cur + 1;                                  \
            nxt = nxt + 1 == TESSERA_NVT_F16_STAGES ? 0 : nxt + 1;                                  \
        }                                                                                           \
    } while (0)

static inline void nvt_gemm_body(const int fp16, const int transA, const int transB, const int vec, const int m,
                                 const int n, const int k, const float alpha, __global const float* A, const int lda,
                                 __global const float* B, const int ldb, const float beta, __global float* C,
                                 const int ldc, const int tri, __local float* As, __local float* Bs,
                                 __local float4* raw NVT_EMU_PARAMS)
{
    int bm, bn;
    nvg_block_coords(m, n, NVS_BM, NVS_BN, &bm, &bn);
    const int i0 = bm * NVS_BM, j0 = bn * NVS_BN;
    if (tri == 1 && i0 + NVS_BM - 1 < j0) return;
    if (tri == 2 && j0 + NVS_BN - 1 < i0) return;

    const int lid = (int)get_local_id(0), w = lid >> 5, lane = lid & 31, g = lane >> 2, t = lane & 3;
    const int ra = 64 * (w & 1) + 4 * g;    // the lane's first row in the block (then ra + 32)
    const int cb = 32 * (w >> 1) + 4 * g;   // B fragment loads: columns cb..cb+3 (n8 tiles 0..3)
    const int cc = 32 * (w >> 1) + 8 * t;   // C: the lane's columns cc..cc+7
    const int rna_ = NVS_STAGED(transB, vec);  // TF32 by cvt.rna where B is staged (nvt_tf32_rna)

    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;

    NVS_SLAB_SOURCES;

    // Two slab buffers, one barrier per slab: gemm_nv_s.cl's loop without mbarriers.
#define NVT_PRODUCT(As_, Bs_)                                                                      \
    do {                                                                                           \
        if (fp16) NVT_SLAB_MMA_F16((As_) + ra, (Bs_) + cb);                                        \
        else NVT_SLAB_MMA_TF32((As_) + ra, (Bs_) + cb);                                            \
    } while (0)
#if TESSERA_NVT_F16_STAGES > 2
    if (fp16 && !NVS_STAGED(transB, vec)) NVT_STAGES_LOOP(NVT_PRODUCT);
    else NVS_SLAB_LOOP(NVT_PRODUCT);
#else
    NVS_SLAB_LOOP(NVT_PRODUCT);
#endif
#undef NVT_PRODUCT

    // Epilogue, a column at a time (loads before stores, as gemm_nv_s.cl's). Lane row r (0..7) is
    // block row ra + r (r < 4) or ra + 28 + r, the mma's row of m16 tile 2·(r / 4) + (r % 4) / 2,
    // half r % 2; column q is cc + q, of n8 tile q % 4, entry q / 4 of the half.
#pragma unroll
    for (int q = 0; q < 8; ++q) {
        const int col = j0 + cc + q;
        if (col >= n) continue;
        __global float* Cc = C + (long)col * ldc;
        float old[8];
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = i0 + ra + r + (r >> 2) * 28;
            old[r] = (beta != 0.0f && nvs_in_c(row, col, m, n, tri)) ? Cc[row] : 0.0f;
        }
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = i0 + ra + r + (r >> 2) * 28;
            if (!nvs_in_c(row, col, m, n, tri)) continue;
            const float v = alpha * acc[2 * (r >> 2) + ((r & 3) >> 1)][q & 3][2 * (r & 1) + (q >> 2)];
            Cc[row] = (beta == 0.0f) ? v : fma(beta, old[r], v);
        }
    }
}

// gemm_nv_s.cl's kernels with this body, named with the suffix _tf32 (all sixteen) or _f16 (the
// eight NT and TN ones) (same arguments and launch; two slab buffers, one staging slot).
#define NVT_BODY(name, fp16)                                                                       \
    static inline void name(const int transA, const int transB, const int vec, const int m, const int n,       \
                            const int k, const float alpha, __global const float* A, const int lda,            \
                            __global const float* B, const int ldb, const float beta, __global float* C,       \
                            const int ldc, const int tri, __local float* As, __local float* Bs,                \
                            __local float4* raw NVT_EMU_PARAMS)                                                \
    {                                                                                                          \
        nvt_gemm_body(fp16, transA, transB, vec, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, tri, As, Bs,    \
                      raw NVT_EMU_ARGS);                                                                       \
    }
NVT_BODY(nvt_gemm_tf32, 0)
#if NVT_HAS_F16
NVT_BODY(nvt_gemm_f16, 1)
#endif
#undef NVS_K_BODY
#undef NVS_K_NBUF
#undef NVS_K_SLOTS
#undef NVS_K_DECL
#undef NVS_K_ARGS
#undef NVS_K_BUFS
#define NVS_K_BODY nvt_gemm_tf32
#define NVS_K_BUFS(tb, vec) 2
#define NVS_K_NBUF 2
#define NVS_K_SLOTS 1
#define NVS_K_DECL NVT_EMU_DECL
#define NVS_K_ARGS NVT_EMU_ARGS
NVS_KERNELS(_tf32)
// In FP16 only the NT and TN forms, where it beats TF32 (TFLOP/s at n = 2048 / 4096 / 8192, H200,
// gpu_gemm --bench --prec s --fp16 / --tf32 --forms nn,nt,tn, one run: NT 132.0 / 143.4 / 152.3
// against 92.1 / 100.8 / 104.3; TN 82.9 / 87.2 / 91.3 against 70.3 / 75.6 / 78.2; NN 72.0 / 73.6 /
// 75.1 against 81.2 / 87.7 / 93.0; TT not measured). Sixteen kernels in FP16 took 5.9 s more than
// none in a cold build of the GEMM program (both compilers' caches off; `gpu_gemm --prec s
// --dump-ptx`, 26.9 against 21.0 s).
#if NVT_HAS_F16
#undef NVS_K_BODY
#undef NVS_K_BUFS
#define NVS_K_BODY nvt_gemm_f16
#define NVS_K_BUFS(tb, vec) (NVS_STAGED(tb, vec) ? 2 : TESSERA_NVT_F16_STAGES)
NVS_KERNEL(tessera_nvgemm_nt_f16, 0, 1, 1, 0)
NVS_KERNEL(tessera_nvgemm_tn_f16, 1, 0, 1, 0)
NVS_KERNEL(tessera_nvgemm_nt_u_f16, 0, 1, 0, 0)
NVS_KERNEL(tessera_nvgemm_tn_u_f16, 1, 0, 0, 0)
NVS_KERNEL(tessera_nvgemm_nt_split_f16, 0, 1, 1, 1)
NVS_KERNEL(tessera_nvgemm_tn_split_f16, 1, 0, 1, 1)
NVS_KERNEL(tessera_nvgemm_nt_u_split_f16, 0, 1, 0, 1)
NVS_KERNEL(tessera_nvgemm_tn_u_split_f16, 1, 0, 0, 1)
#endif

// gemm_nv_s.cl's helpers and this file's end here: later files of the program may reuse the names.
#undef NVS_KERNELS
#undef NVS_KERNEL
#undef NVS_K_BODY
#undef NVS_K_NBUF
#undef NVS_K_SLOTS
#undef NVS_K_DECL
#undef NVS_K_ARGS
#undef NVS_K_BUFS
#undef NVT_STAGES_LOOP
#undef NVT_COPY_SLABS
#undef NVS_SLAB_LOOP
#undef NVS_SLAB_SOURCES
#undef NVT_BODY
#undef NVT_HAS_F16
#undef NVT_SLAB_MMA_TF32
#undef NVT_TF32
#undef NVT_SLAB_MMA_F16
#undef NVT_MMA_TF32
#undef NVT_MMA_F16
#undef NVT_EMU_DECL
#undef NVT_EMU_ARGS
#undef NVT_EMU_PARAMS
#undef NVS_BM
#undef NVS_BN
#undef NVS_CHUNKS
#undef NVS_STAGED
#undef NVS_LD
#undef NVS_NT
#undef NVS_PER
#undef NVS_SLAB

// tessera_nvgemm_transpose: Bt = Bᵀ, B rows×cols, Bt cols×rows, through 32×32 tiles of local
// memory (reads and writes both along columns). The NN tensor-core products run as NT ones on Bᵀ
// (gemm_select.cpp): the NT kernels copy B with cp.async and round it with one integer add, where
// the NN ones stage it through registers. Launch: local (32, 8), global (⌈rows/32⌉·32, ⌈cols/32⌉·8).
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void tessera_nvgemm_transpose(const int rows, const int cols, __global const float* B, const ulong offB,
                              const int ldb, __global float* Bt, const ulong offBt, const int ldbt)
{
    __local float tile[32][33];  // tile[c][r] = B(r0 + r, c0 + c); 33: the column reads meet distinct banks
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int r0 = (int)get_group_id(0) * 32, c0 = (int)get_group_id(1) * 32;
    for (int c = ly; c < 32; c += 8)
        if (r0 + lx < rows && c0 + c < cols) tile[c][lx] = B[offB + (r0 + lx) + (long)(c0 + c) * ldb];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = ly; r < 32; r += 8)  // Bt(c0 + lx, r0 + r) = B(r0 + r, c0 + lx)
        if (r0 + r < rows && c0 + lx < cols) Bt[offBt + (c0 + lx) + (long)(r0 + r) * ldbt] = tile[lx][r];
}
#endif  // TESSERA_REAL_S
#endif  // TESSERA_NV_SM

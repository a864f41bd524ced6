// tessera_nvgemm_*_tf32 in float: TF32 tensor cores (gemm_nv.cl describes the family). The float
// kernels' blocks, slabs and copies (gemm_nv_s.cl's helpers: 128×128 blocks of 256 work-items,
// k-major slabs X[k][r] of row NVS_LD = 132, cp.async, the staged B), multiplied by mma.sync
// m16n8k8 .tf32: every operand rounded to TF32 (cvt.rna: 10 explicit mantissa bits, unit roundoff
// 2^-11) and the products accumulated in FP32. Not a float GEMM's accuracy: the launcher takes
// these kernels only inside an ocl::Tf32Products scope (the mixed-precision solvers' low-precision
// factorization, whose refinement restores FP64 accuracy).
//
// A warp computes a 64×32 tile (warps 2 along m × 4 along n): 4 m16 × 4 n8 mma tiles, 64 FP32
// accumulators per work-item. Lane (g, t) = (lane / 4, lane % 4) holds rows 4g..4g+3 and
// 32+4g..32+4g+3 of the warp's 64 and columns 8t..8t+7 of its 32: the mma's row g and g + 8 of
// m16 tile i are rows 2i and 2i + 1 of the lane's eight, column c of n8 tile j is 4c + j, and the
// mma's k = t and t + 4 of each 8-deep step are slab k 2t and 2t + 1. With that relabeling every
// fragment comes in float4 loads (A: four, B: two per step) that meet distinct banks per
// quarter-warp (16-byte unit 2t + g mod 8, as NVS_LD ≡ 1 unit mod 8), and the C fragments are the
// lane's 8×8 block.
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_S)

#ifdef TESSERA_NV_EMULATE
// PoCL test mode: the mma through local memory, after the PTX ISA's m16n8k8 .tf32 fragment
// layouts (a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); b0 (t, g), b1 (t+4, g); c0, c1
// (g, 2t + {0,1}), c2, c3 (g+8, 2t + {0,1})), operands rounded as cvt.rna.tf32.f32 rounds.
#define NVT_EMU_DECL __local float emu_a[8][16 * 8], emu_b[8][8 * 8];
#define NVT_EMU_ARGS , emu_a, emu_b
#define NVT_EMU_PARAMS , __local float (*emu_a)[16 * 8], __local float (*emu_b)[8 * 8]
typedef float nvt_tf32_t;
static inline float nvt_tf32(const float x) { return as_float((as_uint(x) + 0x1000u) & 0xffffe000u); }
static inline void nvt_emu(float* c, const float a0, const float a1, const float a2, const float a3, const float b0,
                           const float b1, __local float (*emu_a)[16 * 8], __local float (*emu_b)[8 * 8])
{
    const int lane = (int)get_local_id(0) & 31, w = (int)get_local_id(0) >> 5, g = lane >> 2, t = lane & 3;
    emu_a[w][g * 8 + t] = a0, emu_a[w][(g + 8) * 8 + t] = a1;
    emu_a[w][g * 8 + t + 4] = a2, emu_a[w][(g + 8) * 8 + t + 4] = a3;
    emu_b[w][t * 8 + g] = b0, emu_b[w][(t + 4) * 8 + g] = b1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = 0; v < 4; ++v) {
        const int row = g + 8 * (v >> 1), col = 2 * t + (v & 1);
        float s = c[v];
        for (int kk = 0; kk < 8; ++kk) s = fma(emu_a[w][row * 8 + kk], emu_b[w][kk * 8 + col], s);
        c[v] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#define NVT_MMA(c, a0, a1, a2, a3, b0, b1) nvt_emu(c, a0, a1, a2, a3, b0, b1, emu_a, emu_b)
#else
#define NVT_EMU_DECL
#define NVT_EMU_ARGS
#define NVT_EMU_PARAMS
typedef uint nvt_tf32_t;
static inline uint nvt_tf32(const float x)
{
    uint y;
    TESSERA_NV_ASM("cvt.rna.tf32.f32 %0, %1;" : "=r"(y) : "f"(x));
    return y;
}
#define NVT_MMA(c, a0, a1, a2, a3, b0, b1)                                                          \
    TESSERA_NV_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                   \
                            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                \
                            : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])               \
                            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
#endif

#ifndef TESSERA_NVT_ROUND_SLAB
#define TESSERA_NVT_ROUND_SLAB 0  // 1: each work-item rounds its own copies of a slab in place once they land
#endif
#ifdef TESSERA_NV_EMULATE
#define nvt_round_f(x) nvt_tf32(x)  // x rounded to TF32, as a float
#define nvt_bits(x) (x)             // an operand already rounded, as the mma takes it
#else
#define nvt_round_f(x) as_float(nvt_tf32(x))
#define nvt_bits(x) as_uint(x)
#endif
#if TESSERA_NVT_ROUND_SLAB
#define NVT_OPERAND(x) nvt_bits(x)
#else
#define NVT_OPERAND(x) nvt_tf32(x)
#endif

// Round to TF32, in place, the elements of a 128×BK slab at dst that this work-item copied there
// (nvs_copy_slab's partition of the slab among the work-items, 16-byte or 4-byte elements).
static inline void nvt_round_own(const int rc, const int vec, __local float* dst)
{
    const int lid = (int)get_local_id(0);
    if (rc && vec) {
        const int r = 4 * (lid & 31), k0 = lid >> 5;
#pragma unroll
        for (int q = 0; q < TESSERA_NVS_BK / 8; ++q) {
            __local float4* p = (__local float4*)(dst + (k0 + 8 * q) * NVS_LD + r);
            float4 v = *p;
            v.x = nvt_round_f(v.x), v.y = nvt_round_f(v.y), v.z = nvt_round_f(v.z), v.w = nvt_round_f(v.w);
            *p = v;
        }
    } else if (rc) {
        const int r = lid & 127, k0 = lid >> 7;
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) {
            __local float* p = dst + (k0 + 2 * q) * NVS_LD + r;
            *p = nvt_round_f(*p);
        }
    } else {
        const int k0 = lid & 7, r0 = ((lid >> 3) & 3) + 4 * (lid >> 5);
#pragma unroll
        for (int q = 0; q < NVS_PER; ++q) {
            const int dk = 8 * (q % (TESSERA_NVS_BK / 8)), dr = 32 * (q / (TESSERA_NVS_BK / 8));
            __local float* p = dst + (k0 + dk) * NVS_LD + r0 + dr;
            *p = nvt_round_f(*p);
        }
    }
}

// nvs_stage_store with the chunks rounded to TF32 on their way.
static inline void nvt_stage_store_round(__local const float4* raw, __local float* dst)
{
    const int lid = (int)get_local_id(0), r = lid >> 1;
#pragma unroll
    for (int j = 0; j < NVS_CHUNKS; ++j) {
        const float4 v = raw[j * NVS_NT + lid];
        __local float* d = dst + 4 * ((lid & 1) + 2 * j) * NVS_LD + r;
        d[0] = nvt_round_f(v.x), d[NVS_LD] = nvt_round_f(v.y), d[2 * NVS_LD] = nvt_round_f(v.z);
        d[3 * NVS_LD] = nvt_round_f(v.w);
    }
}

#ifndef TESSERA_NVT_WIDE
#define TESSERA_NVT_WIDE 0  // 1: 128×256 blocks, each warp a 64×64 tile (half the fragment bytes per mma)
#endif
#define NVT_WN (32 + 32 * TESSERA_NVT_WIDE)  // a warp's columns
#define NVT_NJ (NVT_WN / 8)                  // its n8 tiles
#define NVT_BN (4 * NVT_WN)                  // a block's columns (4 warps along n)

// acc += the warp's share of one k-major slab pair (As_, Bs_: the warp's first row and column
// already added), step by step of 8 k. B's fragments: n8 tiles 4q..4q+3 come from the 32 columns
// starting at 32q, as tiles 0..3 do from the first 32.
#define NVT_SLAB_MMA(As_, Bs_)                                                                     \
    do {                                                                                           \
        _Pragma("unroll") for (int h = 0; h < TESSERA_NVS_BK / 8; ++h) {                           \
            __local const float* a_ = (As_) + (8 * h + 2 * t) * NVS_LD;                            \
            __local const float* b_ = (Bs_) + (8 * h + 2 * t) * NVS_LD;                            \
            const float4 al0 = *(__local const float4*)a_, ah0 = *(__local const float4*)(a_ + 32); \
            const float4 al1 = *(__local const float4*)(a_ + NVS_LD);                              \
            const float4 ah1 = *(__local const float4*)(a_ + NVS_LD + 32);                         \
            const nvt_tf32_t a[4][4] = {                                                           \
                {NVT_OPERAND(al0.x), NVT_OPERAND(al0.y), NVT_OPERAND(al1.x), NVT_OPERAND(al1.y)},  \
                {NVT_OPERAND(al0.z), NVT_OPERAND(al0.w), NVT_OPERAND(al1.z), NVT_OPERAND(al1.w)},  \
                {NVT_OPERAND(ah0.x), NVT_OPERAND(ah0.y), NVT_OPERAND(ah1.x), NVT_OPERAND(ah1.y)},  \
                {NVT_OPERAND(ah0.z), NVT_OPERAND(ah0.w), NVT_OPERAND(ah1.z), NVT_OPERAND(ah1.w)}}; \
            nvt_tf32_t b[2][NVT_NJ];                                                               \
            _Pragma("unroll") for (int q = 0; q < NVT_NJ / 4; ++q) {                               \
                const float4 b0v = *(__local const float4*)(b_ + 32 * q);                          \
                const float4 b1v = *(__local const float4*)(b_ + NVS_LD + 32 * q);                 \
                b[0][4 * q] = NVT_OPERAND(b0v.x), b[0][4 * q + 1] = NVT_OPERAND(b0v.y);            \
                b[0][4 * q + 2] = NVT_OPERAND(b0v.z), b[0][4 * q + 3] = NVT_OPERAND(b0v.w);        \
                b[1][4 * q] = NVT_OPERAND(b1v.x), b[1][4 * q + 1] = NVT_OPERAND(b1v.y);            \
                b[1][4 * q + 2] = NVT_OPERAND(b1v.z), b[1][4 * q + 3] = NVT_OPERAND(b1v.w);        \
            }                                                                                      \
            _Pragma("unroll") for (int i = 0; i < 4; ++i)                                          \
            _Pragma("unroll") for (int j = 0; j < NVT_NJ; ++j)                                     \
                NVT_MMA(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[0][j], b[1][j]);           \
        }                                                                                          \
    } while (0)

#if TESSERA_NVT_WIDE
// B's 256 columns as two slabs of 128 (gemm_nv_s.cl's copies and staging each cover 128), the
// second NVS_SLAB floats (and, staged, NVS_CHUNKS·NVS_NT float4) after the first; its source is
// the first's where no column of it exists (a copy of no bytes still takes a valid address).
#undef NVS_COPY_B
#undef NVS_STORE_B
#undef NVS_BSLAB
#undef NVS_RAWSLOT
#define NVS_COPY_B(src, k_left, dst, raw_)                                                         \
    do {                                                                                           \
        __global const float* src2_ = n - j0 > 128 ? (src) + (b_rc ? 128 : 128 * (long)ldb) : (src); \
        if (stage) {                                                                               \
            nvs_stage_copy(src, ldb, n - j0, k_left, raw_);                                        \
            nvs_stage_copy(src2_, ldb, n - j0 - 128, k_left, (raw_) + NVS_CHUNKS * NVS_NT);        \
        } else {                                                                                   \
            nvs_copy_slab(b_rc, vec, src, ldb, n - j0, k_left, dst);                               \
            nvs_copy_slab(b_rc, vec, src2_, ldb, n - j0 - 128, k_left, (dst) + NVS_SLAB);          \
        }                                                                                          \
    } while (0)
#define NVS_STORE_B(dst, raw_)                                                                     \
    do {                                                                                           \
        if (stage) {                                                                               \
            nvs_stage_store(raw_, dst);                                                            \
            nvs_stage_store((raw_) + NVS_CHUNKS * NVS_NT, (dst) + NVS_SLAB);                       \
        }                                                                                          \
    } while (0)
#define NVS_BSLAB (2 * NVS_SLAB)
#define NVS_RAWSLOT (2 * NVS_CHUNKS * NVS_NT)
#endif

#if TESSERA_NVT_ROUND_SLAB
// Once a slab has landed, each work-item rounds what it copied (A's part and B's, in each of B's
// halves when wide), or stores its staged chunks of B rounded.
#undef NVS_LANDED
#define NVS_LANDED(Adst, Bdst, raw_)                                                               \
    do {                                                                                           \
        nvt_round_own(a_rc, vec, Adst);                                                            \
        _Pragma("unroll") for (int h_ = 0; h_ <= TESSERA_NVT_WIDE; ++h_) {                         \
            if (stage) nvt_stage_store_round((raw_) + h_ * NVS_CHUNKS * NVS_NT, (Bdst) + h_ * NVS_SLAB); \
            else nvt_round_own(b_rc, vec, (Bdst) + h_ * NVS_SLAB);                                 \
        }                                                                                          \
    } while (0)
#endif

#ifndef TESSERA_NVT_STAGES
#define TESSERA_NVT_STAGES 2  // slab buffers; 2: gemm_nv_s.cl's loop
#endif
// The slab loop with TESSERA_NVT_STAGES buffers: slabs s + 1 … s + STAGES − 1 in flight while slab s
// is multiplied, one cp.async group per slab, one barrier per slab. At slab s a work-item waits
// until its copies of slab s have landed (at most STAGES − 2 later groups pending), stores its
// staged chunks of B, and passes the barrier: everyone's copies have landed and everyone has
// multiplied slab s − 1, whose buffer (and staging slot) then takes slab s + STAGES − 1. (With two
// slab buffers, one slab is in flight: the copies' latency was longer than a slab's mma on an H200.)
#define NVT_STAGES_LOOP(PRODUCT)                                                                   \
    do {                                                                                           \
        _Pragma("unroll") for (int p = 0; p < TESSERA_NVT_STAGES - 1; ++p) {                       \
            if (p < nslab) {                                                                       \
                nvs_copy_slab(a_rc, vec, Ap + p * a_step, lda, m - i0, k - p * TESSERA_NVS_BK, As + p * NVS_SLAB); \
                NVS_COPY_B(Bp + p * b_step, k - p * TESSERA_NVS_BK, Bs + p * NVS_BSLAB, raw + p * NVS_RAWSLOT); \
            }                                                                                      \
            NVG_CP_COMMIT();                                                                       \
        }                                                                                          \
        for (int s = 0; s < nslab; ++s) {                                                          \
            const int cur = s % TESSERA_NVT_STAGES;                                                \
            NVG_CP_WAITN(TESSERA_NVT_STAGES - 2);                                                  \
            NVS_LANDED(As + cur * NVS_SLAB, Bs + cur * NVS_BSLAB, raw + cur * NVS_RAWSLOT);        \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
            const int nx = s + TESSERA_NVT_STAGES - 1, nb_ = nx % TESSERA_NVT_STAGES;             \
            if (nx < nslab) {                                                                      \
                const int kb = nx * TESSERA_NVS_BK;                                                \
                nvs_copy_slab(a_rc, vec, Ap + nx * a_step, lda, m - i0, k - kb, As + nb_ * NVS_SLAB); \
                NVS_COPY_B(Bp + nx * b_step, k - kb, Bs + nb_ * NVS_BSLAB, raw + nb_ * NVS_RAWSLOT); \
            }                                                                                      \
            NVG_CP_COMMIT();                                                                       \
            PRODUCT(As + cur * NVS_SLAB, Bs + cur * NVS_BSLAB);                                    \
        }                                                                                          \
    } while (0)

static inline void nvt_gemm_body(const int transA, const int transB, const int vec, const int m, const int n,
                                 const int k, const float alpha, __global const float* A, const int lda,
                                 __global const float* B, const int ldb, const float beta, __global float* C,
                                 const int ldc, const int tri, __local float* As, __local float* Bs,
                                 __local float4* raw NVT_EMU_PARAMS)
{
    int bm, bn;
    nvg_block_coords(m, n, NVS_BM, NVT_BN, &bm, &bn);
    const int i0 = bm * NVS_BM, j0 = bn * NVT_BN;
    if (tri == 1 && i0 + NVS_BM - 1 < j0) return;
    if (tri == 2 && j0 + NVT_BN - 1 < i0) return;

    const int lid = (int)get_local_id(0), w = lid >> 5, lane = lid & 31, g = lane >> 2, t = lane & 3;
    const int wn = w >> 1;                   // the warp's place along n (0..3)
    const int ra = 64 * (w & 1) + 4 * g;     // the lane's first row in the block (then ra + 32)
    // B fragment loads: columns cb..cb+3 (n8 tiles 0..3) of the warp's slab of B (of two, wide).
    const int cb = (TESSERA_NVT_WIDE ? (wn >> 1) * NVS_SLAB + 64 * (wn & 1) : 32 * wn) + 4 * g;
    const int cc = NVT_WN * wn + 8 * t;      // C: the lane's columns cc..cc+7 (and cc+32.., wide)

    float acc[4][NVT_NJ][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < NVT_NJ; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;

    NVS_SLAB_SOURCES;

#define NVT_PRODUCT(As_, Bs_) NVT_SLAB_MMA((As_) + ra, (Bs_) + cb)
#if TESSERA_NVT_STAGES > 2
    NVT_STAGES_LOOP(NVT_PRODUCT);
#else
    NVS_SLAB_LOOP(NVT_PRODUCT);  // two slab buffers, one barrier per slab
#endif
#undef NVT_PRODUCT

    // Epilogue, a column at a time (loads before stores, as gemm_nv_s.cl's). Lane row r (0..7) is
    // block row ra + r (r < 4) or ra + 28 + r, the mma's row of m16 tile 2·(r / 4) + (r % 4) / 2,
    // half r % 2; column q is cc + 32·(q / 8) + q % 8, of n8 tile 4·(q / 8) + q % 4, entry
    // (q % 8) / 4 of the half.
#pragma unroll
    for (int q = 0; q < 2 * NVT_NJ; ++q) {
        const int col = j0 + cc + 32 * (q >> 3) + (q & 7);
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
            const float v = alpha * acc[2 * (r >> 2) + ((r & 3) >> 1)][4 * (q >> 3) + (q & 3)][2 * (r & 1) + ((q >> 2) & 1)];
            Cc[row] = (beta == 0.0f) ? v : fma(beta, old[r], v);
        }
    }
}

// Never launched: its work-group shape (BM / 64, BN / 64, 1) tells the launcher (gemm_select.cpp)
// the TF32 kernels' block of C.
__kernel __attribute__((reqd_work_group_size(NVS_BM / 64, NVT_BN / 64, 1))) void tessera_nvgemm_geometry_tf32(void) {}

// gemm_nv_s.cl's sixteen kernels with this body, each named with the suffix _tf32 (same arguments
// and launch; two slab buffers, one staging slot).
#undef NVS_K_BODY
#undef NVS_K_NBUF
#undef NVS_K_SLOTS
#undef NVS_K_DECL
#undef NVS_K_ARGS
#define NVS_K_BODY nvt_gemm_body
#define NVS_K_NBUF TESSERA_NVT_STAGES
#define NVS_K_SLOTS ((TESSERA_NVT_STAGES > 2 ? TESSERA_NVT_STAGES : 1) * (1 + TESSERA_NVT_WIDE))
#undef NVS_K_BSLAB
#define NVS_K_BSLAB NVS_BSLAB
#define NVS_K_DECL NVT_EMU_DECL
#define NVS_K_ARGS NVT_EMU_ARGS
NVS_KERNELS(_tf32)

// gemm_nv_s.cl's helpers and this file's end here: later files of the program may reuse the names.
#undef NVS_KERNELS
#undef NVS_KERNEL
#undef NVS_K_BODY
#undef NVS_K_NBUF
#undef NVS_K_SLOTS
#undef NVS_K_DECL
#undef NVS_K_ARGS
#undef NVS_K_BSLAB
#undef NVS_SLAB_LOOP
#undef NVS_COPY_B
#undef NVS_STORE_B
#undef NVS_BSLAB
#undef NVS_RAWSLOT
#undef NVS_LANDED
#undef NVT_OPERAND
#undef nvt_round_f
#undef nvt_bits
#undef NVT_STAGES_LOOP
#undef NVT_WN
#undef NVT_NJ
#undef NVT_BN
#undef NVS_SLAB_SOURCES
#undef NVT_SLAB_MMA
#undef NVT_MMA
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
#endif  // TESSERA_REAL_S
#endif  // TESSERA_NV_SM

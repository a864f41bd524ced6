// tessera_nvgemm_* in float: FP32 FMA (gemm_nv.cl describes the family and holds the shared
// helpers: block order, split k, the reduction).
#if defined(TESSERA_NV_SM) && TESSERA_NV_SM >= 80
#if defined(TESSERA_REAL_S)
// ===================================== float: FP32 FMA =====================================
// 16×16 work-items, each an 8×8 register tile: rows 4·tx + {0..3} and 64 + 4·tx + {0..3},
// columns 4·ty + {0..3} and 64 + 4·ty + {0..3}. Local slabs are k-major (X[k][r], row length
// 128 + 4) so that a work-item reads its 8 values of op(A) and op(B) per k as four float4.
// Two slab buffers, one barrier per slab: slab s + 1 travels by cp.async while slab s is
// multiplied. A source contiguous along r (A untransposed, B transposed) comes in 16-byte copies,
// a warp's 32 covering 128 rows of one k. B untransposed, contiguous along k, comes in 16-byte
// copies (4 k of one column) into a staging buffer that each work-item transposes into the k-major
// slab itself, by 8 scalar stores, just before the slab's barrier (TESSERA_NVS_STAGE). The 16-byte
// copies need the source's offset and leading dimension to be multiples of 4 (kernels without
// _u; the _u kernels take any and copy 4 bytes at a time, as does A transposed: a warp covers 8 k ×
// 4 rows). Every copy and store pattern meets 32 distinct banks; everything outside op(X) is
// zero-filled.
//
// TESSERA_NVS_MBAR=1 (a variant for sm_90, compiled offline only — clang: 121-127 registers for nn
// and nt — and not yet run on a GPU; bench/gpu_gemm.sh with VARIANTS_S measures it): the loop of gemm_nv_d_mbar.cl
// instead of the barrier per slab, TESSERA_NVS_MBAR_ST buffers, each with a `full` and an `empty`
// mbarrier, refilled LAG slabs late.

#ifndef TESSERA_NVS_BK
#define TESSERA_NVS_BK 16  // k per slab: 8 or 16
#endif
#ifndef TESSERA_NVS_WARP
#define TESSERA_NVS_WARP 1  // work-items of a warp: 0 = 16 (m) × 2 (n), 1 = 8 × 4 (fewer local-memory wavefronts)
#endif
#ifndef TESSERA_NVS_STAGE
#define TESSERA_NVS_STAGE 1  // B untransposed (vec kernels): 16-byte copies, transposed in local memory
#endif
#ifndef TESSERA_NVS_MBAR
#define TESSERA_NVS_MBAR 0  // 1 (sm_90, not yet run): slabs tracked by mbarriers, no barrier per slab
#endif
#ifndef TESSERA_NVS_MBAR_ST
#define TESSERA_NVS_MBAR_ST 3  // with MBAR: slab buffers
#endif
#ifndef TESSERA_NVS_MBAR_LAG
#define TESSERA_NVS_MBAR_LAG 1  // with MBAR: a buffer is refilled this many slabs after the one that read it
#endif
#if TESSERA_NVS_MBAR && defined(TESSERA_NV_EMULATE)
#error "TESSERA_NVS_MBAR is not emulated: PoCL 3.1 corrupts its heap running it (mbarrier waits as work-group barriers)"
#endif
#if TESSERA_NVS_MBAR
#define NVS_NBUF TESSERA_NVS_MBAR_ST         // slab buffers
#define NVS_RAW_SLOTS NVS_NBUF               // staging slots
#define NVS_MBAR_PARAMS , __local ulong* bars
#define NVS_MBAR_ARGS , bars
#define NVS_MBAR_DECL __local ulong bars[2 * NVS_NBUF];
#else
#define NVS_NBUF 2
#define NVS_RAW_SLOTS 1
#define NVS_MBAR_PARAMS
#define NVS_MBAR_ARGS
#define NVS_MBAR_DECL
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
#define NVS_OPAQUE(x) (x)
#else
// cp.async global → local of `bytes` (the rest zero-filled; src must still be a valid address).
#define NVS_CP4(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" \
                                                         :: "r"(NVG_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
#define NVS_CP16(dst, src, bytes) TESSERA_NV_ASM volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" \
                                                          :: "r"(NVG_LADDR(dst)), "l"(src), "r"(bytes) : "memory")
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

// Staging of a k-contiguous source (B untransposed): work-item lid owns the 16-byte chunks
// (row r = lid / 2, k = 4·(lid % 2 + 2·j)) of a 128×BK slab, copies them into raw[j][lid] and later
// stores them, transposed, into the k-major slab. A warp copies 16 rows × 32 bytes (whole sectors)
// and its stores of one k meet 32 distinct banks (two k four apart lie 16 banks apart). The
// work-item reads back only its own chunks, so reusing raw needs no barrier. (Chunks of 8 rows ×
// 64 bytes per warp, their stores kept off each other's banks by a swap of halves, ran 2-10 %
// slower: bench/gpu_task_shapes.md, session 13.)
#define NVS_CHUNKS (TESSERA_NVS_BK / 8)  // chunks per work-item per slab
#define NVS_STAGED(tb, vec) (TESSERA_NVS_STAGE && (vec) && !(tb))  // kernels whose B comes this way

static inline void nvs_stage_copy(__global const float* X, const int ld_, const int rows_left, const int k_left,
                                  __local float4* raw)
{
    const int lid = (int)get_local_id(0), ld = NVS_OPAQUE(ld_), r = lid >> 1;
#pragma unroll
    for (int j = 0; j < NVS_CHUNKS; ++j) {
        const int kq = 4 * ((lid & 1) + 2 * j), bytes = r < rows_left ? clamp(4 * (k_left - kq), 0, 16) : 0;
        NVS_CP16((__local float*)(raw + j * NVS_NT + lid), bytes > 0 ? X + kq + (long)r * ld : X, bytes);
    }
}

static inline void nvs_stage_store(__local const float4* raw, __local float* dst)
{
    const int lid = (int)get_local_id(0), r = lid >> 1;
#pragma unroll
    for (int j = 0; j < NVS_CHUNKS; ++j) {
        const float4 v = raw[j * NVS_NT + lid];
        __local float* d = dst + 4 * ((lid & 1) + 2 * j) * NVS_LD + r;
        d[0] = v.x, d[NVS_LD] = v.y, d[2 * NVS_LD] = v.z, d[3 * NVS_LD] = v.w;
    }
}

// Whether element (row, col) is one the product writes: inside the m×n C and, for tri, its triangle.
static inline int nvs_in_c(const int row, const int col, const int m, const int n, const int tri)
{
    return row < m && col < n && !((tri == 1 && row < col) || (tri == 2 && row > col));
}

// acc += this work-item's 8×8 share of the product of one k-major slab pair X[k][r] (row NVS_LD)
// at As_, Bs_ (a macro: the kernels sit at the 128-register edge, and a function here changed
// the compiled loop's order).
#define NVS_SLAB_FMA(As_, Bs_)                                                                     \
    do {                                                                                           \
        __local const float4* Ac = (__local const float4*)(As_);                                   \
        __local const float4* Bc = (__local const float4*)(Bs_);                                   \
        _Pragma("unroll") for (int kk = 0; kk < TESSERA_NVS_BK; ++kk) {                            \
            const float4 a0 = Ac[kk * (NVS_LD / 4) + tx], a1 = Ac[kk * (NVS_LD / 4) + 16 + tx];    \
            const float4 b0 = Bc[kk * (NVS_LD / 4) + ty], b1 = Bc[kk * (NVS_LD / 4) + 16 + ty];    \
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};                   \
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};                   \
            _Pragma("unroll") for (int r = 0; r < 8; ++r)                                          \
            _Pragma("unroll") for (int c = 0; c < 8; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);  \
        }                                                                                          \
    } while (0)

// The slab loops' locals, declared in a body with transA, transB, vec, alpha, k, A, lda, B, ldb and
// the block's i0, j0: where op(A)'s and op(B)'s slabs start and step, the staged B, the slab count.
#define NVS_SLAB_SOURCES                                                                           \
    const int a_rc = !transA, b_rc = transB, stage = NVS_STAGED(transB, vec);                     \
    __global const float* Ap = A + (a_rc ? i0 : (long)i0 * lda);                                  \
    __global const float* Bp = B + (b_rc ? j0 : (long)j0 * ldb);                                  \
    const long a_step = a_rc ? (long)TESSERA_NVS_BK * lda : TESSERA_NVS_BK;                       \
    const long b_step = b_rc ? (long)TESSERA_NVS_BK * ldb : TESSERA_NVS_BK;                       \
    const int nslab = (alpha == 0.0f) ? 0 : (k + TESSERA_NVS_BK - 1) / TESSERA_NVS_BK

// The slab loop without mbarriers, shared with gemm_nv_tf32.cl: two slab buffers, one barrier per
// slab, slab s + 1's copies issued before slab s is multiplied by PRODUCT(As_, Bs_) (a macro; the
// body's locals: nslab, the copy sources and steps, stage, raw, As, Bs).
#define NVS_SLAB_LOOP(PRODUCT)                                                                     \
    do {                                                                                           \
        if (nslab > 0) {                                                                           \
            nvs_copy_slab(a_rc, vec, Ap, lda, m - i0, k, As);                                      \
            if (stage) nvs_stage_copy(Bp, ldb, n - j0, k, raw);                                    \
            else nvs_copy_slab(b_rc, vec, Bp, ldb, n - j0, k, Bs);                                 \
        }                                                                                          \
        for (int s = 0; s < nslab; ++s) {                                                          \
            NVG_CP_COMMIT();                                                                       \
            NVG_CP_WAIT(0);                /* this work-item's copies of slab s have landed */     \
            if (stage) nvs_stage_store(raw, Bs + (s & 1) * NVS_SLAB); /* last read in slab s − 2 */ \
            barrier(CLK_LOCAL_MEM_FENCE);  /* everyone's have, and slab s − 1's buffer is free */  \
            if (s + 1 < nslab) {                                                                   \
                const int kb = (s + 1) * TESSERA_NVS_BK, next = ((s + 1) & 1) * NVS_SLAB;          \
                nvs_copy_slab(a_rc, vec, Ap + (s + 1) * a_step, lda, m - i0, k - kb, As + next);   \
                if (stage) nvs_stage_copy(Bp + (s + 1) * b_step, ldb, n - j0, k - kb, raw);        \
                else nvs_copy_slab(b_rc, vec, Bp + (s + 1) * b_step, ldb, n - j0, k - kb, Bs + next); \
            }                                                                                      \
            PRODUCT(As + (s & 1) * NVS_SLAB, Bs + (s & 1) * NVS_SLAB);                             \
        }                                                                                          \
    } while (0)

static inline void nvs_gemm_body(const int transA, const int transB, const int vec, const int m, const int n,
                                 const int k, const float alpha, __global const float* A, const int lda,
                                 __global const float* B, const int ldb, const float beta,
                                 __global float* C, const int ldc, const int tri,
                                 __local float* As, __local float* Bs, __local float4* raw NVS_MBAR_PARAMS)
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

    NVS_SLAB_SOURCES;

#if TESSERA_NVS_MBAR
    // Each of the NBUF slab buffers has a `full` mbarrier (256 arrivals: every work-item's copies as
    // they land, or, for a staged B, every work-item once it has stored its transposed chunks) and
    // an `empty` one (every work-item once it has multiplied the slab); a work-item refills buffer
    // (s − LAG) mod NBUF after slab s, once `empty` says everyone is done with it. Staged kernels
    // commit one cp.async group per slab (empty ones included), so slab s has landed for this
    // work-item once at most NBUF − LAG − 1 groups are pending.
    __local ulong* full = bars;
    __local ulong* empty = bars + NVS_NBUF;
    if (lid == 0) {
        for (int b = 0; b < NVS_NBUF; ++b) {
            NVG_MBAR_INIT(full + b, NVS_NT);
            NVG_MBAR_INIT(empty + b, NVS_NT);
        }
        NVG_MBAR_INIT_FENCE();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#define NVS_ISSUE(sl)                                                                              \
    do {                                                                                           \
        const int b_ = (sl) % NVS_NBUF, kb_ = (sl) * TESSERA_NVS_BK;                               \
        nvs_copy_slab(a_rc, vec, Ap + (sl) * a_step, lda, m - i0, k - kb_, As + b_ * NVS_SLAB);    \
        if (stage) {                                                                               \
            nvs_stage_copy(Bp + (sl) * b_step, ldb, n - j0, k - kb_, raw + b_ * NVS_CHUNKS * NVS_NT); \
            NVG_CP_COMMIT();                                                                       \
        } else {                                                                                   \
            nvs_copy_slab(b_rc, vec, Bp + (sl) * b_step, ldb, n - j0, k - kb_, Bs + b_ * NVS_SLAB); \
            NVG_CP_ARRIVE(full + b_);                                                              \
        }                                                                                          \
    } while (0)
    for (int s = 0; s < NVS_NBUF; ++s) {
        if (s < nslab) NVS_ISSUE(s);
        else if (stage) NVG_CP_COMMIT();
    }
    for (int s = 0; s < nslab; ++s) {
        const int b = s % NVS_NBUF;
        if (stage) {
            NVG_CP_WAITN(NVS_NBUF - TESSERA_NVS_MBAR_LAG - 1);
            nvs_stage_store(raw + b * NVS_CHUNKS * NVS_NT, Bs + b * NVS_SLAB);
            NVG_MBAR_ARRIVE(full + b);
        }
        nvg_mbar_wait(full + b, (s / NVS_NBUF) & 1);
        NVS_SLAB_FMA(As + b * NVS_SLAB, Bs + b * NVS_SLAB);
        NVG_MBAR_ARRIVE(empty + b);
        const int r = s - TESSERA_NVS_MBAR_LAG;
        if (r >= 0 && r + NVS_NBUF < nslab) {
            nvg_mbar_wait(empty + r % NVS_NBUF, (r / NVS_NBUF) & 1);
            NVS_ISSUE(r + NVS_NBUF);
        } else if (stage) {
            NVG_CP_COMMIT();
        }
    }
#undef NVS_ISSUE
#else
    NVS_SLAB_LOOP(NVS_SLAB_FMA);
#endif

    // Epilogue, a column of 8 at a time: its values of C all loaded before any is stored (stores
    // in between would hold each load back behind the one before: the compiler cannot tell the
    // addresses apart). C is not read when beta = 0.
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        const int col = j0 + 4 * ty + (c & 3) + 64 * (c >> 2);
        if (col >= n) continue;
        __global float* Cc = C + (long)col * ldc;
        float old[8];
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = i0 + 4 * tx + (r & 3) + 64 * (r >> 2);
            old[r] = (beta != 0.0f && nvs_in_c(row, col, m, n, tri)) ? Cc[row] : 0.0f;
        }
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = i0 + 4 * tx + (r & 3) + 64 * (r >> 2);
            if (!nvs_in_c(row, col, m, n, tri)) continue;
            const float v = alpha * acc[r][c];
            Cc[row] = (beta == 0.0f) ? v : fma(beta, old[r], v);
        }
    }
}

// tessera_nvgemm_XY[_u]: no split k; tessera_nvgemm_XY[_u]_split: the same with nvg_split_k, for
// the launcher's split products only. A float kernel of at most 128 registers runs two work-groups
// per SM, and these sit at that edge: the split's few instructions took some of them to 129-139
// registers and 27 instead of 41 TFLOP/s, and which ones changed with every small edit
// (bench/gpu_task_shapes.md, session 9). Split products are small, where the split gains more
// than a kernel over the edge loses.
// The kernel's body function, slab buffers, staging slots, local declarations and their arguments:
// gemm_nv_tf32.cl redefines them and instantiates NVS_KERNELS(_tf32).
#define NVS_K_BODY nvs_gemm_body
#define NVS_K_NBUF NVS_NBUF
#define NVS_K_SLOTS NVS_RAW_SLOTS
#define NVS_K_DECL NVS_MBAR_DECL
#define NVS_K_ARGS NVS_MBAR_ARGS
#define NVS_K_BUFS(tb, vec) NVS_K_NBUF  // slab buffers of the kernel of this B form
#define NVS_KERNEL(name, ta, tb, vec, split)                                                      \
    __kernel __attribute__((reqd_work_group_size(NVS_NT, 1, 1)))                                 \
    void name(const int m, const int n, const int k, const float alpha,                           \
              __global const float* A, const ulong offA, const int lda,                           \
              __global const float* B, const ulong offB, const int ldb, const float beta,         \
              __global float* C, const ulong offC, const int ldc, const int tri)                  \
    {                                                                                             \
        __local float4 As4[NVS_K_BUFS(tb, vec) * NVS_SLAB / 4];                                   \
        __local float4 Bs4[NVS_K_BUFS(tb, vec) * NVS_SLAB / 4];                                   \
        __local float4 raw[NVS_STAGED(tb, vec) ? NVS_K_SLOTS * NVS_CHUNKS * NVS_NT : 1];           \
        NVS_K_DECL                                                                                \
        NVG_SPLIT_ARGS(ta, tb, split);                                                            \
        NVS_K_BODY(ta, tb, vec, m, n, k_, alpha, A + oA_, lda, B + oB_, ldb, beta, C + oC_,       \
                   ldc, tri, (__local float*)As4, (__local float*)Bs4, raw NVS_K_ARGS);           \
    }
// The sixteen kernels, their names ending in S.
#define NVS_KERNELS(S)                                    \
    NVS_KERNEL(tessera_nvgemm_nn##S, 0, 0, 1, 0)          \
    NVS_KERNEL(tessera_nvgemm_nt##S, 0, 1, 1, 0)          \
    NVS_KERNEL(tessera_nvgemm_tn##S, 1, 0, 1, 0)          \
    NVS_KERNEL(tessera_nvgemm_tt##S, 1, 1, 1, 0)          \
    NVS_KERNEL(tessera_nvgemm_nn_u##S, 0, 0, 0, 0)        \
    NVS_KERNEL(tessera_nvgemm_nt_u##S, 0, 1, 0, 0)        \
    NVS_KERNEL(tessera_nvgemm_tn_u##S, 1, 0, 0, 0)        \
    NVS_KERNEL(tessera_nvgemm_tt_u##S, 1, 1, 0, 0)        \
    NVS_KERNEL(tessera_nvgemm_nn_split##S, 0, 0, 1, 1)    \
    NVS_KERNEL(tessera_nvgemm_nt_split##S, 0, 1, 1, 1)    \
    NVS_KERNEL(tessera_nvgemm_tn_split##S, 1, 0, 1, 1)    \
    NVS_KERNEL(tessera_nvgemm_tt_split##S, 1, 1, 1, 1)    \
    NVS_KERNEL(tessera_nvgemm_nn_u_split##S, 0, 0, 0, 1)  \
    NVS_KERNEL(tessera_nvgemm_nt_u_split##S, 0, 1, 0, 1)  \
    NVS_KERNEL(tessera_nvgemm_tn_u_split##S, 1, 0, 0, 1)  \
    NVS_KERNEL(tessera_nvgemm_tt_u_split##S, 1, 1, 0, 1)
NVS_KERNELS()

// Internal helpers end here; the slab helpers, shapes, NVS_SLAB_LOOP and NVS_KERNELS stay for
// gemm_nv_tf32.cl, which follows in the program and undefines them.
#undef NVS_SLAB_FMA
#undef NVS_NBUF
#undef NVS_RAW_SLOTS
#undef NVS_MBAR_PARAMS
#undef NVS_MBAR_ARGS
#undef NVS_MBAR_DECL
#endif  // TESSERA_REAL_S
#endif  // TESSERA_NV_SM

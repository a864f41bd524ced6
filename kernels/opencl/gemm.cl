// tessera_gemm: C = alpha·op(A)·op(B) + beta·C on column-major tiles (BLAS xGEMM), also serving
// xSYRK and xHERK through the `tri` mask (only the lower or upper triangle of C is written).
//
// Each work-group computes one GEMM_MB × GEMM_NB block of C. Per step of GEMM_KB along k, the
// work-group stages op(A)(block rows, k-slice) and op(B)(k-slice, block columns) in local memory
// (loads coalesced along whichever index is contiguous in global memory, out-of-range elements
// padded with 0), then each work-item accumulates a GEMM_TM × GEMM_TN register tile whose rows
// are strided by the work-group's x size (and columns by its y size), so that both the local
// reads and the final global writes of C are contiguous across neighbouring work-items.
//
// Launch (see launch.cpp): local size (GEMM_MB/GEMM_TM, GEMM_NB/GEMM_TN), global size
// (ceil(m/GEMM_MB)·lx, ceil(n/GEMM_NB)·ly). The launcher reads the same TESSERA_GEMM_* macros
// from build_options(), so override them only there.

#ifndef TESSERA_GEMM_MB
#define TESSERA_GEMM_MB 64  // rows of C per work-group
#endif
#ifndef TESSERA_GEMM_NB
#define TESSERA_GEMM_NB 64  // columns of C per work-group
#endif
#ifndef TESSERA_GEMM_KB
#define TESSERA_GEMM_KB 16  // k-slice staged in local memory per step
#endif
#ifndef TESSERA_GEMM_TM
#define TESSERA_GEMM_TM 4   // rows of the register tile of one work-item
#endif
#ifndef TESSERA_GEMM_TN
#define TESSERA_GEMM_TN 4   // columns of the register tile of one work-item
#endif

#if TESSERA_GEMM_MB % TESSERA_GEMM_TM != 0 || TESSERA_GEMM_NB % TESSERA_GEMM_TN != 0
#error "TESSERA_GEMM_MB (NB) must be a multiple of TESSERA_GEMM_TM (TN)"
#endif

#define GEMM_LX (TESSERA_GEMM_MB / TESSERA_GEMM_TM)
#define GEMM_LY (TESSERA_GEMM_NB / TESSERA_GEMM_TN)
#define GEMM_NT (GEMM_LX * GEMM_LY)

// transA, transB: 0 = op(X) = X, 1 = op(X) = Xᵀ, 2 = op(X) = Xᴴ (= Xᵀ in real precisions).
// tri & 3: 0 = all of C, 1 = lower triangle only (i >= j), 2 = upper triangle only (i <= j);
// tri & 4: Hermitian (xHERK): the imaginary parts of C's diagonal are not read (taken as 0) and
// are set to 0.
// Offsets are in elements. When beta == 0, C is overwritten (never read); when alpha == 0 (or
// k == 0), A and B are not read.
__kernel __attribute__((reqd_work_group_size(GEMM_LX, GEMM_LY, 1)))
void tessera_gemm(const int m, const int n, const int k, const int transA, const int transB,
                  const scalar_t alpha,
                  __global const scalar_t* A, const ulong offA, const int lda,
                  __global const scalar_t* B, const ulong offB, const int ldb,
                  const scalar_t beta,
                  __global scalar_t* C, const ulong offC, const int ldc,
                  const int tri_flags)
{
    const int tx = (int)get_local_id(0);
    const int ty = (int)get_local_id(1);
    const int tid = ty * GEMM_LX + tx;
    const int i0 = (int)get_group_id(0) * TESSERA_GEMM_MB;
    const int j0 = (int)get_group_id(1) * TESSERA_GEMM_NB;
    const int tri = tri_flags & 3;

    // Blocks wholly outside the written triangle have nothing to do. The test is uniform over
    // the work-group, so returning before any barrier is legal.
    if (tri == 1 && i0 + TESSERA_GEMM_MB - 1 < j0) return;
    if (tri == 2 && j0 + TESSERA_GEMM_NB - 1 < i0) return;

    A += offA;
    B += offB;
    C += offC;

    // +1 padding: the transposed-load patterns write along the first index.
    __local scalar_t As[TESSERA_GEMM_KB][TESSERA_GEMM_MB + 1];
    __local scalar_t Bs[TESSERA_GEMM_KB][TESSERA_GEMM_NB + 1];

    scalar_t acc[TESSERA_GEMM_TM][TESSERA_GEMM_TN];
TESSERA_UNROLL
    for (int r = 0; r < TESSERA_GEMM_TM; ++r)
TESSERA_UNROLL
        for (int c = 0; c < TESSERA_GEMM_TN; ++c) acc[r][c] = S_ZERO;

    if (!S_IS_ZERO(alpha)) {
        for (int k0 = 0; k0 < k; k0 += TESSERA_GEMM_KB) {
            // op(A)(i0 + ii, k0 + kk) -> As[kk][ii]
            for (int e = tid; e < TESSERA_GEMM_MB * TESSERA_GEMM_KB; e += GEMM_NT) {
                int ii, kk;
                if (transA) { kk = e % TESSERA_GEMM_KB; ii = e / TESSERA_GEMM_KB; }
                else        { ii = e % TESSERA_GEMM_MB; kk = e / TESSERA_GEMM_MB; }
                const int gi = i0 + ii, gk = k0 + kk;
                scalar_t v = S_ZERO;
                if (gi < m && gk < k)
                    v = transA ? A[gk + (long)gi * lda] : A[gi + (long)gk * lda];
                if (transA == 2) v = S_CONJ(v);
                As[kk][ii] = v;
            }
            // op(B)(k0 + kk, j0 + jj) -> Bs[kk][jj]
            for (int e = tid; e < TESSERA_GEMM_NB * TESSERA_GEMM_KB; e += GEMM_NT) {
                int jj, kk;
                if (transB) { jj = e % TESSERA_GEMM_NB; kk = e / TESSERA_GEMM_NB; }
                else        { kk = e % TESSERA_GEMM_KB; jj = e / TESSERA_GEMM_KB; }
                const int gj = j0 + jj, gk = k0 + kk;
                scalar_t v = S_ZERO;
                if (gj < n && gk < k)
                    v = transB ? B[gj + (long)gk * ldb] : B[gk + (long)gj * ldb];
                if (transB == 2) v = S_CONJ(v);
                Bs[kk][jj] = v;
            }
            barrier(CLK_LOCAL_MEM_FENCE);

TESSERA_UNROLL
            for (int kk = 0; kk < TESSERA_GEMM_KB; ++kk) {
                scalar_t a[TESSERA_GEMM_TM], b[TESSERA_GEMM_TN];
TESSERA_UNROLL
                for (int r = 0; r < TESSERA_GEMM_TM; ++r) a[r] = As[kk][tx + r * GEMM_LX];
TESSERA_UNROLL
                for (int c = 0; c < TESSERA_GEMM_TN; ++c) b[c] = Bs[kk][ty + c * GEMM_LY];
TESSERA_UNROLL
                for (int r = 0; r < TESSERA_GEMM_TM; ++r)
TESSERA_UNROLL
                    for (int c = 0; c < TESSERA_GEMM_TN; ++c) acc[r][c] = S_FMA(a[r], b[c], acc[r][c]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

TESSERA_UNROLL
    for (int c = 0; c < TESSERA_GEMM_TN; ++c) {
        const int j = j0 + ty + c * GEMM_LY;
        if (j >= n) continue;
TESSERA_UNROLL
        for (int r = 0; r < TESSERA_GEMM_TM; ++r) {
            const int i = i0 + tx + r * GEMM_LX;
            if (i >= m) continue;
            if ((tri == 1 && i < j) || (tri == 2 && i > j)) continue;
            const long idx = i + (long)j * ldc;
            scalar_t v = S_MUL(alpha, acc[r][c]);
            if (!S_IS_ZERO(beta)) {
                scalar_t c0 = C[idx];
#ifdef TESSERA_COMPLEX
                if ((tri_flags & 4) && i == j) c0.y = (real_t)0;  // xHERK: not read, taken as 0
#endif
                v = S_FMA(beta, c0, v);
            }
#ifdef TESSERA_COMPLEX
            if ((tri_flags & 4) && i == j) v.y = (real_t)0;
#endif
            C[idx] = v;
        }
    }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef GEMM_LX
#undef GEMM_LY
#undef GEMM_NT

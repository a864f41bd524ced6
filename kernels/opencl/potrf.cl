// tessera_potrf: Cholesky factorization of one diagonal block of at most TESSERA_POTRF_BS
// columns (LAPACK xPOTF2 semantics), and optionally the inverse of its factor. The launcher
// (launch_potrf.cpp) factors a larger tile recursively, with this kernel on the leaves and GEMMs
// everywhere else; the inverses of the leaves make its triangular solves GEMMs.
//
// Lower: A = L·Lᴴ, L overwrites the lower triangle. Upper: A = Uᴴ·U, U overwrites the upper
// triangle; with L = Uᴴ both are the same algorithm on L(r,c) = A[r·si + c·sp] (conjugated when
// Upper). The other triangle is neither read nor written; the diagonal's imaginary parts are
// not read (LAPACK's xPOTRF for complex Hermitian matrices). Real precisions: ᴴ is ᵀ.
//
// One work-group of TESSERA_POTRF_WG work-items, arranged POTRF_PX (32, along rows r) by
// POTRF_PY (along columns k), holds the whole block in registers: work-item (tx, ty) owns the
// elements (r, k) = (tx + a·PX, ty + b·PY), a < NR, b < NK. Local memory holds only the column
// or row being broadcast (double-buffered, so one barrier per step), which lets a block of 128
// columns (1024 work-items × 16 registers) be factored by one launch within 48 KB of local memory.
// Factorization, right-looking: at step j the owners of column j have published it (unscaled);
// every work-item updates its elements, S(r,k) −= S(r,j)·conj(S(k,j))/d_j for j < k ≤ r, and the
// owners of column j+1 publish it. Columns are scaled at the end, L(j,j) = √d_j and L(r,j) =
// S(r,j)/√d_j. At the first pivot d_j that is not > 0 (NaN included) it stops: that column and
// the ones after it are left as they were in global memory.
//
// With `invert` (and no failure) it then overwrites L in the registers by X = L⁻¹ (xTRTI2's
// forward substitution, right-looking by rows: X(i,:) = B(i,:)/L(i,i) with B = I, then B(r,p) −=
// L(r,i)·X(i,p) for r > i, p ≤ i; slot (r,p) holds B(r,p) for p < i and still L(r,p) for p ≥ i,
// so row i of X and column i of L are published at step i) and writes all n×n of X to W, zeros
// in the other triangle, in A's orientation (X(r,c) = W[r·swi + c·swp], conjugated when Upper:
// Upper gives U⁻¹ = Xᴴ).
//
// info[0] protocol for a block whose first column is col0 in the whole tile: when col0 > 0 and
// info[0] is already nonzero (an earlier block failed), the kernel does nothing; otherwise it
// writes info[0] = 0, or col0 + the 1-based column of the first failing pivot.
//
// Launch: one work-group, local = global = TESSERA_POTRF_WG; n ≤ TESSERA_POTRF_BS.

#ifndef TESSERA_POTRF_BS
#define TESSERA_POTRF_BS 32  // largest block factored by one launch
#endif
#ifndef TESSERA_POTRF_WG
#define TESSERA_POTRF_WG 256  // work-items (a multiple of 32, or a power of two below 32)
#endif

#define POTRF_PX (TESSERA_POTRF_WG < 32 ? TESSERA_POTRF_WG : 32)  // work-items along r
#define POTRF_PY (TESSERA_POTRF_WG / POTRF_PX)                     // work-items along k
#if POTRF_PX * POTRF_PY != TESSERA_POTRF_WG
#error "TESSERA_POTRF_WG must be a multiple of 32 or a power of two"
#endif
#define POTRF_NR ((TESSERA_POTRF_BS + POTRF_PX - 1) / POTRF_PX)  // rows owned per work-item
#define POTRF_NK ((TESSERA_POTRF_BS + POTRF_PY - 1) / POTRF_PY)  // columns owned per work-item

__kernel __attribute__((reqd_work_group_size(TESSERA_POTRF_WG, 1, 1)))
void tessera_potrf(const int n, const int lower, __global scalar_t* A, const ulong offA, const int lda,
                   __global int* info, const int col0, const int invert, __global scalar_t* W, const ulong offW,
                   const int ldw)
{
    // Both tests are uniform over the work-group: every work-item reads the same values.
    if (n > TESSERA_POTRF_BS) {  // never launched so (launch.cpp blocks larger tiles): flag it
        if (get_local_id(0) == 0) info[0] = -1;
        return;
    }
    if (col0 > 0 && info[0] != 0) return;

    const int lid = (int)get_local_id(0);
    const int tx = lid % POTRF_PX, ty = lid / POTRF_PX;
    const long si = lower ? 1 : lda;  // L(r,c) = A[r·si + c·sp]
    const long sp = lower ? lda : 1;
    A += offA;

    __local scalar_t col[2][TESSERA_POTRF_BS];  // column j of the trailing matrix (buffer j & 1)
    __local scalar_t row[2][TESSERA_POTRF_BS];  // row i of X (buffer i & 1)
    __local real_t piv[TESSERA_POTRF_BS];      // √d_j
    __local real_t ipiv[TESSERA_POTRF_BS];     // 1/√d_j

    // The lower triangle into registers (coalesced along r when lower); column 0 published.
    scalar_t reg[POTRF_NK][POTRF_NR];
#pragma unroll
    for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
            const scalar_t v = (k <= r && r < n) ? A[r * si + k * sp] : S_ZERO;
            reg[b][a] = lower ? v : S_CONJ(v);
            if (k == 0 && r < n) col[0][r] = reg[b][a];
        }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // also: all have read info[0]

    int failed = 0;
    for (int j = 0; j < n; ++j) {
        __local const scalar_t* cj = col[j & 1];
        const real_t djj = S_REAL(cj[j]);  // the same in every work-item
        if (!(djj > (real_t)0)) {
            failed = j + 1;
            break;
        }
        const real_t inv = (real_t)1 / djj;
        if (lid == 0) {
            piv[j] = sqrt(djj);
            ipiv[j] = (real_t)1 / piv[j];
        }
        scalar_t lr[POTRF_NR];
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX;
            lr[a] = (r > j && r < n) ? cj[r] : S_ZERO;
        }
        __local scalar_t* next = col[(j + 1) & 1];
#pragma unroll
        for (int b = 0; b < POTRF_NK; ++b) {
            const int k = ty + b * POTRF_PY;
            if (k > j && k < n) {
                const scalar_t f = S_CONJ(cj[k]) * inv;
#pragma unroll
                for (int a = 0; a < POTRF_NR; ++a)
                    if (tx + a * POTRF_PX >= k) reg[b][a] -= S_MUL(lr[a], f);
                if (k == j + 1)  // publish column j+1 (final now) for the next step
#pragma unroll
                    for (int a = 0; a < POTRF_NR; ++a) {
                        const int r = tx + a * POTRF_PX;
                        if (r >= k && r < n) next[r] = reg[b][a];
                    }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Scale and write back the factored columns (all of them, or those before the failing one).
    const int ncols = failed ? failed - 1 : n;
#pragma unroll
    for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
            if (k < ncols && k <= r && r < n) {
                reg[b][a] = r == k ? S_FROM_REAL(piv[k]) : reg[b][a] * ipiv[k];
                A[r * si + k * sp] = lower ? reg[b][a] : S_CONJ(reg[b][a]);
            }
        }
    if (lid == 0) info[0] = failed ? col0 + failed : 0;
    if (!invert || failed) return;  // both uniform

    // X = L⁻¹ in place. At step i the owners of row i turn it into X(i,:) and publish it, the
    // owners of column i publish L(·,i) (reusing col[]), and every slot (r, p ≤ i), r > i, is updated.
    for (int i = 0; i < n; ++i) {
        __local scalar_t* xi = row[i & 1];
        __local scalar_t* li = col[i & 1];
        const real_t di = ipiv[i];
#pragma unroll
        for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
            for (int a = 0; a < POTRF_NR; ++a) {
                const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
                if (r == i && k <= i) {
                    reg[b][a] = k == i ? S_FROM_REAL(di) : reg[b][a] * di;
                    xi[k] = reg[b][a];
                }
                if (k == i && r > i && r < n) li[r] = reg[b][a];
            }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX;
            if (r > i && r < n) {
                const scalar_t l = li[r];
#pragma unroll
                for (int b = 0; b < POTRF_NK; ++b) {
                    const int k = ty + b * POTRF_PY;
                    if (k < i) reg[b][a] -= S_MUL(l, xi[k]);
                    else if (k == i) reg[b][a] = -S_MUL(l, xi[k]);
                }
            }
        }
    }
    const long swi = lower ? 1 : ldw, swp = lower ? ldw : 1;
    W += offW;
#pragma unroll
    for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX, k = ty + b * POTRF_PY;
            if (r < n && k < n) W[r * swi + k * swp] = lower ? reg[b][a] : S_CONJ(reg[b][a]);
        }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef POTRF_PX
#undef POTRF_PY
#undef POTRF_NR
#undef POTRF_NK

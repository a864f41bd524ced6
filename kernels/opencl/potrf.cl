// tessera_potrf: Cholesky factorization of one diagonal block of at most TESSERA_POTRF_BS
// columns, in local memory (LAPACK xPOTF2 semantics), and optionally the inverse of its factor.
// The launcher (launch_potrf.cpp) factors a larger tile recursively, with this kernel on the
// leaves and GEMMs everywhere else; the inverses of the leaves make its triangular solves GEMMs.
//
// Lower: A = L·Lᵀ, L overwrites the lower triangle. Upper: A = Uᵀ·U, U overwrites the upper
// triangle; with L = Uᵀ both are the same algorithm on L(r,c) = A[r·si + c·sp]. The other
// triangle is neither read nor written.
//
// One work-group of TESSERA_POTRF_WG work-items, arranged POTRF_PX (32, along rows r) by
// POTRF_PY (along columns k), factors the block right-looking with the trailing matrix held in
// registers: work-item (tx, ty) owns the elements (r, k) = (tx + a·PX, ty + b·PY) of the lower
// triangle. At step j, column j is read from local memory (S[c][r] = L(r,c), padded), each
// work-item updates its elements, S(r,k) −= S(r,j)·S(k,j)/d_j for j < k ≤ r, and the owners of
// column j+1 publish it to local memory for the next step: one barrier per column. Columns are
// scaled only at write-back, L(j,j) = √d_j and L(r,j) = S(r,j)/√d_j. Loads and stores go through
// local memory, coalesced along whichever index is contiguous. At the first pivot d_j that is
// not > 0 (NaN included) it stops: that column and the ones after it are left as they were in
// global memory.
//
// With `invert` (and no failure) it then writes X = L⁻¹ to W (X(r,c) = W[r·swi + c·swp], the
// same orientation as A: Upper gives U⁻¹ = Xᵀ), all n×n of it, zeros in the other triangle. X is
// the solution of L·X = I by rows, right-looking in the same register layout: X(i,:) =
// B(i,:)/L(i,i), published through local memory, then B(r,:) −= L(r,i)·X(i,:) for r > i; one
// barrier per row (the published row is double-buffered).
//
// info[0] protocol for a block whose first column is col0 in the whole tile: when col0 > 0 and
// info[0] is already nonzero (an earlier block failed), the kernel does nothing; otherwise it
// writes info[0] = 0, or col0 + the 1-based column of the first failing pivot.
//
// Launch: one work-group, local = global = TESSERA_POTRF_WG; n ≤ TESSERA_POTRF_BS.

#ifndef TESSERA_POTRF_BS
#define TESSERA_POTRF_BS 32  // largest block factored by one launch (local memory BS·(BS+1) reals)
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
void tessera_potrf(const int n, const int lower, __global real_t* A, const ulong offA, const int lda,
                   __global int* info, const int col0, const int invert, __global real_t* W, const ulong offW,
                   const int ldw)
{
    // Both tests are uniform over the work-group: every work-item reads the same values.
    if (n > TESSERA_POTRF_BS) {  // never launched so (launch.cpp blocks larger tiles): flag it
        if (get_local_id(0) == 0) info[0] = -1;
        return;
    }
    if (col0 > 0 && info[0] != 0) return;

    const int lid = (int)get_local_id(0);
    const long si = lower ? 1 : lda;  // L(r,c) = A[r·si + c·sp]
    const long sp = lower ? lda : 1;
    A += offA;

    __local real_t S[TESSERA_POTRF_BS][TESSERA_POTRF_BS + 1];
    __local real_t piv[TESSERA_POTRF_BS];   // √d_j
    __local real_t ipiv[TESSERA_POTRF_BS];  // 1/√d_j
    __local real_t xrow[2][TESSERA_POTRF_BS];  // the row of X published at step i (buffer i & 1)

    // Load the lower triangle of L, coalesced along whichever index is contiguous.
    for (int e = lid; e < n * n; e += TESSERA_POTRF_WG) {
        int r, c;
        if (lower) { r = e % n; c = e / n; }
        else       { c = e % n; r = e / n; }
        if (r >= c) S[c][r] = A[r * si + c * sp];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // also: all have read info[0]

    const int tx = lid % POTRF_PX, ty = lid / POTRF_PX;
    real_t reg[POTRF_NK][POTRF_NR];
#pragma unroll
    for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
            reg[b][a] = (k <= r && r < n) ? S[k][r] : (real_t)0;
        }

    int failed = 0;
    for (int j = 0; j < n; ++j) {
        const real_t djj = S[j][j];  // published before the last barrier; the same in every work-item
        if (!(djj > (real_t)0)) {
            failed = j + 1;
            break;
        }
        const real_t inv = (real_t)1 / djj;
        if (lid == 0) {
            piv[j] = sqrt(djj);
            ipiv[j] = (real_t)1 / piv[j];
        }
        real_t lr[POTRF_NR];
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX;
            lr[a] = (r > j && r < n) ? S[j][r] : (real_t)0;
        }
#pragma unroll
        for (int b = 0; b < POTRF_NK; ++b) {
            const int k = ty + b * POTRF_PY;
            if (k > j && k < n) {
                const real_t f = S[j][k] * inv;
#pragma unroll
                for (int a = 0; a < POTRF_NR; ++a)
                    if (tx + a * POTRF_PX >= k) reg[b][a] -= lr[a] * f;
            }
        }
        // Publish column j+1 (final now) for the next step.
#pragma unroll
        for (int b = 0; b < POTRF_NK; ++b)
            if (ty + b * POTRF_PY == j + 1) {
#pragma unroll
                for (int a = 0; a < POTRF_NR; ++a) {
                    const int r = tx + a * POTRF_PX;
                    if (r > j && r < n) S[j + 1][r] = reg[b][a];
                }
            }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Write back the factored columns (all of them, or those before the failing one).
    const int ncols = failed ? failed - 1 : n;
    for (int e = lid; e < n * ncols; e += TESSERA_POTRF_WG) {
        int r, c;
        if (lower) { r = e % n; c = e / n; }
        else       { c = e % ncols; r = e / ncols; }
        if (r > c) A[r * si + c * sp] = S[c][r] / piv[c];
        else if (r == c) A[r * si + c * sp] = piv[c];
    }
    if (lid == 0) info[0] = failed ? col0 + failed : 0;
    if (!invert || failed) return;  // both uniform

    // X = L⁻¹, row by row; reg[b][a] holds B(r, p), r = tx + a·PX, p = ty + b·PY, first I.
#pragma unroll
    for (int b = 0; b < POTRF_NK; ++b)
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) reg[b][a] = (tx + a * POTRF_PX == ty + b * POTRF_PY) ? (real_t)1 : (real_t)0;
    for (int i = 0; i < n; ++i) {
        const real_t di = ipiv[i];
        __local real_t* x = xrow[i & 1];
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a)
            if (tx + a * POTRF_PX == i) {  // the owners of row i finish it and publish it
#pragma unroll
                for (int b = 0; b < POTRF_NK; ++b) {
                    const int p = ty + b * POTRF_PY;
                    reg[b][a] *= di;
                    if (p < TESSERA_POTRF_BS) x[p] = reg[b][a];
                }
            }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX;
            if (r > i && r < n) {
                const real_t l = S[i][r] * di;  // L(r, i)
#pragma unroll
                for (int b = 0; b < POTRF_NK; ++b) {
                    const int p = ty + b * POTRF_PY;
                    if (p <= i) reg[b][a] -= l * x[p];
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
            const int r = tx + a * POTRF_PX, p = ty + b * POTRF_PY;
            if (r < n && p < n) W[r * swi + p * swp] = reg[b][a];
        }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef POTRF_PX
#undef POTRF_PY
#undef POTRF_NR
#undef POTRF_NK

// tessera_potrf: Cholesky factorization of one diagonal block of at most TESSERA_POTRF_BS
// columns, in local memory (LAPACK xPOTF2 semantics). The launcher (launch.cpp) factors a tile
// larger than that with a blocked right-looking Cholesky: this kernel on each diagonal block,
// then tessera_trsm/tessera_gemm for the panel and the trailing update.
//
// Lower: A = L·Lᵀ, L overwrites the lower triangle. Upper: A = Uᵀ·U, U overwrites the upper
// triangle; with L = Uᵀ both are the same algorithm on L(r,c) = A[r·si + c·sp]. The other
// triangle is neither read nor written.
//
// One work-group of TESSERA_POTRF_WG work-items loads the lower triangle of the block into
// local memory (S[c][r] = L(r,c), padded), factors it right-looking with two barriers per
// column (column j scaled by √d, then each work-item updates whole trailing columns), and
// writes back the columns it factored. At the first pivot d that is not > 0 (NaN included) it
// stops: that column and the ones after it are left as they were in global memory.
//
// info[0] protocol for a block whose first column is col0 in the whole tile: when col0 > 0 and
// info[0] is already nonzero (an earlier block failed), the kernel does nothing; otherwise it
// writes info[0] = 0, or col0 + the 1-based column of the first failing pivot.
//
// Launch: one work-group, local = global = TESSERA_POTRF_WG; n ≤ TESSERA_POTRF_BS.

#ifndef TESSERA_POTRF_BS
#define TESSERA_POTRF_BS 64  // largest block factored by one launch (local memory BS·(BS+1) reals)
#endif
#ifndef TESSERA_POTRF_WG
#define TESSERA_POTRF_WG 64
#endif

__kernel __attribute__((reqd_work_group_size(TESSERA_POTRF_WG, 1, 1)))
void tessera_potrf(const int n, const int lower, __global real_t* A, const ulong offA, const int lda,
                   __global int* info, const int col0)
{
    // Both tests are uniform over the work-group: every work-item reads the same values.
    if (n > TESSERA_POTRF_BS) return;  // never launched so (launch.cpp blocks larger tiles)
    if (col0 > 0 && info[0] != 0) return;

    const int lid = (int)get_local_id(0);
    const long si = lower ? 1 : lda;  // L(r,c) = A[r·si + c·sp]
    const long sp = lower ? lda : 1;
    A += offA;

    __local real_t S[TESSERA_POTRF_BS][TESSERA_POTRF_BS + 1];

    // Load the lower triangle of L, coalesced along whichever index is contiguous.
    for (int e = lid; e < n * n; e += TESSERA_POTRF_WG) {
        int r, c;
        if (lower) { r = e % n; c = e / n; }
        else       { c = e % n; r = e / n; }
        if (r >= c) S[c][r] = A[r * si + c * sp];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // also: all have read info[0]

    int failed = 0;
    for (int j = 0; j < n; ++j) {
        const real_t ajj = S[j][j];  // final since the last barrier; same value in every work-item
        if (!(ajj > (real_t)0)) {
            failed = j + 1;
            break;
        }
        const real_t d = sqrt(ajj);
        for (int r = j + 1 + lid; r < n; r += TESSERA_POTRF_WG) S[j][r] /= d;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) S[j][j] = d;  // nobody reads S[j][j] until the next barrier
        // Trailing update, one column per work-item: L(r,k) −= L(r,j)·L(k,j), r ≥ k > j.
        for (int k = j + 1 + lid; k < n; k += TESSERA_POTRF_WG) {
            const real_t lkj = S[j][k];
            for (int r = k; r < n; ++r) S[k][r] -= S[j][r] * lkj;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Write back the factored columns (all of them, or those before the failing one).
    const int ncols = failed ? failed - 1 : n;
    for (int e = lid; e < n * ncols; e += TESSERA_POTRF_WG) {
        int r, c;
        if (lower) { r = e % n; c = e / n; }
        else       { c = e % ncols; r = e / ncols; }
        if (r >= c) A[r * si + c * sp] = S[c][r];
    }
    if (lid == 0) info[0] = failed ? col0 + failed : 0;
}

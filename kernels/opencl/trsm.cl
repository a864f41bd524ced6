// tessera_trtri_blocks: inverses of the diagonal blocks of a triangular matrix, for the blocked
// xTRSM of launch.cpp (invert the diagonal blocks, then solve with GEMMs, as MAGMA's trsm does;
// the inversion of one block is LAPACK's xTRTI2).
//
// M is dim×dim triangular, addressed through strides, M(i,p) = A[i·sai + p·sap], conjugated when
// `conj`, so that the launcher's M = op(A) or op(A)ᵀ costs nothing; `lower` says whether M (not A) is lower
// triangular. Only M's referenced triangle is read, and its diagonal is not read when `unit`.
// Diagonal block K covers rows and columns k0 = K·BS .. k0 + kn − 1, kn = min(BS, dim − k0).
//
// Output: W(K) = M(K,K)⁻¹ as a dense kn×kn column-major block, W(K)(i,p) = W[K·strideK + i +
// p·ldw], zero in its other triangle: the blocked trsm packs the blocks (ldw = BS, strideK = BS²),
// the recursive trtri places them on the diagonal of its output (strideK = BS·(ldw + 1)).
//
// One work-group of BS work-items per block. The block is staged in local memory (loads
// coalesced along whichever index of A is contiguous) as a lower triangular L: L = M(K,K) when
// lower, else L(r,c) = M(K,K)(kn−1−r, kn−1−c), the reversal that makes an upper triangle lower
// and commutes with inversion. L is inverted in place column by column from the right, as in
// xTRTI2: with the diagonal inverted first and the columns right of j already inverted,
//   L⁻¹(r, j) = −L⁻¹(j,j) · Σ_{j<p≤r} L⁻¹(r,p)·L(p,j)   for r > j,
// one row r per work-item, two barriers per column; then W(K) is written back (reversed again).
// BS·(BS+1) scalars of local memory: BS = 64 takes 33 KB in double, BS = 32 17 KB in complex double.
//
// Launch: local size BS, global size ceil(dim/BS)·BS.

#ifndef TESSERA_TRSM_BS
#define TESSERA_TRSM_BS 64  // rows and columns of a diagonal block (= work-items per work-group)
#endif

#define TRTRI_BS TESSERA_TRSM_BS

// Row/column x of the block in L's order: reversed within the first kn when M is upper.
int tessera_trtri_rev(const int x, const int kn, const int upper)
{
    return (upper && x < kn) ? kn - 1 - x : x;
}

__kernel __attribute__((reqd_work_group_size(TRTRI_BS, 1, 1)))
void tessera_trtri_blocks(const int dim, const int lower, const int unit, const int conj,
                          __global const scalar_t* A, const ulong offA, const int sai, const int sap,
                          __global scalar_t* W, const ulong offW, const int ldw, const ulong strideK)
{
    __local scalar_t L[TRTRI_BS][TRTRI_BS + 1];

    const int lid = (int)get_local_id(0);
    const int k0 = (int)get_group_id(0) * TRTRI_BS;
    const int kn = min(TRTRI_BS, dim - k0);
    const int upper = !lower;
    A += offA + (ulong)k0 * (ulong)(sai + sap);
    W += offW + (ulong)get_group_id(0) * strideK;

    // Stage M(K,K): its referenced triangle, 1 on the diagonal when unit, identity padding.
    const int along_i = (sai == 1);  // M(i,p) contiguous along i
    for (int e = lid; e < TRTRI_BS * TRTRI_BS; e += TRTRI_BS) {
        const int i = along_i ? e % TRTRI_BS : e / TRTRI_BS;
        const int p = along_i ? e / TRTRI_BS : e % TRTRI_BS;
        scalar_t v = (i == p) ? S_ONE : S_ZERO;
        if (i < kn && p < kn && (lower ? p <= i : p >= i) && !(unit && i == p)) {
            v = A[(long)i * sai + (long)p * sap];
            if (conj) v = S_CONJ(v);
        }
        L[tessera_trtri_rev(i, kn, upper)][tessera_trtri_rev(p, kn, upper)] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    L[lid][lid] = S_INV(L[lid][lid]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // Columns j = kn−2 .. 0 (the padding is already its own inverse and stays decoupled).
    for (int j = kn - 2; j >= 0; --j) {
        scalar_t s = S_ZERO;
        const int active = lid > j && lid < kn;
        if (active)
            for (int p = j + 1; p <= lid; ++p) s = S_FMA(L[lid][p], L[p][j], s);
        barrier(CLK_LOCAL_MEM_FENCE);  // column j read by all before it is overwritten
        if (active) L[lid][j] = -S_MUL(L[j][j], s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int e = lid; e < kn * kn; e += TRTRI_BS) {
        const int i = e % kn, p = e / kn;
        W[i + (long)p * ldw] = L[tessera_trtri_rev(i, kn, upper)][tessera_trtri_rev(p, kn, upper)];
    }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef TRTRI_BS

// tessera_trsm: triangular solve with many right-hand sides (BLAS xTRSM), all 16 cases.
//
// The launcher reduces every case to M·X = alpha·Y, with M a dim×dim triangular matrix and the
// nvec columns of Y the "vectors" solved independently:
//   Left  (op(A)·X = alpha·B): M = op(A),   vectors = columns of B, dim = m;
//   Right (X·op(A) = alpha·B): M = op(A)ᵀ,  vectors = rows of B,    dim = n.
// Both M and Y are addressed through strides, M(i,p) = A[i·sai + p·sap] and
// Y(i,v) = B[i·sbi + v·sbv], so transposition costs nothing; `lower` says whether M (not A) is
// lower triangular, i.e. whether the substitution runs forward.
//
// One work-group owns TRSM_VB vectors, one per work-item, kept in registers one TRSM_TB-row
// block at a time. Left-looking over row blocks: for the block K being solved, each work-item
// starts from alpha·Y(K, v), subtracts M(K, P)·X(P, v) for every block P solved before (the
// TB×TB block of M and the TB×VB block of X both staged in local memory, loaded coalesced
// along whichever index is contiguous), then solves with the diagonal block in registers and
// writes X(K, v) back through local memory. Only the referenced triangle of A is read, and its
// diagonal is not read when `unit`.
//
// Launch: local size TRSM_VB, global size ceil(nvec/TRSM_VB)·TRSM_VB.

#ifndef TESSERA_TRSM_TB
#define TESSERA_TRSM_TB 16  // rows of the solve per block (register array per work-item)
#endif
#ifndef TESSERA_TRSM_VB
#define TESSERA_TRSM_VB 64  // vectors (work-items) per work-group
#endif

#define TRSM_TB TESSERA_TRSM_TB
#define TRSM_VB TESSERA_TRSM_VB

// Stage the TB×VB block Y(i0.., v0..) of B into Ys, zero outside dim×nvec.
void tessera_trsm_load_y(__local real_t (*Ys)[TRSM_VB + 1], __global const real_t* B,
                                const int sbi, const int sbv, const int i0, const int v0,
                                const int dim, const int nvec, const int lid)
{
    const int along_i = (sbi == 1);  // column-major B with the vector index strided (Left)
    for (int e = lid; e < TRSM_TB * TRSM_VB; e += TRSM_VB) {
        int r, c;
        if (along_i) { r = e % TRSM_TB; c = e / TRSM_TB; }
        else         { c = e % TRSM_VB; r = e / TRSM_VB; }
        const int i = i0 + r, v = v0 + c;
        Ys[r][c] = (i < dim && v < nvec) ? B[(long)i * sbi + (long)v * sbv] : (real_t)0;
    }
}

__kernel __attribute__((reqd_work_group_size(TRSM_VB, 1, 1)))
void tessera_trsm(const int dim, const int nvec, const int lower, const int unit, const real_t alpha,
                  __global const real_t* A, const ulong offA, const int sai, const int sap,
                  __global real_t* B, const ulong offB, const int sbi, const int sbv)
{
    const int lid = (int)get_local_id(0);
    const int v0 = (int)get_group_id(0) * TRSM_VB;
    A += offA;
    B += offB;

    __local real_t Ms[TRSM_TB][TRSM_TB + 1];
    __local real_t Ys[TRSM_TB][TRSM_VB + 1];

    const int nblk = (dim + TRSM_TB - 1) / TRSM_TB;
    const int along_i = (sai == 1);  // M(i,p) contiguous along i

    for (int step = 0; step < nblk; ++step) {
        const int k0 = (lower ? step : nblk - 1 - step) * TRSM_TB;
        real_t x[TRSM_TB];

        // x = alpha·Y(K, v) (alpha = 0 gives X = 0 whatever B holds, as in BLAS)
        tessera_trsm_load_y(Ys, B, sbi, sbv, k0, v0, dim, nvec, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int r = 0; r < TRSM_TB; ++r) x[r] = alpha == (real_t)0 ? (real_t)0 : alpha * Ys[r][lid];
        barrier(CLK_LOCAL_MEM_FENCE);

        // x -= M(K, P)·X(P, v) for the blocks P already solved.
        for (int ps = 0; ps < step; ++ps) {
            const int p0 = (lower ? ps : nblk - 1 - ps) * TRSM_TB;
            for (int e = lid; e < TRSM_TB * TRSM_TB; e += TRSM_VB) {
                int r, c;
                if (along_i) { r = e % TRSM_TB; c = e / TRSM_TB; }
                else         { c = e % TRSM_TB; r = e / TRSM_TB; }
                const int i = k0 + r, p = p0 + c;
                Ms[r][c] = (i < dim && p < dim) ? A[(long)i * sai + (long)p * sap] : (real_t)0;
            }
            tessera_trsm_load_y(Ys, B, sbi, sbv, p0, v0, dim, nvec, lid);
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (int c = 0; c < TRSM_TB; ++c) {
                const real_t xp = Ys[c][lid];
#pragma unroll
                for (int r = 0; r < TRSM_TB; ++r) x[r] -= Ms[r][c] * xp;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }

        // Diagonal block: strict triangle of M, its diagonal unless unit; identity padding.
        for (int e = lid; e < TRSM_TB * TRSM_TB; e += TRSM_VB) {
            int r, c;
            if (along_i) { r = e % TRSM_TB; c = e / TRSM_TB; }
            else         { c = e % TRSM_TB; r = e / TRSM_TB; }
            const int i = k0 + r, p = k0 + c;
            real_t val = (real_t)0;
            if (r == c) val = (!unit && i < dim) ? A[(long)i * sai + (long)p * sap] : (real_t)1;
            else if ((lower ? c < r : c > r) && i < dim && p < dim) val = A[(long)i * sai + (long)p * sap];
            Ms[r][c] = val;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lower) {
#pragma unroll
            for (int r = 0; r < TRSM_TB; ++r) {
                real_t s = x[r];
#pragma unroll
                for (int c = 0; c < r; ++c) s -= Ms[r][c] * x[c];
                x[r] = unit ? s : s / Ms[r][r];
            }
        } else {
#pragma unroll
            for (int r = TRSM_TB - 1; r >= 0; --r) {
                real_t s = x[r];
#pragma unroll
                for (int c = r + 1; c < TRSM_TB; ++c) s -= Ms[r][c] * x[c];
                x[r] = unit ? s : s / Ms[r][r];
            }
        }

        // X(K, v) = x, written through local memory for coalescing.
#pragma unroll
        for (int r = 0; r < TRSM_TB; ++r) Ys[r][lid] = x[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        {
            const int along = (sbi == 1);
            for (int e = lid; e < TRSM_TB * TRSM_VB; e += TRSM_VB) {
                int r, c;
                if (along) { r = e % TRSM_TB; c = e / TRSM_TB; }
                else       { c = e % TRSM_VB; r = e / TRSM_VB; }
                const int i = k0 + r, vv = v0 + c;
                if (i < dim && vv < nvec) B[(long)i * sbi + (long)vv * sbv] = Ys[r][c];
            }
        }
        // Later blocks read X(K, ·) back from global memory, possibly in other work-items.
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef TRSM_TB
#undef TRSM_VB

// LU kernels: indexed row copies (partial-pivoting laswp across tiles) and sequential row
// interchanges within a tile or between a pair of tiles (gessm and ssssm). Column-major.

// tessera_lu_rowcopy: D(didx[e], c) = S(sidx[e], c) for e < nrows, c < ncols; the index lists are
// idx[off + e] (source rows) and idx[off + nrows + e] (destination rows). The rows read and the
// rows written must not overlap (they may lie in the same buffer).
// Launch: 2-D, one work-item per (row, column), any local size.
__kernel void tessera_lu_rowcopy(const int nrows, const int ncols,
                                 __global const scalar_t* S, const ulong offS, const int lds,
                                 __global scalar_t* D, const ulong offD, const int ldd,
                                 __global const int* idx, const ulong offIdx)
{
    const int e = (int)get_global_id(0);
    const int c = (int)get_global_id(1);
    if (e >= nrows || c >= ncols) return;
    const int s = idx[offIdx + e], d = idx[offIdx + nrows + e];
    D[offD + d + (long)c * ldd] = S[offS + s + (long)c * lds];
}

// tessera_lu_swap: row interchanges applied in order t = 0..npiv−1 to every column (one
// work-item per column). Pivot v = ipiv[offPiv + t] for row r = r0 + t of A1:
//   v > 0: swap A1 row r with A1 row v−1 (nothing when v−1 = r) — LAPACK's convention;
//   v < 0: swap A1 row r with A2 row −v−1 (incremental pivoting's pair convention).
// Launch: 1-D, global size ≥ ncols, any local size.
__kernel void tessera_lu_swap(const int ncols, const int npiv, const int r0,
                              __global scalar_t* A1, const ulong off1, const int ld1,
                              __global scalar_t* A2, const ulong off2, const int ld2,
                              __global const int* ipiv, const ulong offPiv)
{
    const int c = (int)get_global_id(0);
    if (c >= ncols) return;
    __global scalar_t* a1 = A1 + off1 + (long)c * ld1;
    __global scalar_t* a2 = A2 + off2 + (long)c * ld2;
    for (int t = 0; t < npiv; ++t) {
        const int v = ipiv[offPiv + t], r = r0 + t;
        if (v < 0) {
            const scalar_t x = a1[r];
            a1[r] = a2[-v - 1];
            a2[-v - 1] = x;
        } else if (v - 1 != r) {
            const scalar_t x = a1[r];
            a1[r] = a1[v - 1];
            a1[v - 1] = x;
        }
    }
}

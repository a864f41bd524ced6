// Partial-pivoting LU of a panel (launch_getrf.cpp): the unblocked leaf, in one work-group, and the
// conversion of the panel's pivots to LAPACK's 1-based rows of the whole matrix. Column-major.

#define TESSERA_GETRF_WG 256
#define TESSERA_GETRF_LEAF_MAX 64

#ifdef TESSERA_COMPLEX
#define S_ABS1(a) (fabs((a).x) + fabs((a).y))  /* LAPACK's cabs1, what izamax compares */
#else
#define S_ABS1(a) fabs(a)
#endif

// tessera_getrf_leaf: LAPACK xGETF2 on the m×nc block at A (nc ≤ TESSERA_GETRF_LEAF_MAX, m ≥ nc),
// rows searched and interchanged within the block's columns only (the caller applies them to the
// other columns). For column c: the pivot is the first row of largest cabs1 at or below c; it is
// swapped with row c; the column below is scaled by the pivot's inverse (not when it is 0) and the
// block's trailing columns get the rank-1 update. piv[offPiv + c] = prow0 + p + 1; the first zero
// pivot sets *info = icol0 + c + 1 unless *info is set already (first ≠ 0 clears it first).
// Launch: 1-D, exactly one work-group of TESSERA_GETRF_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_GETRF_WG, 1, 1)))
void tessera_getrf_leaf(const int m, const int nc, __global scalar_t* A, const ulong offA, const int lda,
                                 __global int* piv, const ulong offPiv, const int prow0,
                                 __global int* info, const int icol0, const int first)
{
    __local real_t best_v[TESSERA_GETRF_WG];
    __local int best_i[TESSERA_GETRF_WG];
    const int lid = (int)get_local_id(0);
    A += offA;
    if (first && lid == 0) *info = 0;
    for (int c = 0; c < nc; ++c) {
        __global scalar_t* col = A + (long)c * lda;
        real_t bv = (real_t)-1;
        int bi = c;
        for (int i = c + lid; i < m; i += TESSERA_GETRF_WG) {
            const real_t v = S_ABS1(col[i]);
            if (v > bv) { bv = v; bi = i; }
        }
        best_v[lid] = bv;
        best_i[lid] = bi;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = TESSERA_GETRF_WG / 2; s > 0; s >>= 1) {
            if (lid < s) {
                const real_t ov = best_v[lid + s];
                const int oi = best_i[lid + s];
                if (ov > best_v[lid] || (ov == best_v[lid] && oi < best_i[lid])) { best_v[lid] = ov; best_i[lid] = oi; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const int p = best_i[0];
        if (p != c)
            for (int j = lid; j < nc; j += TESSERA_GETRF_WG) {
                const scalar_t x = A[c + (long)j * lda];
                A[c + (long)j * lda] = A[p + (long)j * lda];
                A[p + (long)j * lda] = x;
            }
        barrier(CLK_GLOBAL_MEM_FENCE);
        // The pivot row read where it is (a __local copy of it read back zeros on PoCL 3.1 in real
        // precisions): element j at prow[j·lda].
        __global const scalar_t* prow = A + c;
        const scalar_t pivot = prow[(long)c * lda];
        const bool zero = S_IS_ZERO(pivot);
        if (lid == 0) {
            piv[offPiv + c] = prow0 + p + 1;
            if (zero && *info == 0) *info = icol0 + c + 1;
        }
        const scalar_t r = zero ? S_ONE : S_INV(pivot);
        for (int i = c + 1 + lid; i < m; i += TESSERA_GETRF_WG) {
            scalar_t l = col[i];
            if (!zero) l = S_MUL(l, r);
            col[i] = l;
            for (int j = c + 1; j < nc; ++j) A[i + (long)j * lda] = S_FMA(-l, prow[(long)j * lda], A[i + (long)j * lda]);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}

// tessera_getrf_pivots: out[offOut + t] = row0 + piv[offPiv + t] for t < n (panel rows → rows of
// the matrix, 1-based, 64-bit as the pivots handle holds them). Launch: 1-D, any sizes ≥ n.
__kernel void tessera_getrf_pivots(const int n, __global const int* piv, const ulong offPiv, const long row0,
                                   __global long* out, const ulong offOut)
{
    const int t = (int)get_global_id(0);
    if (t < n) out[offOut + t] = row0 + piv[offPiv + t];
}

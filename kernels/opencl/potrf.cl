// tessera_potrf: Cholesky factorization of one n×n tile in place (LAPACK xPOTRF semantics).
//
// Lower: A = L·Lᵀ, L overwrites the lower triangle. Upper: A = Uᵀ·U, U overwrites the upper
// triangle; with L = Uᵀ both are the same algorithm on L(i,p) = A[i·si + p·sp]. The other
// triangle is neither read nor written.
//
// One work-group of TESSERA_POTRF_WG work-items, left-looking and unblocked over global memory
// (every tile size works; n up to a few thousand is reasonable). For each column j:
//   d = A(j,j) − Σ_{p<j} L(j,p)²   (work-group tree reduction in local memory);
//   if !(d > 0) (NaN included): info = j+1, stop, leaving column j and after untouched;
//   L(j,j) = √d;  L(i,j) = (A(i,j) − Σ_{p<j} L(i,p)·L(j,p)) / L(j,j) for i > j, one row per work-item.
// The barriers carry global fences: column j is read by every work-item at column j+1.
// info (0 or the 1-based failing column) is written by work-item 0 at the end into info[0].
//
// Launch: one work-group, local = global = TESSERA_POTRF_WG (a power of two).

#ifndef TESSERA_POTRF_WG
#define TESSERA_POTRF_WG 256
#endif

#if (TESSERA_POTRF_WG & (TESSERA_POTRF_WG - 1)) != 0
#error "TESSERA_POTRF_WG must be a power of two"
#endif

__kernel __attribute__((reqd_work_group_size(TESSERA_POTRF_WG, 1, 1)))
void tessera_potrf(const int n, const int lower, __global real_t* A, const ulong offA, const int lda,
                   __global int* info)
{
    const int lid = (int)get_local_id(0);
    const long si = lower ? 1 : lda;  // L(i,p) = A[i·si + p·sp]
    const long sp = lower ? lda : 1;
    A += offA;

    __local real_t red[TESSERA_POTRF_WG];
    __local real_t diag;
    __local int failed;

    if (lid == 0) failed = 0;

    for (int j = 0; j < n; ++j) {
        __global real_t* Lj = A + j * si;  // row j of L: Lj[p·sp]

        // d = A(j,j) − ‖L(j, 0:j)‖²
        real_t part = (real_t)0;
        for (int p = lid; p < j; p += TESSERA_POTRF_WG) {
            const real_t l = Lj[p * sp];
            part += l * l;
        }
        red[lid] = part;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = TESSERA_POTRF_WG / 2; s > 0; s >>= 1) {
            if (lid < s) red[lid] += red[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            const real_t d = Lj[j * sp] - red[0];
            if (!(d > (real_t)0)) {
                failed = j + 1;
            } else {
                const real_t r = sqrt(d);
                Lj[j * sp] = r;
                diag = r;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (failed) break;  // uniform: every work-item reads the same local value

        // L(i,j) = (A(i,j) − L(i, 0:j)·L(j, 0:j)ᵀ) / L(j,j), i > j
        const real_t djj = diag;
        for (int i = j + 1 + lid; i < n; i += TESSERA_POTRF_WG) {
            __global real_t* Li = A + i * si;
            real_t s = Li[j * sp];
            for (int p = 0; p < j; ++p) s -= Li[p * sp] * Lj[p * sp];
            Li[j * sp] = s / djj;
        }
        // Column j is read by all work-items in the next step; also keeps `diag` and `red`
        // from being overwritten while still in use.
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }

    if (lid == 0) info[0] = failed;
}

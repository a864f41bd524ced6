// One merge of the tridiagonal divide and conquer on a device: LAPACK xLAED3's work after xLAED2's
// deflation (Cuppen; Gu and Eisenstat, SIAM J. Matrix Anal. Appl. 16, 1995), for real_t.
//   dl[0..k)  the poles, strictly ascending (xLAED2's DLAMDA), z[0..k) the deflated updating vector
//             (its W), rho > 0: the eigenvalues lambda_j of diag(dl) + rho·z·zᵀ solve the secular
//             equation 1/rho + sum_i z_i² / (dl_i − lambda) = 0, one in each (dl_j, dl_j+1) and the
//             last in (dl_k−1, dl_k−1 + rho·zᵀz).
//   tessera_secular_roots    one work-group per root: lambda_j and delta(i, j) = dl_i − lambda_j,
//                            the latter as (dl_i − dl_o) − tau from the nearer pole dl_o, as xLAED4
//                            keeps it accurate; tau by bisection down to adjacent floating-point
//                            numbers (xLAED4 iterates rational interpolants to the same end).
//   tessera_secular_zhat     one work-item per row: Gu and Eisenstat's zhat, for which the computed
//                            lambdas are the exact eigenvalues, in xLAED3's order of products.
//   tessera_secular_vectors  one work-group per column: the normalized eigenvector zhat_i / delta(i, j)
//                            with its rows put in xLAED2's column-group order (INDXC).
// The scratch buffer holds delta (k×k, leading dimension k), then S (k×k), then zhat (k).

#define SECULAR_WG 128

// 1/rho + sum_i z_i² / ((dl_i − org) − tau), summed over the work-group (every work-item gets it).
inline real_t tessera_secular_g(__local real_t* red, const int k, __global const real_t* dl, __global const real_t* z,
                                const real_t rinv, const real_t org, const real_t tau)
{
    real_t s = (real_t)0;
    for (int i = (int)get_local_id(0); i < k; i += SECULAR_WG) s += z[i] * z[i] / ((dl[i] - org) - tau);
    return rinv + tessera_group_reduce(red, s, 0, SECULAR_WG);
}

__kernel __attribute__((reqd_work_group_size(SECULAR_WG, 1, 1))) void tessera_secular_roots(
    const int k, const real_t rho, __global const real_t* vec, const ulong offv, __global real_t* lam, const ulong offl,
    __global real_t* scratch, const ulong offs)
{
    __local real_t red[SECULAR_WG];
    const int j = (int)get_group_id(0), lid = (int)get_local_id(0);
    __global const real_t* dl = vec + offv;
    __global const real_t* z = dl + k;
    __global real_t* delta = scratch + offs + (size_t)j * (size_t)k;
    const real_t rinv = (real_t)1 / rho;
    int o = j;  // the pole tau is measured from
    real_t lo, hi;
    if (j < k - 1) {  // the root lies in (dl_j, dl_j+1): from dl_j when g at the midpoint is ≥ 0
        const real_t midgap = (dl[j + 1] - dl[j]) / (real_t)2;
        if (tessera_secular_g(red, k, dl, z, rinv, dl[j], midgap) >= (real_t)0) {
            lo = (real_t)0;
            hi = midgap;
        } else {
            o = j + 1;
            lo = (dl[j] - dl[j + 1]) + midgap;
            hi = (real_t)0;
        }
    } else {  // the last root: in (dl_k−1, dl_k−1 + rho·zᵀz]
        real_t s = (real_t)0;
        for (int i = lid; i < k; i += SECULAR_WG) s += z[i] * z[i];
        lo = (real_t)0;
        hi = rho * tessera_group_reduce(red, s, 0, SECULAR_WG);
    }
    const real_t org = dl[o];
    // g increases from −inf at the poles: halve until no floating-point number lies between lo and hi
    // (at most about 1100 halvings in double, fewer than 60 unless the root hugs its pole).
    for (int it = 0; it < 4096; ++it) {
        const real_t mid = lo + (hi - lo) / (real_t)2;
        if (mid <= lo || mid >= hi) break;
        if (tessera_secular_g(red, k, dl, z, rinv, org, mid) > (real_t)0) hi = mid;
        else lo = mid;
    }
    real_t tau = lo + (hi - lo) / (real_t)2;
    if (tau == (real_t)0) tau = o == j ? hi : lo;  // never the pole itself
    for (int i = lid; i < k; i += SECULAR_WG) delta[i] = (dl[i] - org) - tau;
    if (lid == 0) lam[offl + j] = org + tau;
}

// zhat_i = sign(z_i)·sqrt(−delta(i, i)·prod_{j≠i} delta(i, j) / (dl_i − dl_j)), the product in
// xLAED3's order. Launch: k work-items (rows), 1-D groups of 64.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void tessera_secular_zhat(const int k, __global const real_t* vec,
                                                                                 const ulong offv,
                                                                                 __global real_t* scratch,
                                                                                 const ulong offs)
{
    const int i = (int)get_global_id(0);
    if (i >= k) return;
    __global const real_t* dl = vec + offv;
    __global const real_t* z = dl + k;
    __global const real_t* delta = scratch + offs;
    const size_t ld = (size_t)k;
    real_t p = delta[(size_t)i + (size_t)i * ld];
    const real_t di = dl[i];
    for (int j = 0; j < k; ++j)
        if (j != i) p *= delta[(size_t)i + (size_t)j * ld] / (di - dl[j]);
    scratch[offs + 2 * ld * ld + (size_t)i] = copysign(sqrt(-p), z[i]);
}

// S(i, j) = s_indx(i) / ‖s‖ with s_i = zhat_i / delta(i, j) (xLAED3's eigenvectors of the repaired
// rank-one update; the norm scaled by max |s_i| against overflow); indx holds 0-based rows, as reals,
// after dl and z in vec.
__kernel __attribute__((reqd_work_group_size(SECULAR_WG, 1, 1))) void tessera_secular_vectors(
    const int k, __global const real_t* vec, const ulong offv, __global real_t* scratch, const ulong offs)
{
    __local real_t red[SECULAR_WG];
    const int j = (int)get_group_id(0), lid = (int)get_local_id(0);
    const size_t ld = (size_t)k;
    __global const real_t* indx = vec + offv + 2 * ld;
    __global const real_t* delta = scratch + offs + (size_t)j * ld;
    __global const real_t* zhat = scratch + offs + 2 * ld * ld;
    __global real_t* s = scratch + offs + ld * ld + (size_t)j * ld;
    real_t big = (real_t)0;
    for (int i = lid; i < k; i += SECULAR_WG) big = fmax(big, fabs(zhat[i] / delta[i]));
    big = tessera_group_reduce(red, big, 1, SECULAR_WG);
    real_t sum = (real_t)0;
    if (big > (real_t)0)
        for (int i = lid; i < k; i += SECULAR_WG) {
            const real_t v = zhat[i] / delta[i] / big;
            sum += v * v;
        }
    sum = tessera_group_reduce(red, sum, 0, SECULAR_WG);
    const real_t norm = big * sqrt(sum);
    for (int i = lid; i < k; i += SECULAR_WG) {
        const int r = (int)indx[i];
        s[i] = zhat[r] / delta[r] / norm;
    }
}

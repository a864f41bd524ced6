// tessera_tridiag_bisect: the eigenvalues of a real symmetric tridiagonal matrix (diagonal d, off-
// diagonal e) by bisection on Sturm counts, one work-item per eigenvalue (LAPACK xSTEBZ's method:
// xLAEBZ's count with its pivmin, each interval halved until it is below max(abstol, 2·ulp·max(|lo|,
// |hi|))). Work-item i narrows the Gershgorin interval [lo, hi] around the (i+1)-th smallest
// eigenvalue and writes the final interval's midpoint to w[i], so w ascends. The count at x is the
// number of negative pivots of T − x·I, which equals the number of eigenvalues below x for a
// perturbation of T of a few ulps relative in e² (Kahan; Demmel, Dhillon and Ren, 1995): every work-
// item reads the same d and e, which the caches share.
// Launch: 1-D work-groups of 64, at least n work-items in all.

#ifdef TESSERA_REAL_D
#define TESSERA_BISECT_ULP 2.220446049250313e-16
#else
#define TESSERA_BISECT_ULP 1.1920929e-07f
#endif

// The number of eigenvalues of (d, e) less than or equal to x (xLAEBZ's count with pivmin).
inline int tessera_sturm_count(const int n, __global const real_t* d, __global const real_t* e, const real_t x,
                               const real_t pivmin)
{
    real_t q = d[0] - x;
    if (fabs(q) < pivmin) q = -pivmin;
    int count = q <= (real_t)0;
    for (int j = 1; j < n; ++j) {
        q = d[j] - x - e[j - 1] * e[j - 1] / q;
        if (fabs(q) < pivmin) q = -pivmin;
        count += q <= (real_t)0;
    }
    return count;
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void tessera_tridiag_bisect(const int n, __global const real_t* d, const ulong offd,
                                     __global const real_t* e, const ulong offe, const real_t lo0,
                                     const real_t hi0, const real_t pivmin, const real_t abstol,
                                     __global real_t* w, const ulong offw)
{
    const int i = (int)get_global_id(0);
    if (i >= n) return;
    d += offd;
    e += offe;
    real_t lo = lo0, hi = hi0;
    for (int it = 0; it < 256; ++it) {
        const real_t width = hi - lo, tol = fmax(abstol, (real_t)2 * TESSERA_BISECT_ULP * fmax(fabs(lo), fabs(hi)));
        if (width <= tol) break;
        const real_t mid = lo + width / (real_t)2;
        if (mid <= lo || mid >= hi) break;  // no representable point inside
        if (tessera_sturm_count(n, d, e, mid, pivmin) > i) hi = mid;
        else lo = mid;
    }
    w[offw + i] = lo + (hi - lo) / (real_t)2;
}

// Host launcher of the tridiagonal bisection (tridiag.cl): one work-item per eigenvalue, in
// work-groups of 64.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {

template <class R>
BisectBounds<R> bisect_bounds(int64_t n, const R* d, const R* e) {
    const R safmin = std::numeric_limits<R>::min(), ulp = std::numeric_limits<R>::epsilon();
    R lo = d[0], hi = d[0], emax2 = 0;
    for (int64_t j = 0; j < n; ++j) {
        const R left = j > 0 ? std::abs(e[j - 1]) : R(0), right = j + 1 < n ? std::abs(e[j]) : R(0);
        lo = std::min(lo, d[j] - left - right);
        hi = std::max(hi, d[j] + left + right);
        if (j + 1 < n) emax2 = std::max(emax2, e[j] * e[j]);
    }
    const R pivmin = safmin * std::max(R(1), emax2), tnorm = std::max(std::abs(lo), std::abs(hi));
    const R widen = R(2.1) * (R(n) * ulp * tnorm + 2 * pivmin);
    return {lo - widen, hi + widen, pivmin, ulp * tnorm};
}

template <class R>
void tridiag_bisect(const DeviceKernels& dk, cl_command_queue q, int64_t n, Mat d, Mat e, const BisectBounds<R>& b,
                    Mat w) {
    check_prec<R>(dk, "tridiag_bisect");
    if (n == 0) return;
    cl_kernel kernel = dk.get("tessera_tridiag_bisect");
    const cl_int cn = to_int(n, "tridiag_bisect", "n");
    const cl_ulong offd = d.off, offe = e.off, offw = w.off;
    set_args(kernel, "clSetKernelArg(tessera_tridiag_bisect)", cn, d.mem, offd, e.mem, offe, b.lo, b.hi, b.pivmin,
             b.abstol, w.mem, offw);
    const size_t local[1] = {64};
    check_local(dk, "tessera_tridiag_bisect", local, 1);
    const size_t global[1] = {size_t((n + 63) / 64 * 64)};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_tridiag_bisect)");
}

template BisectBounds<float> bisect_bounds(int64_t, const float*, const float*);
template BisectBounds<double> bisect_bounds(int64_t, const double*, const double*);
template void tridiag_bisect<float>(const DeviceKernels&, cl_command_queue, int64_t, Mat, Mat, const BisectBounds<float>&,
                                    Mat);
template void tridiag_bisect<double>(const DeviceKernels&, cl_command_queue, int64_t, Mat, Mat,
                                     const BisectBounds<double>&, Mat);

}  // namespace tessera::ocl

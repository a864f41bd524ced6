// Host launcher of one divide-and-conquer merge on a device (secular.cl, then the two products of
// xLAED3 through gemm()).
#include <algorithm>
#include <string>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"

namespace tessera::ocl {

template <class R>
void secular_merge(const DeviceKernels& dk, cl_command_queue q, const SecularMerge& m, Mat vec, Mat lam, Mat q2,
                   Mat qk, Mat scratch) {
    check_prec<R>(dk, "secular_merge");
    if (m.k <= 0) return;
    const cl_int k = to_int(m.k, "secular_merge", "k");
    to_int(m.k * (2 * m.k + 1), "secular_merge", "k·(2k + 1)");  // the scratch's indices
    const R rho = R(m.rho);
    const cl_ulong offv = vec.off, offl = lam.off, offs = scratch.off;
    const size_t wg[1] = {128};  // secular.cl's SECULAR_WG
    const size_t groups[1] = {size_t(k) * wg[0]};

    cl_kernel roots = dk.get("tessera_secular_roots");
    set_args(roots, "clSetKernelArg(tessera_secular_roots)", k, rho, vec.mem, offv, lam.mem, offl, scratch.mem, offs);
    check_local(dk, "tessera_secular_roots", wg, 1);
    enqueue(q, roots, 1, groups, wg, "clEnqueueNDRangeKernel(tessera_secular_roots)");

    cl_kernel zhat = dk.get("tessera_secular_zhat");
    set_args(zhat, "clSetKernelArg(tessera_secular_zhat)", k, vec.mem, offv, scratch.mem, offs);
    const size_t rows_local[1] = {64}, rows[1] = {round_up(size_t(k), 64)};
    check_local(dk, "tessera_secular_zhat", rows_local, 1);
    enqueue(q, zhat, 1, rows, rows_local, "clEnqueueNDRangeKernel(tessera_secular_zhat)");

    cl_kernel vectors = dk.get("tessera_secular_vectors");
    set_args(vectors, "clSetKernelArg(tessera_secular_vectors)", k, vec.mem, offv, scratch.mem, offs);
    check_local(dk, "tessera_secular_vectors", wg, 1);
    enqueue(q, vectors, 1, groups, wg, "clEnqueueNDRangeKernel(tessera_secular_vectors)");

    // xLAED3's products; with an empty column group (n12 or n23 = 0) gemm writes zeros (k = 0, beta 0).
    const Mat S{scratch.mem, scratch.off + size_t(m.k * m.k), m.k};  // after delta
    const Mat q2up{q2.mem, q2.off, std::max<int64_t>(m.n1, 1)};
    const Mat q2low{q2.mem, q2.off + size_t(m.n1 * m.n12), std::max<int64_t>(m.n2, 1)};
    gemm<R>(dk, q, Trans::NoTrans, Trans::NoTrans, m.n1, m.k, m.n12, R(1), q2up, S, R(0), qk);
    gemm<R>(dk, q, Trans::NoTrans, Trans::NoTrans, m.n2, m.k, m.n23, R(1), q2low, at(S, m.ctot1, 0), R(0), at(qk, m.n1, 0));
}

template void secular_merge<float>(const DeviceKernels&, cl_command_queue, const SecularMerge&, Mat, Mat, Mat, Mat,
                                   Mat);
template void secular_merge<double>(const DeviceKernels&, cl_command_queue, const SecularMerge&, Mat, Mat, Mat, Mat,
                                    Mat);

}  // namespace tessera::ocl

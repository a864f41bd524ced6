// Host launcher of the device bulge chasing (band_chase.cl): one launch, one work-group per compute
// unit taking the sweeps by ticket, a blocking read of its failure flag at the end.
#include <algorithm>
#include <complex>
#include <string>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {

template <class T>
void band_chase(const DeviceKernels& dk, cl_command_queue q, int64_t n, int64_t kd, Mat band, Mat v, Mat tau) {
    check_prec<T>(dk, "band_chase");
    if (kd < 0 || kd > kBandChaseMaxKd || (n > 1 && kd > n - 1))
        throw Error("tessera::ocl::band_chase: kd = " + std::to_string(kd) + " outside 0 … min(n − 1, " +
                    std::to_string(kBandChaseMaxKd) + ")");
    if (band.ld < 2 * kd + 1) throw Error("tessera::ocl::band_chase: the band's leading dimension is below 2·kd + 1");
    const int64_t sweeps = kd >= 2 ? n - 1 : 0;
    if (sweeps <= 0) return;
    const cl_int cn = to_int(n, "band_chase", "n"), ckd = cl_int(kd), want_q = v.mem != nullptr,
                 lda = to_int(band.ld, "band_chase", "ldab");
    const size_t sync_ints = size_t(2 + sweeps);
    cl_mem sync = dk.scratch(sync_ints * sizeof(cl_int));
    const cl_int zero = 0;
    check(clEnqueueFillBuffer(q, sync, &zero, sizeof zero, 0, sync_ints * sizeof(cl_int), 0, nullptr, nullptr),
          "clEnqueueFillBuffer(band_chase sync)");
    cl_kernel kernel = dk.get("tessera_band_chase");
    const cl_ulong offA = band.off, offV = want_q ? v.off : 0, offT = want_q ? tau.off : 0, offS = 0;
    cl_mem vmem = want_q ? v.mem : band.mem, tmem = want_q ? tau.mem : band.mem;  // unread when values only
    set_args(kernel, "clSetKernelArg(tessera_band_chase)", cn, ckd, want_q, band.mem, offA, lda, vmem, offV, tmem,
             offT, sync, offS);
    const size_t local[1] = {dk.compiled_local("tessera_band_chase")[0]};  // CHASE_NT: 256, or a build's own
    const size_t groups = size_t(std::clamp<int64_t>(dk.info().compute_units, 1, sweeps));
    const size_t global[1] = {groups * local[0]};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_band_chase)");
    cl_int gave_up = 0;
    check(clEnqueueReadBuffer(q, sync, CL_TRUE, sizeof(cl_int), sizeof(cl_int), &gave_up, 0, nullptr, nullptr),
          "clEnqueueReadBuffer(band_chase sync)");
    if (gave_up)
        throw Error("tessera::ocl::band_chase: a work-group gave up waiting for the sweep before its own (the "
                    "kernel's spin limit); the band is not reduced");
}

#define TESSERA_INSTANTIATE(T) \
    template void band_chase<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl

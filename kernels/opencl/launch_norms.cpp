// Host launcher of the norm partials kernel (norms.cl): work-groups of TESSERA_NORM_WG work-items
// (256), each reducing TESSERA_NORM_LINES columns or rows of a tile (32; the program's Params).
#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {

template <class T>
void norm_tile(const DeviceKernels& dk, cl_command_queue q, int part, int tile, bool unit, bool herm, int64_t m,
               int64_t n, Mat A, cl_mem out, size_t out_off) {
    check_prec<T>(dk, "norm_tile");
    if (m == 0 || n == 0) return;
    const int64_t kLines = dk.params().norm_lines, kGroup = dk.params().norm_wg;  // norms.cl's NORM_LINES, NORM_WG
    const int64_t groups = (part == 2 ? 0 : (n + kLines - 1) / kLines) + (part == 2 || part == 4 ? (m + kLines - 1) / kLines : 0);
    cl_kernel kernel = dk.get("tessera_norm_tile");
    const cl_int cpart = part, ctile = tile, cunit = unit ? 1 : 0, cherm = herm ? 1 : 0;
    const cl_int cm = to_int(m, "norm_tile", "m"), cn = to_int(n, "norm_tile", "n");
    const cl_int lda = to_int(A.ld, "norm_tile", "lda");
    to_int(m + n, "norm_tile", "m + n");
    const cl_ulong offA = A.off, offOut = out_off;
    set_args(kernel, "clSetKernelArg(tessera_norm_tile)", cpart, ctile, cunit, cherm, cm, cn, A.mem, offA, lda, out,
             offOut);
    const size_t local[1] = {size_t(kGroup)};
    check_local(dk, "tessera_norm_tile", local, 1);
    const size_t global[1] = {size_t(groups * kGroup)};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_norm_tile)");
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void norm_tile<T>(const DeviceKernels&, cl_command_queue, int, int, bool, bool, int64_t, int64_t, \
                               Mat, cl_mem, size_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl

// Host launcher of a sequence of block reflectors applied from the left (heevd's Q2 on the device):
// three gemm() calls a block, in order on the one queue.
#include <algorithm>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {

template <class T>
void apply_block_reflectors(const DeviceKernels& dk, cl_command_queue q, const std::vector<BlockReflector>& blocks,
                            int64_t ncols, Mat V, Mat Tf, Mat Z, Mat W) {
    check_prec<T>(dk, "apply_block_reflectors");
    if (ncols <= 0) return;
    int64_t kmax = 0;
    for (const BlockReflector& b : blocks) kmax = std::max(kmax, b.k);
    for (const BlockReflector& b : blocks) {
        const Mat v{V.mem, V.off + size_t(b.v_off), b.m}, t{Tf.mem, Tf.off + size_t(b.t_off), b.k};
        const Mat w1{W.mem, W.off, b.k}, w2{W.mem, W.off + size_t(kmax * ncols), b.k}, zw = at(Z, b.row, 0);
        gemm<T>(dk, q, Trans::ConjTrans, Trans::NoTrans, b.k, ncols, b.m, T(1), v, zw, T(0), w1);  // Vᴴ·Z
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, b.k, ncols, b.k, T(1), t, w1, T(0), w2);     // T·(Vᴴ·Z)
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, b.m, ncols, b.k, T(-1), v, w2, T(1), zw);    // Z −= V·…
    }
}

#define TESSERA_INSTANTIATE(T)                                                                                        \
    template void apply_block_reflectors<T>(const DeviceKernels&, cl_command_queue, const std::vector<BlockReflector>&, \
                                            int64_t, Mat, Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl

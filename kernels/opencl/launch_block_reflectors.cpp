// Host launchers of heevd's Q2 on the device: the blocks' T factors (larft_blocks.cl, one launch),
// and the block reflectors applied from the left, three gemm() calls a block, in order on the queue.
#include <algorithm>
#include <string>

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

template <class T>
void larft_blocks(const DeviceKernels& dk, cl_command_queue q, const std::vector<BlockReflector>& blocks, Mat V,
                  Mat taus, Mat Tf) {
    check_prec<T>(dk, "larft_blocks");
    if (blocks.empty()) return;
    std::vector<cl_long> table;
    table.reserve(5 * blocks.size());
    for (const BlockReflector& b : blocks) {
        if (b.k > kLarftBlocksMaxK)
            throw Error("tessera::ocl::larft_blocks: a block of " + std::to_string(b.k) + " reflectors exceeds " +
                        std::to_string(kLarftBlocksMaxK));
        table.insert(table.end(), {cl_long(b.v_off), cl_long(b.m), cl_long(b.k), cl_long(b.t_off), cl_long(b.tau_off)});
    }
    const size_t bytes = table.size() * sizeof(cl_long);
    cl_mem tab = dk.scratch(bytes);
    check(clEnqueueWriteBuffer(q, tab, CL_TRUE, 0, bytes, table.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer(larft_blocks table)");
    cl_kernel kernel = dk.get("tessera_larft_blocks");
    const cl_ulong offv = V.off, offtau = taus.off, offt = Tf.off;
    set_args(kernel, "clSetKernelArg(tessera_larft_blocks)", tab, V.mem, offv, taus.mem, offtau, Tf.mem, offt);
    const size_t local[1] = {size_t(kLarftBlocksMaxK)}, global[1] = {blocks.size() * local[0]};
    check_local(dk, "tessera_larft_blocks", local, 1);
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_larft_blocks)");
}

#define TESSERA_INSTANTIATE(T)                                                                                        \
    template void apply_block_reflectors<T>(const DeviceKernels&, cl_command_queue, const std::vector<BlockReflector>&, \
                                            int64_t, Mat, Mat, Mat, Mat);                                                \
    template void larft_blocks<T>(const DeviceKernels&, cl_command_queue, const std::vector<BlockReflector>&, Mat, Mat, \
                                  Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl

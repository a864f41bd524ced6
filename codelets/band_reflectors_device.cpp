// heevd's Q2 on an OpenCL device in one task (tasks_eig.hpp: apply_band_reflectors_device): the block
// reflectors' T factors formed there (ocl::larft_blocks), then every block reflector of a bulge-chasing
// reduction applied to a dense Z by three GEMMs each (ocl::apply_block_reflectors), where the CPU tasks of apply_band_reflectors are bound by the host's
// CPU workers (bench/gpu_notes.md, "Q2 on the device"). OpenCL only.
#include "codelets/codelet.hpp"
#include "codelets/tasks_eig.hpp"

#include <memory>
#include <string>
#include <vector>

#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct Q2DeviceArgs {
    uint32_t flags;
    int64_t ncols;
    const std::vector<ocl::BlockReflector>* blocks;  // held by the task's keep
};

template <class T>
void q2_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Q2DeviceArgs*>(cl_arg);
    auto wk = codelets::opencl_worker<T>();
    const ocl::Mat V = codelets::ocl_tile<T>(buffers[1]), Tf = codelets::ocl_tile<T>(buffers[3]);
    ocl::larft_blocks<T>(wk.kernels, wk.queue, *a.blocks, V, codelets::ocl_tile<T>(buffers[2]), Tf);
    ocl::apply_block_reflectors<T>(wk.kernels, wk.queue, *a.blocks, a.ncols, V, Tf, codelets::ocl_tile<T>(buffers[0]),
                                   codelets::ocl_tile<T>(buffers[4]));
}

template <class T>
starpu_codelet& q2_codelet() {
    return codelets::named_opencl_codelet<T, q2_opencl<T>>("band_reflectors_device",
                                                           {STARPU_RW, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_SCRATCH});
}

}  // namespace

template <class T>
void tasks::apply_band_reflectors_device(std::shared_ptr<const std::vector<ocl::BlockReflector>> blocks,
                                         int64_t ncols, TileHandle Z, TileHandle V, TileHandle taus, TileHandle Tf,
                                         TileHandle W, int prio) {
    const Q2DeviceArgs args{0, ncols, blocks.get()};
    codelets::submit(q2_codelet<T>(), args, {Z, V, taus, Tf, W}, prio, std::move(blocks));
}

#define TESSERA_INSTANTIATE(T)                                                                                        \
    template void tasks::apply_band_reflectors_device<T>(std::shared_ptr<const std::vector<ocl::BlockReflector>>,     \
                                                         int64_t, TileHandle, TileHandle, TileHandle, TileHandle,     \
                                                         TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

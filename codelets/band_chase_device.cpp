// The whole bulge chasing of heevd's stage 2 as one OpenCL task (tasks_eig.hpp: band_chase_device):
// ocl::band_chase runs every sweep on the device's compute units, where the CPU tasks of run_chase
// (band_chase.cpp) are bound by the host's CPU workers (bench/gpu_notes.md, "The bulge chasing on
// the device"). OpenCL only: the CPU's form is run_chase.
#include "codelets/codelet.hpp"
#include "codelets/tasks_eig.hpp"

#include <string>

#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct ChaseDeviceArgs {
    uint32_t flags;
    int64_t n, kd, offset;
    bool want_q;
};

template <class T>
void band_chase_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ChaseDeviceArgs*>(cl_arg);
    auto wk = codelets::opencl_worker<T>();
    const ocl::Mat band = codelets::ocl_tile<T>(buffers[0]);
    ocl::Mat v{nullptr, 0, 1}, tau{nullptr, 0, 1};
    if (a.want_q) {
        v = ocl::at(codelets::ocl_tile<T>(buffers[1]), a.offset, 0);
        tau = ocl::at(codelets::ocl_tile<T>(buffers[2]), a.offset, 0);
    }
    ocl::band_chase<T>(wk.kernels, wk.queue, a.n, a.kd, band, v, tau);
}

template <class T>
starpu_codelet& band_chase_codelet() {
    return codelets::named_opencl_codelet<T, band_chase_opencl<T>>("band_chase_device",
                                                                   {STARPU_RW, STARPU_RW, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::band_chase_device(cpu::BandTridiagChase<T>& chase, TileHandle band, TileHandle v, TileHandle tau,
                              int prio) {
    const ChaseDeviceArgs args{0, chase.n(), chase.kd(), chase.reflector_offset(), chase.keeps_reflectors()};
    codelets::submit(band_chase_codelet<T>(), args, {band, v, tau}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::band_chase_device<T>(cpu::BandTridiagChase<T>&, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

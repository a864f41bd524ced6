// larft codelet: one T for all reflectors of a geqrt or tpqrt tile, merged from its inner blocks
// (LAPACK xLARFT's recurrence; CPU and OpenCL). geqrf submits it once per panel tile on machines
// with an OpenCL device, so that each update task applies the tile's reflectors as one block.
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct LarftArgs {
    uint32_t flags;
    bool below_identity;
    int64_t ib;
};

template <class T>
void larft_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LarftArgs*>(cl_arg);
    auto V = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    auto Tk = codelets::cpu_tile<T>(buffers[2]);
    cpu::larft<T>(a.below_identity, V.m, Tk.n, a.ib, V.ptr, V.ld, Tf.ptr, Tf.ld, Tk.ptr, Tk.ld);
}

template <class T>
void larft_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LarftArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::larft<T>(w.kernels, w.queue, a.below_identity, codelets::tile_rows(buffers[0]),
                  codelets::tile_cols(buffers[2]), a.ib, codelets::ocl_tile<T>(buffers[0]),
                  codelets::ocl_tile<T>(buffers[1]), codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
starpu_codelet& larft_codelet() {
    return codelets::named_codelet<T, larft_cpu<T>, larft_opencl<T>>("larft", {STARPU_R, STARPU_R, STARPU_W});
}

}  // namespace

template <class T>
void tasks::larft(bool below_identity, int64_t ib, TileHandle V, TileHandle Tf, TileHandle Tk, int prio) {
    LarftArgs args{codelets::pack_flags(below_identity ? 'I' : 'T') ^ (uint32_t(ib) << 16), below_identity, ib};
    codelets::submit(larft_codelet<T>(), args, {V, Tf, Tk}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::larft<T>(bool, int64_t, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

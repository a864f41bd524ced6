// gemqrt codelet: apply a tile's geqrt Q to another tile, op(Q)·C or C·op(Q) (LAPACK xGEMQRT;
// CPU and OpenCL).
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct GemqrtArgs {
    uint32_t flags;
    Side side;
    Trans trans;
    int64_t ib;
};

template <class T>
void gemqrt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemqrtArgs*>(cl_arg);
    auto V = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    auto C = codelets::cpu_tile<T>(buffers[2]);
    const int info = cpu::gemqrt<T>(a.side, a.trans, C.m, C.n, std::min(V.m, V.n), a.ib, V.ptr, V.ld, Tf.ptr, Tf.ld,
                                    C.ptr, C.ld);
    if (info != 0) throw Error("xGEMQRT returned info " + std::to_string(info));  // an argument LAPACK refused
}

template <class T>
void gemqrt_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemqrtArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = std::min(codelets::tile_rows(buffers[0]), codelets::tile_cols(buffers[0]));
    ocl::gemqrt<T>(w.kernels, w.queue, a.side, a.trans, codelets::tile_rows(buffers[2]),
                   codelets::tile_cols(buffers[2]), k, a.ib, codelets::ocl_tile<T>(buffers[0]),
                   codelets::ocl_tile<T>(buffers[1]), codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
starpu_codelet& gemqrt_codelet() {
    return codelets::named_codelet<T, gemqrt_cpu<T>, gemqrt_opencl<T>>("gemqrt", {STARPU_R, STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::gemqrt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle C, int prio) {
    GemqrtArgs args{codelets::pack_flags(char(side), codelets::op_flag<T>(trans)) ^ (uint32_t(ib) << 16), side, trans, ib};
    codelets::submit(gemqrt_codelet<T>(), args, {V, Tf, C}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template void tasks::gemqrt<T>(Side, Trans, int64_t, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

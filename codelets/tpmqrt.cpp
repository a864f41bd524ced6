// tpmqrt codelet: apply a tpqrt Q to a pair of tiles (LAPACK xTPMQRT with l = 0, PLASMA's tsmqr;
// CPU and OpenCL). The update kernel that carries most of tile QR's flops.
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TpmqrtArgs {
    uint32_t flags;
    Side side;
    Trans trans;
    int64_t ib;
};

template <class T>
void tpmqrt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TpmqrtArgs*>(cl_arg);
    auto V = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    auto A1 = codelets::cpu_tile<T>(buffers[2]), A2 = codelets::cpu_tile<T>(buffers[3]);
    const int info = cpu::tpmqrt<T>(a.side, a.trans, A2.m, A2.n, V.n, a.ib, V.ptr, V.ld, Tf.ptr, Tf.ld, A1.ptr, A1.ld,
                                    A2.ptr, A2.ld);
    if (info != 0) throw Error("xTPMQRT returned info " + std::to_string(info));  // an argument LAPACK refused
}

template <class T>
void tpmqrt_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TpmqrtArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::tpmqrt<T>(w.kernels, w.queue, a.side, a.trans, codelets::tile_rows(buffers[3]),
                   codelets::tile_cols(buffers[3]), codelets::tile_cols(buffers[0]), a.ib,
                   codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]),
                   codelets::ocl_tile<T>(buffers[2]), codelets::ocl_tile<T>(buffers[3]));
}

template <class T>
starpu_codelet& tpmqrt_codelet() {
    return codelets::named_codelet<T, tpmqrt_cpu<T>, tpmqrt_opencl<T>>("tpmqrt", {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::tpmqrt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle A1, TileHandle A2,
                   int prio) {
    TpmqrtArgs args{codelets::pack_flags(char(side), codelets::op_flag<T>(trans)) ^ (uint32_t(ib) << 16), side, trans, ib};
    codelets::submit(tpmqrt_codelet<T>(), args, {V, Tf, A1, A2}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::tpmqrt<T>(Side, Trans, int64_t, TileHandle, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

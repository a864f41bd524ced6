// tpqrt codelet: QR of a triangle stacked on a tile, [R; B] (LAPACK xTPQRT with l = 0, PLASMA's
// tsqrt), on CPU workers, as geqrt (geqrt.cpp says why ocl::tpqrt is not registered).
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TpqrtArgs {
    uint32_t flags;
    int64_t ib;
};

template <class T>
void tpqrt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TpqrtArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    auto Tf = codelets::cpu_tile<T>(buffers[2]);
    const int info = cpu::tpqrt<T>(B.m, B.n, a.ib, A.ptr, A.ld, B.ptr, B.ld, Tf.ptr, Tf.ld);
    if (info != 0) throw Error("xTPQRT returned info " + std::to_string(info));  // an argument LAPACK refused
}

template <class T>
starpu_codelet& tpqrt_codelet() {
    return codelets::named_codelet<T, tpqrt_cpu<T>>("tpqrt", {STARPU_RW, STARPU_RW, STARPU_W});
}

}  // namespace

template <class T>
void tasks::tpqrt(int64_t ib, TileHandle A, TileHandle B, TileHandle Tf, int prio) {
    TpqrtArgs args{uint32_t(ib), ib};
    codelets::submit(tpqrt_codelet<T>(), args, {A, B, Tf}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::tpqrt<T>(int64_t, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

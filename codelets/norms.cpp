// norm_tile codelet: the per-tile partial of a matrix norm (column max, column or row sums, the
// columns' scaled sums of squares) that algorithms/norms.cpp reduces on the host.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/norms.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct NormArgs {
    uint32_t flags;
    int32_t part, tile;
    bool unit, herm;
};

template <class T>
void norm_tile_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<NormArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    auto* out = reinterpret_cast<real_t<T>*>(STARPU_MATRIX_GET_PTR(buffers[1]));
    cpu::norm_tile<T>(cpu::NormPart(a.part), cpu::NormTile(a.tile), a.unit, a.herm, A.m, A.n, A.ptr, A.ld, out);
}

template <class T>
void norm_tile_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<NormArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::norm_tile<T>(w.kernels, w.queue, a.part, a.tile, a.unit, a.herm, codelets::tile_rows(buffers[0]),
                      codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]),
                      reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[1])),
                      size_t(STARPU_MATRIX_GET_OFFSET(buffers[1])) / sizeof(real_t<T>));
}

template <class T>
starpu_codelet& norm_tile_codelet() {
    return codelets::named_codelet<T, norm_tile_cpu<T>, norm_tile_opencl<T>>("norm_tile", {STARPU_R, STARPU_W});
}

}  // namespace

template <class T>
void tasks::norm_tile(int part, int tile, bool unit, bool herm, TileHandle A, TileHandle W, int prio) {
    NormArgs args{codelets::pack_flags(char('0' + part), char('0' + tile), unit ? 'U' : 'N', herm ? 'H' : 'S'),
                  part, tile, unit, herm};
    codelets::submit(norm_tile_codelet<T>(), args, {A, W}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::norm_tile<T>(int, int, bool, bool, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// lag2 codelets: tile conversions between a high precision (d, z) and its low one (s, c), for the
// mixed-precision solvers: plain loops on CPU workers (kernels/cpu/lag2.hpp), lacpy.cl's
// tessera_lag2_down / tessera_lag2_up on OpenCL devices (the high precision's program).
#include "codelets/codelet.hpp"
#include "codelets/tasks_mixed.hpp"
#include "kernels/opencl/launch.hpp"

namespace tessera {
namespace {

struct Lag2DownArgs {
    uint32_t flags;
    Uplo uplo;
    double alpha;  // a power of 2: B = alpha·A
    int* info;     // Sequence slot: 1 when an entry overflows the low precision; null: not tested
};

template <class T>
void lag2_down_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Lag2DownArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    auto B = codelets::cpu_tile<cpu::low_t<T>>(buffers[1]);
    const int overflow = cpu::lag2_down<T>(a.uplo, B.m, B.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld);
    if (a.info) *a.info = overflow;
}

template <class T>
void lag2_down_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Lag2DownArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::lag2_down<T>(w.kernels, w.queue, a.uplo, codelets::tile_rows(buffers[1]), codelets::tile_cols(buffers[1]), a.alpha,
                      codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<cpu::low_t<T>>(buffers[1]), a.info);
}

struct Lag2UpArgs {
    uint32_t flags;
    bool accumulate;
};

template <class T>
void lag2_up_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Lag2UpArgs*>(cl_arg);
    auto A = codelets::cpu_tile<cpu::low_t<T>>(buffers[0]);
    auto B = codelets::cpu_tile<T>(buffers[1]);
    cpu::lag2_up<T>(a.accumulate, B.m, B.n, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void lag2_up_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Lag2UpArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::lag2_up<T>(w.kernels, w.queue, a.accumulate, codelets::tile_rows(buffers[1]), codelets::tile_cols(buffers[1]),
                    codelets::ocl_tile<cpu::low_t<T>>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

// Named after LAPACK: dlag2s, zlag2c (down) and dlag2d, zlag2z (up: the letter of T first, so
// that one instantiation owns each codelet).
template <class T>
starpu_codelet& lag2_down_codelet() {
    return codelets::named_codelet<T, lag2_down_cpu<T>, lag2_down_opencl<T>>(is_complex_v<T> ? "lag2c" : "lag2s",
                                                                              {STARPU_R, STARPU_W});
}
template <class T>
starpu_codelet& lag2_up_codelet() {
    return codelets::named_codelet<T, lag2_up_cpu<T>, lag2_up_opencl<T>>(is_complex_v<T> ? "lag2z" : "lag2d",
                                                                          {STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::lag2_down(Uplo uplo, TileHandle A, TileHandle B, int* info, double alpha, int prio) {
    Lag2DownArgs args{codelets::pack_flags(char(uplo)), uplo, alpha, info};
    codelets::submit(lag2_down_codelet<T>(), args, {A, B}, prio);
}

template <class T>
void tasks::lag2_up(bool accumulate, TileHandle A, TileHandle B, int prio) {
    Lag2UpArgs args{codelets::pack_flags(accumulate ? 'A' : 'N'), accumulate};
    codelets::submit(lag2_up_codelet<T>(), args, {A, B}, prio);
}

// The high precisions only: their low one is derived (cpu::low_t).
#define TESSERA_INSTANTIATE(T)                                                        \
    template void tasks::lag2_down<T>(Uplo, TileHandle, TileHandle, int*, double, int); \
    template void tasks::lag2_up<T>(bool, TileHandle, TileHandle, int);
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

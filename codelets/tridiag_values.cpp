// The eigenvalues of the symmetric tridiagonal of heevd's values-only path (tasks_eig.hpp:
// tridiag_values): CPU, LAPACK's xSTERF (Pal-Walker-Kahan QL/QR) on copies; OpenCL, bisection on Sturm
// counts, one work-item per eigenvalue (ocl::tridiag_bisect, xSTEBZ's method), which a GPU runs in
// milliseconds where xSTERF on one core takes seconds at n = 8192 (bench/gpu_notes.md).
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include <algorithm>
#include <vector>

#include "codelets/codelet.hpp"
#include "codelets/tasks_eig.hpp"

namespace tessera {
namespace {

template <class R>
struct TridiagArgs {
    uint32_t flags;
    int64_t n;
    ocl::BisectBounds<R> bounds;
    int* info;
};

template <class R>
void tridiag_values_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TridiagArgs<R>*>(cl_arg);
    const R* d = codelets::cpu_tile<R>(buffers[0]).ptr;
    const R* e = codelets::cpu_tile<R>(buffers[1]).ptr;
    R* w = codelets::cpu_tile<R>(buffers[2]).ptr;
    std::copy(d, d + a.n, w);
    std::vector<R> work(e, e + std::max<int64_t>(a.n - 1, 0));
    if constexpr (std::is_same_v<R, float>) *a.info = LAPACKE_ssterf(int(a.n), w, work.data());
    else *a.info = LAPACKE_dsterf(int(a.n), w, work.data());
}

template <class R>
void tridiag_values_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TridiagArgs<R>*>(cl_arg);
    auto wk = codelets::opencl_worker<R>();
    ocl::tridiag_bisect<R>(wk.kernels, wk.queue, a.n, codelets::ocl_tile<R>(buffers[0]), codelets::ocl_tile<R>(buffers[1]),
                           a.bounds, codelets::ocl_tile<R>(buffers[2]));
    *a.info = 0;
}

template <class R>
starpu_codelet& tridiag_values_codelet() {
    return codelets::named_codelet<R, tridiag_values_cpu<R>, tridiag_values_opencl<R>>("tridiag_values",
                                                                                       {STARPU_R, STARPU_R, STARPU_W});
}

}  // namespace

template <class R>
void tasks::tridiag_values(int64_t n, const R* d, const R* e, TileHandle hd, TileHandle he, TileHandle hw, int* info,
                           int prio) {
    TridiagArgs<R> args{0, n, ocl::bisect_bounds(n, d, e), info};
    codelets::submit(tridiag_values_codelet<R>(), args, {hd, he, hw}, prio);
}

template void tasks::tridiag_values<float>(int64_t, const float*, const float*, TileHandle, TileHandle, TileHandle,
                                           int*, int);
template void tasks::tridiag_values<double>(int64_t, const double*, const double*, TileHandle, TileHandle, TileHandle,
                                            int*, int);

}  // namespace tessera

// potrf codelets: Cholesky of one diagonal tile, reporting LAPACK's info into a Sequence slot;
// potrf_inverse also writes the factor's inverse (the tile Cholesky's panel, algorithms/cholesky.cpp), on
// the device's panel queue where it has one.
#include "codelets/codelet.hpp"
#include "codelets/panel_queue.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct PotrfArgs {
    uint32_t flags;
    Uplo uplo;
    int* info;  // Sequence slot; written by the CPU kernel or by the OpenCL read-back
};

template <class T>
void potrf_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    *a.info = cpu::potrf<T>(a.uplo, A.n, A.ptr, A.ld);
}

template <class T>
void potrf_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::potrf<T>(w.kernels, w.queue, a.uplo, codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]), a.info);
}

template <class T>
starpu_codelet& potrf_codelet() {
    return codelets::named_codelet<T, potrf_cpu<T>, potrf_opencl<T>>("potrf", {STARPU_RW});
}

// potrf_inverse: the same, and W = the factor's inverse (trtri's result: zeros in W's other triangle).
template <class T>
void potrf_inverse_cpu(void* buffers[], void* cl_arg) {
    potrf_cpu<T>(buffers, cl_arg);
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), W = codelets::cpu_tile<T>(buffers[1]);
    cpu::trtri<T>(a.uplo, Diag::NonUnit, W.n, A.ptr, A.ld, W.ptr, W.ld);  // after a failure W is unspecified
}

template <class T>
void potrf_inverse_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const ocl::Mat W = codelets::ocl_tile<T>(buffers[1]);
    ocl::potrf<T>(w.kernels, w.queue, a.uplo, codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]), a.info,
                  &W);
}

template <class T>
starpu_codelet& potrf_inverse_codelet() {
    return codelets::named_codelet<T, potrf_inverse_cpu<T>, potrf_inverse_opencl<T>>("potrf_inverse",
                                                                                    {STARPU_RW, STARPU_W});
}

// potrf_inverse on the device's panel queue (codelets/panel_queue.hpp): the OpenCL implementation's
// launches, beside the trailing updates on the device's own queue.
template <class T>
void potrf_inverse_panel(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    codelets::PanelQueueTask panel(prec_letter<T>());
    const ocl::Mat W = codelets::ocl_tile<T>(buffers[1]);
    ocl::potrf<T>(panel.kernels(), panel.queue(), a.uplo, codelets::tile_cols(buffers[0]),
                  codelets::ocl_tile<T>(buffers[0]), a.info, &W);
    panel.finish();
}

template <class T>
starpu_codelet& potrf_inverse_panel_codelet(int node) {
    static const char* name = codelets::kept_name(prec_letter<T>() + std::string("potrf_inverse_panel"));
    return codelets::panel_queue_codelet(name, codelets::guarded<potrf_inverse_panel<T>>, {STARPU_RW, STARPU_W}, node);
}

}  // namespace

template <class T>
void tasks::potrf(Uplo uplo, TileHandle A, int* info, int prio) {
    PotrfArgs args{codelets::pack_flags(char(uplo)), uplo, info};
    codelets::submit(potrf_codelet<T>(), args, {A}, prio);
}

template <class T>
void tasks::potrf_inverse(Uplo uplo, TileHandle A, TileHandle W, int* info, int prio) {
    PotrfArgs args{codelets::pack_flags(char(uplo)), uplo, info};
    const int node = codelets::panel_queue_for(A, prec_letter<T>());
    codelets::submit(node >= 0 ? potrf_inverse_panel_codelet<T>(node) : potrf_inverse_codelet<T>(), args, {A, W}, prio);
}

#define TESSERA_INSTANTIATE(T)                                          \
    template void tasks::potrf<T>(Uplo, TileHandle, int*, int);         \
    template void tasks::potrf_inverse<T>(Uplo, TileHandle, TileHandle, int*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

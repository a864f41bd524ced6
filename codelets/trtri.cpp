// trtri codelet: W = A⁻¹ of a triangular tile, written in full with zeros in W's other triangle
// (the tile Cholesky's inverse-based panel on OpenCL devices).
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TrtriArgs {
    uint32_t flags;
    Uplo uplo;
    Diag diag;
};

template <class T>
void trtri_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), W = codelets::cpu_tile<T>(buffers[1]);
    cpu::trtri<T>(a.uplo, a.diag, W.n, A.ptr, A.ld, W.ptr, W.ld);  // info > 0 only after potrf failed: its info stands
}

template <class T>
void trtri_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trtri<T>(w.kernels, w.queue, a.uplo, a.diag, codelets::tile_cols(buffers[1]),
                  codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& trtri_codelet() {
    return codelets::named_codelet<T, trtri_cpu<T>, trtri_opencl<T>>("trtri", {STARPU_R, STARPU_W});
}

}  // namespace

template <class T>
void tasks::trtri(Uplo uplo, Diag diag, TileHandle A, TileHandle W, int prio) {
    TrtriArgs args{codelets::pack_flags(char(uplo), char(diag)), uplo, diag};
    codelets::submit(trtri_codelet<T>(), args, {A, W}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::trtri<T>(Uplo, Diag, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

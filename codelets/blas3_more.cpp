// symm and syr2k codelets for the public BLAS-3 operations (algorithms/blas3_more.cpp): the product
// with a symmetric or Hermitian diagonal tile (xSYMM / xHEMM) and the rank-2k update of a diagonal
// tile's triangle (xSYR2K / xHER2K). On OpenCL devices: ocl::symm (a narrow C: two narrow products
// on the tile's triangle and its strict triangle transposed; otherwise two triangular GEMMs on a
// scratch copy of the tile's strict triangle plus half its diagonal) and ocl::syr2k (two GEMMs
// masked to the triangle).
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct SymmArgs {
    uint32_t flags;
    bool hermitian;
    Side side;
    Uplo uplo;
    T alpha, beta;
};

template <class T>
void symm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SymmArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    auto C = codelets::cpu_tile<T>(buffers[2]);
    cpu::symm<T>(a.hermitian, a.side, a.uplo, C.m, C.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld, a.beta, C.ptr, C.ld);
}

template <class T>
void symm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SymmArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::symm<T>(w.kernels, w.queue, a.hermitian, a.side, a.uplo, codelets::tile_rows(buffers[2]),
                 codelets::tile_cols(buffers[2]), a.alpha, codelets::ocl_tile<T>(buffers[0]),
                 codelets::ocl_tile<T>(buffers[1]), a.beta, codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
struct Syr2kArgs {
    uint32_t flags;
    bool hermitian;
    Uplo uplo;
    Trans trans;
    T alpha, beta;
};

template <class T>
void syr2k_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Syr2kArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    auto C = codelets::cpu_tile<T>(buffers[2]);
    const int64_t k = a.trans == Trans::NoTrans ? A.n : A.m;
    cpu::syr2k<T>(a.hermitian, a.uplo, a.trans, C.n, k, a.alpha, A.ptr, A.ld, B.ptr, B.ld, a.beta, C.ptr, C.ld);
}

template <class T>
void syr2k_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<Syr2kArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = a.trans == Trans::NoTrans ? codelets::tile_cols(buffers[0]) : codelets::tile_rows(buffers[0]);
    ocl::syr2k<T>(w.kernels, w.queue, a.hermitian, a.uplo, a.trans, codelets::tile_cols(buffers[2]), k, a.alpha,
                  codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]), a.beta,
                  codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
starpu_codelet& symm_codelet() {
    return codelets::named_codelet<T, symm_cpu<T>, symm_opencl<T>>("symm", {STARPU_R, STARPU_R, STARPU_RW});
}

template <class T>
starpu_codelet& syr2k_codelet() {
    return codelets::named_codelet<T, syr2k_cpu<T>, syr2k_opencl<T>>("syr2k", {STARPU_R, STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::symm(bool hermitian, Side side, Uplo uplo, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C,
                 int prio) {
    SymmArgs<T> args{codelets::pack_flags(hermitian ? 'H' : 'S', char(side), char(uplo)), hermitian, side, uplo, alpha,
                     beta};
    codelets::submit(symm_codelet<T>(), args, {A, B, C}, prio);
}

template <class T>
void tasks::syr2k(bool hermitian, Uplo uplo, Trans trans, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C,
                  int prio) {
    Syr2kArgs<T> args{codelets::pack_flags(hermitian ? 'H' : 'S', char(uplo), char(trans)), hermitian, uplo, trans,
                      alpha, beta};
    codelets::submit(syr2k_codelet<T>(), args, {A, B, C}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                           \
    template void tasks::symm<T>(bool, Side, Uplo, T, TileHandle, TileHandle, T, TileHandle, int);       \
    template void tasks::syr2k<T>(bool, Uplo, Trans, T, TileHandle, TileHandle, T, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

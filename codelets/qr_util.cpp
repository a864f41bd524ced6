// Helper codelets of the QR algorithms: region copy, transpose, zeroed region, zero-diagonal check (the handles
// they work on: codelets/handles.hpp).
#include <starpu.h>

#include <algorithm>

#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct RegionArgs {
    uint32_t flags;
    Uplo uplo;
    int64_t rows, cols;
};

template <class T>
void region_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<RegionArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::lacpy<T>(a.uplo, a.rows, a.cols, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void region_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<RegionArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::lacpy<T>(w.kernels, w.queue, a.uplo, a.rows, a.cols, codelets::ocl_tile<T>(buffers[0]),
                  codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& region_codelet() {
    return codelets::named_codelet<T, region_cpu<T>, region_opencl<T>>("lacpy_region", {STARPU_R, STARPU_RW});
}

template <class T>
void conj_transpose_cpu(void* buffers[], void*) {
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::conj_transpose<T>(A.m, A.n, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void conj_transpose_opencl(void* buffers[], void*) {
    auto w = codelets::opencl_worker<T>();
    ocl::conj_transpose<T>(w.kernels, w.queue, codelets::tile_rows(buffers[0]), codelets::tile_cols(buffers[0]),
                           codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& conj_transpose_codelet() {
    return codelets::named_codelet<T, conj_transpose_cpu<T>, conj_transpose_opencl<T>>("conj_transpose",
                                                                                      {STARPU_R, STARPU_W});
}

struct ZeroArgs {
    uint32_t flags;
    int64_t rows, cols;
};

template <class T>
void zero_region_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ZeroArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    for (int64_t j = 0; j < a.cols; ++j) std::fill(A.ptr + j * A.ld, A.ptr + j * A.ld + a.rows, T(0));
}

template <class T>
void zero_region_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ZeroArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::laset<T>(w.kernels, w.queue, a.rows, a.cols, T(0), T(0), codelets::ocl_tile<T>(buffers[0]));
}

template <class T>
starpu_codelet& zero_region_codelet() {
    return codelets::named_codelet<T, zero_region_cpu<T>, zero_region_opencl<T>>("zero_region", {STARPU_RW});
}

struct DiagArgs {
    uint32_t flags;
    int64_t k;
    int* info;
};

template <class T>
void zero_diagonal_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<DiagArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    *a.info = 0;
    for (int64_t j = 0; j < a.k; ++j)
        if (A.ptr[j + j * A.ld] == T(0)) {
            *a.info = int(j + 1);
            return;
        }
}

template <class T>
starpu_codelet& zero_diagonal_codelet() {
    return codelets::named_codelet<T, zero_diagonal_cpu<T>>("zero_diagonal", {STARPU_R});
}

}  // namespace

template <class T>
void tasks::lacpy_region(Uplo uplo, int64_t rows, int64_t cols, TileHandle A, TileHandle B, int prio) {
    if (rows <= 0 || cols <= 0) return;
    RegionArgs args{codelets::pack_flags(char(uplo)), uplo, rows, cols};
    codelets::submit(region_codelet<T>(), args, {A, B}, prio);
}

template <class T>
void tasks::conj_transpose(TileHandle A, TileHandle B, int prio) {
    const uint32_t flags = 0;
    codelets::submit(conj_transpose_codelet<T>(), flags, {A, B}, prio);
}

template <class T>
void tasks::zero_region(int64_t rows, int64_t cols, TileHandle A, int prio) {
    if (rows <= 0 || cols <= 0) return;
    ZeroArgs args{0, rows, cols};
    codelets::submit(zero_region_codelet<T>(), args, {A}, prio);
}

template <class T>
void tasks::zero_diagonal(int64_t k, TileHandle A, int* info, int prio) {
    DiagArgs args{0, k, info};
    codelets::submit(zero_diagonal_codelet<T>(), args, {A}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template void tasks::lacpy_region<T>(Uplo, int64_t, int64_t, TileHandle, TileHandle, int);     \
    template void tasks::conj_transpose<T>(TileHandle, TileHandle, int);                                \
    template void tasks::zero_region<T>(int64_t, int64_t, TileHandle, int);                             \
    template void tasks::zero_diagonal<T>(int64_t, TileHandle, int*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

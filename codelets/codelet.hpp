// Shared StarPU glue for the codelets: buffer access, perfmodels, codelet construction, insertion.
// Internal header; each codelets/<op>.cpp uses it to bind one kernel to CPU and OpenCL workers.
#pragma once

#include <starpu.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "kernels/opencl/launch.hpp"
#include "runtime/profile_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::codelets {

/// A tile seen from a CPU worker.
template <class T>
struct CpuTile {
    T* ptr;
    int64_t m, n, ld;
};
template <class T>
CpuTile<T> cpu_tile(void* buf) {
    return {reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buf)), int64_t(STARPU_MATRIX_GET_NX(buf)),
            int64_t(STARPU_MATRIX_GET_NY(buf)), int64_t(STARPU_MATRIX_GET_LD(buf))};
}
inline int64_t tile_rows(void* buf) { return int64_t(STARPU_MATRIX_GET_NX(buf)); }
inline int64_t tile_cols(void* buf) { return int64_t(STARPU_MATRIX_GET_NY(buf)); }

/// A tile seen from an OpenCL worker (StarPU's offset is in bytes, ours in elements).
template <class T>
ocl::Mat ocl_tile(void* buf) {
    return {reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buf)), size_t(STARPU_MATRIX_GET_OFFSET(buf)) / sizeof(T),
            int64_t(STARPU_MATRIX_GET_LD(buf))};
}

/// The calling OpenCL worker's kernels for precision T and its command queue. Keep it for the
/// whole codelet: while a profile is active, it brackets the kernels the codelet enqueues.
struct OpenCLWorker {
    const ocl::DeviceKernels& kernels;
    cl_command_queue queue;
    detail::KernelSpan span{queue};
};
template <class T>
OpenCLWorker opencl_worker() {
    cl_command_queue q;
    starpu_opencl_get_current_queue(&q);
    return {detail::opencl_kernels(starpu_worker_get_devid(starpu_worker_get_id()), prec_letter<T>()), q};
}

/// Flags that change a kernel's cost (uplo, trans, side, diag), packed for the perfmodel footprint.
/// Every argument struct starts with a `uint32_t flags` member.
inline uint32_t pack_flags(char a, char b = 0, char c = 0, char d = 0) {
    return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}

/// History-based perfmodel `tessera_<letter><op>` whose footprint hashes the sizes of the matrix and
/// vector buffers and the flags.
starpu_perfmodel* history_model(const std::string& symbol);

/// A codelet with one CPU and (when `ocl` is non-null) one asynchronous OpenCL implementation.
starpu_codelet make_codelet(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                            std::initializer_list<starpu_data_access_mode> modes, starpu_perfmodel* model);

/// A new task of `cl` with a copy of `args` as its argument, the priority, and the placement of
/// Placement::OpenCLOnly; its buffers are the caller's to set before submit_task().
starpu_task* new_task(starpu_codelet& cl, const void* args, size_t args_size, int priority);
/// Submit the task; throws tessera::Error when no worker can run it or StarPU refuses it.
void submit_task(starpu_task* task);

/// Submit one task of `cl` on `handles` with a copy of `args` (trivially copyable) as its argument.
/// Under Placement::OpenCLOnly, a codelet with an OpenCL implementation runs on OpenCL workers only.
/// `callback(callback_arg)` runs once the task has completed.
void submit(starpu_codelet& cl, const void* args, size_t args_size, std::initializer_list<TileHandle> handles,
            int priority, void (*callback)(void*) = nullptr, void* callback_arg = nullptr);
template <class Args>
void submit(starpu_codelet& cl, const Args& args, std::initializer_list<TileHandle> handles, int priority,
            void (*callback)(void*) = nullptr, void* callback_arg = nullptr) {
    static_assert(std::is_trivially_copyable_v<Args>);
    submit(cl, &args, sizeof(Args), handles, priority, callback, callback_arg);
}

}  // namespace tessera::codelets

// Shared StarPU glue for the codelets: buffer access, perfmodels, codelet construction (every
// implementation runs guarded: failures become its sequence's, never std::terminate), task creation
// with a reference to the sequence being submitted, submission. Internal header; each
// codelets/<op>.cpp uses it to bind one kernel to CPU and OpenCL workers.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/opencl/tensor_format.hpp"
#include "kernels/opencl/launch.hpp"
#include "runtime/profile_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::detail {
class TaskGroup;
}

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
/// Every argument struct starts with a `uint32_t flags` member (starts_with_flags, asserted by submit).
inline uint32_t pack_flags(char a, char b = 0, char c = 0, char d = 0) {
    return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}

/// An op's character in a footprint: ConjTrans on real T is Trans (the same kernel at the same
/// cost), so the algorithms' conjugate transposes share the calibration of real transposes.
template <class T>
char op_flag(Trans t) {
    return !is_complex_v<T> && t == Trans::ConjTrans ? 'T' : char(t);
}

/// A copy of `name` that lives until the process ends, for a codelet's name: StarPU reads it until
/// starpu_shutdown, which may run after static destructors (an atexit handler's shutdown).
const char* kept_name(const std::string& name);

/// History-based perfmodel `tessera_<letter><op>` whose footprint hashes the sizes of the matrix and
/// vector buffers and the flags.
starpu_perfmodel* history_model(const std::string& symbol);

/// The sequence state the task (made by new_task) reports to.
detail::TaskGroup& task_group(starpu_task* task);
/// The tensor-core format of the task's float products (made by new_task; tasks::TensorScope).
ocl::TensorFormat task_tensor_format(const starpu_task* task);

/// Run the codelet implementation `f` for the calling worker's current task, unless the task's
/// sequence has already failed (the task is then a no-op); anything `f` throws fails the task's
/// sequence with a message naming the codelet, the worker and the error, instead of reaching
/// StarPU's C code (std::terminate). Every implementation runs through it (make_codelet).
void run_guarded(void (*f)(void**, void*), void* buffers[], void* cl_arg) noexcept;
template <void (*F)(void**, void*)>
void guarded(void* buffers[], void* cl_arg) {
    run_guarded(F, buffers, cl_arg);
}

/// A codelet of already guarded implementations (use make_codelet / make_var_codelet).
starpu_codelet codelet_of_guarded(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                                  std::initializer_list<starpu_data_access_mode> modes, starpu_perfmodel* model);

/// A codelet of precision T with the CPU implementation Cpu and, when Ocl is given, one
/// asynchronous OpenCL implementation, both run through guarded().
template <class T, starpu_cpu_func_t Cpu, starpu_opencl_func_t Ocl = nullptr>
starpu_codelet make_codelet(const char* name, std::initializer_list<starpu_data_access_mode> modes,
                            starpu_perfmodel* model) {
    starpu_opencl_func_t ocl = nullptr;
    if constexpr (Ocl != nullptr) ocl = guarded<Ocl>;
    return codelet_of_guarded(name, guarded<Cpu>, ocl, modes, model);
}

/// The codelet `<letter><op>` of precision T (e.g. "dgemm") with perfmodel history_model(
/// "tessera_<letter><op>"), made by make_codelet on first use and kept: one per instantiation, so
/// each codelet function reads `return named_codelet<T, cpu<T>, opencl<T>>("gemm", {modes});`.
template <class T, starpu_cpu_func_t Cpu, starpu_opencl_func_t Ocl = nullptr>
starpu_codelet& named_codelet(const char* op, std::initializer_list<starpu_data_access_mode> modes) {
    static const char* name = kept_name(prec_letter<T>() + std::string(op));
    static starpu_codelet cl = make_codelet<T, Cpu, Ocl>(name, modes, history_model(std::string("tessera_") + name));
    return cl;
}

/// named_codelet's form for an operation that runs on OpenCL devices only (where = STARPU_OPENCL, no
/// CPU implementation): the whole of a stage that a GPU runs in one task (heevd's bulge chasing, Q2).
template <class T, starpu_opencl_func_t Ocl>
starpu_codelet& named_opencl_codelet(const char* op, std::initializer_list<starpu_data_access_mode> modes) {
    static const char* name = kept_name(prec_letter<T>() + std::string(op));
    static starpu_codelet cl = [&] {
        starpu_codelet c = codelet_of_guarded(name, nullptr, guarded<Ocl>, modes,
                                              history_model(std::string("tessera_") + name));
        c.where = STARPU_OPENCL;
        return c;
    }();
    return cl;
}

/// A new task of `cl` with a copy of `args` as its argument, the priority, the placement of
/// Placement::OpenCLOnly, and a reference to the sequence being submitted (current_group()),
/// plus `keep` held until the task has completed. Its buffers are the caller's to set; then
/// submit_task() it, or discard_task() it. Throws std::bad_alloc when memory runs out.
starpu_task* new_task(starpu_codelet& cl, const void* args, size_t args_size, int priority,
                      std::shared_ptr<const void> keep = {});
/// Submit the task. When StarPU refuses it (no worker can run it), the task is destroyed with its
/// arguments, its sequence marked failed, and tessera::Error thrown naming the task.
void submit_task(starpu_task* task);
/// Destroy a task from new_task() that was not submitted, with its arguments and its reference.
void discard_task(starpu_task* task) noexcept;

/// Whether a task argument type starts with the `uint32_t flags` word that history_model's footprint
/// reads: the word itself, or a standard-layout struct whose first member is `uint32_t flags`.
template <class Args>
constexpr bool starts_with_flags() {
    if constexpr (std::is_same_v<Args, uint32_t>) return true;
    else return std::is_standard_layout_v<Args> && std::is_same_v<decltype(Args::flags), uint32_t> &&
                offsetof(Args, flags) == 0;
}

/// One buffer of a task: handle and access mode.
using Buffer = std::pair<TileHandle, starpu_data_access_mode>;

/// Submit one task of `cl` on `handles` with a copy of `args` (trivially copyable) as its argument.
/// Under Placement::OpenCLOnly, a codelet with an OpenCL implementation runs on OpenCL workers only.
/// `keep` (e.g. a user's function the task calls) is held until the task has completed.
/// Distributed, through submit_distributed().
void submit(starpu_codelet& cl, const void* args, size_t args_size, std::initializer_list<TileHandle> handles,
            int priority, std::shared_ptr<const void> keep = {});
template <class Args>
void submit(starpu_codelet& cl, const Args& args, std::initializer_list<TileHandle> handles, int priority,
            std::shared_ptr<const void> keep = {}) {
    static_assert(std::is_trivially_copyable_v<Args>);
    static_assert(starts_with_flags<Args>(), "a codelet's arguments start with uint32_t flags (history_model)");
    submit(cl, &args, sizeof(Args), handles, priority, std::move(keep));
}

/// Submit a task of `cl` on `buffers` through StarPU-MPI (owner computes): it runs on the rank that
/// owns the tiles it writes (StarPU-MPI's node selection when several ranks do), the ranks owning
/// its inputs send them there (once: StarPU-MPI caches them until they are written or flushed), and
/// the other ranks only note that the written tiles changed. Every rank calls it for every task,
/// in the same order; the task exists on the executing rank only. Throws as submit_task().
void submit_distributed(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                        int priority, std::shared_ptr<const void> keep = {});

/// Inside a task: a per-worker workspace of at least n elements, grown on demand and reused
/// across tasks (no page faults per task). Throws std::bad_alloc (failing the task) when memory
/// runs out, or when a test injected an allocation failure (codelets/fault_injection.hpp).
void task_allocation_point();
template <class T>
T* workspace(std::vector<T>& w, size_t n) {
    task_allocation_point();
    if (w.size() < n) w.resize(n);
    return w.data();
}

}  // namespace tessera::codelets

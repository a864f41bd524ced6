// Guarded execution of codelet implementations: a task whose sequence has failed is skipped, and an
// exception thrown on a worker fails the task's sequence instead of reaching StarPU's C code.
// Also the test-only fault injection (codelets/fault_injection.hpp).
#include <atomic>
#include <exception>
#include <new>
#include <string>

#include "codelets/codelet.hpp"
#include "codelets/fault_injection.hpp"
#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/sequence_internal.hpp"

namespace tessera {
namespace {

std::atomic<long> g_skipped{0};
std::atomic<int> g_allocation_fault{0}, g_submit_fault{0};

// Count an armed fault down; true when this call is the one that must fail.
bool fault_due(std::atomic<int>& countdown) {
    int left = countdown.load(std::memory_order_relaxed);
    while (left > 0)
        if (countdown.compare_exchange_weak(left, left - 1)) return left == 1;
    return false;
}

// "OpenCL 0" or "CPU 1": the worker kind and its device number.
std::string worker_label() {
    const int worker = starpu_worker_get_id();
    if (worker < 0) return "an unknown worker";
    const bool opencl = starpu_worker_get_type(worker) == STARPU_OPENCL_WORKER;
    return (opencl ? "OpenCL " : "CPU ") + std::to_string(starpu_worker_get_devid(worker));
}

void fail(detail::TaskGroup& group, const starpu_task* task, const char* what) noexcept {
    try {
        const char* name = task && task->cl && task->cl->name ? task->cl->name : "?";
        group.fail(std::string("tessera: task ") + name + " on " + worker_label() + " failed: " + what);
    } catch (...) {
        group.fail("");  // no memory for the message: the failure itself must not be lost
    }
}

}  // namespace

void codelets::run_guarded(void (*f)(void**, void*), void* buffers[], void* cl_arg) noexcept {
    starpu_task* task = starpu_task_get_current();
    detail::TaskGroup& group = task_group(task);
    // The tasks after a failure would compute on unspecified data: skip their work (an OpenCL task
    // that enqueues nothing is fine: StarPU's marker still completes it).
    if (group.failed()) {
        g_skipped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    try {
        const ocl::TensorProducts tensor(task_tensor_format(task));  // the GEMMs it launches (tasks::TensorScope)
        f(buffers, cl_arg);
    } catch (const std::bad_alloc&) {
        fail(group, task, "out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
        fail(group, task, e.what());
    } catch (...) {
        fail(group, task, "an exception that is not a std::exception");
    }
}

void codelets::task_allocation_point() {
    if (fault_due(g_allocation_fault)) throw std::bad_alloc();
}

void detail::inject_opencl_launch_failure(int nth) { ocl::inject_launch_failure(nth); }
void detail::inject_task_allocation_failure(int nth) { g_allocation_fault.store(nth < 0 ? 0 : nth); }
void detail::inject_submit_failure(int nth) { g_submit_fault.store(nth < 0 ? 0 : nth); }
long detail::skipped_tasks() { return g_skipped.load(); }
bool detail::submit_failure_due() { return fault_due(g_submit_fault); }

}  // namespace tessera

// Profiling hooks used by the codelet layer and the Runtime. Internal: not installed.
#pragma once

#include <CL/cl.h>

#include <vector>

#include "tessera/profile.hpp"

struct starpu_task;
struct starpu_profiling_worker_info;

namespace tessera::detail {

/// Whether a profile is being recorded (Runtime::profile_begin .. profile_end).
bool profile_active();
/// Called on every task just before submission while a profile is active: chains a callback that
/// records the task's worker, execution interval and data-wait time from StarPU's profiling info.
void profile_task(starpu_task* task);
/// Undo profile_task() on a task that will not be submitted after all.
void profile_forget(starpu_task* task) noexcept;

/// Brackets the kernels one OpenCL task enqueues on `queue`: while a profile is active, a marker
/// enqueued at construction and one at destruction report their completion times through event
/// callbacks, so the interval covers the task's kernels and nothing queued before them.
class KernelSpan {
public:
    explicit KernelSpan(cl_command_queue queue);
    ~KernelSpan();
    KernelSpan(const KernelSpan&) = delete;
    KernelSpan& operator=(const KernelSpan&) = delete;

private:
    cl_command_queue queue_;
    void* record_ = nullptr;
};

/// Start recording (worker and bus counters must have been reset by the caller).
void profile_start();
/// Stop recording and build the profile from the tasks recorded, the per-worker counters
/// `workers` (indexed by StarPU worker id, read by the caller) and StarPU's bus counters.
Profile profile_stop(const std::vector<starpu_profiling_worker_info>& workers);

}  // namespace tessera::detail

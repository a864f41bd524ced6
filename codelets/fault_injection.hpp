// Test-only fault injection and task counters: make a chosen kernel launch, task workspace
// allocation or task submission fail as the real failure would, to test how failures inside tasks
// and refused submissions propagate (tests/test_task_failures.cpp). Internal: not installed; no
// environment variable, nothing armed unless a test calls these.
#pragma once

namespace tessera::detail {

/// The nth OpenCL kernel launch from now (1 = the next one, any device and thread) fails as if
/// clEnqueueNDRangeKernel had returned CL_OUT_OF_RESOURCES; 0 disarms.
void inject_opencl_launch_failure(int nth);
/// The nth workspace allocation inside a task from now (codelets::workspace) throws std::bad_alloc;
/// 0 disarms.
void inject_task_allocation_failure(int nth);
/// The nth task submission from now fails as if starpu_task_submit had returned -ENODEV (no worker
/// can run the task), before StarPU sees the task; 0 disarms.
void inject_submit_failure(int nth);

/// While on, tasks whose codelet has an OpenCL implementation run on OpenCL workers only, as under
/// Placement::OpenCLOnly (so that a test can target an OpenCL launch under any scheduler).
void force_opencl_placement(bool on);

/// Tasks that skipped their work because their sequence had failed, since the process started.
long skipped_tasks();
/// Tasks created by codelets::new_task and not yet completed (callback run) nor discarded.
long live_tasks();

/// Hook of codelets::submit_task: whether the submission now being made must fail.
bool submit_failure_due();

}  // namespace tessera::detail

// Idle StarPU workers that give their cores away instead of spinning (TESSERA_IDLE_SLEEP_US).
// Internal: not installed.
//
// StarPU 1.3 as Debian builds it has non-blocking drivers: a worker with nothing to run polls its
// queue, and an OpenCL worker polls its kernels' events, each on a core. Where the cores are shared
// (PoCL's own threads on the same cores, several MPI ranks on one node, an application computing
// between calls) the pollers take the time the work needs: on a 2-core machine they drew 65 % of
// perf's samples of test_eig in the opencl mode, PoCL's kernels 12 %.
#pragma once

namespace tessera::detail {

/// Idle workers under TESSERA_IDLE_SLEEP_US = `us` (starpu_env.hpp's idle_sleep_us()) from 1 to
/// 100000, through two StarPU hooks (starpu_expert.h):
///  - an idle hook, which StarPU 1.3 calls from a CPU worker that found no task: the worker sleeps
///    `us` microseconds;
///  - a progression hook, which every driver calls as it polls: an OpenCL worker yields its core
///    (sched_yield), whether it waits for a task or for its running kernels.
/// The cost: a ready task waits up to `us` for an idle CPU worker. Worth it where the cores are
/// oversubscribed; the tests set 100 (tests/CMakeLists.txt).
/// Constructed once StarPU runs, it registers the hooks (nothing for us = 0); destruction, which must
/// come before starpu_shutdown, deregisters them. Throws tessera::Error when StarPU has no free hook
/// slot.
class IdleWorkerSleep {
public:
    explicit IdleWorkerSleep(int us);
    ~IdleWorkerSleep();
    IdleWorkerSleep(const IdleWorkerSleep&) = delete;
    IdleWorkerSleep& operator=(const IdleWorkerSleep&) = delete;

private:
    void deregister();
    int idle_hook_ = -1, progress_hook_ = -1;
};

}  // namespace tessera::detail

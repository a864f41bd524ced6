// Idle StarPU workers that sleep instead of spinning: see idle_workers.hpp.
#include "runtime/idle_workers.hpp"

#include <sched.h>
#include <starpu.h>
#include <time.h>

#include "tessera/types.hpp"

namespace tessera::detail {

namespace {

long g_sleep_ns = 0;  // written before the hooks are registered, read by the workers

// StarPU calls it from a CPU worker that found no task. Returns 1: StarPU may block the worker
// (which it never does with non-blocking drivers).
unsigned idle_cpu_worker(void*) {
    const timespec t{0, g_sleep_ns};
    nanosleep(&t, nullptr);
    return 1;
}

// Every driver calls it as it polls. An OpenCL worker gives its core to any thread waiting for one
// (PoCL's, whose kernels it is polling for) and polls on at once when there is none: a sleep here
// delays each task's end (test_eig in the opencl mode: 14.7 s with 50 µs sleeps, 6.0 s yielding).
unsigned polling_opencl_worker(void*) {
    const int id = starpu_worker_get_id();
    if (id >= 0 && starpu_worker_get_type(id) == STARPU_OPENCL_WORKER) sched_yield();
    return 1;
}

}  // namespace

IdleWorkerSleep::IdleWorkerSleep(int us) {
    if (us <= 0) return;
    g_sleep_ns = long(us) * 1000;
    idle_hook_ = starpu_idle_hook_register(idle_cpu_worker, nullptr);
    progress_hook_ = starpu_progression_hook_register(polling_opencl_worker, nullptr);
    if (idle_hook_ < 0 || progress_hook_ < 0) {
        deregister();
        throw Error("tessera::Runtime: StarPU has no free hook slot for TESSERA_IDLE_SLEEP_US");
    }
}

IdleWorkerSleep::~IdleWorkerSleep() { deregister(); }

void IdleWorkerSleep::deregister() {
    if (idle_hook_ >= 0) starpu_idle_hook_deregister(idle_hook_);
    if (progress_hook_ >= 0) starpu_progression_hook_deregister(progress_hook_);
    idle_hook_ = progress_hook_ = -1;
}

}  // namespace tessera::detail

// Host work as StarPU CPU tasks without data handles (tasks_eig.hpp: run_host_tasks), the calling
// thread waiting: the bulge chasing's pipelined chunks (run_chase) and the divide and conquer's
// leaves. Each task's function runs on a CPU worker (BLAS at one thread there); the first failure
// is kept and thrown after every submitted task has finished, the later tasks skipping their work.
#include <starpu.h>

#include <atomic>
#include <exception>
#include <string>
#include <vector>

#include "codelets/tasks_eig.hpp"

namespace tessera {
namespace {

struct HostRun {
    const std::function<void(int64_t)>* run;
    std::atomic<bool> failed{false};
    std::string what;  // the first failure, written once by the thread that set `failed`
};

struct HostTask {
    HostRun* shared;
    int64_t index;
};

void host_task_cpu(void* /*buffers*/[], void* cl_arg) {
    auto* t = static_cast<HostTask*>(cl_arg);
    if (t->shared->failed.load()) return;  // an earlier failure: the rest is moot
    try {
        (*t->shared->run)(t->index);
    } catch (const std::exception& e) {
        if (!t->shared->failed.exchange(true)) t->shared->what = e.what();
    } catch (...) {
        if (!t->shared->failed.exchange(true)) t->shared->what = "unknown exception";
    }
}

starpu_codelet make_host_codelet() {
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.where = STARPU_CPU;
    cl.cpu_funcs[0] = host_task_cpu;
    cl.nbuffers = 0;
    cl.name = "host_task";
    return cl;
}

}  // namespace

void tasks::run_host_tasks(const char* what, int64_t count, const std::function<void(int64_t)>& run,
                           const std::vector<HostDeps>& deps) {
    static starpu_codelet cl = make_host_codelet();
    if (starpu_cpu_worker_get_count() == 0) {  // OpenCL workers only: the calling thread runs them in order
        for (int64_t i = 0; i < count; ++i) run(i);
        return;
    }
    HostRun shared;
    shared.run = &run;
    std::vector<HostTask> args(static_cast<size_t>(count));
    std::vector<starpu_task*> all(size_t(count), nullptr);
    std::string refused;
    int64_t submitted = 0;
    for (int64_t i = 0; i < count; ++i) {
        args[size_t(i)] = {&shared, i};
        starpu_task* task = starpu_task_create();
        task->cl = &cl;
        task->cl_arg = &args[size_t(i)];
        task->detach = 0;
        task->destroy = 0;
        task->priority = STARPU_MAX_PRIO;
        all[size_t(i)] = task;
        starpu_task* before[2];
        unsigned nbefore = 0;
        if (size_t(i) < deps.size())
            for (int64_t d : deps[size_t(i)])
                if (d >= 0 && d < i) before[nbefore++] = all[size_t(d)];
        if (nbefore) starpu_task_declare_deps_array(task, nbefore, before);
        const int ret = starpu_task_submit(task);
        if (ret != 0) {
            refused = "StarPU refused a task (error " + std::to_string(ret) + ")";
            starpu_task_destroy(task);
            all[size_t(i)] = nullptr;
            shared.failed = true;  // the tasks already submitted skip their work
            break;
        }
        ++submitted;
    }
    for (int64_t i = 0; i < submitted; ++i) {
        if (starpu_task_wait(all[size_t(i)]) != 0 && refused.empty()) refused = "waiting for a task failed";
        starpu_task_destroy(all[size_t(i)]);
    }
    if (!refused.empty()) throw Error(std::string("tessera::") + what + ": " + refused);
    if (shared.failed) throw Error(std::string("tessera::") + what + ": a step failed: " + shared.what);
}

}  // namespace tessera

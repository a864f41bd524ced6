// The bulge-chasing stages as StarPU tasks (tasks_eig.hpp: run_chase): chunks of one sweep's steps,
// ordered by explicit task dependencies (no data handles: the steps of concurrent tasks touch
// disjoint entries of one host band, by the reduction's dependency rule), on CPU workers, the
// calling thread waiting. The sweeps pipeline as in PLASMA's and LAPACK's parallel stage 2.
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "codelets/tasks_eig.hpp"

namespace tessera {
namespace {

struct ChaseRun {
    const std::function<void(int64_t, int64_t, int64_t)>* run;
    std::atomic<bool> failed{false};
    std::string what;  // the first failure, written once by the thread that set `failed`
};

struct ChaseChunk {
    ChaseRun* shared;
    int64_t s, t0, t1;
};

void chase_cpu(void* /*buffers*/[], void* cl_arg) {
    auto* c = static_cast<ChaseChunk*>(cl_arg);
    if (c->shared->failed.load()) return;  // a failed chunk leaves the band inconsistent: skip the rest
    try {
        (*c->shared->run)(c->s, c->t0, c->t1);
    } catch (const std::exception& e) {
        if (!c->shared->failed.exchange(true)) c->shared->what = e.what();
    } catch (...) {
        if (!c->shared->failed.exchange(true)) c->shared->what = "unknown exception";
    }
}

starpu_codelet make_chase_codelet() {
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.where = STARPU_CPU;
    cl.cpu_funcs[0] = chase_cpu;
    cl.nbuffers = 0;
    cl.name = "band_chase";
    return cl;
}

}  // namespace

void tasks::run_chase(int64_t sweeps, const std::function<int64_t(int64_t)>& steps, int64_t lag, double step_flops,
                      const std::function<void(int64_t, int64_t, int64_t)>& run) {
    static starpu_codelet cl = make_chase_codelet();
    if (starpu_cpu_worker_get_count() == 0) {  // OpenCL workers only: the calling thread runs the steps
        for (int64_t s = 0; s < sweeps; ++s) run(s, 0, steps(s));
        return;
    }
    // About 2¹⁸ flops per task (measured: n = 4096, kd = 128 on 2 cores, heevd's values only took
    // 2.68 s with 4 kernel calls of 4·kd² flops per task, 3.04 s with 1), but at most a quarter of
    // the first sweep per CPU worker, so that the sweeps pipeline.
    const int64_t workers = std::max(1u, starpu_cpu_worker_get_count());
    const int64_t chunk = std::clamp<int64_t>(int64_t(double(1 << 18) / std::max(step_flops, 1.0)), 1,
                                              std::max<int64_t>(1, (sweeps > 0 ? steps(0) : 0) / (4 * workers)));
    ChaseRun shared;
    shared.run = &run;
    // Chunk k of sweep s holds steps k·chunk … ; first[s] is sweep s's first chunk's index in `all`.
    std::vector<ChaseChunk> args;
    std::vector<int64_t> first(size_t(sweeps) + 1, 0);
    for (int64_t s = 0; s < sweeps; ++s) {
        first[size_t(s)] = int64_t(args.size());
        for (int64_t t0 = 0; t0 < steps(s); t0 += chunk) args.push_back({&shared, s, t0, std::min(t0 + chunk, steps(s))});
    }
    first[size_t(sweeps)] = int64_t(args.size());
    std::vector<starpu_task*> all(args.size(), nullptr);
    std::string refused;
    size_t submitted = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        const ChaseChunk& c = args[i];
        starpu_task* task = starpu_task_create();
        task->cl = &cl;
        task->cl_arg = &args[i];
        task->detach = 0;
        task->destroy = 0;
        task->priority = STARPU_MAX_PRIO;
        all[i] = task;
        starpu_task* deps[2];
        int ndeps = 0;
        if (c.t0 > 0) deps[ndeps++] = all[i - 1];
        if (c.s > 0) {  // the chunk of sweep s−1 that holds its step min(last + lag, steps − 1)
            const int64_t need = std::min(c.t1 - 1 + lag, steps(c.s - 1) - 1);
            deps[ndeps++] = all[size_t(first[size_t(c.s - 1)] + need / chunk)];
        }
        if (ndeps) starpu_task_declare_deps_array(task, unsigned(ndeps), deps);
        const int ret = starpu_task_submit(task);
        if (ret != 0) {
            refused = "StarPU refused a bulge-chasing task (error " + std::to_string(ret) + ")";
            starpu_task_destroy(task);
            all[i] = nullptr;
            shared.failed = true;  // the tasks already submitted skip their work
            break;
        }
        ++submitted;
    }
    for (size_t i = 0; i < submitted; ++i) {
        if (starpu_task_wait(all[i]) != 0 && refused.empty()) refused = "waiting for a bulge-chasing task failed";
        starpu_task_destroy(all[i]);
    }
    if (!refused.empty()) throw Error("tessera::run_chase: " + refused);
    if (shared.failed) throw Error("tessera::run_chase: a bulge-chasing step failed: " + shared.what);
}

}  // namespace tessera

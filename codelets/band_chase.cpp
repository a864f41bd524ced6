// The bulge-chasing stages as StarPU tasks (tasks_eig.hpp: run_chase): chunks of one sweep's steps,
// ordered by explicit task dependencies (run_host_tasks: no data handles, the steps of concurrent
// tasks touch disjoint entries of one host band, by the reduction's dependency rule), on CPU workers,
// the calling thread waiting. The sweeps pipeline as in PLASMA's and LAPACK's parallel stage 2.
#include <starpu.h>

#include <algorithm>
#include <vector>

#include "codelets/tasks_eig.hpp"

namespace tessera {

void tasks::run_chase(int64_t sweeps, const std::function<int64_t(int64_t)>& steps, int64_t lag, double step_flops,
                      const std::function<void(int64_t, int64_t, int64_t)>& run) {
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
    // Chunk i of the list is steps t0 … t1−1 of sweep s; first[s] is sweep s's first chunk.
    struct Chunk {
        int64_t s, t0, t1;
    };
    std::vector<Chunk> chunks;
    std::vector<HostDeps> deps;
    std::vector<int64_t> first(size_t(sweeps) + 1, 0);
    for (int64_t s = 0; s < sweeps; ++s) {
        first[size_t(s)] = int64_t(chunks.size());
        for (int64_t t0 = 0; t0 < steps(s); t0 += chunk) {
            const int64_t t1 = std::min(t0 + chunk, steps(s)), i = int64_t(chunks.size());
            HostDeps d{-1, -1};
            if (t0 > 0) d[0] = i - 1;  // the sweep's previous chunk
            if (s > 0)  // the chunk of sweep s−1 that holds its step min(last + lag, steps − 1)
                d[1] = first[size_t(s - 1)] + std::min(t1 - 1 + lag, steps(s - 1) - 1) / chunk;
            chunks.push_back({s, t0, t1});
            deps.push_back(d);
        }
    }
    run_host_tasks(
        "run_chase", int64_t(chunks.size()),
        [&](int64_t i) {
            const Chunk& c = chunks[size_t(i)];
            run(c.s, c.t0, c.t1);
        },
        deps);
}

}  // namespace tessera

// Placement prior (see placement_prior.hpp).
#include "runtime/placement_prior.hpp"

#include <starpu.h>

#include <cmath>
#include <cstdint>

#include "runtime/worker_rates.hpp"

namespace tessera::detail {

namespace {

/// A kind of worker's best estimate (µs) over its devices, and whether one of them has no history.
struct KindEstimate {
    double us = INFINITY;
    bool uncalibrated = false;
    bool bytes_bound = false;  ///< the estimate is the bytes floor: a lower bound, not a guess
};

// The bytes of the task's buffers.
double buffer_bytes(starpu_task* task) {
    double bytes = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
        bytes += double(starpu_data_get_size(STARPU_TASK_GET_HANDLE(task, i)));
    return bytes;
}

// Estimate of the task, of footprint `footprint`, on worker w (µs), or NaN when neither history nor
// a rate is known. With `bytes_floor`, a CPU core's rate estimate is at least the time to stream
// the task's buffers at kCpuCoreBandwidth; *floored says whether that floor decided it.
double estimate(starpu_task* task, starpu_perfmodel* model, uint32_t footprint, unsigned w, double flops,
                bool bytes_floor, bool* calibrated, bool* floored) {
    starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(int(w), STARPU_NMAX_SCHED_CTXS);
    // StarPU loads a model's history when the model's first task is submitted; the first query
    // through the task loads it here (and fixes that one task's footprint now).
    if (!model->is_loaded) (void)starpu_task_expected_length(task, arch, 0);
    double us = starpu_perfmodel_history_based_expected_perf(model, arch, footprint);
    *calibrated = !std::isnan(us);
    if (!*calibrated) {
        const char prec = task->cl->name[0];
        const double rate = starpu_worker_get_type(int(w)) == STARPU_CPU_WORKER
                                ? cpu_worker_rate(prec)
                                : opencl_worker_rate(starpu_worker_get_devid(int(w)), prec);
        if (!(rate > 0)) return NAN;
        us = flops / (rate * 1e3);  // flops / (GFLOP/s · 1e9) seconds
        if (bytes_floor && starpu_worker_get_type(int(w)) == STARPU_CPU_WORKER) {
            const double floor_us = buffer_bytes(task) / (kCpuCoreBandwidth * 1e3);  // bytes / (GB/s · 1e9) s
            *floored = floor_us > us;
            us = std::fmax(us, floor_us);
        }
    }
    return us;
}

}  // namespace

void apply_placement_prior(starpu_task* task, double flops) noexcept {
    starpu_codelet* cl = task->cl;
    if (!cl || !cl->model || cl->model->type != STARPU_HISTORY_BASED || !cl->model->footprint ||
        !cl->cpu_funcs[0] || !cl->opencl_funcs[0] || task->where != -1)
        return;
    if (!worker_rates_loaded()) return;  // CPUs or OpenCL devices only, or the prior turned off
    const bool moves_data = !(flops > 0);  // a data-movement task (laswp, lacpy): one operation per byte
    if (moves_data) flops = buffer_bytes(task);
    if (!(flops > 0)) return;
    const uint32_t footprint = cl->model->footprint(task);
    KindEstimate cpu, ocl;
    bool cpu_done = false;
    bool device_done[STARPU_MAXOPENCLDEVS] = {};
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        const starpu_worker_archtype type = starpu_worker_get_type(int(w));
        KindEstimate* kind = nullptr;
        if (type == STARPU_CPU_WORKER && !cpu_done) {  // CPU cores share one model (homogeneous)
            cpu_done = true, kind = &cpu;
        } else if (type == STARPU_OPENCL_WORKER) {
            const int devid = starpu_worker_get_devid(int(w));
            if (devid < 0 || devid >= STARPU_MAXOPENCLDEVS || device_done[devid]) continue;
            device_done[devid] = true, kind = &ocl;
        }
        if (!kind) continue;
        bool calibrated = false, floored = false;
        const double us = estimate(task, cl->model, footprint, w, flops, !moves_data, &calibrated, &floored);
        if (std::isnan(us)) return;  // no rate for this precision: no prior
        kind->us = std::fmin(kind->us, us);
        kind->uncalibrated = kind->uncalibrated || !calibrated;
        kind->bytes_bound = kind->bytes_bound || floored;
    }
    const double best = std::fmin(cpu.us, ocl.us);
    const double factor = cl->nbuffers == STARPU_VARIABLE_NBUFFERS ? kRuleOutFactorColumn : kRuleOutFactor;
    const double cpu_factor = cpu.bytes_bound ? std::fmin(factor, kRuleOutFactorBytes) : factor;
    if (cpu.uncalibrated && cpu.us > cpu_factor * best) task->where = STARPU_OPENCL;
    else if (ocl.uncalibrated && ocl.us > factor * best) task->where = STARPU_CPU;
}

}  // namespace tessera::detail

// Placement prior: where a task may run before StarPU has a history of it. StarPU's
// history-based models know nothing of a footprint (codelet, tile shapes, flags) until a kind of
// worker has run it STARPU_CALIBRATE_MINIMUM (10) times; until then a performance-model scheduler
// (dm, dmda, dmdas) sends the task to a worker of that kind to calibrate it, whatever it costs
// there: on a GPU machine's first run a 4096 potrf tile went to a CPU core (0.86 s) while the GPU
// waited. The prior estimates each kind from the task's flops over the worker rates of
// runtime/worker_rates.hpp, and keeps the task off a kind that has no history for it and that the
// estimates put more than kRuleOutFactor behind the best. Transfers are left out: the prior only
// asks whether a kind computes the task hopelessly slower. StarPU's bus model times its own
// pageable buffers (H100: 8–13 GB/s against the 54 of Tessera's pinned tiles), and with it the
// first dgetrf n = 16384, nb = 1024 on an H200 still sent 151 gemm tiles to CPU cores (1.42×
// its calibrated time); in a DAG most inputs of a tile task are produced or reused on the device.
// History takes over a footprint as soon as it is calibrated. Internal: not installed.
#pragma once

struct starpu_task;

namespace tessera::detail {

/// A kind of worker without history for a task is ruled out when its estimate exceeds this many
/// times the best kind's: calibrating it there would cost at least this many times the task. Small
/// tiles, where a CPU core and a device are within this factor, stay free for the scheduler to
/// calibrate both.
constexpr double kRuleOutFactor = 10;
/// The factor for codelets whose buffers span a tile column (a variable number of them: the LU
/// panel, the row interchanges): their footprints depend on the column's height, so one run meets
/// each once and they rarely gather STARPU_CALIBRATE_MINIMUM samples; a panel sent to calibrate on
/// a slower kind delays everything after it (on an H100, LU panels of 1024–5120 rows went to CPU
/// cores at 80–200 ms against 10–15 ms on the GPU). Such a task is kept off an uncalibrated kind
/// estimated slower than the best at all.
constexpr double kRuleOutFactorColumn = 1;
/// GB/s a CPU core reads its buffers at, at best: the floor of a core's estimate without history
/// (bytes / kCpuCoreBandwidth), for products that do few flops per byte. Without it a product with
/// one column (a 4096 tile times a vector: 2·4096² flops for 64–128 MiB) was estimated at its flops
/// over the core's gemm rate, an order of magnitude below what reading the tile takes, and the first
/// FP16 dsposv n = 32768 on an H200 sent 25 sgemm and 8 dsymm of them to CPU cores to calibrate
/// (1.28 s against 0.20 s calibrated, bench/gpu_notes.md).
constexpr double kCpuCoreBandwidth = 10;
/// The factor for a CPU core whose estimate is that bytes floor (a lower bound, where the flops
/// estimate is a guess): a core that streams at twice kCpuCoreBandwidth still loses. Without it the
/// first dsgesv n = 32768, nb 4096 on an H200 sent 22 of its one-column strsm to CPU cores (about 9 ms
/// each, floor 6.4 ms) against about 1 ms on the GPU (1.54× its calibrated time; bench/first_run.sh case
/// gesv_mixed:d:32768:4096).
constexpr double kRuleOutFactorBytes = 2;

/// Called by codelets::submit_task for every task before it is submitted: when the Runtime has
/// both CPU and OpenCL workers and worker rates (load_worker_rates), the task's codelet has both
/// implementations and a history-based model, and its placement is not already restricted
/// (Placement::OpenCLOnly), sets task->where to the kind the prior leaves when the other kind has no
/// calibrated history for the task's footprint and its estimate is more than kRuleOutFactor (a
/// column-spanning codelet: kRuleOutFactorColumn; a CPU core estimated at its bytes floor:
/// kRuleOutFactorBytes) times the best. Estimates in µs: the history's
/// mean where calibrated, else flops / rate (no transfers; on a CPU core at least its buffers' bytes
/// / kCpuCoreBandwidth); an OpenCL kind is its best device. `flops` is task_flops(task); a
/// data-movement task (0 flops: laswp, lacpy) counts one operation per byte of its buffers, so that a
/// GPU's pivoting of its own tiles is not sent to a CPU core to calibrate (the tiles would travel
/// there and back). Never throws.
void apply_placement_prior(starpu_task* task, double flops) noexcept;

}  // namespace tessera::detail

// Worker rates: the GFLOP/s of one gemm tile on one worker of each kind (a CPU core, each OpenCL
// device), by precision, measured once per machine and kept in StarPU's home. They are the prior of
// runtime/placement_prior.hpp: what a task costs on a kind of worker before StarPU's history of it
// exists. Internal: not installed.
#pragma once

#include <string>
#include <string_view>

namespace tessera::detail {

class OpenCLRegistry;

/// $STARPU_HOME/.tessera/worker_rates.txt, else $HOME/.tessera/worker_rates.txt ("" when neither is
/// set). One line per device and real precision: `<s|d> <GFLOP/s> <device>`, the device being
/// `cpu: <hwloc CPU model>` or `opencl: <CL_DEVICE_NAME>`; `#` starts a comment.
std::string worker_rates_path();

/// Called by the Runtime when it starts with both CPU and OpenCL workers, before any task is
/// submitted: reads the file, takes the OpenCL devices' rates it holds, and measures the CPU's it
/// lacks — cblas_xgemm n = 256 on the calling thread (one BLAS thread: a CPU worker's view), best of
/// three after one warm-up. An OpenCL device's missing rate is measured when its precision's program
/// is first built or loaded (learn_opencl_rates). New figures are appended to the file (written
/// whole to a temporary file, then renamed) when its directory is writable; otherwise they live for
/// this Runtime only. Malformed lines are skipped with one warning line each ("tessera: warning:
/// FILE:LINE: ..."). Never throws: a failed measurement leaves that rate 0.
void load_worker_rates(const OpenCLRegistry& opencl);

/// After precision `prec`'s OpenCL programs are built or loaded (by the Runtime's preload thread once
/// it has loaded them from the binary cache, else by OpenCLRegistry::ensure at the submission of its
/// first task), the rate of its real precision (s for c, d for z; built too if it was not) on each
/// OpenCL device that has none: Tessera's OpenCL gemm n×n×n on a queue and a set of kernels of its own
/// (n = 2048 on a GPU or accelerator, 256 on a CPU device), best of three after one warm-up, 30–60 ms
/// on an H200. Returns at once when the rates are known or were not loaded; a second caller waits
/// for the measurement under way. Thread-safe; never throws.
void learn_opencl_rates(char prec, OpenCLRegistry& opencl);

/// Whether the placement prior is on: TESSERA_PLACEMENT_PRIOR unset, empty or 1; 0 turns it off
/// (StarPU's schedulers then calibrate every kind of worker, as StarPU alone does). Any other value
/// throws tessera::Error naming the variable.
bool placement_prior_enabled();

/// Forget the rates (Runtime shut down).
void clear_worker_rates() noexcept;

/// Whether load_worker_rates ran for the running Runtime (both kinds of worker, the prior on).
bool worker_rates_loaded() noexcept;

/// GFLOP/s of one CPU worker (one core) in precision `prec` (s, d, c or z: c and z use s and d,
/// since flop counts are real flops); 0 when unknown (no load_worker_rates, or it failed).
double cpu_worker_rate(char prec) noexcept;
/// GFLOP/s of StarPU OpenCL device `devid` in precision `prec`; 0 when unknown.
double opencl_worker_rate(int devid, char prec) noexcept;

/// Parse one line of the file into (prec, rate, device); false for a blank or comment line.
/// Throws std::invalid_argument with the reason for a malformed line.
bool parse_worker_rate(std::string_view line, char* prec, double* gflops, std::string* device);

}  // namespace tessera::detail

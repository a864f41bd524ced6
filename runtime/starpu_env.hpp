// StarPU's environment, checked before StarPU reads it: StarPU 1.3 aborts the process (an assertion,
// exit 134) on a malformed number, a negative count or a home it cannot write. Internal: not installed.
#pragma once

#include <string>

namespace tessera::detail {

/// Check every StarPU 1.3 environment variable whose value StarPU parses and aborts on
/// (docs/errors.md lists the rules): integer variables (STARPU_NCPU, STARPU_NOPENCL, STARPU_CALIBRATE,
/// STARPU_LIMIT_*_MEM, ...) must be decimal integers in their range, float ones (STARPU_SCHED_BETA, ...)
/// finite numbers, worker lists (STARPU_WORKERS_CPUID, ...) lists of non-negative integers.
/// Throws tessera::Error("tessera::Runtime: STARPU_NCPU='-1' must be ...") naming the first bad one.
/// Call before starpu_conf_init, which reads them.
void validate_starpu_environment();

/// Tessera's own on/off variables (TESSERA_PLACEMENT_PRIOR, TESSERA_DEVICE_MAP, TESSERA_RANK_DEVICES,
/// TESSERA_OPENCL_PRELOAD):
/// true when `name` is unset, empty or 1, false for 0. Any other value throws tessera::Error
/// "NAME='value': expected 1 (<on>, the default) or 0 (off)".
bool env_switch(const char* name, const char* on);

/// TESSERA_IDLE_PREFETCH (env_switch): whether tasks::DevicePrefetch's copies are StarPU idle
/// prefetches (1, the default) or ordinary ones (0). The Runtime checks it at start.
bool idle_prefetch();

/// TESSERA_IDLE_SLEEP_US: microseconds an idle CPU worker sleeps between polls (runtime/idle_workers.hpp);
/// 0 when unset or empty (StarPU's polling). A value that is no integer from 0 to 100000 throws
/// tessera::Error "TESSERA_IDLE_SLEEP_US='x': expected an integer from 0 ...".
int idle_sleep_us();

/// StarPU's performance-model directory, prepared so that StarPU can neither fail to create it nor
/// fail to write it at shutdown (both are assertions in StarPU 1.3). The directory is
/// $STARPU_PERF_MODEL_DIR, else <home>/.starpu/sampling with <home> the first of XDG_CACHE_HOME,
/// STARPU_HOME, HOME that is set (StarPU 1.3's order).
///  - missing: created (with codelets/ and bus/); a failure throws tessera::Error naming the variable
///    it comes from and why (STARPU_HOME=/proc, a regular file, ...);
///  - present but not writable (a read-only calibrated home): copied to a fresh temporary directory
///    and StarPU pointed at the copy through STARPU_PERF_MODEL_DIR; the copy, with whatever StarPU
///    calibrated during the run, is removed by the destructor (docs/tuning.md).
/// Restores STARPU_PERF_MODEL_DIR as it was on destruction.
class StarpuModelDir {
public:
    StarpuModelDir();
    ~StarpuModelDir();
    StarpuModelDir(const StarpuModelDir&) = delete;
    StarpuModelDir& operator=(const StarpuModelDir&) = delete;
    /// The temporary copy StarPU uses instead of a read-only directory; empty when none was needed.
    const std::string& copy() const { return copy_; }

private:
    std::string copy_;
    bool had_dir_ = false;
    std::string old_dir_;
};

}  // namespace tessera::detail

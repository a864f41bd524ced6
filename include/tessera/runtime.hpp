// Tessera runtime: RAII lifecycle of StarPU and of the OpenCL programs built on its devices.
#pragma once

#include <string>
#include <vector>

namespace tessera {

/// How tasks are placed on workers.
enum class Placement {
    Any,         ///< StarPU's scheduler chooses among every worker able to run the task
    OpenCLOnly,  ///< a task whose codelet has an OpenCL implementation runs on an OpenCL worker
};

/// Settings of a Runtime. StarPU's environment (STARPU_SCHED, STARPU_NCPU, STARPU_NOPENCL,
/// STARPU_OPENCL_ON_CPUS, STARPU_HOME, ...) is honoured and never overridden by these.
struct RuntimeConfig {
    Placement placement = Placement::Any;
    bool profiling = true;  ///< collect per-worker task counts (Runtime::worker_stats)
};

/// Tasks executed by one worker since the Runtime started.
struct WorkerStats {
    int id;               ///< StarPU worker id
    std::string name;     ///< StarPU's worker name, e.g. "CPU 0" or "OpenCL 0 (...)"
    bool opencl;          ///< true for an OpenCL worker
    long executed_tasks;  ///< number of tasks this worker ran
};

/// Starts StarPU on construction and shuts it down on destruction; at most one Runtime exists at a
/// time in a process. Scheduler: STARPU_SCHED if set, else "dmdas" when an OpenCL worker exists and
/// "lws" otherwise. Inside workers the BLAS library runs single-threaded (OpenBLAS, BLIS or MKL,
/// detected at run time); the caller's BLAS thread count is restored on destruction.
/// At start every embedded OpenCL source is built for every OpenCL device, per precision; built
/// programs are cached on disk (TESSERA_CACHE_DIR, else $STARPU_HOME/.tessera/cl-cache, else
/// $HOME/.cache/tessera) keyed by device name, driver version, build options and source hash; CPU
/// OpenCL devices (PoCL) are not asked for binaries, which would compile every kernel up front: they
/// keep their own kernel cache (POCL_CACHE_DIR).
/// Throws tessera::Error when StarPU fails to start, when a Runtime already exists, or when an
/// OpenCL build fails (the message includes the build log).
class Runtime {
public:
    explicit Runtime(const RuntimeConfig& config = {});
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    /// Workers, OpenCL devices, scheduler and placement, as human-readable text.
    std::string describe() const;
    /// Name of the scheduling policy in use.
    std::string scheduler() const;
    int cpu_workers() const;     ///< number of CPU workers
    int opencl_workers() const;  ///< number of OpenCL workers
    /// Per-worker executed-task counts (StarPU's profiling counters) since start or reset_stats().
    std::vector<WorkerStats> worker_stats() const;
    void reset_stats();
    /// Block until every submitted task has completed.
    static void wait_all();
};

}  // namespace tessera

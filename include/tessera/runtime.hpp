// Tessera runtime: RAII lifecycle of StarPU and of the OpenCL programs built on its devices.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tessera/profile.hpp"
#include "tessera/trace.hpp"
#include "tessera/types.hpp"

namespace tessera {

/// How tasks are placed on workers.
enum class Placement {
    Any,         ///< StarPU's scheduler chooses among every worker able to run the task
    OpenCLOnly,  ///< a task whose codelet has an OpenCL implementation runs on an OpenCL worker
};

/// Where tile storage (TileMatrix) lives in host memory.
enum class HostMemory {
    Auto,      ///< Pinned when StarPU drives an OpenCL GPU or accelerator, else Pageable
    Pinned,    ///< page-locked through the OpenCL driver (a CL_MEM_ALLOC_HOST_PTR buffer mapped in
               ///< StarPU's context of OpenCL device 0), so that host↔device copies run at DMA
               ///< speed and overlap with kernels; Pageable when there is no OpenCL device
    Pageable,  ///< starpu_malloc (StarPU 1.3 pins only for CUDA)
};

/// Whether the Runtime runs distributed over MPI ranks (StarPU-MPI).
enum class MpiMode {
    Auto,  ///< distributed when the process was launched by mpirun/mpiexec/srun (OpenMPI, MPICH
           ///< or PMIx environment) or the application has initialized MPI; else one process
    On,    ///< always distributed (initializes MPI when the application has not)
    Off,   ///< never: one process, MPI untouched
};

/// Settings of a Runtime. StarPU's environment (STARPU_SCHED, STARPU_NCPU, STARPU_NOPENCL,
/// STARPU_OPENCL_ON_CPUS, STARPU_HOME, ...) is honoured and never overridden by these.
struct RuntimeConfig {
    Placement placement = Placement::Any;
    bool profiling = true;  ///< collect per-worker task counts (Runtime::worker_stats)
    HostMemory host_memory = HostMemory::Auto;  ///< see HostMemory
    MpiMode mpi = MpiMode::Auto;                 ///< see MpiMode
    /// Process grid of distributed matrices (the default of every TileMatrix). p = q = 0: in one
    /// process 1×1; over R ranks the P×Q with P·Q = R, P ≤ Q and P as large as possible (2×2 for 4,
    /// 2×3 for 6). Otherwise P·Q must equal the number of ranks.
    Distribution grid{};
    /// Trace every task into this file (Chrome/Perfetto trace-event JSON, written when the Runtime
    /// is destroyed; see Runtime::write_trace). Empty: the environment variable TESSERA_TRACE=FILE
    /// decides; a non-empty trace_path wins over it. Distributed, rank r > 0 writes FILE.rank<r>.
    /// Tracing turns StarPU's profiling on.
    std::string trace_path;
    /// Record every task (Runtime::trace_records, e.g. for a Gantt chart) even when no trace file
    /// is written (trace_path empty and TESSERA_TRACE unset). Turns StarPU's profiling on.
    bool record_trace = false;
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
/// "lws" otherwise. OpenCL pipeline: STARPU_OPENCL_PIPELINE if set, else 0 when an OpenCL GPU or
/// accelerator exists (StarPU waits for each task's kernels before it takes the next task; measured
/// on an H100, end-to-end dgemm n = 16384 ran 34 TFLOP/s against 27 with StarPU's default of 2, and
/// dpotrf the same; bench/gpu_notes.md), StarPU's default otherwise. Memory tidying:
/// STARPU_MINIMUM_CLEAN_BUFFERS if set, else 0 with an OpenCL GPU or accelerator (StarPU 1.3 writes
/// modified tiles back to the host whenever fewer than 5% of a device's buffers are clean, and
/// every trailing update dirties its tile again: dpotrf n = 32768 copied 7.9 GB home for a 4.3 GB
/// triangle, and ran 10% faster without it on an H100). Binding: STARPU_WORKERS_NOBIND if set, else
/// 1 (workers unbound) with an OpenCL GPU or accelerator (bound, the OpenCL driver's threads shared
/// their worker's core: 3–7 ms per task outside the kernels on a 32-core 2×H100 host, 0.03–0.6 ms
/// unbound; bench/multi_gpu.sh). Several OpenCL devices: tiles get an owner device 2D
/// block-cyclically over a p×q grid (1×n for n devices, or TESSERA_DEVICE_GRID=PxQ with P·Q the
/// devices) and tasks run on their written tile's device or a CPU worker, unless
/// TESSERA_DEVICE_MAP=0 (a malformed value of either throws tessera::Error naming it; docs/tuning.md).
/// Idle workers: StarPU 1.3's workers poll, a core each; TESSERA_IDLE_SLEEP_US=N (1 to 100000) makes
/// an idle CPU worker sleep N µs between polls and an OpenCL worker yield its core as it polls, for
/// machines whose cores are shared (a malformed value throws tessera::Error naming it;
/// docs/tuning.md#idle-workers).
/// Inside workers the BLAS library runs
/// single-threaded (OpenBLAS, BLIS or MKL, detected at run time); the caller's BLAS thread count is
/// restored on destruction.
/// The embedded OpenCL program is built for every OpenCL device once per precision, when the first
/// task of that precision is submitted (a cold NVIDIA machine takes about 16 s per precision; the
/// operation submitting it throws tessera::Error with the build log if it fails); built programs
/// are cached on disk (TESSERA_CACHE_DIR, else $STARPU_HOME/.tessera/cl-cache, else
/// $HOME/.cache/tessera) keyed by device name, driver version, build options and source hash; CPU
/// OpenCL devices (PoCL) are not asked for binaries, which would compile every kernel up front: they
/// keep their own kernel cache (POCL_CACHE_DIR).
/// Distributed (RuntimeConfig::mpi): StarPU starts through StarPU-MPI (starpu_mpi_init_conf) on
/// MPI_COMM_WORLD; MPI is initialized with MPI_THREAD_MULTIPLE unless the application did so (then
/// it must have asked for MPI_THREAD_MULTIPLE, and it finalizes MPI itself); MPI initialized by
/// Tessera is finalized at process exit, so Runtimes can follow each other. Every rank runs the
/// same program (SPMD): the Runtime, the matrices and the algorithm calls are collective, and
/// each task runs on the rank that owns the tile it writes (docs/distributed.md). A distributed
/// Runtime destroyed by an exception on one rank (e.g. an invalid argument that rank alone got)
/// ends every rank with MPI_Abort, after one line on stderr, since the others may be waiting for
/// that rank's tiles: they never hang.
/// Throws tessera::Error when StarPU fails to start, when a Runtime already exists, when an
/// OpenCL device cannot be queried, or when the grid does not match the
/// number of ranks or MPI lacks thread support.
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
    /// Whether TileMatrix storage is page-locked (HostMemory resolved at start).
    bool pinned_host_memory() const;
    /// Whether the runtime is distributed over MPI ranks (RuntimeConfig::mpi resolved at start).
    bool distributed() const;
    static int rank();           ///< this process's MPI rank in MPI_COMM_WORLD (0 in one process or without a Runtime)
    static int ranks();          ///< number of MPI ranks (1 in one process or without a Runtime)
    Distribution grid() const;   ///< the process grid matrices get by default (1×1 in one process)
    /// Bytes each rank has sent to the others since start, indexed by rank (StarPU-MPI's
    /// communication statistics, recorded when STARPU_COMM_STATS=1 was set before the Runtime
    /// started; all zero otherwise, and {0} in one process). Collective when distributed.
    std::vector<size_t> bytes_sent() const;
    /// Element-wise sums of `values` over all ranks, returned on every rank (MPI_Allreduce with
    /// MPI_SUM); `values` unchanged in one process. Collective when distributed: every rank passes
    /// the same count. For the reductions an application does on its ranks' local tiles (e.g. a
    /// log-determinant from the diagonal tiles each rank owns).
    std::vector<double> sum_over_ranks(std::vector<double> values) const;
    /// Start a profile: resets StarPU's worker and bus counters and records every task and every
    /// OpenCL task's kernel interval until profile_end(). Costs an OpenCL marker pair per OpenCL
    /// task and a callback per task while active.
    void profile_begin();
    /// Wait for all tasks, stop the profile and return it (see Profile). Throws tessera::Error if
    /// profile_begin() was not called.
    Profile profile_end();
    /// Block until every submitted task (of every thread and sequence) has completed. Throws
    /// TaskError when a task the calling thread submitted outside any Sequence failed (see Sequence).
    static void wait_all();

    /// Tasks submitted and completed, and their flops, since the Runtime started (ProgressSnapshot).
    /// Always counted (two atomic additions per task); safe from any thread.
    ProgressSnapshot progress() const;
    /// Call `observer` with progress() from a task's completion callback (a StarPU worker thread),
    /// at most once every `min_interval_s` seconds, never from two threads at once (a completion
    /// that finds a call in progress skips it). What the observer throws is swallowed. An empty
    /// function clears it; this call waits for a call in progress, so once it returns the old
    /// observer is no longer running and will not be called again. The observer must be quick,
    /// must not wait for tasks and must not call set_progress_observer (that throws Error). Throws
    /// tessera::Error when min_interval_s is negative or not finite.
    void set_progress_observer(std::function<void(const ProgressSnapshot&)> observer, double min_interval_s = 0.25);
    /// Whether every task is being traced (RuntimeConfig::trace_path, record_trace or TESSERA_TRACE).
    bool tracing() const;
    /// The file the trace will be written to when the Runtime is destroyed ("" when not tracing or
    /// only recording);
    /// if it cannot be written then, one warning line goes to stderr.
    std::string trace_file() const;
    /// The tasks traced so far (completed since the start or clear_trace()), by worker and start
    /// time; empty when not tracing. Wait for the tasks first (e.g. Runtime::wait_all) to get all.
    std::vector<TaskRecord> trace_records() const;
    /// Forget the tasks traced so far (e.g. the set-up before the operation to study).
    void clear_trace();
    /// Write the tasks traced so far to `path` as Chrome/Perfetto trace-event JSON:
    /// {"traceEvents": [...], "displayTimeUnit": "ms"}, with one "X" event per task (name the
    /// codelet, ts and dur in microseconds since the Runtime started, pid the MPI rank, tid the
    /// worker id, args {tiles: [[i, j, mode], ...], bytes_in, flops, gflops}) and "M" events naming
    /// the process ("rank r") and each worker thread (thread_name). Opens in ui.perfetto.dev or
    /// chrome://tracing. Throws tessera::Error when not tracing or when the file cannot be written.
    void write_trace(const std::string& path) const;
    /// Write the trace file now (trace_file(): RuntimeConfig::trace_path or TESSERA_TRACE), after
    /// waiting for every task, instead of at destruction, so that a file that cannot be written is an
    /// error the caller sees (the destructor can only warn). Nothing when no trace file was asked for.
    /// The destructor then writes nothing; trace_file() is "" from here on (tracing and
    /// trace_records() go on). Throws tessera::Error "tessera::Runtime::finish_trace: cannot write
    /// the trace file PATH: REASON".
    void finish_trace();
};

/// While it lives, the process's BLAS library runs with the thread count the caller had before the
/// Runtime started (the Runtime sets it to 1 so that its workers do not oversubscribe the cores),
/// and StarPU's workers are paused (starpu_pause), so that idle workers do not spin on the cores
/// those threads need. For reference computations and checks on the application's thread: tasks
/// submitted in its scope wait until it ends, so nothing in its scope may wait for a task.
/// Without a running Runtime it does nothing.
class CallerBlasThreads {
public:
    CallerBlasThreads();
    ~CallerBlasThreads();
    CallerBlasThreads(const CallerBlasThreads&) = delete;
    CallerBlasThreads& operator=(const CallerBlasThreads&) = delete;

private:
    bool active_ = false;
};

}  // namespace tessera

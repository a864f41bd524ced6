// Progress of a run and execution traces: what Runtime::progress() and Runtime::trace_records()
// return. StarPU 1.3 as Debian ships it has no FxT, so Tessera records its own trace of every task.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

/// The Runtime's task counters at one moment (Runtime::progress(), or the argument of the progress
/// observer). Counts every task Tessera submitted since the Runtime started, in every Sequence and
/// thread (distributed: this rank's tasks only). Flops are the kernels' counts from LAPACK Working
/// Note 41 (complex 4× real; 0 for copies, row swaps and host fills), per task from its codelet and
/// tile shapes.
struct ProgressSnapshot {
    int64_t tasks_submitted = 0;  ///< tasks accepted by StarPU
    int64_t tasks_done = 0;       ///< tasks whose completion callback has run (done ≤ submitted)
    double flops_done = 0;        ///< flops of the completed tasks
    double seconds = 0;           ///< seconds since the Runtime started
    double flops_submitted = 0;   ///< flops of the submitted tasks (the work known so far)
};

/// One buffer of a traced task: the tile's indices in its TileMatrix and the access mode.
struct TileAccess {
    int64_t i = -1, j = -1;  ///< tile row and column in its TileMatrix; -1, -1 for a buffer that is
                             ///< no TileMatrix tile (a temporary tile, T factors, pivots, a token)
    std::string mode;        ///< "R", "W", "RW", "SCRATCH" or "REDUX"
};

/// One task that ran, as recorded while tracing (RuntimeConfig::trace_path or TESSERA_TRACE).
/// Times are seconds since the Runtime started, from StarPU's profiling info of the task.
struct TaskRecord {
    int rank = 0;             ///< MPI rank that ran it (0 in one process)
    int worker = -1;          ///< StarPU worker id
    std::string worker_name;  ///< StarPU's worker name, e.g. "CPU 0"
    std::string codelet;      ///< codelet name, precision letter then kernel, e.g. "dgemm"
    double start_s = 0;       ///< execution start (StarPU's start_time)
    double end_s = 0;         ///< execution end (StarPU's end_time; for an asynchronous OpenCL
                              ///< task, when StarPU saw its kernels complete)
    std::vector<TileAccess> tiles;  ///< its buffers, in codelet order
    /// Bytes of its read buffers (R or RW) that had no valid copy in its worker's memory node when
    /// the worker took the task from the scheduler (StarPU's pop): the data the task still had to
    /// receive before it could start, transfers already in flight (prefetches not finished)
    /// included. Data moved there earlier (a finished prefetch, a copy left by an earlier task)
    /// and write-only buffers do not count; neither do tiles received from other MPI ranks (they
    /// arrive before the task is ready). Always 0 on CPU workers of one process unless a tile's
    /// only valid copy was on a device.
    int64_t bytes_in = 0;
    double flops = 0;  ///< the kernel's flop count (as ProgressSnapshot)
};

}  // namespace tessera

// The Runtime's progress counters and task trace, fed by the codelet layer (codelets/codelet.cpp):
// every task's flops are counted at submission and at completion; while tracing, each task also
// carries a TaskTrace from submission to completion. Internal: not installed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tessera/trace.hpp"

struct starpu_task;

namespace tessera::detail {

/// At the end of Runtime construction (StarPU running): zero the counters, take the start time,
/// note the workers' names, and trace when `config_path` is non-empty or TESSERA_TRACE is set
/// (config_path wins; on MPI rank r > 0 the file is PATH.rank<r>) or `record` (records without a
/// file), turning StarPU's profiling on.
/// Throws std::bad_alloc.
void trace_begin(const std::string& config_path, bool record = false);
/// At Runtime destruction, once every task has completed: write the trace file when tracing (a
/// failure is one warning line on stderr), then stop tracing and drop the records and the observer.
void trace_end() noexcept;
/// Write the trace file now and forget its name, so that trace_end writes nothing (Runtime::finish_trace);
/// nothing when not tracing into a file. Throws Error when the file cannot be written.
void trace_finish();

// ---- Progress counters (always on).
/// A task is about to be submitted (before starpu_task_submit), or was refused after all.
void progress_submitted(double flops) noexcept;
void progress_refused(double flops) noexcept;
/// From a task's completion callback: count it done, then (progress_notify) call the observer
/// when one is set and its interval has passed, unless another thread is calling it.
void progress_completed(double flops) noexcept;
void progress_notify() noexcept;
ProgressSnapshot progress_snapshot() noexcept;
/// Replace the observer (an empty one clears it); waits for a call in progress to return.
/// Throws tessera::Error when min_interval_s is negative or not finite, or when called from the
/// observer itself.
void set_progress_observer(std::function<void(const ProgressSnapshot&)> observer, double min_interval_s);

// ---- Trace (only while tracing).
/// What a traced task carries from submission to completion.
struct TaskTrace {
    struct Buffer {
        int32_t i, j;   // tile coordinates (starpu_data_get_coordinates_array), -1 if none
        uint32_t mode;  // starpu_data_access_mode
    };
    std::vector<Buffer> buffers;
    int64_t bytes_in = 0;  // set when a worker pops the task
};

/// Whether tasks are being traced.
bool tracing() noexcept;
/// The path the trace is written to at Runtime destruction ("" when not tracing).
std::string trace_file();
/// For a task about to be submitted while tracing: its TaskTrace (buffers and their tile
/// coordinates, read now while every handle is alive), and its pop prologue set to measure
/// bytes_in. The task must not be submitted before the returned object is stored in its context.
/// Throws std::bad_alloc.
std::unique_ptr<TaskTrace> trace_prepare(starpu_task* task);
/// From the task's completion callback: record it (worker, StarPU's start and end times, buffers,
/// bytes_in, flops). Never throws (a record that cannot be stored is dropped).
void trace_record(const starpu_task* task, TaskTrace& trace, double flops) noexcept;
/// The records so far, in order of worker then start time.
std::vector<TaskRecord> trace_records();
void trace_clear() noexcept;
/// Write the records as Chrome/Perfetto trace-event JSON. Throws tessera::Error ("cannot write the
/// trace file PATH: reason", for the caller to prefix) when the file cannot be written.
void write_trace_file(const std::string& path);

}  // namespace tessera::detail

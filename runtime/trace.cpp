// Progress counters and the progress observer; task traces (recorded from StarPU's profiling info of
// each task and a pop prologue that measures the data a task still had to receive) and their
// Chrome/Perfetto trace-event JSON.
#include <starpu.h>
#include <starpu_profiling.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <utility>

#include "runtime/mpi_internal.hpp"
#include "runtime/trace_internal.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {
namespace {

struct Record {
    int worker;
    const char* codelet;  // the codelet's name: a function-local static string of codelets/*.cpp
    double start_s, end_s;
    int64_t bytes_in;
    double flops;
    std::vector<TaskTrace::Buffer> buffers;
};

struct State {
    double t0_us = 0;  // starpu_timing_now() when the Runtime started
    std::atomic<int64_t> submitted{0}, done{0};
    std::atomic<double> flops_submitted{0}, flops_done{0};

    std::mutex observer_lock;  // held while the observer runs: one caller at a time
    std::function<void(const ProgressSnapshot&)> observer;
    double interval_us = 0;
    std::atomic<bool> has_observer{false};
    std::atomic<double> next_call_us{0};  // no call before this time

    std::atomic<bool> tracing{false};
    std::string file;
    int rank = 0;
    std::vector<std::string> worker_names;
    std::mutex records_lock;
    std::vector<Record> records;
};
State& state() {
    static State s;
    return s;
}
thread_local bool t_in_observer = false;

double since_start_s(const timespec& t) {
    return (starpu_timing_timespec_to_us(const_cast<timespec*>(&t)) - state().t0_us) * 1e-6;
}

const char* mode_name(uint32_t mode) {
    switch (mode & (STARPU_RW | STARPU_SCRATCH | STARPU_REDUX)) {
        case STARPU_R: return "R";
        case STARPU_W: return "W";
        case STARPU_RW: return "RW";
        case STARPU_SCRATCH: return "SCRATCH";
        case STARPU_REDUX: return "REDUX";
        default: return "?";
    }
}

// Pop prologue (the popping worker's thread, before it fetches the task's data): the bytes of the
// task's read buffers with no valid copy on the worker's memory node yet.
void task_popped(void* arg) {
    auto* trace = static_cast<TaskTrace*>(arg);
    const starpu_task* task = starpu_task_get_current();
    const int worker = starpu_worker_get_id();
    if (!task || worker < 0) return;
    const int node = int(starpu_worker_get_memory_node(unsigned(worker)));
    int64_t bytes = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        if (!(STARPU_TASK_GET_MODE(task, i) & STARPU_R)) continue;
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        int valid = 1;
        starpu_data_query_status(h, node, nullptr, &valid, nullptr);
        if (!valid) bytes += int64_t(starpu_data_get_size(h));
    }
    trace->bytes_in = bytes;
}

}  // namespace

// ---- Progress

void progress_submitted(double flops) noexcept {
    state().flops_submitted.fetch_add(flops, std::memory_order_relaxed);
    state().submitted.fetch_add(1, std::memory_order_release);
}

void progress_refused(double flops) noexcept {
    state().submitted.fetch_sub(1, std::memory_order_relaxed);
    state().flops_submitted.fetch_sub(flops, std::memory_order_relaxed);
}

void progress_completed(double flops) noexcept {
    state().flops_done.fetch_add(flops, std::memory_order_relaxed);
    state().done.fetch_add(1, std::memory_order_release);
}

ProgressSnapshot progress_snapshot() noexcept {
    State& s = state();
    ProgressSnapshot p;
    p.tasks_done = s.done.load(std::memory_order_acquire);  // done first: done <= submitted
    p.flops_done = s.flops_done.load(std::memory_order_relaxed);
    p.tasks_submitted = s.submitted.load(std::memory_order_acquire);
    p.flops_submitted = s.flops_submitted.load(std::memory_order_relaxed);
    p.seconds = (starpu_timing_now() - s.t0_us) * 1e-6;
    return p;
}

void progress_notify() noexcept {
    State& s = state();
    if (!s.has_observer.load(std::memory_order_acquire)) return;
    const double now = starpu_timing_now();
    if (now < s.next_call_us.load(std::memory_order_relaxed)) return;
    std::unique_lock<std::mutex> lock(s.observer_lock, std::try_to_lock);
    if (!lock.owns_lock() || !s.observer || now < s.next_call_us.load()) return;
    s.next_call_us.store(now + s.interval_us);
    t_in_observer = true;
    try {
        s.observer(progress_snapshot());
    } catch (...) {  // never into StarPU's C code
    }
    t_in_observer = false;
}

void set_progress_observer(std::function<void(const ProgressSnapshot&)> observer, double min_interval_s) {
    if (!std::isfinite(min_interval_s) || min_interval_s < 0)
        throw Error("tessera::Runtime::set_progress_observer: argument 'min_interval_s' = " +
                    std::to_string(min_interval_s) + " must be finite and >= 0");
    if (t_in_observer)
        throw Error("tessera::Runtime::set_progress_observer: cannot be called from the progress observer");
    State& s = state();
    std::function<void(const ProgressSnapshot&)> old;
    {
        std::lock_guard<std::mutex> guard(s.observer_lock);  // waits for a call in progress
        old = std::exchange(s.observer, std::move(observer));
        s.interval_us = min_interval_s * 1e6;
        s.next_call_us.store(0);
        s.has_observer.store(bool(s.observer), std::memory_order_release);
    }
}  // `old` goes outside the lock

// ---- Trace

void trace_begin(const std::string& config_path, bool record) {
    State& s = state();
    s.submitted = 0, s.done = 0, s.flops_submitted = 0, s.flops_done = 0;
    s.t0_us = starpu_timing_now();
    s.rank = rank();
    s.worker_names.clear();
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        char name[128] = "?";
        starpu_worker_get_name(int(w), name, sizeof name);
        s.worker_names.emplace_back(name);
    }
    std::string path = config_path;
    const char* env = std::getenv("TESSERA_TRACE");
    if (path.empty() && env) path = env;
    if (!path.empty() && s.rank > 0) path += ".rank" + std::to_string(s.rank);
    s.file = path;
    trace_clear();
    if (path.empty() && !record) return;
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);  // task start and end times
    s.tracing.store(true);
}

void trace_end() noexcept {
    State& s = state();
    if (s.tracing.load() && !s.file.empty()) {
        try {
            write_trace_file(s.file);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tessera::~Runtime: warning: %s\n", e.what());
        }
    }
    s.tracing.store(false);
    s.file.clear();
    trace_clear();
    try {
        set_progress_observer({}, 0);
    } catch (...) {  // only from inside the observer, which cannot run any more
    }
}

void trace_finish() {
    State& s = state();
    if (!s.tracing.load() || s.file.empty()) return;
    const std::string path = std::move(s.file);
    s.file.clear();  // written here or failed here: trace_end neither writes nor warns again
    write_trace_file(path);
}

bool tracing() noexcept { return state().tracing.load(std::memory_order_relaxed); }
std::string trace_file() { return tracing() ? state().file : std::string(); }

std::unique_ptr<TaskTrace> trace_prepare(starpu_task* task) {
    auto trace = std::make_unique<TaskTrace>();
    const unsigned n = STARPU_TASK_GET_NBUFFERS(task);
    trace->buffers.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
        int ij[2] = {-1, -1};
        if (starpu_data_get_coordinates_array(STARPU_TASK_GET_HANDLE(task, i), 2, ij) != 2) ij[0] = ij[1] = -1;
        trace->buffers.push_back({ij[0], ij[1], uint32_t(STARPU_TASK_GET_MODE(task, i))});
    }
    task->prologue_callback_pop_func = task_popped;
    task->prologue_callback_pop_arg = trace.get();
    task->prologue_callback_pop_arg_free = 0;
    return trace;
}

void trace_record(const starpu_task* task, TaskTrace& trace, double flops) noexcept {
    Record r{starpu_worker_get_id(), "?", 0, 0, trace.bytes_in, flops, std::move(trace.buffers)};
    if (task && task->cl && task->cl->name) r.codelet = task->cl->name;
    if (task && task->profiling_info) {
        r.worker = task->profiling_info->workerid;
        r.start_s = since_start_s(task->profiling_info->start_time);
        r.end_s = since_start_s(task->profiling_info->end_time);
    } else {  // profiling turned off behind our back: the completion time
        r.start_s = r.end_s = (starpu_timing_now() - state().t0_us) * 1e-6;
    }
    try {
        std::lock_guard<std::mutex> guard(state().records_lock);
        state().records.push_back(std::move(r));
    } catch (...) {  // out of memory: the record is lost, the task is not
    }
}

std::vector<TaskRecord> trace_records() {
    State& s = state();
    std::vector<TaskRecord> out;
    {
        std::lock_guard<std::mutex> guard(s.records_lock);
        out.reserve(s.records.size());
        for (const Record& r : s.records) {
            TaskRecord t;
            t.rank = s.rank;
            t.worker = r.worker;
            if (r.worker >= 0 && size_t(r.worker) < s.worker_names.size()) t.worker_name = s.worker_names[size_t(r.worker)];
            t.codelet = r.codelet;
            t.start_s = r.start_s, t.end_s = r.end_s;
            for (const TaskTrace::Buffer& b : r.buffers) t.tiles.push_back({b.i, b.j, mode_name(b.mode)});
            t.bytes_in = r.bytes_in;
            t.flops = r.flops;
            out.push_back(std::move(t));
        }
    }
    std::sort(out.begin(), out.end(), [](const TaskRecord& a, const TaskRecord& b) {
        return a.worker != b.worker ? a.worker < b.worker : a.start_s < b.start_s;
    });
    return out;
}

void trace_clear() noexcept {
    std::lock_guard<std::mutex> guard(state().records_lock);
    state().records.clear();
}

void write_trace_file(const std::string& path) {
    using nlohmann::json;
    const State& s = state();
    json events = json::array();
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", s.rank}, {"tid", 0},
                      {"args", {{"name", "rank " + std::to_string(s.rank)}}}});
    for (size_t w = 0; w < s.worker_names.size(); ++w)
        events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", s.rank}, {"tid", w},
                          {"args", {{"name", s.worker_names[w]}}}});
    for (const TaskRecord& r : trace_records()) {
        json tiles = json::array();
        for (const TileAccess& t : r.tiles) tiles.push_back(json::array({t.i, t.j, t.mode}));
        const double dur = std::max(0.0, r.end_s - r.start_s);
        events.push_back({{"name", r.codelet}, {"ph", "X"}, {"ts", r.start_s * 1e6}, {"dur", dur * 1e6},
                          {"pid", s.rank}, {"tid", r.worker},
                          {"args", {{"tiles", std::move(tiles)}, {"bytes_in", r.bytes_in}, {"flops", r.flops},
                                    {"gflops", dur > 0 ? r.flops / dur * 1e-9 : 0.0}}}});
    }
    const json doc = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
    std::ofstream out(path, std::ios::out | std::ios::trunc);
    if (!out) throw Error("cannot write the trace file " + path + ": " + std::strerror(errno));
    out << doc.dump() << '\n';
    out.close();
    if (!out) throw Error("cannot write the trace file " + path + ": write failed");
}

}  // namespace tessera::detail

// Run profiles: per-task records (StarPU's task profiling info, read in a chained callback),
// OpenCL kernel intervals (markers timed on the device clock where the driver lets the profile turn
// on event profiling of StarPU's kernel queues, else marker completion callbacks on the host clock),
// bus counters, and the summary table.
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS  // clSetCommandQueueProperty: StarPU's queues are made without profiling
#include <starpu.h>
#include <starpu_profiling.h>
#include <CL/cl_icd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/opencl_registry.hpp"
#include "runtime/profile_internal.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {
namespace {

using Clock = std::chrono::steady_clock;

struct TaskRecord {
    int worker;
    std::string name;
    double exec_s, wait_s;
    bool uncalibrated;
};

// Whether the scheduler placed `task` to calibrate its perfmodel. StarPU 1.3's performance-model
// schedulers (dm, dmda, dmdar, dmdas, dmdasd) record their prediction in task->predicted, and
// force a task whose model has no calibrated entry for a worker onto that worker with a prediction
// of exactly 0 (a marker, not a computed time); other schedulers leave it NaN.
bool placed_to_calibrate(const starpu_task* task) { return task->cl->model && task->predicted == 0.0; }
struct SpanRecord {
    int worker;
    std::string name;
    std::atomic<double> start{-1}, end{-1};  // seconds since profile start, set by event callbacks
    cl_event marker[2] = {nullptr, nullptr};  // device clock: the markers themselves, read at the stop
};

struct Recorder {
    std::atomic<bool> active{false};
    bool device_clock = false;  // every OpenCL worker's queue has event profiling on
    std::vector<cl_command_queue> profiled_queues;
    std::map<int, cl_ulong> origin_ns;  // per OpenCL device: its clock when the profile started
    Clock::time_point t0;
    std::mutex lock;
    std::deque<TaskRecord> tasks;
    std::deque<SpanRecord> spans;  // deque: addresses stay valid for the callbacks
};
Recorder& recorder() {
    static Recorder r;
    return r;
}

double since_start() { return std::chrono::duration<double>(Clock::now() - recorder().t0).count(); }
double seconds(const timespec& a, const timespec& b) { return starpu_timing_timespec_delay_us(
    const_cast<timespec*>(&a), const_cast<timespec*>(&b)) * 1e-6; }

struct Chained {
    void (*func)(void*);
    void* arg;
};

void record_task(void* arg) {
    const Chained chained = *static_cast<Chained*>(arg);
    delete static_cast<Chained*>(arg);
    starpu_task* task = starpu_task_get_current();
    if (task && task->profiling_info && task->cl) {
        const starpu_profiling_task_info& info = *task->profiling_info;
        TaskRecord rec{info.workerid, task->cl->name ? task->cl->name : "?", seconds(info.start_time, info.end_time),
                       seconds(info.acquire_data_start_time, info.acquire_data_end_time), placed_to_calibrate(task)};
        std::lock_guard<std::mutex> guard(recorder().lock);
        recorder().tasks.push_back(std::move(rec));
    }
    if (chained.func) chained.func(chained.arg);
}

void CL_CALLBACK mark_time(cl_event event, cl_int, void* slot) {
    static_cast<std::atomic<double>*>(slot)->store(since_start());
    clReleaseEvent(event);
}

/// Enqueue a marker on `q`: kept in `marker` (device clock), or its completion time sent to `slot`.
void enqueue_marker(cl_command_queue q, cl_event* marker, std::atomic<double>* slot) {
    cl_event event = nullptr;
    if (clEnqueueMarkerWithWaitList(q, 0, nullptr, &event) != CL_SUCCESS) return;
    if (recorder().device_clock)
        *marker = event;
    else if (clSetEventCallback(event, CL_COMPLETE, mark_time, slot) != CL_SUCCESS)
        clReleaseEvent(event);
}

/// Whether the driver behind `q` implements the deprecated clSetCommandQueueProperty: the ICD
/// loader calls through the object's dispatch table without checking, and some drivers (PoCL)
/// leave the entry empty. Every ICD object starts with its dispatch table (Khronos ICD spec).
bool can_set_property(cl_command_queue q) {
    return q && (*reinterpret_cast<cl_icd_dispatch* const*>(q))->clSetCommandQueueProperty != nullptr;
}

/// The device clock of `q` now (ns): a marker enqueued on the idle queue and waited for.
cl_ulong device_now(cl_command_queue q) {
    cl_event e = nullptr;
    cl_ulong t = 0;
    if (clEnqueueMarkerWithWaitList(q, 0, nullptr, &e) != CL_SUCCESS) return 0;
    if (clWaitForEvents(1, &e) == CL_SUCCESS)
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr);
    clReleaseEvent(e);
    return t;
}

/// Turn event profiling on for every OpenCL worker's kernel queue (StarPU 1.3 creates them without
/// it) and note each device's clock; true if the driver allowed it for all. Undone by
/// unprofile_queues().
bool profile_queues(std::vector<cl_command_queue>& done, std::map<int, cl_ulong>& origin) {
    bool all = true;
    for (int dev : opencl_devids()) {
        cl_command_queue q = nullptr;
        starpu_opencl_get_queue(dev, &q);
        cl_command_queue_properties old = 0;
        if (can_set_property(q) && clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old) == CL_SUCCESS) {
            if (!(old & CL_QUEUE_PROFILING_ENABLE)) done.push_back(q);
            origin[dev] = device_now(q);
        } else {
            all = false;
        }
    }
    return all;
}
void unprofile_queues(std::vector<cl_command_queue>& done) {
    for (cl_command_queue q : done) clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, nullptr);
    done.clear();
}

/// Device-clock interval of a span, in seconds since its device's origin; false if unreadable.
bool device_interval(SpanRecord& s, cl_ulong origin, double& a, double& b) {
    cl_ulong t[2] = {0, 0};
    bool ok = s.marker[0] && s.marker[1] && clWaitForEvents(1, &s.marker[1]) == CL_SUCCESS;
    for (int i = 0; i < 2 && ok; ++i)
        ok = clGetEventProfilingInfo(s.marker[i], CL_PROFILING_COMMAND_END, sizeof t[i], &t[i], nullptr) == CL_SUCCESS;
    for (cl_event& e : s.marker)
        if (e) clReleaseEvent(e), e = nullptr;
    a = double(int64_t(t[0] - origin)) * 1e-9, b = double(int64_t(t[1] - origin)) * 1e-9;
    return ok && origin != 0;
}

std::string node_name(int node) {
    char name[64] = "?";
    starpu_memory_node_get_name(unsigned(node), name, sizeof name);
    return name;
}

}  // namespace

bool profile_active() { return recorder().active.load(std::memory_order_relaxed); }

void profile_task(starpu_task* task) {
    task->callback_arg = new Chained{task->callback_func, task->callback_arg};
    task->callback_func = record_task;
}

void profile_forget(starpu_task* task) noexcept {
    if (task->callback_func != record_task) return;
    auto* chained = static_cast<Chained*>(task->callback_arg);
    task->callback_func = chained->func;
    task->callback_arg = chained->arg;
    delete chained;
}

KernelSpan::KernelSpan(cl_command_queue queue) : queue_(queue) {
    if (!profile_active()) return;
    starpu_task* task = starpu_task_get_current();
    auto& r = recorder();
    SpanRecord* rec;
    {
        std::lock_guard<std::mutex> guard(r.lock);
        rec = &r.spans.emplace_back();
    }
    rec->worker = starpu_worker_get_id();
    rec->name = task && task->cl && task->cl->name ? task->cl->name : "?";
    record_ = rec;
    enqueue_marker(queue_, &rec->marker[0], &rec->start);
}

KernelSpan::~KernelSpan() {
    if (!record_) return;
    SpanRecord* rec = static_cast<SpanRecord*>(record_);
    enqueue_marker(queue_, &rec->marker[1], &rec->end);
}

void profile_start() {
    auto& r = recorder();
    std::lock_guard<std::mutex> guard(r.lock);
    r.tasks.clear();
    r.spans.clear();
    for (int b = 0; b < starpu_bus_get_count(); ++b) {
        starpu_profiling_bus_info info;
        starpu_bus_get_profiling_info(b, &info);  // resets the bus counters
    }
    r.origin_ns.clear();
    r.device_clock = profile_queues(r.profiled_queues, r.origin_ns);
    r.t0 = Clock::now();
    r.active = true;
}

Profile profile_stop(const std::vector<starpu_profiling_worker_info>& workers) {
    auto& r = recorder();
    Profile p;
    p.wall_s = since_start();
    r.active = false;
    p.device_clock = r.device_clock;
    if (r.device_clock) {
        std::lock_guard<std::mutex> guard(r.lock);
        for (SpanRecord& s : r.spans) {
            double a = -1, b = -1;
            if (device_interval(s, r.origin_ns[starpu_worker_get_devid(s.worker)], a, b)) s.start = a, s.end = b;
        }
    }
    unprofile_queues(r.profiled_queues);
    // Marker callbacks may still be on their way after the tasks completed: wait up to a second.
    for (int i = 0; i < 1000 && !r.device_clock; ++i) {
        std::lock_guard<std::mutex> guard(r.lock);
        if (std::all_of(r.spans.begin(), r.spans.end(), [](const SpanRecord& s) { return s.end.load() >= 0; })) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::lock_guard<std::mutex> guard(r.lock);

    for (size_t w = 0; w < workers.size(); ++w) {
        Profile::Worker pw;
        char name[128];
        starpu_worker_get_name(int(w), name, sizeof name);
        pw.name = name;
        pw.opencl = starpu_worker_get_type(int(w)) == STARPU_OPENCL_WORKER;
        pw.tasks = workers[w].executed_tasks;
        pw.executing_s = starpu_timing_timespec_to_us(const_cast<timespec*>(&workers[w].executing_time)) * 1e-6;
        p.workers.push_back(pw);
    }
    std::map<std::pair<std::string, bool>, Profile::Codelet> codelets;
    for (const TaskRecord& t : r.tasks) {
        if (t.worker < 0 || size_t(t.worker) >= p.workers.size()) continue;
        p.workers[size_t(t.worker)].wait_data_s += t.wait_s;
        const bool opencl = p.workers[size_t(t.worker)].opencl;
        Profile::Codelet& c = codelets[{t.name, opencl}];
        c.name = t.name, c.opencl = opencl;
        c.tasks += 1;
        c.uncalibrated += t.uncalibrated ? 1 : 0;
        if (!opencl) c.seconds += t.exec_s;
    }
    // Kernel time per OpenCL worker: the union of its spans (a span may start before the previous
    // one's end is reported when callbacks are late).
    std::map<int, std::vector<std::pair<double, double>>> intervals;
    for (const SpanRecord& s : r.spans) {
        const double a = s.start.load(), b = s.end.load();
        if (a < 0 || b < a) continue;
        intervals[s.worker].push_back({a, b});
        auto& c = codelets[{s.name, true}];
        c.name = s.name, c.opencl = true;
        c.seconds += b - a;
    }
    for (auto& [w, iv] : intervals) {
        std::sort(iv.begin(), iv.end());
        double busy = 0, lo = -1, hi = -1;
        for (auto [a, b] : iv) {
            if (a > hi) {
                busy += hi - lo;
                lo = a, hi = b;
            } else {
                hi = std::max(hi, b);
            }
        }
        busy += hi - lo;
        if (w < 0 || size_t(w) >= p.workers.size()) continue;
        Profile::Worker& pw = p.workers[size_t(w)];
        pw.kernel_s = busy;
        pw.first_kernel_s = iv.front().first;
        for (auto [a, b] : iv) pw.last_kernel_s = std::max(pw.last_kernel_s, b);
        // Idle time per tenth of the wall: busy time is subtracted interval by interval.
        pw.idle_by_tenth.assign(10, p.wall_s / 10);
        for (auto [a, b] : iv)
            for (int t = 0; t < 10; ++t) {
                const double lo_t = p.wall_s * t / 10, hi_t = p.wall_s * (t + 1) / 10;
                pw.idle_by_tenth[size_t(t)] -= std::max(0.0, std::min(b, hi_t) - std::max(a, lo_t));
            }
        for (double& x : pw.idle_by_tenth) x = std::max(0.0, x);
    }
    for (auto& [key, c] : codelets) p.codelets.push_back(c);
    std::sort(p.codelets.begin(), p.codelets.end(),
              [](const Profile::Codelet& a, const Profile::Codelet& b) { return a.seconds > b.seconds; });
    for (int b = 0; b < starpu_bus_get_count(); ++b) {
        starpu_profiling_bus_info info;
        if (starpu_bus_get_profiling_info(b, &info) != 0 || info.transferred_bytes == 0) continue;
        p.transfers.push_back({node_name(starpu_bus_get_src(b)), node_name(starpu_bus_get_dst(b)),
                               int64_t(info.transferred_bytes), long(info.transfer_count)});
    }
    return p;
}

}  // namespace tessera::detail

namespace tessera {

std::string Profile::table() const {
    std::string s;
    char line[256];
    auto add = [&](const char* fmt, auto... args) {
        std::snprintf(line, sizeof line, fmt, args...);
        s += line;
    };
    add("profile   wall %.3f s; tile storage %s; kernel times from the %s", wall_s, pinned ? "pinned" : "pageable",
        device_clock ? "device clock (OpenCL event profiling)" : "host clock (marker callbacks, approximate)");
    add("; StarPU's own host blocks since start: %ld (%ld pinned anew)", starpu_host_blocks, starpu_new_pins);
    if (probe_h2d_gbps > 0)
        add("; copy probe host->device %.1f GB/s, device->host %.1f GB/s (a non-blocking copy holds its caller "
            "%.0f%% / %.0f%% of its time)",
            probe_h2d_gbps, probe_d2h_gbps, 100 * probe_h2d_enqueue, 100 * probe_d2h_enqueue);
    s += "\n";
    add("  %-32s %6s %9s %9s %6s %11s\n", "worker", "tasks", "exec_s", "kernel_s", "busy%", "wait_data_s");
    for (const Worker& w : workers) {
        const double busy = w.opencl ? w.kernel_s : w.executing_s;  // CPU: kernel time = execution time
        add("  %-32.32s %6ld %9.3f %9.3f %6.1f %11.3f\n", w.name.c_str(), w.tasks, w.executing_s, busy,
            wall_s > 0 ? 100 * busy / wall_s : 0.0, w.wait_data_s);
    }
    for (const Worker& w : workers)
        if (w.opencl && w.kernel_s > 0)
            add("  %s: first kernel starts at %.3f s, last ends at %.3f s; idle %.3f s between them\n",
                w.name.substr(0, w.name.find(" (")).c_str(), w.first_kernel_s, w.last_kernel_s, w.last_kernel_s - w.first_kernel_s - w.kernel_s);
    for (const Worker& w : workers)
        if (w.opencl && !w.idle_by_tenth.empty()) {
            s += "    idle ms per tenth of the wall:";
            for (double x : w.idle_by_tenth) add(" %.1f", 1e3 * x);
            s += "\n";
        }
    add("  %-12s %-6s %6s %9s %9s %7s\n", "codelet", "on", "tasks", "seconds", "mean_ms", "uncalib");
    std::string uncalibrated;
    for (const Codelet& c : codelets) {
        add("  %-12s %-6s %6ld %9.3f %9.3f %7ld\n", c.name.c_str(), c.opencl ? "OpenCL" : "CPU", c.tasks, c.seconds,
            c.tasks ? 1e3 * c.seconds / double(c.tasks) : 0.0, c.uncalibrated);
        if (c.uncalibrated > 0)
            uncalibrated += (uncalibrated.empty() ? "" : ", ") + c.name + " " + std::to_string(c.uncalibrated) + " of " +
                            std::to_string(c.tasks) + " on " + (c.opencl ? "OpenCL" : "CPU");
    }
    if (!uncalibrated.empty())
        s += "  uncalibrated: " + uncalibrated +
             ": placed to time their perfmodel (fewer than STARPU_CALIBRATE_MINIMUM measurements of that tile size "
             "on that kind of worker), not where they run fastest; this run is slower than a calibrated one: run "
             "again (or use --warmup) until this line disappears (docs/tuning.md)\n";
    for (const Transfer& t : transfers)
        add("  transfer %-10s -> %-10s %9.3f GB in %6ld copies (%.2f GB/s over the wall time)\n", t.from.c_str(),
            t.to.c_str(), double(t.bytes) * 1e-9, t.count, wall_s > 0 ? double(t.bytes) * 1e-9 / wall_s : 0.0);
    return s;
}

}  // namespace tessera

// The tools' --quiet, --trace and --gantt (tool_trace.hpp).
#include "examples/common/tool_trace.hpp"

#include <algorithm>
#include <cctype>

#include "examples/common/plot.hpp"
#include "examples/common/tool_main.hpp"
#include "tessera/types.hpp"

namespace tessera::tool {

namespace {

std::string lower_extension(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    std::string ext = dot == std::string::npos ? "" : path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

/// path with ".rank<r>" before its extension (rank 0: path itself).
std::string rank_path(const std::string& path, int rank) {
    if (rank == 0) return path;
    const size_t dot = path.find_last_of('.');
    const std::string tag = ".rank" + std::to_string(rank);
    return dot == std::string::npos ? path + tag : path.substr(0, dot) + tag + path.substr(dot);
}

}  // namespace

void add_watch_options(CLI::App& app, WatchOptions& o) {
    app.add_flag("--quiet", o.quiet, "no progress lines on stderr");
    app.add_option("--trace", o.trace,
                   "write every task (worker, start, end, codelet, tiles, bytes received, flops) to FILE as "
                   "Chrome/Perfetto trace-event JSON (also: TESSERA_TRACE=FILE)");
    app.add_option("--gantt", o.gantt, "draw the per-worker Gantt chart of the run into FILE.png or FILE.svg");
}

void check_picture_path(const std::string& option, const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext != ".png" && ext != ".svg")
        throw Error(option + " " + path + ": the picture's file name must end in .png or .svg");
}

RuntimeConfig runtime_config(const WatchOptions& o, RuntimeConfig base) {
    if (!o.gantt.empty()) check_picture_path("--gantt", o.gantt);
    base.trace_path = o.trace;
    base.record_trace = base.record_trace || !o.gantt.empty();
    return base;
}

void finish_trace(Runtime& rt) {
    writing_output([&] { rt.finish_trace(); });
}

long draw_gantt_of_run(const Runtime& rt, const WatchOptions& o, const std::string& title) {
    if (o.gantt.empty()) return 0;
    const std::vector<TaskRecord> records = rt.trace_records();
    std::vector<std::string> lanes;
    std::vector<int> lane_of_worker;
    for (const WorkerStats& w : rt.worker_stats()) {
        if (w.id >= int(lane_of_worker.size())) lane_of_worker.resize(size_t(w.id) + 1, -1);
        lane_of_worker[size_t(w.id)] = int(lanes.size());
        lanes.push_back(w.name);
    }
    std::vector<plot::GanttBar> bars;
    bars.reserve(records.size());
    for (const TaskRecord& r : records) {
        if (r.worker < 0 || r.worker >= int(lane_of_worker.size()) || lane_of_worker[size_t(r.worker)] < 0) continue;
        bars.push_back({lane_of_worker[size_t(r.worker)], r.start_s, std::max(r.end_s, r.start_s), r.codelet});
    }
    plot::draw_gantt(rank_path(o.gantt, rt.rank()), 1400, 160 + 60 * int(std::max<size_t>(lanes.size(), 1)), lanes,
                     bars, title);
    return long(bars.size());
}

}  // namespace tessera::tool

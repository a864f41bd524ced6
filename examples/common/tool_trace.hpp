// The tools' options about watching a run: --quiet (no progress on stderr), --trace FILE (every
// task as Chrome/Perfetto trace-event JSON) and --gantt FILE.png|svg (a per-worker Gantt chart of
// the tasks), shared by the applications and tessera-solve. docs/tuning.md#execution-traces.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "tessera/runtime.hpp"

namespace tessera::tool {

/// What the user asked to see of a run.
struct WatchOptions {
    bool quiet = false;  ///< --quiet: no progress lines on stderr
    std::string trace;   ///< --trace: trace-event JSON file ("" = none; TESSERA_TRACE still applies)
    std::string gantt;   ///< --gantt: Gantt chart file, .png or .svg ("" = none)
};

/// Register --quiet, --trace FILE and --gantt FILE on `app`.
void add_watch_options(CLI::App& app, WatchOptions& o);

/// The Runtime configuration that records what `o` asks for: trace_path = --trace, and the tasks
/// recorded (record_trace) when a Gantt chart is wanted.
RuntimeConfig runtime_config(const WatchOptions& o, RuntimeConfig base = {});

/// After the work, before the Runtime is destroyed: draw the Gantt chart of every task recorded
/// (lanes: the workers, bars: tasks coloured by codelet, seconds since the Runtime started) into
/// o.gantt, 1400 × (160 + 60 per worker) pixels, titled `title`; on MPI rank r > 0 into
/// o.gantt with ".rank<r>" before its extension. Nothing when o.gantt is empty. Returns the number
/// of tasks drawn. Throws tessera::Error for an unknown extension or an unwritable file.
long draw_gantt_of_run(const Runtime& rt, const WatchOptions& o, const std::string& title);

/// After the work: write the trace file that --trace or TESSERA_TRACE asked for now
/// (Runtime::finish_trace), so that one that cannot be written fails the run (tool::WorkFailed, exit
/// 1) instead of a warning at the Runtime's destruction and exit 0. Nothing when no trace was asked for.
void finish_trace(Runtime& rt);

/// Refuse, before any work, a --gantt file whose extension is neither .png nor .svg.
void check_picture_path(const std::string& option, const std::string& path);

}  // namespace tessera::tool

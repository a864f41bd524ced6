// Progress of one stage of a tool on stderr: a self-overwriting line on a terminal, one plain line
// per stage otherwise (logs, pipes, ctest), nothing when quiet.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include "tessera/runtime.hpp"

namespace tessera::tool {

/// While alive, shows the progress of one stage of a tool. Two kinds of stage:
/// - tasks: ProgressDisplay(runtime, stage, quiet) counts the Runtime's tasks and flops from its
///   construction (Runtime::progress() then is the zero) and, on a terminal, refreshes
///   "stage: 1234/5000 tasks  45.2 GFLOP/s  ETA 12 s" from the Runtime's progress observer (at most
///   4 times a second; ETA from the fraction of the submitted flops done, or of the tasks when the
///   stage has no flops; left out while unknown). At most one such display per Runtime at a time:
///   it holds the Runtime's observer, and must not outlive the Runtime.
/// - other work (reading a large file, generating on the host): ProgressDisplay(stage, quiet) and
///   update(done, total) as it goes: "stage: 45%  ETA 12 s".
/// On destruction the line is replaced by the final one: "stage: 5000 tasks in 12.3 s, 45.2 GFLOP/s"
/// (the rate left out without flops), or "stage: done in 12.3 s" ("stage: 45% after 3.2 s" when
/// the work stopped short). When the output is not a terminal, only that final line is written,
/// once, with no carriage return; when quiet, nothing. Thread-safe between update(), the
/// observer and the destructor.
class ProgressDisplay {
public:
    /// A stage of tasks on `runtime`, shown on stderr (a terminal when isatty(2)).
    ProgressDisplay(Runtime& runtime, std::string stage, bool quiet);
    /// A stage of other work, shown on stderr (a terminal when isatty(2)).
    ProgressDisplay(std::string stage, bool quiet);
    /// The same, written to `out`, taken for a terminal when `terminal` (for tests and redirection).
    ProgressDisplay(Runtime& runtime, std::string stage, bool quiet, std::FILE* out, bool terminal);
    ProgressDisplay(std::string stage, bool quiet, std::FILE* out, bool terminal);
    /// Writes the final line (see the class); never throws.
    ~ProgressDisplay();
    ProgressDisplay(const ProgressDisplay&) = delete;
    ProgressDisplay& operator=(const ProgressDisplay&) = delete;

    /// Work that is not tasks: `done` of `total` units (any unit, total > 0) so far; the terminal
    /// line is refreshed at most 4 times a second. Ignored for a stage of tasks.
    void update(double done, double total);

private:
    void on_progress(const ProgressSnapshot& now);
    void show(const std::string& line);  // the transient line (terminal only); lock_ held
    std::string tasks_line(const ProgressSnapshot& now, bool final) const;
    std::string work_line(double elapsed_s, bool final) const;
    double elapsed_s() const;

    Runtime* runtime_ = nullptr;  // a stage of tasks; nullptr for other work
    std::string stage_;
    bool quiet_;
    std::FILE* out_;
    bool terminal_;
    ProgressSnapshot start_;     // the Runtime's counters at construction (tasks)
    double start_s_ = 0;         // steady clock at construction (other work)
    double done_ = 0, total_ = 0;  // other work: the last update()
    double last_shown_s_ = -1;     // other work: when the terminal line was last refreshed
    bool shown_ = false;           // a transient line is on the terminal
    std::mutex lock_;
};

}  // namespace tessera::tool

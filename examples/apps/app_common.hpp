// What the three airport applications share: their common command-line options, their main's error
// discipline, a wall clock, and the report lines about data, runtime and timing. Header-only.
#pragma once

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

#include "examples/apps/airports.hpp"
#include "examples/common/tool_main.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"

namespace tessera::apps {

/// Options every application accepts. `n` < 0 means every training airport.
struct CommonOptions {
    int64_t n = -1;          ///< use the first n training airports (< 0: all of them)
    int64_t nb = 320;        ///< tile size (rows = columns of a full tile)
    std::string prec = "d";  ///< "s" (float) or "d" (double)
    std::string data;        ///< CSV file to read instead of the embedded airports.csv
    bool check = false;      ///< exit 1 unless the application's acceptance checks pass
};

/// Register --n, --nb, --prec, --data and --check on `app`; `check_help` says what --check verifies.
inline void add_common_options(CLI::App& app, CommonOptions& o, const char* check_help) {
    auto* n = app.add_option("--n", o.n, o.n < 0 ? "use the first N training airports (default: all of them)"
                                                  : "use the first N training airports")
                  ->check(CLI::Range(int64_t(1), int64_t(1) << 40));
    if (o.n > 0) n->capture_default_str();
    app.add_flag_callback("--all", [&o] { o.n = -1; }, "use every training airport")->excludes(n);
    app.add_option("--nb", o.nb, "tile size")->capture_default_str()->check(CLI::Range(int64_t(1), int64_t(1) << 20));
    app.add_option("--prec", o.prec, "precision: s (float) or d (double)")->capture_default_str()
        ->check(CLI::IsMember({"s", "d"}));
    app.add_option("--data", o.data, "airports CSV to use instead of the embedded examples/data/airports.csv")
        ->check(CLI::ExistingFile);
    app.add_flag("--check", o.check, check_help);
}

/// Parse the command line; returns -1 to go on, else the exit code (0 for --help, tool::kRefused for
/// an error, printed as one line).
inline int parse_command_line(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "%s: %s\n", app.get_name().c_str(), e.what());
        return tool::kRefused;
    }
    return -1;
}

/// An application's main: body() under tool::guarded_main (no exception leaves main; exit codes
/// kOk, kFailed, kRefused), with a malformed data file (DataError, "FILE:LINE: what is wrong")
/// refused like an invalid argument.
template <class Body>
int guarded_app_main(const char* prog, Body&& body) {
    return tool::guarded_main(prog, [&]() -> int {
        try {
            return body();
        } catch (const DataError& e) {
            std::fprintf(stderr, "%s: %s\n", prog, e.what());
            return tool::kRefused;
        }
    });
}

/// Refuse, before allocating any of them, `copies` dense rows×cols matrices of T (column-major arrays
/// and tile storage alike) that need more host memory than is available, or more bytes than a 64-bit
/// count can hold. An over-committed allocation would succeed and the process be killed on first touch.
template <class T>
void require_dense_memory(const std::string& who, int64_t rows, int64_t cols, uint64_t copies) {
    detail::require_host_arrays(who, rows, cols, sizeof(T), copies);
}

/// Wall-clock seconds since construction or the last restart().
class Stopwatch {
public:
    Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
    void restart() { t0_ = std::chrono::steady_clock::now(); }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

private:
    std::chrono::steady_clock::time_point t0_;
};

/// flops / seconds in GFLOP/s (0 when the time is 0).
inline double gflops(double flops, double seconds) { return seconds > 0 ? flops / seconds * 1e-9 : 0.0; }

/// printf on MPI rank 0 only (a process without MPI is rank 0): under mpirun every rank runs the
/// application and rank 0 alone reports.
__attribute__((format(printf, 1, 2))) inline void report(const char* format, ...) {
    if (Runtime::rank() != 0) return;
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
}

/// Report lines (rank 0) about the data and the runtime (workers, scheduler, precision, tile size,
/// and the process grid when distributed).
inline void print_setup(const AirportData& d, const Runtime& rt, const CommonOptions& o) {
    report("data       %s: %lld rows, %lld training airports (using %zu), %zu held out (every 10th row)\n",
           d.source.c_str(), (long long)d.rows, (long long)d.train_available, d.train.size(), d.test.size());
    report("runtime    %d CPU + %d OpenCL workers, scheduler %s, precision %s, nb %lld\n", rt.cpu_workers(),
           rt.opencl_workers(), rt.scheduler().c_str(), o.prec == "s" ? "single" : "double", (long long)o.nb);
    if (rt.distributed())
        report("grid       %d MPI ranks on a %dx%d process grid (figures above: rank 0's workers)\n", rt.ranks(),
               rt.grid().p, rt.grid().q);
}

/// "pass" or "FAILED".
inline const char* verdict(bool ok) { return ok ? "pass" : "FAILED"; }

}  // namespace tessera::apps

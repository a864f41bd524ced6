// What the three point-data applications share: their common command-line options (data file and
// columns, hold-out, predictions), their main's error discipline, a wall clock, and the report lines
// about data, runtime and timing. Header-only.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "examples/apps/point_data.hpp"
#include "examples/apps/map_output.hpp"
#include "examples/apps/predict_io.hpp"
#include "examples/common/line_reader.hpp"
#include "examples/common/progress_display.hpp"
#include "examples/common/rank_agreement.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/common/tool_trace.hpp"
#include "examples/solve/residuals.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"

namespace tessera::apps {

/// Options every application accepts. `n` < 0 means every training point.
struct CommonOptions {
    int64_t n = -1;          ///< use the first n training points (< 0: all of them)
    int64_t nb = 320;        ///< tile size (rows = columns of a full tile)
    std::string prec = "d";  ///< "s" (float) or "d" (double)
    std::string data;        ///< CSV file to read instead of the embedded airports.csv
    Columns columns;         ///< --lat, --lon, --value: the data's columns (default: the airports')
    int64_t holdout = 10;    ///< data row r is held out when r is a multiple of this; 0: none
    std::string predict;     ///< --predict: CSV of locations to predict at (with `out`)
    std::string out;         ///< --out: CSV the predictions at `predict`'s locations are written to
    std::string map;         ///< --map: picture (.png or .svg) of the prediction over the data
    tool::WatchOptions watch;  ///< --quiet, --trace, --gantt
    bool check = false;      ///< exit 1 unless the application's acceptance checks pass
};

/// Register --n, --nb, --prec, --data, --lat, --lon, --value, --holdout, --predict, --out, --map,
/// --quiet, --trace, --gantt and --check on `app`; `check_help` says what --check verifies. --predict and --out need each other.
inline void add_common_options(CLI::App& app, CommonOptions& o, const char* check_help) {
    auto* n = app.add_option("--n", o.n, o.n < 0 ? "use the first N training points (default: all of them)"
                                                  : "use the first N training points")
                  ->check(CLI::Range(int64_t(1), int64_t(1) << 40));
    if (o.n > 0) n->capture_default_str();
    app.add_flag_callback("--all", [&o] { o.n = -1; }, "use every training point")->excludes(n);
    app.add_option("--nb", o.nb, "tile size")->capture_default_str()->check(CLI::Range(int64_t(1), int64_t(1) << 20));
    app.add_option("--prec", o.prec, "precision: s (float) or d (double)")->capture_default_str()
        ->check(CLI::IsMember({"s", "d"}));
    app.add_option("--data", o.data, "CSV of point data to use instead of the embedded examples/data/airports.csv")
        ->check(CLI::ExistingFile);
    app.add_option("--lat", o.columns.lat, "the data's latitude column (header name; degrees)")->capture_default_str();
    app.add_option("--lon", o.columns.lon, "the data's longitude column (header name; degrees)")->capture_default_str();
    app.add_option("--value", o.columns.value,
                   "the data's value column (header name; altitude_ft is converted to metres, any other column "
                   "is used as it is; rows with an empty value are skipped)")
        ->capture_default_str();
    app.add_option("--holdout", o.holdout,
                   "hold out data row r (1-based, file order, rows without a value counted) when r is a multiple "
                   "of K; 0 holds nothing out (no held-out RMSE)")
        ->capture_default_str()->check(CLI::Range(int64_t(0), int64_t(1) << 40));
    auto* predict = app.add_option("--predict", o.predict,
                                   "CSV of locations (the --lat and --lon columns) to predict at; needs --out")
                        ->check(CLI::ExistingFile);
    auto* out = app.add_option("--out", o.out, "CSV to write the predictions at the --predict locations to");
    predict->needs(out);
    out->needs(predict);
    app.add_option("--map", o.map,
                   "draw the prediction over the data's bounding box (and, for kriging, its standard deviation) "
                   "with the training points into FILE.png or FILE.svg");
    tool::add_watch_options(app, o.watch);
    app.add_flag("--check", o.check, check_help);
}

/// Load the data as the options say (load_points); throws DataError. Refuses first (tessera::Error)
/// a --map or --gantt file that is neither .png nor .svg, before any work.
inline PointData load_data(const CommonOptions& o) {
    if (!o.map.empty()) tool::check_picture_path("--map", o.map);
    if (!o.watch.gantt.empty()) tool::check_picture_path("--gantt", o.watch.gantt);
    DataOptions d;
    d.path = o.data;
    d.columns = o.columns;
    d.holdout = o.holdout;
    d.n_train = o.n;
    return load_points(d);
}

/// Parse the command line; returns -1 to go on, else the exit code (0 for --help, tool::kRefused for
/// an error, printed as one line).
/// Under mpirun, first: every rank must run rank 0's command line (tool::agree_on_command; else
/// kRefused on every rank).
inline int parse_command_line(CLI::App& app, int argc, char** argv) {
    if (auto rc = tool::agree_on_command(app.get_name().c_str(), argc, argv)) return *rc;
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

/// "every 10th row", "every 2nd row", ... or "none: --holdout 0".
inline std::string holdout_rule(int64_t k) {
    if (k == 0) return "none: --holdout 0";
    if (k == 1) return "every row";
    const int64_t tens = k % 100 / 10, last = k % 10;
    const char* suffix = tens == 1 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
    return "every " + std::to_string(k) + suffix + " row";
}

/// Report lines (rank 0) about the data (source, split, columns, rows skipped, locations merged) and
/// the runtime (workers, scheduler, precision, tile size, and the process grid when distributed).
inline void print_setup(const PointData& d, const Runtime& rt, const CommonOptions& o) {
    const std::string noun = d.columns.noun();
    report("data       %s: %lld rows, %lld training %s (using %zu), %zu held out (%s)\n", d.source.c_str(),
           (long long)d.rows, (long long)d.train_available, noun.c_str(), d.train.size(), d.test.size(),
           holdout_rule(d.holdout).c_str());
    report("columns    lat %s, lon %s, value %s%s; %lld rows without a value skipped, %lld training rows merged "
           "into others at the same location (value: their mean)\n",
           d.columns.lat.c_str(), d.columns.lon.c_str(), d.columns.value.c_str(),
           d.columns.value_in_feet() ? " (feet, used in metres)" : "", (long long)d.skipped, (long long)d.merged);
    report("runtime    %d CPU + %d OpenCL workers, scheduler %s, precision %s, nb %lld\n", rt.cpu_workers(),
           rt.opencl_workers(), rt.scheduler().c_str(), o.prec == "s" ? "single" : "double", (long long)o.nb);
    if (rt.distributed())
        report("grid       %d MPI ranks on a %dx%d process grid (figures above: rank 0's workers)\n", rt.ranks(),
               rt.grid().p, rt.grid().q);
}

/// "pass" or "FAILED".
inline const char* verdict(bool ok) { return ok ? "pass" : "FAILED"; }

/// Refuse (tessera::Error, before the work) training values the model cannot hold in precision T:
/// every model squares them (σ², the kernel and normal scales), so their variance about the mean,
/// computed in double, must be finite and at most numeric_limits<T>::max() / n (n sums of squares
/// stay finite). 1e308 in double, 1e20 in single precision are refused, naming the column and the
/// largest value.
template <class T>
void require_values_fit(const PointData& d) {
    const std::vector<Point>& v = d.train;
    if (v.empty()) return;
    double sum = 0, largest = 0;
    for (const Point& p : v) {
        sum += p.value;
        largest = std::max(largest, std::abs(p.value));
    }
    const double mean = sum / double(v.size());
    double var = 0;
    for (const Point& p : v) var += (p.value - mean) * (p.value - mean);
    var /= double(v.size());
    const double limit = double(std::numeric_limits<T>::max()) / double(v.size());
    if (std::isfinite(mean) && std::isfinite(var) && var <= limit) return;
    char text[160];
    std::snprintf(text, sizeof text, "(largest |value| %.3g): their variance overflows %s precision, which the model "
                  "needs (it squares the values)", largest, std::is_same_v<T, float> ? "single" : "double");
    throw Error(d.source + ": the values of column " + tool::excerpt(d.columns.value) + " are too large " + text +
                (std::is_same_v<T, float> ? "; try --prec d" : "; rescale them (e.g. to other units)"));
}

using solve::all_finite;  // every entry finite (no NaN, no ±Inf): examples/solve/residuals.hpp

/// The result check of an application: "FAILED" (exit 1) when a prediction, the RMSE or the solution
/// is not finite, whether or not --check was given; otherwise `ok`'s verdict, which fails the run
/// with --check only. `conclusive` false: the comparison's bound is vacuous (κ·ε so large that the
/// agreement test would accept any answer), so the check cannot say pass: "INCONCLUSIVE", exit 1
/// with --check.
struct AppCheck {
    std::string not_finite;  ///< what is not finite, e.g. "weights w are"; empty when everything is
    bool ok = true;          ///< the application's acceptance checks pass
    bool conclusive = true;  ///< the checks can tell a right answer from a wrong one
    const char* status() const { return !not_finite.empty() || !ok ? "FAILED" : conclusive ? "pass" : "INCONCLUSIVE"; }
    int exit_code(bool check) const {
        if (!not_finite.empty()) return tool::kFailed;
        return check && !(ok && conclusive) ? tool::kFailed : tool::kOk;
    }
    /// Print "check      WHAT: STATUS" and, when it is not pass for a reason other than `ok`, why:
    /// "PROG: the NOT_FINITE not finite (NaN or Inf): no valid result" on stderr, or, for a vacuous
    /// bound, "inconclusive: KAPPA_NAME ~ κ times eps >= 1, so the bound B accepts any answer: HINT".
    /// Returns exit_code(check).
    int report(const char* prog, const std::string& what, bool check, const char* kappa_name = "", double kappa = 0,
               double bound = 0, const std::string& hint = "") const {
        std::printf("check      %s: %s\n", what.c_str(), status());
        if (!not_finite.empty())
            std::fprintf(stderr, "%s: the %s not finite (NaN or Inf): no valid result\n", prog, not_finite.c_str());
        else if (!conclusive)
            std::printf("           inconclusive: %s ~ %.3g times eps >= 1, so the bound %.3g accepts any answer: %s\n",
                        kappa_name, kappa, bound, hint.c_str());
        return exit_code(check);
    }
};

}  // namespace tessera::apps

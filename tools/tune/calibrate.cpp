// tessera-tune --calibrate: StarPU's performance models of this machine, filled by checked runs of
// the four routines on each kind of worker (see calibrate.hpp for the contract).
#include "tools/tune/calibrate.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "examples/common/tool_main.hpp"
#include "tools/tune/cl_harness.hpp"  // parse_int_option, parse_prec_list
#include "tools/tune/routine_runs.hpp"

namespace tessera::tune {

namespace {

struct Args {
    std::vector<char> precs = {'d'};
    std::vector<int> nbs;  // empty: tuned_tile's per routine
    int tiles = 4, max_runs = 20;
};

constexpr const char* kUsage = "usage: tessera-tune --calibrate [--prec d[,s,c,z]] [--nb LIST] [--tiles T] [--max-runs R]";

Args parse_args(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&] { return harness::option_value(argc, argv, i, kUsage); };
        if (a == "--calibrate") continue;
        if (a == "--prec") args.precs = harness::parse_prec_list(value(), "dscz");
        else if (a == "--tiles") args.tiles = harness::parse_int_option("--tiles", value(), 1);
        else if (a == "--max-runs") args.max_runs = harness::parse_int_option("--max-runs", value(), 1);
        else if (a == "--nb") {
            const std::string list = value();
            size_t start = 0;
            do {
                const size_t comma = list.find(',', start);
                args.nbs.push_back(harness::parse_int_option("--nb", list.substr(start, comma - start), 1));
                start = comma == std::string::npos ? comma : comma + 1;
            } while (start != std::string::npos);
        } else throw Error("unknown argument '" + a + "' with --calibrate; " + kUsage);
    }
    return args;
}

/// Tasks of a profile that a performance-model scheduler placed without a prediction, and which
/// ("dtrsm 4 on CPU, ...").
long uncalibrated_tasks(const Profile& p, long* tasks, std::string* which) {
    long n = 0;
    *tasks = 0;
    for (const Profile::Codelet& c : p.codelets) {
        n += c.uncalibrated, *tasks += c.tasks;
        if (c.uncalibrated > 0)
            *which += (which->empty() ? "" : ", ") + c.name + " " + std::to_string(c.uncalibrated) + " on " +
                      (c.opencl ? "OpenCL" : "CPU");
    }
    return n;
}

/// Run one routine at one nb until a run needs no calibration; false when a run failed or R runs
/// did not get there.
template <class T>
bool calibrate_routine(Runtime& runtime, Routine r, int64_t nb, const Args& args, const char* kind) {
    const char prec = prec_letter<T>();
    const int64_t n = nb * args.tiles;
    const Problem<T> problem = make_problem<T>(r, n);
    const int64_t ib = std::min(tuned_tile(std::string(1, prec) + name(r)).ib, nb);  // as tessera-tester's default
    long fewest = -1;  // fewest tasks placed to calibrate in a run so far
    int runs_without_progress = 0;
    for (int run = 1; run <= args.max_runs; ++run) {
        std::string failure;
        runtime.profile_begin();
        std::vector<Run> runs;
        try {
            runs = measure<T>(r, problem, nb, ib, 1, &failure);
        } catch (const std::exception& e) {
            failure = e.what();
        }
        const Profile p = runtime.profile_end();
        if (runs.empty()) {
            std::printf("calibrate: %c%s nb %lld on %s: run %d FAILED (%s)\n", prec, name(r), (long long)nb, kind, run,
                        failure.c_str());
            return false;
        }
        long tasks = 0;
        std::string which;
        const long uncalibrated = uncalibrated_tasks(p, &tasks, &which);
        std::printf("calibrate: %c%s nb %lld on %s: run %d, %.3f s, %ld of %ld tasks placed to calibrate%s%s%s\n", prec,
                    name(r), (long long)nb, kind, run, runs[0].seconds, uncalibrated, tasks, which.empty() ? "" : " (",
                    which.c_str(), which.empty() ? "" : ")");
        std::fflush(stdout);
        if (uncalibrated == 0) return true;
        // Tasks whose footprint recurs rarely (a panel or row interchanges spanning a tile column:
        // one of each height per run) or whose times scatter past STARPU_HISTORY_MAX_ERROR (the
        // entry is flushed) can stay uncalibrated run after run; three runs without progress
        // settle the pass, and the placement prior places those tasks.
        runs_without_progress = fewest >= 0 && uncalibrated >= fewest ? runs_without_progress + 1 : 0;
        fewest = fewest < 0 ? uncalibrated : std::min(fewest, uncalibrated);
        if (runs_without_progress == 3) {
            std::printf("calibrate: %c%s nb %lld on %s: settled after %d runs; still placed to calibrate in each run: %s\n",
                        prec, name(r), (long long)nb, kind, run, which.c_str());
            return true;
        }
    }
    std::printf("calibrate: %c%s nb %lld on %s: still calibrating after %d runs (raise --max-runs)\n", prec, name(r),
                (long long)nb, kind, args.max_runs);
    return false;
}

std::vector<int64_t> tile_sizes(const Args& args, char prec, Routine r) {
    if (!args.nbs.empty()) return {args.nbs.begin(), args.nbs.end()};
    return {tuned_tile(std::string(1, prec) + name(r)).nb};
}

template <class T>
bool calibrate_precision(Runtime& runtime, const Args& args, const char* kind) {
    bool ok = true;
    for (Routine r : kRoutines)
        for (int64_t nb : tile_sizes(args, prec_letter<T>(), r)) ok = calibrate_routine<T>(runtime, r, nb, args, kind) && ok;
    return ok;
}

bool calibrate_all(Runtime& runtime, const Args& args, const char* kind) {
    bool ok = true;
    for (char p : args.precs) {
        if (p == 's') ok = calibrate_precision<float>(runtime, args, kind) && ok;
        else if (p == 'd') ok = calibrate_precision<double>(runtime, args, kind) && ok;
        else if (p == 'c') ok = calibrate_precision<std::complex<float>>(runtime, args, kind) && ok;
        else ok = calibrate_precision<std::complex<double>>(runtime, args, kind) && ok;
    }
    return ok;
}

}  // namespace

int calibrate_main(int argc, char** argv) {
    const Args args = parse_args(argc, argv);
    setenv("STARPU_CALIBRATE", "1", 0);
    setenv("STARPU_SCHED", "dmdas", 0);
    bool ok = true;
    bool opencl = false;
    {
        RuntimeConfig config;
        config.placement = Placement::OpenCLOnly;
        Runtime runtime(config);
        opencl = runtime.opencl_workers() > 0;
        if (opencl) ok = calibrate_all(runtime, args, "OpenCL");
    }
    // Then runs as an application's: the placement prior keeps off the CPUs what it rules out, and
    // the scheduler calibrates the CPUs for the rest (with OpenCL workers, what it would otherwise
    // calibrate in a user's first runs).
    Runtime runtime;
    ok = calibrate_all(runtime, args, opencl ? "CPU+OpenCL" : "CPU") && ok;
    std::printf("calibrate: %s; StarPU's models are in %s/.starpu/sampling\n", ok ? "done" : "INCOMPLETE",
                std::getenv("STARPU_HOME") ? std::getenv("STARPU_HOME") : std::getenv("HOME") ? std::getenv("HOME") : ".");
    return ok ? tool::kOk : tool::kFailed;
}

}  // namespace tessera::tune

// tessera-tune --cpu: per-machine CPU tile sizes (see cpu_tune.hpp for the contract).
#include "tools/tune/cpu_tune.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/tool_main.hpp"
#include "runtime/cpu_tiles.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"
#include "tools/tune/cl_harness.hpp"  // parse_int_option
#include "tools/tune/routine_runs.hpp"

namespace tessera::tune {

namespace {

bool complex_prec(char p) { return p == 'c' || p == 'z'; }

struct Args {
    std::vector<char> precs = {'d'};
    int size = 4096, budget = 300, reps = 3;
    bool reps_given = false, quick = false;
    std::string out_path;
};

constexpr const char* kUsage =
    "usage: tessera-tune --cpu [--prec d[,s,c,z]] [--size N] [--budget SECONDS] [--reps R] [--quick] [--out FILE]";

Args parse_args(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&] { return harness::option_value(argc, argv, i, kUsage); };
        if (a == "--cpu") continue;
        if (a == "--prec") args.precs = harness::parse_prec_list(value(), "dscz");
        else if (a == "--size") args.size = harness::parse_int_option("--size", value(), 1);
        else if (a == "--budget") args.budget = harness::parse_int_option("--budget", value(), 1);
        else if (a == "--reps") args.reps = harness::parse_int_option("--reps", value(), 1), args.reps_given = true;
        else if (a == "--quick") args.quick = true;
        else if (a == "--out") args.out_path = value();
        else throw Error("unknown argument '" + a + "' with --cpu; " + kUsage);
    }
    if (args.quick && !args.reps_given) args.reps = 1;
    return args;
}

/// A measured candidate.
struct Candidate {
    int64_t nb = 0, ib = 0;
    double gflops = 0;  ///< median over the runs
};

/// Shares the --budget among the sweeps by their expected cost and says when one must stop.
class Budget {
public:
    Budget(double seconds, double total_weight) : end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))), weight_left_(total_weight) {}
    /// Start a sweep of expected cost `weight`: its deadline is its share of the time left.
    void start_sweep(double weight) {
        const double left = std::chrono::duration<double>(end_ - Clock::now()).count();
        sweep_end_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(std::max(0.0, left) * weight / std::max(weight_left_, weight)));
        weight_left_ -= weight;
    }
    /// Whether a candidate expected to take `estimate` seconds fits; the first of a sweep
    /// (estimate < 0) runs while any of the whole budget is left.
    bool fits(double estimate) const {
        if (estimate < 0) return Clock::now() < end_;
        return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(estimate)) <= sweep_end_;
    }

private:
    Clock::time_point end_, sweep_end_;
    double weight_left_;
};

/// Expected relative cost of a sweep: flops per n³ × candidates × precision.
double sweep_weight(char prec, Routine r, bool quick) {
    const double cands = quick ? (r == Routine::geqrf ? 4 : 3) : (r == Routine::geqrf ? 11 : 8);
    const double pf = prec == 's' ? 0.5 : prec == 'd' ? 1 : prec == 'c' ? 2 : 4;
    return flop_coefficient(r) * cands * pf;
}

/// The outcome of one routine's sweep.
struct SweepResult {
    std::optional<Candidate> best;
    std::vector<Candidate> tried;  ///< in order, passing ones
    bool any_failed = false, cut = false;
};

template <class T>
SweepResult sweep(Routine r, const Args& args, Budget& budget) {
    const char prec = prec_letter<T>();
    const int64_t n = args.size;
    SweepResult res;
    const Problem<T> problem = make_problem<T>(r, n);
    const double flops = flop_coefficient(r) * double(n) * double(n) * double(n) * (complex_prec(prec) ? 4 : 1);
    double estimate = -1;
    auto attempt = [&](int64_t nb, int64_t ib) {
        for (const Candidate& c : res.tried)
            if (c.nb == nb && c.ib == ib) return;
        if (!budget.fits(estimate)) {
            if (!res.cut) std::printf("  budget: no time left for %c%s nb %lld%s; keeping the best so far\n", prec, name(r),
                                      (long long)nb, r == Routine::geqrf ? (" ib " + std::to_string(ib)).c_str() : "");
            res.cut = true;
            return;
        }
        const auto t0 = Clock::now();
        std::string failure;
        std::vector<Run> runs;
        try {
            runs = measure<T>(r, problem, nb, ib, args.reps, &failure);
        } catch (const std::exception& e) {  // a task failed, or memory ran out: this candidate only
            failure = e.what();
        }
        estimate = since(t0);
        if (runs.empty()) {
            std::printf("  %c%-6s nb %4lld ib %3lld  FAILED (%s): skipped\n", prec, name(r), (long long)nb, (long long)ib,
                        failure.c_str());
            res.any_failed = true;
        } else {
            std::vector<double> t;
            double worst = 0;
            for (const Run& run : runs) t.push_back(run.seconds), worst = std::max(worst, run.residual);
            std::sort(t.begin(), t.end());
            const double median = t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
            const Candidate c{nb, ib, flops / median * 1e-9};
            std::printf("  %c%-6s nb %4lld ib %3lld  %9.2f GFLOP/s  (median of %zu: %.3f s; residual %.2g)\n", prec, name(r),
                        (long long)nb, (long long)ib, c.gflops, runs.size(), median, worst);
            res.tried.push_back(c);
            if (!res.best || c.gflops > res.best->gflops) res.best = c;
        }
        std::fflush(stdout);
    };
    std::vector<int64_t> coarse = args.quick ? std::vector<int64_t>{192, 256, 384}
                                             : std::vector<int64_t>{192, 256, 320, 384, 448, 512};
    // gemm has no critical path: larger tiles amortize each task's packing of its operands (on a
    // 2-core Xeon, dgemm n = 4096 ran 128 GFLOP/s at nb 480 and 145 at 1024, cblas_dgemm 158)
    if (r == Routine::gemm && !args.quick) coarse.insert(coarse.end(), {768, 1024});
    const int64_t ib0 = r == Routine::geqrf ? 48 : 0;
    {  // warm-up, untimed: the codelets' first tasks (perfmodel loading, workers waking) on a small problem
        const int64_t nw = std::min<int64_t>(n, 2 * coarse.front());
        std::string ignored;
        try {
            (void)measure<T>(r, make_problem<T>(r, nw), coarse.front(), std::min(ib0, coarse.front()), 1, &ignored);
        } catch (const std::exception&) {  // the sweep's own runs report failures
        }
    }
    for (int64_t nb : coarse)
        if (nb <= n || nb == coarse.front()) attempt(nb, std::min(ib0, nb));
    if (!args.quick && res.best)
        for (int64_t nb : {res.best->nb - 32, res.best->nb + 32})
            if (nb >= 32 && nb <= n) attempt(nb, std::min(ib0, nb));
    if (r == Routine::geqrf && res.best) {
        const int64_t nb = res.best->nb;
        for (int64_t ib : args.quick ? std::vector<int64_t>{32, 64} : std::vector<int64_t>{32, 48, 64, 96})
            if (ib <= nb) attempt(nb, ib);
    }
    return res;
}

/// "nb 192: 70.1, ..." (or "192/48: ...") lines for the entry's comment, a few candidates a line.
std::string candidates_comment(char prec, Routine r, const Args& args, const SweepResult& res) {
    std::string s = std::string(1, prec) + name(r) + " n = " + std::to_string(args.size) + ", median GFLOP/s of " +
                    std::to_string(args.reps) + " run(s) per " + (r == Routine::geqrf ? "nb/ib:" : "nb:");
    int k = 0;
    for (const Candidate& c : res.tried) {
        char buf[64];
        if (r == Routine::geqrf) std::snprintf(buf, sizeof buf, "%lld/%lld %.2f", (long long)c.nb, (long long)c.ib, c.gflops);
        else std::snprintf(buf, sizeof buf, "%lld %.2f", (long long)c.nb, c.gflops);
        s += (k++ % 6 == 0 ? "\n  " : ", ") + std::string(buf);
    }
    if (res.cut) s += "\n  (budget ran out: best so far)";
    return s;
}

/// The table at `path` (empty when the file does not exist); nullopt after a message when it exists
/// but cannot be read as a table.
std::optional<std::vector<detail::CpuTileEntry>> existing_entries(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::vector<detail::CpuTileEntry>{};
    std::string err;
    auto table = detail::load_cpu_tiles_file(path, &err);
    if (!table) {
        std::fprintf(stderr, "tessera-tune: %s; not overwriting it\n", err.c_str());
        return std::nullopt;
    }
    return table->entries;
}

/// Merge `fresh` into the table at `path` (entries of the same routine, cores and model replaced)
/// and write it through a temporary file; false after a message on failure.
bool write_table(const std::string& path, const std::vector<detail::CpuTileEntry>& fresh, const std::string& comment,
                 size_t* kept) {
    auto old = existing_entries(path);
    if (!old) return false;
    std::vector<detail::CpuTileEntry> all;
    for (const detail::CpuTileEntry& o : *old) {
        bool replaced = false;
        for (const detail::CpuTileEntry& e : fresh)
            replaced |= o.routine == e.routine && o.cores == e.cores && o.model == e.model;
        if (!replaced) all.push_back(o);
    }
    *kept = all.size();
    all.insert(all.end(), fresh.begin(), fresh.end());
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp);
        if (!(out << detail::format_cpu_tiles(all, comment)) || !out.flush()) {
            std::fprintf(stderr, "tessera-tune: writing %s failed\n", tmp.c_str());
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::fprintf(stderr, "tessera-tune: renaming %s to %s failed: %s\n", tmp.c_str(), path.c_str(), ec.message().c_str());
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

size_t elem_bytes(char prec) { return prec == 's' ? 4 : prec == 'z' ? 16 : 8; }

}  // namespace

int cpu_tune_main(int argc, char** argv) {
    const auto start = Clock::now();
    const Args args = parse_args(argc, argv);
    const std::string out = args.out_path.empty() ? detail::user_cpu_tiles_path() : args.out_path;
    if (out.empty()) throw Error("no --out FILE, and none of TESSERA_CPU_TILES, STARPU_HOME, HOME is set");
    size_t largest = 0;
    for (char p : args.precs) largest = std::max(largest, elem_bytes(p));
    detail::require_host_arrays("--size " + std::to_string(args.size), args.size, args.size, largest, 6);  // gemm's
    if (!existing_entries(out)) return tool::kFailed;  // fail before the sweep, not after it
    setenv("STARPU_NOPENCL", "0", 0);  // a CPU table: no OpenCL worker unless the user asked for one
    Runtime runtime;
    if (runtime.opencl_workers() > 0)
        throw Error("the Runtime has " + std::to_string(runtime.opencl_workers()) +
                    " OpenCL worker(s) (STARPU_NOPENCL is set): a CPU table is measured on CPU workers only; unset it");
    const int cores = runtime.cpu_workers();
    const detail::MachineCpu& cpu = detail::machine_cpu();
    std::printf("tessera-tune --cpu on %s, %d CPU worker(s), scheduler %s; n = %d, %d run(s) per candidate, budget %d s%s\n",
                cpu.model.c_str(), cores, runtime.scheduler().c_str(), args.size, args.reps, args.budget,
                args.quick ? " (quick)" : "");
    double total_weight = 0;
    for (char p : args.precs)
        for (Routine r : kRoutines) total_weight += sweep_weight(p, r, args.quick);
    Budget budget(args.budget, total_weight);
    std::vector<detail::CpuTileEntry> fresh;
    bool failed = false;
    for (char p : args.precs)
        for (Routine r : kRoutines) {
            budget.start_sweep(sweep_weight(p, r, args.quick));
            std::printf("%c%s:\n", p, name(r));
            SweepResult res = p == 's'   ? sweep<float>(r, args, budget)
                              : p == 'd' ? sweep<double>(r, args, budget)
                              : p == 'c' ? sweep<std::complex<float>>(r, args, budget)
                                         : sweep<std::complex<double>>(r, args, budget);
            if (!res.best) {
                std::printf("  %c%s: %s: no entry\n", p, name(r), res.any_failed ? "no candidate passed" : "no time left");
                failed |= res.any_failed;
                continue;
            }
            std::printf("  choice: nb %lld ib %lld, %.2f GFLOP/s%s\n", (long long)res.best->nb,
                        (long long)(r == Routine::geqrf ? res.best->ib : 0), res.best->gflops, res.cut ? " (best so far)" : "");
            detail::CpuTileEntry e;
            e.routine = std::string(1, p) + name(r);
            e.cores = cores, e.nb = res.best->nb, e.ib = r == Routine::geqrf ? res.best->ib : 0;
            e.model = detail::escape_model_glob(cpu.model);
            e.comment = candidates_comment(p, r, args, res);
            fresh.push_back(e);
        }
    if (fresh.empty()) {
        std::printf("nothing measured: %s not written\n", out.c_str());
        return tool::kFailed;
    }
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::localtime(&now));
    size_t kept = 0;
    if (!write_table(out, fresh, std::string("written by tessera-tune --cpu (") + date + "); read by tessera::tuned_tile", &kept))
        return tool::kFailed;
    std::printf("choices (routine cores nb ib model):\n");
    for (const detail::CpuTileEntry& e : fresh)
        std::printf("  %-8s %d %lld %lld %s\n", e.routine.c_str(), e.cores, (long long)e.nb, (long long)e.ib, e.model.c_str());
    std::printf("wrote %s: %zu entr%s of this run, %zu other%s kept; %.0f s\n", out.c_str(), fresh.size(),
                fresh.size() == 1 ? "y" : "ies", kept, kept == 1 ? "" : "s", since(start));
    return failed ? tool::kFailed : tool::kOk;
}

}  // namespace tessera::tune

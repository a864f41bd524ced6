// tessera-tester's operation table: each family registers its operations from its own ops_*.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::tester {

/// Command-line parameters of one run (sizes in elements; m, k default to n when not given).
struct Params {
    char prec = 'd';
    int64_t m = 0, n = 0, k = 0, nrhs = 1, nb = 0, ib = 0;  ///< nb, ib 0: the tuned ones (tuned_tile)
    Uplo uplo = Uplo::Lower;
    Side side = Side::Left;
    Diag diag = Diag::NonUnit;
    Norm norm = Norm::One;  ///< --norm of lange, lansy, lanhe, lantr
    Job jobz = Job::Vec;    ///< --jobz of syevd, heevd: N (eigenvalues) or V (and eigenvectors)
    int64_t kd = 0;         ///< --kd of syevd, heevd, gesdd, gesvd: stage 1's band width (0: the default)
    char svd_jobz = 'S';    ///< --jobz of gesdd: N, S, A or O (LAPACK's JOBZ of xGESDD)
    char jobu = 'S', jobvt = 'S';  ///< --jobu, --jobvt of gesvd: N, S, A or O (LAPACK's xGESVD)
    Trans trans = Trans::NoTrans, transA = Trans::NoTrans, transB = Trans::NoTrans;
    double alpha = 1.5, beta = -0.5;
    bool check = false;
    bool check_random = false;  ///< --check-random: O(n²) randomized residuals (checks_random.hpp) where available
    bool resident = false;  ///< --resident: operands on OpenCL device 0 before the clock starts, results left there
    uint64_t seed = 42;
    double cond = 0;  ///< --cond: 2-norm condition number of the generated matrix (0: the default matrices)
    LowFactorization factor = LowFactorization::Low;  ///< --factor of the mixed solvers: low, tf32 or fp16
    Options options() const { return Options{.nb = nb, .ib = ib}; }
};

/// Outcome of one run: time of the operation (seconds), its flop count, and the scaled residual of
/// docs/architecture.md#numerical-checks when checked. `info` is the LAPACK info the operation
/// returned (0 when none).
struct Result {
    double seconds = 0;
    double flops = 0;
    double error = 0;
    bool checked = false;
    int64_t info = 0;
    int64_t m = -1, n = -1, k = -1;  ///< sizes to print when they differ from the parameters'
    bool has_iter = false;  ///< the mixed-precision solvers: `iter` (LAPACK's ITER) is printed in the status
    int64_t iter = 0;
    bool ok() const;
};

/// Options that only some operations read. Each operation declares the ones it reads (Op::options);
/// a run that gives an option its operation does not read is refused, never silently ignored.
/// --n, --nb, --prec and the run options (--repeat, --check, --csv, ...) apply to every operation.
enum OpOption : uint32_t {
    kM = 1u << 0, kK = 1u << 1, kNrhs = 1u << 2, kIb = 1u << 3,
    kUplo = 1u << 4, kSide = 1u << 5, kDiag = 1u << 6, kTrans = 1u << 7, kTransA = 1u << 8, kTransB = 1u << 9,
    kAlpha = 1u << 10, kBeta = 1u << 11,
    kResident = 1u << 12,  ///< the operation is timed by time_op, which honours --resident
    kCond = 1u << 13,      ///< --cond: a generated matrix of that 2-norm condition number
    kNorm = 1u << 14,      ///< --norm: M, O (1), I, F (E), the norms' kind
    kJobz = 1u << 15,      ///< --jobz: N or V, the eigensolvers' eigenvectors; N, S, A or O for gesdd
    kJobuvt = 1u << 16,    ///< --jobu, --jobvt: gesvd's N, S, A or O
    kFactor = 1u << 17,    ///< --factor: how a mixed solver's low-precision factorization multiplies
    kKd = 1u << 18,        ///< --kd: the eigensolvers' and SVDs' band width (a divisor of nb; 0: the default)
};

/// One matrix a run allocates in tile storage: rows × cols, the options its sizes come from (named
/// when they are too large), and the rows stored per tile (nb when 0; ib for the T factors of QR).
/// `workspace` marks factors that the full check does not copy.
struct Operand {
    int64_t rows, cols;
    const char *rows_from, *cols_from;
    int64_t tile_rows = 0;
    bool workspace = false;
};

using RunFn = Result (*)(const Params&);
using OperandsFn = std::vector<Operand> (*)(const Params&);
/// Bytes of one element of precision `prec` ('s', 'd', 'c' or 'z').
inline uint64_t element_bytes(char prec) { return prec == 's' ? 4 : prec == 'd' ? 8 : prec == 'c' ? 8 : 16; }
/// Whether precision `prec` is complex: its flops count 4 real ones (Result::flops counts the real).
inline bool is_complex_prec(char prec) { return prec == 'c' || prec == 'z'; }

struct Op {
    const char* name;
    const char* family;  ///< the routine whose tuned tile size (tuned_tile) a run takes without --nb / --ib:
                         ///< "potrf", "getrf", "geqrf" or "gemm", by the operation's mix of tasks
    RunFn run_s, run_d, run_c, run_z;  ///< the four precisions (TESSERA_RUNS)
    uint32_t options;     ///< the OpOptions it reads
    OperandsFn operands;  ///< the matrices it allocates: the memory it needs is checked before the run
    bool distributed = true;  ///< runs under mpirun; false: refused there before the run (not distributed yet)
    const char* precisions = "sdcz";  ///< the --prec letters it takes; others are refused before the run
};
/// The four precisions' instances of the run function template F, given its other template
/// arguments: TESSERA_RUNS(run_solve, Solve::Getrs) is run_solve<float, Solve::Getrs>, ... for
/// float, double, std::complex<float> and std::complex<double>.
#define TESSERA_RUNS(F, ...)                                                                 \
    F<float __VA_OPT__(, ) __VA_ARGS__>, F<double __VA_OPT__(, ) __VA_ARGS__>,                 \
        F<std::complex<float> __VA_OPT__(, ) __VA_ARGS__>, F<std::complex<double> __VA_OPT__(, ) __VA_ARGS__>
/// Every registered operation.
std::vector<Op>& registry();
/// Registers an operation at static-initialization time:
/// `static Register r{{"potrf", "potrf", TESSERA_RUNS(f), kUplo | kResident, potrf_operands}};`
struct Register {
    explicit Register(Op op) { registry().push_back(op); }
};

/// Set by --profile: the runtime whose profile time_it() records into last_profile().
inline Runtime*& profiled_runtime() {
    static Runtime* rt = nullptr;
    return rt;
}
inline Profile& last_profile() {
    static Profile p;
    return p;
}

/// When time_op staged the operands, when its clock started, and when timing (and profiling) was
/// done: with the run's start and end they split a run into setup, staging, operation and check
/// (printed by --profile).
struct Phases {
    std::chrono::steady_clock::time_point staging, begin, done;
};
inline Phases& last_phases() {
    static Phases p;
    return p;
}

/// Wall-clock seconds taken by f() (profiled when --profile is given).
template <class F>
double time_it(F&& f) {
    Runtime* rt = profiled_runtime();
    if (rt) rt->profile_begin();
    auto t0 = std::chrono::steady_clock::now();
    f();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rt) last_profile() = rt->profile_end();
    last_phases().begin = t0;
    last_phases().done = std::chrono::steady_clock::now();
    return s;
}

/// Median seconds of `repeat` runs of body(), each preceded by an untimed setup() (the benchmarks).
template <class Setup, class Body>
double median_seconds(int repeat, Setup&& setup, Body&& body) {
    std::vector<double> t;
    for (int r = 0; r < repeat; ++r) {
        setup();
        t.push_back(time_it(body));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/// Seconds taken by an operation that submit(seq) submits on the matrices `mats`, which it reads
/// and writes, in the tester's timing mode; `info` receives seq.wait()'s. End to end (default):
/// the tiles are in host memory only when the clock starts, each result tile is sent home as soon
/// as its last task completes (flush_to_host), and the clock stops once every tile is back in host
/// memory, as an application that reads its results sees it. Device-resident (--resident): every
/// tile is first moved to OpenCL device 0 and the results are left where the tasks wrote them.
template <class F, class... M>
double time_op(const Params& p, int64_t& info, F&& submit, const M&... mats) {
    last_phases().staging = std::chrono::steady_clock::now();
    if (p.resident)
        (mats.fetch_to_device(0), ...);
    else
        (mats.keep_only_on_host(), ...);
    return time_it([&] {
        Sequence seq;
        submit(seq);
        if (!p.resident) (mats.flush_to_host(), ...);
        info = seq.wait();
        if (!p.resident) (mats.acquire_host(), ...);
    });
}

}  // namespace tessera::tester

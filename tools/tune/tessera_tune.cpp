// tessera-tune: sweep the GEMM kernel parameters on the present OpenCL device, check every candidate
// against CBLAS (all trans combinations, edge sizes, offsets; the scaled residual of
// docs/architecture.md#numerical-checks ≤ 60), time the correct ones on an n×n×n product with
// device-resident data, and write the best as a kernel-parameter table entry (format:
// kernels/opencl/params.hpp) for this device and precision.
//
//   tessera-tune [--prec d,s] [--kernel auto|nv|portable] [--size N] [--reps R] [--quick]
//                [--out FILE]
//
// --kernel auto: the NVIDIA path (gemm_nv.cl) on compute capability ≥ 8.0, else the portable
// gemm.cl. --out FILE: merge the entries into FILE (replacing entries for the same device and
// precision; a FILE that exists but does not parse is left alone and the run fails), else print.
// Use the result through $TESSERA_KERNEL_PARAMS=FILE, or paste it into kernels/opencl/params/.
// Exit status (examples/common/tool_main.hpp): 0 entries written or printed; 1 no candidate passed,
// no OpenCL device, a device failure, or FILE unreadable as a table; 2 refused: an invalid argument,
// or a --size whose matrices do not fit in host or device memory.
//
// tessera-tune --calibrate [...] fills StarPU's performance models instead (tools/tune/calibrate.hpp).
//
// tessera-tune --cpu [--prec d[,s,c,z]] [--size N] [--budget SECONDS] [--reps R] [--quick] [--out FILE]
// measures instead the CPU tile sizes (nb, and geqrf's ib) of potrf, getrf, geqrf and gemm on this
// CPU and merges them into a CPU tile table (runtime/cpu_tiles.hpp; default FILE: the user table
// tessera::tuned_tile reads first); see tools/tune/cpu_tune.hpp. Same exit codes.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "examples/common/tool_main.hpp"
#include "kernels/opencl/params.hpp"
#include "runtime/host_memory.hpp"
#include "tools/tune/calibrate.hpp"
#include "tools/tune/cl_harness.hpp"
#include "tools/tune/cpu_tune.hpp"

using namespace tessera;
using namespace tessera::harness;

namespace {

using Candidate = std::map<std::string, int>;

std::string describe(const Candidate& c) {
    std::string s;
    for (const auto& [k, v] : c) s += (s.empty() ? "" : " ") + k.substr(8) + "=" + std::to_string(v);  // drop TESSERA_
    return s;
}

std::vector<Candidate> nv_candidates(char prec, const ocl::DeviceInfo& info, bool quick) {
    std::vector<Candidate> cs;
    if (prec == 'd') {
        const int mma = info.cc_major >= 9 ? 1688 : 884;
        const int tiles[][2] = {{1, 4}, {2, 2}, {2, 4}};
        for (const auto& t : tiles)
            for (int stages = 2; stages <= 4; ++stages)
                for (int stagger : {1, 0})
                    for (int group : {8, 16}) {
                        if (quick && (group == 16 || stages == 2 || stagger == 0)) continue;
                        cs.push_back({{"TESSERA_NVD_MMA", mma}, {"TESSERA_NVD_WM", t[0]}, {"TESSERA_NVD_WN", t[1]},
                                      {"TESSERA_NVD_STAGES", stages}, {"TESSERA_NVD_STAGGER", stagger},
                                      {"TESSERA_NV_GROUP", group}});
                    }
    } else {
        for (int bk : {8, 16})
            for (int warp : {0, 1})
                for (int group : {8, 16}) {
                    if (quick && group == 16) continue;
                    cs.push_back({{"TESSERA_NVS_BK", bk}, {"TESSERA_NVS_WARP", warp}, {"TESSERA_NV_GROUP", group}});
                }
    }
    return cs;
}

std::vector<Candidate> portable_candidates(bool quick) {
    std::vector<Candidate> cs;
    for (int b : {32, 64, 128})
        for (int t : {2, 4, 8})
            for (int kb : {8, 16, 32}) {
                if (b / t < 4 || (b / t) * (b / t) > 1024) continue;
                if (quick && kb == 32) continue;
                cs.push_back({{"TESSERA_GEMM_MB", b}, {"TESSERA_GEMM_NB", b}, {"TESSERA_GEMM_TM", t},
                              {"TESSERA_GEMM_TN", t}, {"TESSERA_GEMM_KB", kb}});
            }
    return cs;
}

/// Launch gemm.cl's tessera_gemm with the candidate's geometry (the contract written at the top of
/// gemm.cl: local (MB/TM, NB/TN), one work-group per MB×NB block of C).
template <class T>
GemmFn<T> portable_path(const Candidate& c) {
    const int mb = c.at("TESSERA_GEMM_MB"), nb = c.at("TESSERA_GEMM_NB");
    const int tm = c.at("TESSERA_GEMM_TM"), tn = c.at("TESSERA_GEMM_TN");
    return [=](const ocl::DeviceKernels& dk, cl_command_queue q, const GemmCase& g, ocl::Mat A, ocl::Mat B, ocl::Mat C) {
        if (g.m == 0 || g.n == 0) return true;
        cl_kernel k = dk.get("tessera_gemm");
        const cl_int m = g.m, n = g.n, kk = g.k, ta = g.ta, tb = g.tb, tri = g.tri;
        const cl_int lda = cl_int(A.ld), ldb = cl_int(B.ld), ldc = cl_int(C.ld);
        const cl_ulong oa = A.off, ob = B.off, oc = C.off;
        const T alpha = T(g.alpha), beta = T(g.beta);
        cl_uint i = 0;
        auto set = [&](size_t s, const void* v) { ocl::check(clSetKernelArg(k, i++, s, v), "clSetKernelArg(tessera_gemm)"); };
        set(sizeof m, &m), set(sizeof n, &n), set(sizeof kk, &kk), set(sizeof ta, &ta), set(sizeof tb, &tb);
        set(sizeof alpha, &alpha), set(sizeof A.mem, &A.mem), set(sizeof oa, &oa), set(sizeof lda, &lda);
        set(sizeof B.mem, &B.mem), set(sizeof ob, &ob), set(sizeof ldb, &ldb), set(sizeof beta, &beta);
        set(sizeof C.mem, &C.mem), set(sizeof oc, &oc), set(sizeof ldc, &ldc), set(sizeof tri, &tri);
        const size_t local[2] = {size_t(mb / tm), size_t(nb / tn)};
        const size_t global[2] = {size_t((m + mb - 1) / mb) * local[0], size_t((n + nb - 1) / nb) * local[1]};
        ocl::check(clEnqueueNDRangeKernel(q, k, 2, nullptr, global, local, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
        return true;
    };
}

struct Outcome {
    Candidate cand;
    double tflops = 0;
    bool ok = false;
};

template <class T>
Outcome try_candidate(const Env& env, const Candidate& cand, bool nv, int size, int reps, bool quick) {
    const char prec = std::is_same_v<T, float> ? 's' : 'd';
    Outcome out{cand};
    ocl::KernelParams full = ocl::default_params();
    for (const auto& [k, v] : cand) full[k] = v;
    if (const std::string why = ocl::check_params(full, &env.info); !why.empty()) {
        std::printf("  %-60s skipped: %s\n", describe(cand).c_str(), why.c_str());
        return out;
    }
    try {
        // The sweep times the kernels its parameters shape: without tessera_nvgemm_nn_big and the _mbar
        // kernels, which the launcher would otherwise take for large products (gemm_nv.cl,
        // TESSERA_NVD_BIG; gemm_nv_d_mbar.cl, TESSERA_NVD_MBAR).
        const std::string opts = ocl::params_build_options(full) +
                                 (nv && prec == 'd' ? " -DTESSERA_NVD_BIG=0 -DTESSERA_NVD_MBAR=0" : "");
        auto dk = build_kernels(env, prec, opts, env.info, nv ? nv_gemm_files() : std::vector<std::string>{"gemm.cl"});
        const GemmFn<T> fn = nv ? nv_path<T>() : portable_path<T>(cand);
        std::mt19937_64 rng(11);
        double worst = 0;
        for (GemmCase c : standard_cases(quick)) {
            if (!nv && c.tri) continue;  // portable path: tri is syrk's (A·Aᵀ) contract, not tested here
            const double r = check_case<T>(env, *dk, fn, c, rng);
            worst = std::max(worst, r);
            if (!(r <= 60)) {
                std::printf("  %-60s WRONG (%s: residual %.3g)\n", describe(cand).c_str(), c.str().c_str(), r);
                return out;
            }
        }
        // Timing: device-resident size³ product.
        const int n = size;
        std::vector<T> h(size_t(n) * n);
        std::mt19937_64 r2(5);
        fill_random(h, r2);
        Buffer<T> A(env, h.size()), B(env, h.size()), C(env, h.size());
        A.write(env, h), B.write(env, h);
        GemmCase g;
        g.m = g.n = g.k = n;
        const ocl::Mat mA{A.mem, 0, n}, mB{B.mem, 0, n}, mC{C.mem, 0, n};
        const double t = time_batches(env, [&] { fn(*dk, env.queue, g, mA, mB, mC); }, reps, n >= 4096 ? 2 : 5);
        out.tflops = 2.0 * n * double(n) * n / t * 1e-12;
        out.ok = true;
        std::printf("  %-60s %10.1f GFLOP/s  (check %.2g)\n", describe(cand).c_str(), out.tflops * 1e3, worst);
    } catch (const std::exception& e) {
        std::printf("  %-60s failed: %.200s\n", describe(cand).c_str(), e.what());
    }
    std::fflush(stdout);
    return out;
}

bool same_match(const ocl::DeviceMatch& a, const ocl::DeviceMatch& b) {
    return a.vendor == b.vendor && a.name == b.name && a.cc_major == b.cc_major && a.cc_minor == b.cc_minor &&
           a.prec == b.prec;
}

/// The command line of tessera-tune.
struct Args {
    std::vector<char> precs = {'d', 's'};
    std::string kernel = "auto", out_path;
    int size = 0, reps = 5;  ///< size 0: chosen by device type
    bool quick = false;
};

constexpr const char* kUsage =
    "usage: tessera-tune [--prec d,s] [--kernel auto|nv|portable] [--size N] [--reps R] [--quick] [--out FILE], "
    "or tessera-tune --cpu [--prec d[,s,c,z]] [--size N] [--budget SECONDS] [--reps R] [--quick] [--out FILE] "
    "(--help: both in full)";

/// What --help and -h print (stdout, exit 0).
constexpr const char* kHelp =
    "tessera-tune: measure the best kernel parameters or tile sizes on this machine\n"
    "\n"
    "usage: tessera-tune [--prec d,s] [--kernel auto|nv|portable] [--size N] [--reps R] [--quick] [--out FILE]\n"
    "  sweep the OpenCL GEMM kernel's parameters on the present device, check each candidate against CBLAS,\n"
    "  and write the fastest as a kernel-parameter table entry (use it with TESSERA_KERNEL_PARAMS=FILE)\n"
    "usage: tessera-tune --cpu [--prec d[,s,c,z]] [--size N] [--budget SECONDS] [--reps R] [--quick] [--out FILE]\n"
    "  measure the CPU tile sizes (nb, and geqrf's ib) of potrf, getrf, geqrf and gemm and merge them into a\n"
    "  CPU tile table (default FILE: the user table tessera::tuned_tile reads first, TESSERA_CPU_TILES)\n"
    "usage: tessera-tune --calibrate [--prec d[,s,c,z]] [--nb LIST] [--tiles T] [--max-runs R]\n"
    "  fill StarPU's performance models (STARPU_HOME) with checked runs of potrf, getrf, geqrf and gemm on\n"
    "  (T*nb)x(T*nb) problems, on the OpenCL devices, then as an application runs, until no task is placed to calibrate\n"
    "\n"
    "options:\n"
    "  --cpu             tune the CPU tile sizes instead of the OpenCL kernel\n"
    "  --calibrate       calibrate StarPU's performance models of every routine instead\n"
    "  --nb LIST         --calibrate: tile sizes, comma-separated (default: tessera::tuned_tile's per routine)\n"
    "  --tiles T         --calibrate: tiles per side of each problem (default 4)\n"
    "  --max-runs R      --calibrate: runs per routine and nb at most (default 20)\n"
    "  --prec LIST       precisions, comma-separated (OpenCL: d,s; --cpu: d,s,c,z)\n"
    "  --kernel K        OpenCL kernel: auto (NVIDIA path on compute capability >= 8.0), nv or portable\n"
    "  --size N          matrix order of the timing runs\n"
    "  --budget SECONDS  --cpu: time allowed per routine\n"
    "  --reps R          timed repetitions per candidate\n"
    "  --quick           fewer candidates\n"
    "  --out FILE        merge the entries into FILE instead of printing them (--cpu: default the user table)\n"
    "  -h, --help        this help\n"
    "exit status: 0 done; 1 no candidate passed, a device or check failed, or still calibrating; 2 refused (bad arguments, too large --size)\n";

/// Parse argv; throws tessera::Error (exit code 2) naming the option for a missing or invalid value.
Args parse_args(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&] { return option_value(argc, argv, i, kUsage); };
        if (a == "--prec") args.precs = parse_prec_list(value(), "ds");
        else if (a == "--kernel") {
            args.kernel = value();
            if (args.kernel != "auto" && args.kernel != "nv" && args.kernel != "portable")
                throw Error("--kernel: expected auto, nv or portable, got '" + args.kernel + "'");
        } else if (a == "--size") args.size = parse_int_option("--size", value(), 1);
        else if (a == "--reps") args.reps = parse_int_option("--reps", value(), 1);
        else if (a == "--quick") args.quick = true;
        else if (a == "--out") args.out_path = value();
        else throw Error("unknown argument '" + a + "'; " + kUsage);
    }
    return args;
}

/// Refuse a timing size whose n×n matrices do not fit: one on the host, three on the device (A, B, C).
void require_timing_memory(const Env& env, int size, size_t elem) {
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(uint64_t(size), uint64_t(size), &bytes) || __builtin_mul_overflow(bytes, elem, &bytes))
        throw Error("--size " + std::to_string(size) + ": the matrices have more bytes than a 64-bit count can hold");
    detail::require_host_memory("--size " + std::to_string(size), bytes);
    cl_ulong global = 0, max_alloc = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr);
    if ((global > 0 && bytes > global / 3) || (max_alloc > 0 && bytes > max_alloc))
        throw Error("--size " + std::to_string(size) + ": three " + std::to_string(size) + " x " +
                    std::to_string(size) + " matrices need " + detail::format_gb(3.0 * double(bytes)) +
                    " of device memory (at most " + detail::format_gb(double(max_alloc)) + " each); the device has " +
                    detail::format_gb(double(global)));
}

/// Merge `entries` into the table at `path` (entries for the same device and precision replaced);
/// false, with a message, when an existing file does not parse.
bool merge_with_file(const std::string& path, std::vector<ocl::ParamEntry>& all,
                     const std::vector<ocl::ParamEntry>& entries) {
    if (!path.empty() && std::ifstream(path)) {
        std::string err;
        auto old = ocl::load_param_file(path, &err);
        if (!old) {
            std::fprintf(stderr, "tessera-tune: %s; not overwriting it\n", err.c_str());
            return false;
        }
        for (const ocl::ParamEntry& o : old->entries) {
            bool replaced = false;
            for (const ocl::ParamEntry& e : entries) replaced |= same_match(o.match, e.match);
            if (!replaced) all.push_back(o);
        }
    }
    all.insert(all.end(), entries.begin(), entries.end());
    return true;
}

int tune_main(int argc, char** argv) {
    Args args = parse_args(argc, argv);
    Env env;
    const ocl::DeviceInfo& info = env.info;
    std::printf("tessera-tune on %s\n", env.describe().c_str());
    const bool nv = args.kernel == "nv" || (args.kernel == "auto" && info.cc_major >= 8);
    if (args.size == 0) args.size = info.type & CL_DEVICE_TYPE_GPU ? 4096 : 768;
    for (char prec : args.precs) require_timing_memory(env, args.size, prec == 'd' ? sizeof(double) : sizeof(float));
    std::vector<ocl::ParamEntry> entries;
    for (char prec : args.precs) {
        if (prec == 'd' && !info.fp64) continue;
        const std::vector<Candidate> cands = nv ? nv_candidates(prec, info, args.quick) : portable_candidates(args.quick);
        std::printf("%cgemm, %s kernel, %zu candidates, n = %d:\n", prec, nv ? "NVIDIA" : "portable", cands.size(),
                    args.size);
        Outcome best;
        for (const Candidate& c : cands) {
            Outcome o = prec == 'd' ? try_candidate<double>(env, c, nv, args.size, args.reps, args.quick)
                                    : try_candidate<float>(env, c, nv, args.size, args.reps, args.quick);
            if (o.ok && o.tflops > best.tflops) best = o;
        }
        if (!best.ok) {
            std::printf("  no candidate passed for %cgemm: no entry written\n", prec);
            continue;
        }
        std::printf("  best: %s, %.1f GFLOP/s\n", describe(best.cand).c_str(), best.tflops * 1e3);
        ocl::ParamEntry e;
        e.match.vendor = info.vendor, e.match.name = info.name, e.match.prec = prec;
        e.match.cc_major = info.cc_major, e.match.cc_minor = info.cc_major >= 0 ? info.cc_minor : -1;
        e.values = best.cand;
        entries.push_back(e);
    }
    if (entries.empty()) return tool::kFailed;
    std::vector<ocl::ParamEntry> all;
    if (!merge_with_file(args.out_path, all, entries)) return tool::kFailed;
    const std::string text = ocl::format_param_table(all, "written by tessera-tune on " + env.describe());
    if (args.out_path.empty()) {
        std::fputs(text.c_str(), stdout);
    } else {
        std::ofstream out(args.out_path);
        if (!(out << text) || !out.flush()) {
            std::fprintf(stderr, "tessera-tune: writing %s failed\n", args.out_path.c_str());
            return tool::kFailed;
        }
        std::printf("wrote %s\n", args.out_path.c_str());
    }
    return tool::kOk;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {  // --help anywhere but as an option's value
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kHelp, stdout);
            return tool::kOk;
        }
        if (a == "--prec" || a == "--kernel" || a == "--size" || a == "--reps" || a == "--budget" || a == "--out" || a == "--nb" ||
            a == "--tiles" || a == "--max-runs")
            ++i;
    }
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--calibrate")
            return tool::guarded_main("tessera-tune", [&] { return tessera::tune::calibrate_main(argc, argv); });
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--cpu")
            return tool::guarded_main("tessera-tune", [&] { return tessera::tune::cpu_tune_main(argc, argv); });
    return tool::guarded_main("tessera-tune", [&] { return tune_main(argc, argv); });
}

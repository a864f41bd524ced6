// A small StarPU-free OpenCL harness shared by bench/gpu_gemm.cpp and tools/tune (tessera-tune):
// device choice, program builds with extra -D options, device buffers, a GEMM reference check
// (the scaled residual of docs/architecture.md#numerical-checks) and batch timing. Header-only; needs
// CBLAS and the tessera library (program_source, query_device, build_options, DeviceKernels, the
// launchers).
#pragma once

#include <CL/cl.h>
#include <cblas.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/opencl/device.hpp"
#include "kernels/opencl/embedded_sources.hpp"
#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch.hpp"
#include "tessera/types.hpp"

namespace tessera::harness {

using ocl::check;

/// The value of command-line option `name`: an integer from `lo` to INT_MAX. Anything else (not a
/// number, trailing characters, out of range) throws tessera::Error naming the option, which the
/// tools' guarded main refuses with exit code 2 (std::stoi's exceptions escaped main and aborted).
inline int parse_int_option(const std::string& name, const std::string& text, int lo) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && stop == end && value < lo))
        throw Error(name + ": must be an integer from " + std::to_string(lo) + " to " +
                    std::to_string(std::numeric_limits<int>::max()) + ", got " + text);
    if (ec != std::errc() || stop != end || text.empty()) throw Error(name + ": must be an integer, got '" + text + "'");
    return value;
}

/// The value of the option argv[i], advancing i past it. Throws tessera::Error "<option> needs a
/// value; <usage>" when the option is the last argument.
inline std::string option_value(int argc, char** argv, int& i, const char* usage) {
    if (i + 1 >= argc) throw Error(std::string(argv[i]) + " needs a value; " + usage);
    return argv[++i];
}

/// --prec's value: precision letters among `allowed` (e.g. "sd"), separated by commas, each kept
/// once in the order given. Throws tessera::Error naming the option otherwise.
inline std::vector<char> parse_prec_list(const std::string& text, const std::string& allowed) {
    std::vector<char> precs;
    std::string letters;
    for (char c : allowed) letters += std::string(letters.empty() ? "" : ", ") + c;
    for (char c : text) {
        if (allowed.find(c) != std::string::npos) {
            if (std::find(precs.begin(), precs.end(), c) == precs.end()) precs.push_back(c);
        } else if (c != ',') {
            precs.clear();
            break;
        }
    }
    if (precs.empty())
        throw Error("--prec: expected letters among " + letters + " separated by commas, got '" + text + "'");
    return precs;
}

struct Env {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context ctx = nullptr;
    cl_command_queue queue = nullptr;
    ocl::DeviceInfo info;

    Env(const Env&) = delete;
    Env& operator=(const Env&) = delete;
    /// The first GPU of the first platform that has one (else the first device at all), unless
    /// $TESSERA_CL_PLATFORM names (a substring of) the platform to use.
    Env() {
        cl_uint np = 0;
        check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
        std::vector<cl_platform_id> ps(np);
        check(clGetPlatformIDs(np, ps.data(), nullptr), "clGetPlatformIDs");
        const char* want = std::getenv("TESSERA_CL_PLATFORM");
        for (int pass = 0; pass < 2 && !device; ++pass)
            for (cl_platform_id p : ps) {
                char name[256] = {};
                clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
                if (want && !std::strstr(name, want)) continue;
                cl_device_id d = nullptr;
                if (clGetDeviceIDs(p, pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS &&
                    d) {
                    platform = p, device = d;
                    break;
                }
            }
        if (!device) throw std::runtime_error("no OpenCL device found");
        info = ocl::query_device(device);
        cl_int err = CL_SUCCESS;
        ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        check(err, "clCreateContext");
        queue = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
        check(err, "clCreateCommandQueue");
    }
    ~Env() {
        if (queue) clReleaseCommandQueue(queue);
        if (ctx) clReleaseContext(ctx);
    }
    std::string describe() const {
        std::string s = info.name + " (" + info.vendor + ", driver " + info.driver_version + ")";
        if (info.cc_major >= 0) s += ", compute capability " + std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
        return s;
    }
};

/// Build `source` for the device; throws with the build log on failure.
inline cl_program build_program(const Env& env, const std::string& source, const std::string& options) {
    const char* src = source.c_str();
    const size_t len = source.size();
    cl_int err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(env.ctx, 1, &src, &len, &err);
    check(err, "clCreateProgramWithSource");
    // $TESSERA_BUILD_LOG: extra build options (e.g. -cl-nv-verbose, whose log has ptxas's register
    // and spill counts); the log's lines about registers and spills are then printed, prefixed BUILDLOG.
    const char* log_opts = std::getenv("TESSERA_BUILD_LOG");
    const std::string all_options = options + (log_opts && *log_opts ? std::string(" ") + log_opts : "");
    err = clBuildProgram(prog, 1, &env.device, all_options.c_str(), nullptr, nullptr);
    if (err == CL_SUCCESS && log_opts && *log_opts) {
        size_t n = 0;
        clGetProgramBuildInfo(prog, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(prog, env.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        std::istringstream in(log);
        std::printf("BUILDLOG options: %s\n", options.c_str());
        for (std::string line; std::getline(in, line);)
            if (line.find("Compiling") != std::string::npos || line.find("spill") != std::string::npos ||
                line.find("registers") != std::string::npos)
                std::printf("BUILDLOG %s\n", line.c_str());
        std::fflush(stdout);
    }
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(prog, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(prog, env.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        clReleaseProgram(prog);
        if (log.size() > 4000) log = log.substr(0, 4000) + "\n...";
        throw std::runtime_error("clBuildProgram(" + options + ") failed (" + std::to_string(err) + "):\n" + log);
    }
    return prog;
}

/// The embedded prelude plus the named kernel files only (e.g. {"gemm.cl"}), so that a tool does
/// not depend on kernels it does not use; empty `files`: the library's whole program_source().
inline std::string program_subset(const std::vector<std::string>& files) {
    if (files.empty()) return ocl::program_source();
    std::string s;
    for (const ocl::EmbeddedSource& src : ocl::embedded_sources()) {
        const std::string name = src.name;
        if (name.find(".clh") == std::string::npos && std::find(files.begin(), files.end(), name) == files.end())
            continue;
        s += "// ---- " + name + "\n" + src.text + "\n";
    }
    return s;
}

/// The NVIDIA GEMM's files (gemm_nv.cl and its double and float parts), then `more`.
inline std::vector<std::string> nv_gemm_files(std::vector<std::string> more = {}) {
    more.insert(more.begin(), {"gemm_nv.cl", "gemm_nv_d.cl", "gemm_nv_d_mbar.cl", "gemm_nv_s.cl", "gemm_nv_tf32.cl"});
    return more;
}

/// Tessera's program for `prec` (the files `files`, default the NVIDIA GEMM's), built with build_options()
/// plus `extra` (e.g. "-DTESSERA_NVD_MMA=1688"). `info` lets a test pretend another compute
/// capability (PoCL emulation of the NVIDIA path).
inline std::unique_ptr<ocl::DeviceKernels> build_kernels(const Env& env, char prec, const std::string& extra,
                                                         ocl::DeviceInfo info,
                                                         const std::vector<std::string>& files = nv_gemm_files()) {
    const std::string opts = ocl::build_options(info, prec) + (extra.empty() ? "" : " " + extra);
    cl_program prog = build_program(env, program_subset(files), opts);
    return std::make_unique<ocl::DeviceKernels>(env.ctx, env.device, prog, prec, std::move(info));
}

/// A device buffer of n elements of T.
template <class T>
struct Buffer {
    cl_mem mem = nullptr;
    size_t n = 0;
    Buffer(const Env& env, size_t count) : n(std::max<size_t>(count, 1)) {
        cl_int err = CL_SUCCESS;
        mem = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, n * sizeof(T), nullptr, &err);
        check(err, "clCreateBuffer");
    }
    ~Buffer() {
        if (mem) clReleaseMemObject(mem);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void write(const Env& env, const std::vector<T>& h) {
        check(clEnqueueWriteBuffer(env.queue, mem, CL_TRUE, 0, h.size() * sizeof(T), h.data(), 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    }
    void read(const Env& env, std::vector<T>& h) const {
        check(clEnqueueReadBuffer(env.queue, mem, CL_TRUE, 0, h.size() * sizeof(T), h.data(), 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
    }
};

template <class T>
void fill_random(std::vector<T>& v, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (T& x : v) x = T(d(rng));
}

inline void gemm_ref(bool ta, bool tb, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
                     int ldb, double beta, double* C, int ldc) {
    cblas_dgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, A, lda,
                B, ldb, beta, C, ldc);
}
inline void gemm_ref(bool ta, bool tb, int m, int n, int k, float alpha, const float* A, int lda, const float* B,
                     int ldb, float beta, float* C, int ldc) {
    cblas_sgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, A, lda,
                B, ldb, beta, C, ldc);
}

/// 1-norm of the r×c matrix at p (leading dimension ld), in double.
template <class T>
double norm1(int r, int c, const T* p, int ld) {
    double best = 0;
    for (int j = 0; j < c; ++j) {
        double s = 0;
        for (int i = 0; i < r; ++i) s += std::fabs(double(p[i + size_t(j) * ld]));
        best = std::max(best, s);
    }
    return best;
}

/// One GEMM case: sizes, transposes, element offsets, leading-dimension padding, alpha, beta, tri.
struct GemmCase {
    bool ta = false, tb = false;
    int m = 0, n = 0, k = 0;
    size_t offA = 0, offB = 0, offC = 0;
    int padA = 0, padB = 0, padC = 0;
    double alpha = 1, beta = 0;
    int tri = 0;
    std::string str() const {
        char b[200];
        std::snprintf(b, sizeof b, "%c%c m=%d n=%d k=%d off=%zu/%zu/%zu pad=%d/%d/%d a=%.3g b=%.3g tri=%d",
                      ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, offA, offB, offC, padA, padB, padC, alpha, beta, tri);
        return b;
    }
};

/// Enqueue C = alpha·op(A)·op(B) + beta·C with the chosen path; false if that path is unavailable.
template <class T>
using GemmFn = std::function<bool(const ocl::DeviceKernels&, cl_command_queue, const GemmCase&, ocl::Mat, ocl::Mat,
                                  ocl::Mat)>;

template <class T>
GemmFn<T> nv_path() {
    return [](const ocl::DeviceKernels& dk, cl_command_queue q, const GemmCase& c, ocl::Mat A, ocl::Mat B, ocl::Mat C) {
        return ocl::nv_gemm<T>(dk, q, c.ta ? Trans::Trans : Trans::NoTrans, c.tb ? Trans::Trans : Trans::NoTrans, c.m,
                               c.n, c.k, T(c.alpha), A, B, T(c.beta), C, c.tri);
    };
}

/// Run one case on the device and compare with CBLAS: returns the scaled residual of
/// docs/architecture.md#numerical-checks, ‖C − C_ref‖₁ / ((|α|‖A‖₁‖B‖₁ + |β|‖C₀‖₁)·k·eps), or +inf when
/// an element outside the written region changed or a NaN appeared. C's region is poisoned with NaN when
/// beta == 0 (must not be read). eps is T's unit roundoff unless `unit_roundoff` > 0 gives the
/// products' own (2^-11 for TF32 products).
template <class T>
double check_case(const Env& env, const ocl::DeviceKernels& dk, const GemmFn<T>& fn, const GemmCase& c,
                  std::mt19937_64& rng, std::string* why = nullptr, double unit_roundoff = 0) {
    const int ar = c.ta ? c.k : c.m, ac = c.ta ? c.m : c.k;  // A as stored
    const int br = c.tb ? c.n : c.k, bc = c.tb ? c.k : c.n;
    const int lda = std::max(1, ar + c.padA), ldb = std::max(1, br + c.padB), ldc = std::max(1, c.m + c.padC);
    std::vector<T> hA(c.offA + size_t(lda) * ac + 3), hB(c.offB + size_t(ldb) * bc + 3), hC(c.offC + size_t(ldc) * c.n + 3);
    fill_random(hA, rng), fill_random(hB, rng), fill_random(hC, rng);
    const T sentinel = T(12345.5);
    std::vector<T> c0 = hC;
    for (size_t i = 0; i < hC.size(); ++i) {  // outside the m×n region: sentinel; inside: NaN if beta == 0
        const bool inside = i >= c.offC && (i - c.offC) % ldc < size_t(c.m) && (i - c.offC) / ldc < size_t(c.n);
        if (!inside) hC[i] = c0[i] = sentinel;
        else if (c.beta == 0) hC[i] = std::numeric_limits<T>::quiet_NaN(), c0[i] = 0;
    }
    Buffer<T> dA(env, hA.size()), dB(env, hB.size()), dC(env, hC.size());
    dA.write(env, hA), dB.write(env, hB), dC.write(env, hC);
    if (!fn(dk, env.queue, c, {dA.mem, c.offA, lda}, {dB.mem, c.offB, ldb}, {dC.mem, c.offC, ldc}))
        throw std::runtime_error("GEMM path unavailable on this device");
    check(clFinish(env.queue), "clFinish");
    std::vector<T> out(hC.size());
    dC.read(env, out);
    std::vector<T> ref = c0;
    if (c.m > 0 && c.n > 0)
        gemm_ref(c.ta, c.tb, c.m, c.n, c.k, T(c.alpha), hA.data() + c.offA, lda, hB.data() + c.offB, ldb, T(c.beta),
                 ref.data() + c.offC, ldc);
    if (c.tri)  // untouched triangle keeps C0 (NaN poison where beta == 0 stays NaN: compare to hC)
        for (int j = 0; j < c.n; ++j)
            for (int i = 0; i < c.m; ++i)
                if ((c.tri == 1 && i < j) || (c.tri == 2 && i > j)) ref[c.offC + i + size_t(j) * ldc] = hC[c.offC + i + size_t(j) * ldc];
    double worst_col = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        const bool inside = i >= c.offC && (i - c.offC) % ldc < size_t(c.m) && (i - c.offC) / ldc < size_t(c.n);
        if (!inside) {
            if (out[i] != sentinel) {
                if (why) *why = "wrote outside C at index " + std::to_string(i);
                return INFINITY;
            }
            continue;
        }
        if (std::isnan(ref[i])) {  // the poisoned triangle that tri says to leave alone
            if (std::isnan(out[i])) continue;
            if (why) *why = "wrote the other triangle at index " + std::to_string(i);
            return INFINITY;
        }
        if (std::isnan(out[i]) || std::isinf(out[i])) {
            if (why) *why = "NaN/Inf in C at index " + std::to_string(i);
            return INFINITY;
        }
    }
    for (int j = 0; j < c.n; ++j) {
        double s = 0;
        for (int i = 0; i < c.m; ++i) {
            const size_t x = c.offC + i + size_t(j) * ldc;
            if (std::isnan(ref[x])) continue;
            s += std::fabs(double(out[x]) - double(ref[x]));
        }
        worst_col = std::max(worst_col, s);
    }
    const double eps = unit_roundoff > 0 ? unit_roundoff : std::numeric_limits<T>::epsilon() / 2;
    const double nA = norm1(ar, ac, hA.data() + c.offA, lda), nB = norm1(br, bc, hB.data() + c.offB, ldb);
    const double nC = norm1(c.m, c.n, c0.data() + c.offC, ldc);
    const double denom = (std::fabs(c.alpha) * nA * nB + std::fabs(c.beta) * nC) * std::max(c.k, 1) * eps;
    if (denom == 0) return worst_col == 0 ? 0 : INFINITY;
    return worst_col / denom;
}

/// The standard set of correctness cases: every trans combination, edge sizes, offsets, padded
/// leading dimensions, alpha/beta (beta == 0 included), k = 0, and the syrk triangles.
inline std::vector<GemmCase> standard_cases(bool quick) {
    std::vector<GemmCase> cs;
    const int sizes[][3] = {{1, 1, 1}, {7, 5, 3}, {128, 128, 8}, {129, 130, 9}, {200, 77, 131}, {64, 300, 16},
                            {257, 255, 100}, {300, 301, 520}};
    int idx = 0;
    for (int t = 0; t < 4; ++t)
        for (const auto& s : sizes) {
            if (quick && idx % 3 != 0 && s[0] > 8) { ++idx; continue; }
            GemmCase c;
            c.ta = t & 2, c.tb = t & 1;
            c.m = s[0], c.n = s[1], c.k = s[2];
            c.offA = idx % 5, c.offB = (idx * 3) % 7, c.offC = idx % 3;
            c.padA = idx % 4, c.padB = (idx + 1) % 3, c.padC = idx % 2 * 5;
            c.alpha = idx % 4 == 3 ? -0.75 : 1.25;
            c.beta = idx % 3 == 0 ? 0.0 : 0.5;
            cs.push_back(c);
            ++idx;
        }
    // Offsets and leading dimensions multiples of `align` elements (the NVIDIA kernels' 16-byte
    // copies: double 2, float 4), with edges in m and n and a k tail, every trans combination.
    const auto add_aligned = [&cs](int m, int n, int k, int align, double alpha, double beta) {
        for (int t = 0; t < 4; ++t) {
            GemmCase c;
            c.ta = t & 2, c.tb = t & 1;
            c.m = m, c.n = n, c.k = k;
            c.offA = align, c.offB = 2 * align, c.offC = 1;
            const int rowsA = c.ta ? c.k : c.m, rowsB = c.tb ? c.n : c.k;
            c.padA = align - rowsA % align, c.padB = align - rowsB % align, c.padC = 3;
            c.alpha = alpha, c.beta = t % 2 ? beta : 0.0;
            cs.push_back(c);
        }
    };
    add_aligned(130, 98, 27, 2, -1.5, 0.25);
    add_aligned(131, 97, 42, 4, 0.5, -1.0);  // k tail inside a 4-float chunk
    add_aligned(60, 100, 600, 4, 1.5, 0.75);  // few blocks, deep k: split k with 16-byte copies
    // NN products large enough for tessera_nvgemm_nn_big on a big GPU (its 128×128 blocks must
    // cover every compute unit; PoCL's few compute units reach it with the cases above): 16-byte
    // aligned, edges in m and n, whole k slabs and a k tail.
    if (!quick)
        for (int t = 0; t < 2; ++t) {
            GemmCase c;
            c.m = t ? 2050 : 2200, c.n = t ? 2300 : 2100, c.k = t ? 37 : 72;
            c.offA = 2, c.offB = 4, c.offC = 1;
            c.padA = c.m % 2 ? 1 : 2, c.padB = c.k % 2 ? 1 : 2, c.padC = 3;
            c.alpha = t ? -0.75 : 1.25, c.beta = t ? 0.5 : 0.0;
            cs.push_back(c);
        }
    // Whole 128×128 blocks and 8-deep slabs: what tessera_nvgemm_nn_mbar and _nt_mbar take
    // (gemm_select.cpp; 16-byte aligned), and _tn_mbar where built (TESSERA_NVD_MBAR_TN; any A: an
    // odd lda here). The large ones fill a big GPU's compute units; xSYRK's triangles in the NT form
    // (TESSERA_NVD_MBAR_TRI), and fewer blocks than a big GPU's units with a deep k (split k; the
    // _mbar kernels with TESSERA_NVD_MBAR_FEW). quick: the cases PoCL's emulation runs.
    struct Whole {
        bool ta, tb;
        int tri, m, n, k;
        double alpha, beta;
        bool quick;
    };
    const Whole whole[] = {{0, 0, 0, 256, 384, 40, 1.25, 0.5, true},      {0, 1, 0, 256, 384, 40, -0.75, 0.0, true},
                           {1, 0, 0, 256, 384, 40, 1.25, 0.5, true},      {0, 0, 0, 2304, 2176, 72, 1.25, 0.5, false},
                           {0, 1, 0, 2304, 2176, 72, -0.75, 0.5, false},  {1, 0, 0, 2304, 2176, 72, -0.75, 0.5, false},
                           {0, 1, 1, 384, 384, 64, -1.0, 0.5, true},      {0, 1, 2, 256, 256, 1024, 1.25, 0.5, true},
                           {0, 1, 1, 512, 512, 1024, -1.0, 0.5, false},   {0, 0, 0, 256, 384, 1024, 1.25, 0.5, true},
                           {0, 1, 0, 256, 384, 1024, -1.0, 0.0, false},   {1, 0, 0, 256, 384, 1024, -1.0, 0.5, true}};
    for (const Whole& w : whole) {
        if (quick && !w.quick) continue;
        GemmCase c;
        c.ta = w.ta, c.tb = w.tb, c.tri = w.tri, c.m = w.m, c.n = w.n, c.k = w.k, c.alpha = w.alpha, c.beta = w.beta;
        c.offA = w.ta ? 1 : 2, c.offB = 4, c.offC = 1, c.padA = w.ta ? 1 : 2, c.padB = 4, c.padC = 3;
        cs.push_back(c);
    }
    // Few blocks and a deep k: split k (gemm_select.cpp) on any device, every trans combination,
    // one with a k tail, and a lower triangle (xSYRK).
    for (int t = 0; t < 5; ++t) {
        GemmCase c;
        c.ta = t & 2, c.tb = t & 1;
        c.m = t == 4 ? 100 : 60, c.n = 100, c.k = t == 1 ? 603 : 600, c.tri = t == 4;
        c.offA = t, c.offB = 2 * t, c.offC = 1, c.padA = t % 2, c.padB = 2, c.padC = 3;
        c.alpha = t % 2 ? -0.5 : 1.5, c.beta = t == 2 ? 0.0 : 0.75;
        cs.push_back(c);
    }
    GemmCase z;  // k = 0: C = beta·C
    z.m = 33, z.n = 17, z.k = 0, z.beta = 2.0;
    cs.push_back(z);
    GemmCase a0;  // alpha = 0
    a0.m = 140, a0.n = 20, a0.k = 50, a0.alpha = 0, a0.beta = -1;
    cs.push_back(a0);
    for (int tri = 1; tri <= 2; ++tri) {
        GemmCase s;
        s.ta = tri == 2, s.tb = tri != 2, s.m = s.n = 270, s.k = 40, s.tri = tri, s.beta = tri == 1 ? 0.0 : 1.0;
        cs.push_back(s);
    }
    return cs;
}

/// Largest |x − y| over the lower triangle ('L'), the upper one ('U') or everything ('G') of two
/// n×n column-major matrices (ld n), relative to the largest |y| there (real T), in double.
template <class T>
double rel_error(const std::vector<T>& x, const std::vector<T>& y, int n, char part) {
    double d = 0, s = 0;
    for (int j = 0; j < n; ++j)
        for (int i = part == 'L' ? j : 0; i < (part == 'U' ? j + 1 : n); ++i) {
            const size_t p = size_t(j) * n + i;
            d = std::max(d, std::abs(double(x[p]) - double(y[p])));
            s = std::max(s, std::abs(double(y[p])));
        }
    return s > 0 ? d / s : d;
}

/// Median of v.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Seconds per call of `enqueue` (which enqueues one operation on env.queue): `batches` batches of
/// `per_batch` back-to-back calls, each batch timed on the host between two clFinish; the median
/// batch. Launch latency is amortized over the batch, as with CUDA events around a loop.
inline double time_batches(const Env& env, const std::function<void()>& enqueue, int batches, int per_batch) {
    enqueue();  // warm-up
    check(clFinish(env.queue), "clFinish");
    std::vector<double> ts;
    for (int b = 0; b < batches; ++b) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < per_batch; ++i) enqueue();
        check(clFinish(env.queue), "clFinish");
        const auto t1 = std::chrono::steady_clock::now();
        ts.push_back(std::chrono::duration<double>(t1 - t0).count() / per_batch);
    }
    return median(ts);
}

}  // namespace tessera::harness

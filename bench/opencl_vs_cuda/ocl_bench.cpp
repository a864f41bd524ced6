// OpenCL host program of the OpenCL-vs-CUDA benchmark (CMake target opencl_vs_cuda_ocl): times
// copy_matrix and gemm_nn of kernels.cl (embedded at build time) on device-resident data
// (profiling events, one warm-up, best and median of reps), checks every result and appends one
// JSON line per kernel and size (bench_common.hpp's Record) for report.py.
//
// Extra options: --tile MB,NB,KB,TM,TN (the -D values nvcc got), --device-type gpu|any.
// Exit status: 0 all ran and checked, 1 an OpenCL error or a failed check, 2 bad arguments.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "ovc_kernels_cl.hpp"  // kKernelSource, generated from kernels.cl

namespace {

void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS) throw std::runtime_error(std::string(what) + ": OpenCL error " + std::to_string(err));
}

struct Ocl {
    cl_device_id dev = nullptr;
    cl_context ctx = nullptr;
    cl_command_queue q = nullptr;
    cl_program prog = nullptr;
    std::string device;
    int tile[5] = {128, 128, 16, 8, 8};
    ~Ocl() {
        if (prog) clReleaseProgram(prog);
        if (q) clReleaseCommandQueue(q);
        if (ctx) clReleaseContext(ctx);
    }
};

/// A device buffer of `count` elements of T, released at scope exit.
template <class T = double>
struct Buffer {
    cl_mem m = nullptr;
    Buffer(const Ocl& o, size_t count) {
        cl_int err = CL_SUCCESS;
        m = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, count * sizeof(T), nullptr, &err);
        check(err, "clCreateBuffer");
    }
    ~Buffer() { clReleaseMemObject(m); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

/// A kernel with its arguments set, released at scope exit.
struct Kernel {
    cl_kernel k = nullptr;
    template <class... Args>
    Kernel(const Ocl& o, const char* name, const Args&... args) {
        cl_int err = CL_SUCCESS;
        k = clCreateKernel(o.prog, name, &err);
        check(err, name);
        cl_uint index = 0;
        (check(clSetKernelArg(k, index++, sizeof(Args), &args), "clSetKernelArg"), ...);
    }
    ~Kernel() { clReleaseKernel(k); }
    /// Enqueue over a 2D range and return its profiling event (caller releases).
    cl_event run(const Ocl& o, size_t gx, size_t gy, size_t lx, size_t ly) const {
        const size_t global[2] = {gx, gy}, local[2] = {lx, ly};
        cl_event ev = nullptr;
        check(clEnqueueNDRangeKernel(o.q, k, 2, nullptr, global, local, 0, nullptr, &ev), "clEnqueueNDRangeKernel");
        return ev;
    }
    void run_wait(const Ocl& o, size_t gx, size_t gy, size_t lx, size_t ly) const {
        cl_event ev = run(o, gx, gy, lx, ly);
        cl_int err = clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        check(err, "clWaitForEvents");
    }
    /// One warm-up, then `reps` timed runs (profiling start to end); seconds.
    std::vector<double> time(const Ocl& o, int reps, size_t gx, size_t gy, size_t lx, size_t ly) const {
        run_wait(o, gx, gy, lx, ly);
        std::vector<double> t;
        for (int r = 0; r < reps; ++r) {
            cl_event ev = run(o, gx, gy, lx, ly);
            check(clWaitForEvents(1, &ev), "clWaitForEvents");
            cl_ulong start = 0, end = 0;
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
            clReleaseEvent(ev);
            t.push_back(double(end - start) * 1e-9);
        }
        return t;
    }
};

size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }
constexpr size_t kWg = 256;  // COPY_WG in kernels.cl

void fill(const Ocl& o, int n, const Buffer<>& X, cl_uint seed) {
    Kernel(o, "gen_matrix", n, X.m, seed).run_wait(o, round_up(size_t(n), kWg), size_t(n), kWg, 1);
}

/// Column-sum checksums and the sampled entries of the n×n matrix X into `r`.
void summarize(const Ocl& o, int n, const Buffer<>& X, ovc::Record& r) {
    Buffer<> sums(o, size_t(n));
    Kernel(o, "column_sums", n, X.m, n, sums.m).run_wait(o, size_t(n) * kWg, 1, kWg, 1);
    std::vector<double> host(static_cast<size_t>(n));
    check(clEnqueueReadBuffer(o.q, sums.m, CL_TRUE, 0, host.size() * sizeof(double), host.data(), 0, nullptr,
                              nullptr), "clEnqueueReadBuffer");
    ovc::checksums(host, r.sum, r.wsum);
    for (auto [i, j] : ovc::sample_positions(n)) {
        double v = 0;
        check(clEnqueueReadBuffer(o.q, X.m, CL_TRUE, (size_t(i) + size_t(j) * n) * sizeof(double), sizeof v, &v, 0,
                                  nullptr, nullptr), "clEnqueueReadBuffer");
        r.samples.push_back(v);
    }
}

ovc::Record base_record(const Ocl& o, const char* kernel, int n, int reps) {
    ovc::Record r;
    r.impl = "opencl";
    r.device = o.device;
    r.kernel = kernel;
    r.n = n;
    r.reps = reps;
    for (int t = 0; t < 5; ++t) r.tile[t] = o.tile[t];
    return r;
}

ovc::Record run_copy(const Ocl& o, int n, int reps) {
    ovc::Record r = base_record(o, "copy", n, reps);
    const size_t count = size_t(n) * n;
    Buffer<> A(o, count), B(o, count);
    fill(o, n, A, ovc::kSeedCopy);
    const auto t = Kernel(o, "copy_matrix", n, A.m, n, B.m, n).time(o, reps, round_up(size_t(n), kWg), size_t(n), kWg, 1);
    ovc::best_median(t, r.best_s, r.median_s);
    r.rate = 2.0 * double(count) * sizeof(double) / r.best_s * 1e-9;
    Buffer<cl_int> bad_d(o, 1);
    const cl_int zero = 0;
    check(clEnqueueWriteBuffer(o.q, bad_d.m, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
    Kernel(o, "count_mismatches", n, B.m, n, cl_uint(ovc::kSeedCopy), bad_d.m)
        .run_wait(o, round_up(size_t(n), kWg), size_t(n), kWg, 1);
    cl_int bad = -1;
    check(clEnqueueReadBuffer(o.q, bad_d.m, CL_TRUE, 0, sizeof bad, &bad, 0, nullptr, nullptr), "clEnqueueReadBuffer");
    r.check_ok = bad == 0;
    r.check_detail = std::to_string(bad) + " entries differ from the source (all compared)";
    summarize(o, n, B, r);
    return r;
}

ovc::Record run_gemm(const Ocl& o, int n, int reps) {
    ovc::Record r = base_record(o, "gemm", n, reps);
    const int mb = o.tile[0], nb = o.tile[1], kb = o.tile[2], tm = o.tile[3], tn = o.tile[4];
    if (n % mb || n % nb || n % kb) throw std::runtime_error("gemm n=" + std::to_string(n) + " is not a multiple of the tile");
    const size_t count = size_t(n) * n;
    Buffer<> A(o, count), B(o, count), C(o, count);
    fill(o, n, A, ovc::kSeedA);
    fill(o, n, B, ovc::kSeedB);
    const double alpha = 1.0, beta = 0.0;
    const auto t = Kernel(o, "gemm_nn", n, n, n, alpha, A.m, n, B.m, n, beta, C.m, n)
                       .time(o, reps, size_t(n / tm), size_t(n / tn), size_t(mb / tm), size_t(nb / tn));
    ovc::best_median(t, r.best_s, r.median_s);
    r.rate = 2.0 * double(n) * n * n / r.best_s * 1e-12;
    summarize(o, n, C, r);
    const double err = ovc::gemm_sample_error(n, r.samples);
    r.check_ok = err <= 60;
    char buf[96];
    std::snprintf(buf, sizeof buf, "max scaled error %.3g on %zu sampled entries vs CPU", err, r.samples.size());
    r.check_detail = buf;
    return r;
}

/// The first device of the requested type over all platforms, its context, queue and program.
void open_device(Ocl& o, bool gpu_only) {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) throw std::runtime_error("no OpenCL platform");
    std::vector<cl_platform_id> platforms(np);
    check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, gpu_only ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, 1, &o.dev, &nd) == CL_SUCCESS && nd)
            break;
        o.dev = nullptr;
    }
    if (!o.dev) throw std::runtime_error(gpu_only ? "no OpenCL GPU (use --device-type any for others)" : "no OpenCL device");
    char name[256] = {};
    clGetDeviceInfo(o.dev, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    o.device = name;
    cl_int err = CL_SUCCESS;
    o.ctx = clCreateContext(nullptr, 1, &o.dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    o.q = clCreateCommandQueue(o.ctx, o.dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    const char* src = kKernelSource;
    o.prog = clCreateProgramWithSource(o.ctx, 1, &src, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    const char* names[5] = {"GEMM_MB", "GEMM_NB", "GEMM_KB", "GEMM_TM", "GEMM_TN"};
    std::string options;
    for (int t = 0; t < 5; ++t) options += std::string(" -D") + names[t] + "=" + std::to_string(o.tile[t]);
    if (clBuildProgram(o.prog, 1, &o.dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        std::string log(1 << 16, '\0');
        clGetProgramBuildInfo(o.prog, o.dev, CL_PROGRAM_BUILD_LOG, log.size() - 1, log.data(), nullptr);
        throw std::runtime_error("clBuildProgram(" + options + ") failed:\n" + log.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    const auto opts = ovc::parse_options(
        argc, argv, {"copy-sizes", "gemm-sizes", "reps-copy", "reps-gemm", "output", "tile", "device-type"},
        "[--tile 128,128,16,8,8] [--device-type gpu|any] [common options as cuda_bench]");
    const ovc::CommonOptions common = ovc::common_options(opts, "opencl_vs_cuda_ocl");
    Ocl o;
    if (auto it = opts.find("tile"); it != opts.end()) {
        std::vector<int> tile;
        if (!ovc::parse_sizes(it->second, tile) || tile.size() != 5) {
            std::fprintf(stderr, "opencl_vs_cuda_ocl: --tile needs MB,NB,KB,TM,TN\n");
            return 2;
        }
        for (int t = 0; t < 5; ++t) o.tile[t] = tile[size_t(t)];
    }
    const auto type = opts.count("device-type") ? opts.at("device-type") : std::string("gpu");
    if (type != "gpu" && type != "any") {
        std::fprintf(stderr, "opencl_vs_cuda_ocl: --device-type is gpu or any\n");
        return 2;
    }
    std::FILE* out = common.output.empty() ? stdout : std::fopen(common.output.c_str(), "a");
    if (!out) {
        std::fprintf(stderr, "opencl_vs_cuda_ocl: cannot open %s\n", common.output.c_str());
        return 1;
    }
    bool ok = true;
    try {
        open_device(o, type == "gpu");
        std::fprintf(stderr, "opencl_vs_cuda_ocl: device %s\n", o.device.c_str());
        for (int n : common.copy_sizes) {
            const ovc::Record r = run_copy(o, n, common.reps_copy);
            ovc::write_record(out, r);
            ovc::print_progress(r);
            ok = ok && r.check_ok;
        }
        for (int n : common.gemm_sizes) {
            const ovc::Record r = run_gemm(o, n, common.reps_gemm);
            ovc::write_record(out, r);
            ovc::print_progress(r);
            ok = ok && r.check_ok;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "opencl_vs_cuda_ocl: %s\n", e.what());
        ok = false;
    }
    if (out != stdout) std::fclose(out);
    return ok ? 0 : 1;
}

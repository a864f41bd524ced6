// On-device measurements: FMA rate, device memory copy bandwidth and kernel launch latency.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "tools/devinfo/bench.hpp"

namespace tessera::devinfo {

constexpr double kFmaPerIteration = 128;  // 8 chains x 16 unrolled steps in fma_f32 / fma_f64

namespace {

/// Run `k` once over `global` work-items (local size `local`, 0 = let the driver choose) and
/// return its execution time from the profiling event, in seconds.
double time_kernel(cl_command_queue q, cl_kernel k, size_t global, size_t local) {
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, &ev),
          "clEnqueueNDRangeKernel");
    cl_int err = clWaitForEvents(1, &ev);
    double t = err == CL_SUCCESS ? event_seconds(ev) : 0;
    clReleaseEvent(ev);
    check(err, "clWaitForEvents");
    return t;
}

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

Measurement measure_fma(const Session& s, cl_program program, bool fp64, int vector_width, const BenchSizing& z) {
    Kernel k(program, fp64 ? "fma_f64" : "fma_f32");
    Buffer out(s.context(), CL_MEM_WRITE_ONLY,
               z.fma_global * size_t(vector_width) * (fp64 ? sizeof(double) : sizeof(float)));
    const double b = 0.999, c = 0.001;  // x -> x*b + c converges to 1: no overflow, no denormals
    const float bf = float(b), cf = float(c);
    check(clSetKernelArg(k.k, 0, sizeof(cl_mem), &out.m), "clSetKernelArg");
    check(clSetKernelArg(k.k, 2, fp64 ? sizeof b : sizeof bf, fp64 ? static_cast<const void*>(&b) : &bf),
          "clSetKernelArg");
    check(clSetKernelArg(k.k, 3, fp64 ? sizeof c : sizeof cf, fp64 ? static_cast<const void*>(&c) : &cf),
          "clSetKernelArg");
    auto run = [&](cl_int iters) {
        check(clSetKernelArg(k.k, 1, sizeof iters, &iters), "clSetKernelArg");
        return time_kernel(s.queue(), k.k, z.fma_global, z.fma_local);
    };
    // Calibrate the loop count so that one launch lasts about z.fma_seconds.
    cl_int iters = 4;
    double t = run(iters);
    while (t < 0.1 * z.fma_seconds && iters < (1 << 24)) t = run(iters *= 8);
    iters = cl_int(std::clamp(double(iters) * z.fma_seconds / std::max(t, 1e-9), 1.0, double(1 << 27)));
    double best = 1e30;
    for (int r = 0; r < z.reps; ++r) best = std::min(best, run(iters));
    const double flops = 2.0 * kFmaPerIteration * vector_width * double(iters) * double(z.fma_global);
    Measurement m;
    m.value = flops / best * 1e-9;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu work-items x %d iter x 128 FMA x %d lanes, %.1f ms, best of %d",
                  z.fma_global, iters, vector_width, best * 1e3, z.reps);
    m.detail = buf;
    return m;
}

Measurement measure_copy(const Session& s, cl_program program, const BenchSizing& z) {
    Kernel k(program, "copy_f4");
    Buffer src(s.context(), CL_MEM_READ_ONLY, z.copy_bytes), dst(s.context(), CL_MEM_WRITE_ONLY, z.copy_bytes);
    const cl_float pattern = 1.5f;
    check(clEnqueueFillBuffer(s.queue(), src.m, &pattern, sizeof pattern, 0, z.copy_bytes, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
    check(clFinish(s.queue()), "clFinish");
    check(clSetKernelArg(k.k, 0, sizeof(cl_mem), &src.m), "clSetKernelArg");
    check(clSetKernelArg(k.k, 1, sizeof(cl_mem), &dst.m), "clSetKernelArg");
    const size_t items = z.copy_bytes / 16;
    const size_t local = z.copy_local && items % z.copy_local == 0 ? z.copy_local : 0;
    time_kernel(s.queue(), k.k, items, local);  // warm-up (first touch of dst)
    double best = 1e30;
    for (int r = 0; r < z.reps; ++r) best = std::min(best, time_kernel(s.queue(), k.k, items, local));
    Measurement m;
    m.value = 2.0 * double(z.copy_bytes) / best * 1e-9;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s -> %s, float4 per work-item, work-group %s, %.2f ms, best of %d",
                  mib(z.copy_bytes).c_str(), mib(z.copy_bytes).c_str(),
                  local ? std::to_string(local).c_str() : "driver's", best * 1e3, z.reps);
    m.detail = buf;
    return m;
}

Measurement measure_launch(const Session& s, cl_program program, const BenchSizing& z) {
    Kernel k(program, "empty_kernel");
    const size_t global = 1;
    auto once = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        check(clEnqueueNDRangeKernel(s.queue(), k.k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
              "clEnqueueNDRangeKernel");
        check(clFinish(s.queue()), "clFinish");
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    for (int i = 0; i < 10; ++i) once();
    std::vector<double> t(size_t(std::max(1, z.launch_reps)));
    for (double& x : t) x = once();
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    Measurement m;
    m.value = t[t.size() / 2] * 1e6;
    m.detail = "empty kernel, 1 work-item, enqueue + clFinish, median of " + std::to_string(t.size());
    return m;
}

}  // namespace tessera::devinfo

// Sizing and orchestration of the microbenchmarks of one device (see bench.hpp).
#include "tools/devinfo/bench.hpp"

#include <algorithm>
#include <exception>
#include <functional>

namespace tessera::devinfo {

BenchSizing bench_sizing(const DeviceProps& p, bool quick) {
    BenchSizing z;
    const bool cpu = p.is_cpu();
    // Buffers: at most an eighth of device memory and of the largest allocation, whole MiB.
    size_t cap = size_t(std::min<cl_ulong>(p.max_alloc, p.global_mem / 8));
    auto fit = [&](size_t want) { return std::max<size_t>(std::min(want, cap) & ~size_t((1 << 20) - 1), 1 << 20); };
    if (cpu) {
        z.fma_seconds = quick ? 0.08 : 0.3;
        z.copy_bytes = fit(quick ? 32u << 20 : 128u << 20);
        z.transfer_bytes = fit(quick ? 16u << 20 : 64u << 20);
        z.reps = 3;
        z.launch_reps = quick ? 100 : 300;
        z.fma_local = std::min<size_t>(64, std::max<size_t>(1, p.max_work_group));
        z.fma_global = std::max<cl_uint>(1, p.compute_units) * 8 * z.fma_local;
        z.copy_local = std::min<size_t>(1024, std::max<size_t>(1, p.max_work_group));
    } else {
        z.fma_seconds = quick ? 0.03 : 0.1;
        z.copy_bytes = fit(quick ? 128u << 20 : 512u << 20);
        z.transfer_bytes = fit(quick ? 64u << 20 : 256u << 20);
        z.reps = quick ? 3 : 5;
        z.launch_reps = quick ? 200 : 1000;
        // 16 groups of 256 per compute unit: two full waves on a 2048-thread NVIDIA SM.
        z.fma_local = std::min<size_t>(256, std::max<size_t>(1, p.max_work_group));
        z.fma_global = std::max<cl_uint>(1, p.compute_units) * 16 * z.fma_local;
        z.copy_local = z.fma_local;
    }
    return z;
}

static void attempt(Measurement& m, const std::function<Measurement()>& f) {
    try {
        m = f();
    } catch (const std::exception& e) {
        m = Measurement{};
        m.error = e.what();
    }
}

BenchResults run_bench(const DeviceRef& ref, const DeviceProps& p, bool quick) {
    const BenchSizing z = bench_sizing(p, quick);
    Session s(ref.device);
    cl_program program = s.build(bench_kernel_source(), bench_build_options(p));
    BenchResults r;
    if (p.fp64)
        attempt(r.fp64, [&] { return measure_fma(s, program, true, bench_vector_width(p, true), z); });
    else
        r.fp64.detail = "no fp64 on this device";
    attempt(r.fp32, [&] { return measure_fma(s, program, false, bench_vector_width(p, false), z); });
    attempt(r.copy, [&] { return measure_copy(s, program, z); });
    attempt(r.h2d_pageable, [&] { return measure_transfer(s, false, true, z); });
    attempt(r.h2d_pinned, [&] { return measure_transfer(s, true, true, z); });
    attempt(r.d2h_pageable, [&] { return measure_transfer(s, false, false, z); });
    attempt(r.d2h_pinned, [&] { return measure_transfer(s, true, false, z); });
    attempt(r.launch, [&] { return measure_launch(s, program, z); });
    clReleaseProgram(program);
    return r;
}

}  // namespace tessera::devinfo

// Microbenchmarks of tessera-devinfo --bench: FMA rate, device copy bandwidth, host<->device
// bandwidth (pageable and pinned) and kernel launch latency, each measured on one device.
#pragma once

#include <cstddef>
#include <string>

#include "tools/devinfo/cl_util.hpp"
#include "tools/devinfo/device_props.hpp"

namespace tessera::devinfo {

/// One measured figure; value < 0 when it was not measured (then `error` or `detail` says why).
struct Measurement {
    double value = -1;    ///< unit depends on the measurement (see BenchResults)
    std::string detail;   ///< how it was measured (sizes, repetitions)
    std::string error;    ///< non-empty when the measurement failed
    bool ok() const { return value >= 0; }
};

struct BenchResults {
    Measurement fp64, fp32;                 ///< GFLOP/s (an FMA counts 2 flops)
    Measurement copy;                       ///< GB/s (1e9 bytes/s), bytes read + bytes written
    Measurement h2d_pageable, h2d_pinned;   ///< GB/s host -> device
    Measurement d2h_pageable, d2h_pinned;   ///< GB/s device -> host
    Measurement launch;                     ///< microseconds, median enqueue + clFinish of an empty kernel
};

/// Problem sizes of one benchmark run, scaled to the device (see bench_sizing).
struct BenchSizing {
    double fma_seconds = 0.1;        ///< target duration of one timed FMA kernel, seconds
    size_t copy_bytes = 0;           ///< size of each of the two buffers of the copy kernel, bytes
    size_t transfer_bytes = 0;       ///< size of one host<->device transfer, bytes
    int reps = 3;                    ///< timed repetitions (best is reported) after one warm-up
    int launch_reps = 200;           ///< empty-kernel launches timed for the median
    size_t fma_local = 64, fma_global = 0;  ///< work-group and NDRange sizes of the FMA kernels
    size_t copy_local = 0;           ///< work-group size of the copy kernel (0: the driver's choice)
};

/// Sizes for this device: GPUs get hundreds of MiB and enough work-items to fill every compute
/// unit; CPUs get tens of MiB. `quick` shortens everything (a few seconds on a 2-core PoCL device).
BenchSizing bench_sizing(const DeviceProps& p, bool quick);

/// Run every measurement on `ref`; a failing measurement records its error and the rest still run.
BenchResults run_bench(const DeviceRef& ref, const DeviceProps& p, bool quick);

/// Individual measurements (bench_compute.cpp, bench_transfer.cpp). `program` is built from
/// bench_kernel_source() for this session's device.
Measurement measure_fma(const Session& s, cl_program program, bool fp64, int vector_width, const BenchSizing& z);
Measurement measure_copy(const Session& s, cl_program program, const BenchSizing& z);
Measurement measure_launch(const Session& s, cl_program program, const BenchSizing& z);
Measurement measure_transfer(const Session& s, bool pinned, bool to_device, const BenchSizing& z);

/// OpenCL C source of the benchmark kernels; build with bench_build_options().
const char* bench_kernel_source();
/// "-DVW32=w -DVW64=w" (lanes per FMA chain, see bench_vector_width), "-DHAS_FP64" when the
/// device has doubles, "-DUSE_FMA32/64" where it reports hardware FMA.
std::string bench_build_options(const DeviceProps& p);
/// Lanes per FMA chain in the FMA kernels: 1 on GPUs, the native vector width on CPUs.
int bench_vector_width(const DeviceProps& p, bool fp64);

}  // namespace tessera::devinfo

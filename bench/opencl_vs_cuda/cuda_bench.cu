// CUDA host program of the OpenCL-vs-CUDA benchmark: times copy_matrix and gemm_nn of
// cuda_kernels.cuh on device-resident data (CUDA events, one warm-up, best and median of reps),
// checks every result and appends one JSON line per kernel and size (bench_common.hpp's Record).
//
// Built on the GPU machine by run.sh:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -DGEMM_MB=... cuda_bench.cu -o cuda_bench
// Exit status: 0 all ran and checked, 1 a CUDA error or a failed check, 2 bad arguments.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "cuda_kernels.cuh"

#define CK(call)                                                                                      \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "cuda_bench: %s failed: %s (line %d)\n", #call, cudaGetErrorString(err_), \
                         __LINE__);                                                                   \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

namespace {

std::string g_device;

/// A device array of `count` elements of T, freed at scope exit.
template <class T = double>
struct DeviceArray {
    T* p = nullptr;
    explicit DeviceArray(size_t count) { CK(cudaMalloc(&p, count * sizeof(T))); }
    ~DeviceArray() { cudaFree(p); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
};

dim3 elementwise_grid(int n) { return dim3((n + COPY_WG - 1) / COPY_WG, n); }

void fill(int n, double* X, uint32_t seed) {
    ovc_cuda::gen_matrix<<<elementwise_grid(n), COPY_WG>>>(n, X, seed);
    CK(cudaGetLastError());
}

/// Times `launch` (one warm-up, then `reps` runs), each between two CUDA events; seconds.
template <class Launch>
std::vector<double> time_reps(Launch launch, int reps) {
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(start));
        launch();
        CK(cudaEventRecord(stop));
        CK(cudaEventSynchronize(stop));
        CK(cudaGetLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, start, stop));
        t.push_back(double(ms) * 1e-3);
    }
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    return t;
}

/// Column-sum checksums and the sampled entries of the n×n matrix X into `r`.
void summarize(int n, const double* X, ovc::Record& r) {
    DeviceArray<> sums(static_cast<size_t>(n));
    ovc_cuda::column_sums<<<n, COPY_WG>>>(n, X, n, sums.p);
    CK(cudaGetLastError());
    std::vector<double> host(static_cast<size_t>(n));
    CK(cudaMemcpy(host.data(), sums.p, size_t(n) * sizeof(double), cudaMemcpyDeviceToHost));
    ovc::checksums(host, r.sum, r.wsum);
    for (auto [i, j] : ovc::sample_positions(n)) {
        double v = 0;
        CK(cudaMemcpy(&v, X + i + size_t(j) * n, sizeof v, cudaMemcpyDeviceToHost));
        r.samples.push_back(v);
    }
}

ovc::Record base_record(const char* kernel, int n, int reps) {
    ovc::Record r;
    r.impl = "cuda";
    r.device = g_device;
    r.kernel = kernel;
    r.n = n;
    r.reps = reps;
    const int tile[5] = {GEMM_MB, GEMM_NB, GEMM_KB, GEMM_TM, GEMM_TN};
    for (int t = 0; t < 5; ++t) r.tile[t] = tile[t];
    return r;
}

ovc::Record run_copy(int n, int reps) {
    ovc::Record r = base_record("copy", n, reps);
    const size_t count = size_t(n) * n;
    DeviceArray<> A(count), B(count);
    fill(n, A.p, ovc::kSeedCopy);
    CK(cudaMemset(B.p, 0, count * sizeof(double)));
    const auto t = time_reps([&] { ovc_cuda::copy_matrix<<<elementwise_grid(n), COPY_WG>>>(n, A.p, n, B.p, n); },
                             reps);
    ovc::best_median(t, r.best_s, r.median_s);
    r.rate = 2.0 * double(count) * sizeof(double) / r.best_s * 1e-9;
    DeviceArray<int> bad_d(1);
    CK(cudaMemset(bad_d.p, 0, sizeof(int)));
    ovc_cuda::count_mismatches<<<elementwise_grid(n), COPY_WG>>>(n, B.p, n, ovc::kSeedCopy, bad_d.p);
    CK(cudaGetLastError());
    int bad = -1;
    CK(cudaMemcpy(&bad, bad_d.p, sizeof bad, cudaMemcpyDeviceToHost));
    r.check_ok = bad == 0;
    r.check_detail = std::to_string(bad) + " entries differ from the source (all compared)";
    summarize(n, B.p, r);
    return r;
}

ovc::Record run_gemm(int n, int reps) {
    ovc::Record r = base_record("gemm", n, reps);
    if (n % GEMM_MB || n % GEMM_NB || n % GEMM_KB) {
        std::fprintf(stderr, "cuda_bench: gemm n=%d is not a multiple of the tile (%d, %d, %d)\n", n, GEMM_MB,
                     GEMM_NB, GEMM_KB);
        std::exit(2);
    }
    const size_t count = size_t(n) * n;
    DeviceArray<> A(count), B(count), C(count);
    fill(n, A.p, ovc::kSeedA);
    fill(n, B.p, ovc::kSeedB);
    const dim3 grid(n / GEMM_MB, n / GEMM_NB), block(GEMM_LX, GEMM_LY);
    const auto t = time_reps(
        [&] { ovc_cuda::gemm_nn<<<grid, block>>>(n, n, n, 1.0, A.p, n, B.p, n, 0.0, C.p, n); }, reps);
    ovc::best_median(t, r.best_s, r.median_s);
    r.rate = 2.0 * double(n) * n * n / r.best_s * 1e-12;
    summarize(n, C.p, r);
    const double err = ovc::gemm_sample_error(n, r.samples);
    r.check_ok = err <= 60;
    char buf[96];
    std::snprintf(buf, sizeof buf, "max scaled error %.3g on %zu sampled entries vs CPU", err, r.samples.size());
    r.check_detail = buf;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    const auto opts = ovc::parse_options(argc, argv, {"copy-sizes", "gemm-sizes", "reps-copy", "reps-gemm", "output"},
                                         ovc::kCommonUsage);
    const ovc::CommonOptions o = ovc::common_options(opts, "cuda_bench");
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    if (count == 0) {
        std::fprintf(stderr, "cuda_bench: no CUDA device\n");
        return 1;
    }
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    g_device = prop.name;
    std::FILE* out = o.output.empty() ? stdout : std::fopen(o.output.c_str(), "a");
    if (!out) {
        std::fprintf(stderr, "cuda_bench: cannot open %s\n", o.output.c_str());
        return 1;
    }
    bool ok = true;
    for (int n : o.copy_sizes) {
        const ovc::Record r = run_copy(n, o.reps_copy);
        ovc::write_record(out, r);
        ovc::print_progress(r);
        ok = ok && r.check_ok;
    }
    for (int n : o.gemm_sizes) {
        const ovc::Record r = run_gemm(n, o.reps_gemm);
        ovc::write_record(out, r);
        ovc::print_progress(r);
        ok = ok && r.check_ok;
    }
    if (out != stdout) std::fclose(out);
    return ok ? 0 : 1;
}

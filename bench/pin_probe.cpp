// pin_probe — how each way of pinning host memory through OpenCL costs device memory and copies.
// For 8 GiB of host memory: a CL_MEM_ALLOC_HOST_PTR buffer mapped (NVIDIA's best-practice idiom),
// page-aligned memory wrapped in a CL_MEM_USE_HOST_PTR buffer never mapped (what
// runtime/host_memory.cpp does), and the same memory without a buffer (pageable): the device memory
// in use after each (nvidia-smi, GPU 0; "-" without it) and the host→device copy rate (best of 3
// blocking 2 GiB copies). Run on the GPU machine: .gpu-build/pin_probe (OpenCL GPU 0).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
const size_t kGiB = size_t(1) << 30, kHost = 8 * kGiB, kCopy = 2 * kGiB;

std::string device_memory_used() {
    FILE* p = popen("nvidia-smi -i 0 --query-gpu=memory.used --format=csv,noheader 2>/dev/null", "r");
    char line[64] = "-";
    if (p) {
        if (!fgets(line, sizeof line, p)) std::strcpy(line, "-");
        pclose(p);
    }
    std::string s(line);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s.empty() ? "-" : s;
}

double copy_rate(cl_command_queue q, cl_mem dev, const void* src) {
    clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, kCopy, src, 0, nullptr, nullptr);  // warm-up
    double best = 1e30;
    for (int r = 0; r < 3; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        if (clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, kCopy, src, 0, nullptr, nullptr) != CL_SUCCESS) return 0;
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return double(kCopy) / best * 1e-9;
}
}  // namespace

int main() {
    cl_platform_id platforms[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, platforms, &np);
    cl_device_id d = nullptr;
    for (cl_uint i = 0; i < np && !d; ++i) clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &d, nullptr);
    if (!d) {
        std::fprintf(stderr, "pin_probe: no OpenCL GPU\n");
        return 1;
    }
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &err);
    cl_mem dev = clCreateBuffer(c, CL_MEM_READ_WRITE, kCopy, nullptr, &err);
    std::printf("%-44s %s\n", "device memory used at start (2 GiB buffer)", device_memory_used().c_str());
    {
        cl_mem b = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, kHost, nullptr, &err);
        void* h = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kHost, 0, nullptr, nullptr, &err);
        if (err != CL_SUCCESS) return 1;
        std::memset(h, 1, kHost);
        std::printf("%-44s %s, %.1f GB/s\n", "8 GiB ALLOC_HOST_PTR, mapped", device_memory_used().c_str(),
                    copy_rate(q, dev, h));
        clEnqueueUnmapMemObject(q, b, h, 0, nullptr, nullptr);
        clFinish(q);
        clReleaseMemObject(b);
    }
    void* m = std::aligned_alloc(4096, kHost);
    std::memset(m, 1, kHost);
    cl_mem b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, kHost, m, &err);
    if (err != CL_SUCCESS) return 1;
    std::printf("%-44s %s, %.1f GB/s\n", "8 GiB USE_HOST_PTR, not mapped", device_memory_used().c_str(),
                copy_rate(q, dev, m));
    clReleaseMemObject(b);
    std::printf("%-44s %s, %.1f GB/s\n", "8 GiB pageable", device_memory_used().c_str(), copy_rate(q, dev, m));
    std::free(m);
    clReleaseMemObject(dev);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    return 0;
}

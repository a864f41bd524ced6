// Host <-> device bandwidth, from pageable (malloc'ed) or pinned (CL_MEM_ALLOC_HOST_PTR, mapped)
// host memory, timed as the wall time of one blocking clEnqueueWriteBuffer / clEnqueueReadBuffer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tools/devinfo/bench.hpp"

namespace tessera::devinfo {

namespace {

/// Host memory of `bytes` bytes, either plain pageable memory or an OpenCL buffer allocated with
/// CL_MEM_ALLOC_HOST_PTR and mapped for the whole lifetime (the pinned-memory idiom drivers
/// document for fast DMA). Touched once, so page faults stay out of the timings.
class HostMemory {
public:
    HostMemory(const Session& s, size_t bytes, bool pinned) : queue_(s.queue()) {
        if (pinned) {
            cl_int err = CL_SUCCESS;
            buffer_ = clCreateBuffer(s.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &err);
            check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
            ptr_ = clEnqueueMapBuffer(queue_, buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, nullptr,
                                      nullptr, &err);
            if (err != CL_SUCCESS) {
                clReleaseMemObject(buffer_);
                check(err, "clEnqueueMapBuffer");
            }
        } else {
            pageable_.resize(bytes);
            ptr_ = pageable_.data();
        }
        std::memset(ptr_, 1, bytes);
    }
    ~HostMemory() {
        if (buffer_) {
            clEnqueueUnmapMemObject(queue_, buffer_, ptr_, 0, nullptr, nullptr);
            clFinish(queue_);
            clReleaseMemObject(buffer_);
        }
    }
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    void* data() const { return ptr_; }

private:
    cl_command_queue queue_;
    cl_mem buffer_ = nullptr;
    void* ptr_ = nullptr;
    std::vector<unsigned char> pageable_;
};

}  // namespace

Measurement measure_transfer(const Session& s, bool pinned, bool to_device, const BenchSizing& z) {
    const size_t bytes = z.transfer_bytes;
    Buffer dev(s.context(), CL_MEM_READ_WRITE, bytes);
    HostMemory host(s, bytes, pinned);
    auto once = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        if (to_device)
            check(clEnqueueWriteBuffer(s.queue(), dev.m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr),
                  "clEnqueueWriteBuffer");
        else
            check(clEnqueueReadBuffer(s.queue(), dev.m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr),
                  "clEnqueueReadBuffer");
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    once();  // warm-up: first use of the device buffer
    double best = 1e30;
    for (int r = 0; r < z.reps; ++r) best = std::min(best, once());
    Measurement m;
    m.value = double(bytes) / best * 1e-9;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%zu MiB, %s, blocking %s, %.2f ms, best of %d", bytes >> 20,
                  pinned ? "CL_MEM_ALLOC_HOST_PTR mapped" : "malloc'ed", to_device ? "write" : "read", best * 1e3,
                  z.reps);
    m.detail = buf;
    return m;
}

}  // namespace tessera::devinfo

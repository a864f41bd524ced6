// Host <-> device bandwidth, from pageable (malloc'ed) or pinned (page-aligned, held by a
// CL_MEM_USE_HOST_PTR buffer, as Tessera's tile storage: runtime/host_memory.hpp) host memory, timed as the wall time of one blocking clEnqueueWriteBuffer / clEnqueueReadBuffer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "tools/devinfo/bench.hpp"

namespace tessera::devinfo {

namespace {

/// Host memory of `bytes` bytes, either plain pageable memory or page-aligned memory that an
/// OpenCL CL_MEM_USE_HOST_PTR buffer, never mapped, holds page-locked for the whole lifetime (how
/// Tessera pins its tiles without a device copy: runtime/host_memory.hpp). Touched once, so page
/// faults stay out of the timings.
class HostMemory {
public:
    HostMemory(const Session& s, size_t bytes, bool pinned) {
        pageable_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096)));
        if (!pageable_) throw std::bad_alloc();
        std::memset(pageable_.get(), 1, bytes);
        if (pinned) {
            cl_int err = CL_SUCCESS;
            buffer_ = clCreateBuffer(s.context(), CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, bytes, pageable_.get(), &err);
            check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
        }
    }
    ~HostMemory() {
        if (buffer_) clReleaseMemObject(buffer_);
    }
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    void* data() const { return pageable_.get(); }

private:
    struct Free {
        void operator()(unsigned char* p) const { std::free(p); }
    };
    std::unique_ptr<unsigned char, Free> pageable_;
    cl_mem buffer_ = nullptr;
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
                  pinned ? "CL_MEM_USE_HOST_PTR" : "malloc'ed", to_device ? "write" : "read", best * 1e3,
                  z.reps);
    m.detail = buf;
    return m;
}

}  // namespace tessera::devinfo

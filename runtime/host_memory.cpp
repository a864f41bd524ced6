// Pinned (through an OpenCL buffer) or pageable host memory for tile storage; host↔device rate probe.
#include "runtime/host_memory.hpp"

#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/opencl_registry.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {

// MemAvailable (Linux >= 3.14) is the kernel's own estimate of what new allocations can have without
// swapping: free pages plus the page cache and slab it can reclaim. sysinfo's freeram counts free
// pages only (after a few builds have filled the page cache it reports a fraction of what is usable,
// and we would refuse work that fits), and hwloc reports the machine's total, not what is left to us.
// Swap is left out on purpose: tile algorithms on swapped memory run orders of magnitude slower.
// In a container whose cgroup limit is below MemAvailable the figure is optimistic.
uint64_t available_host_memory() {
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    return found ? uint64_t(kib) * 1024 : 0;
}

std::string format_gb(double bytes) {
    const double gb = bytes * 1e-9;
    char text[64];
    std::snprintf(text, sizeof text, gb >= 100 ? "%.0f GB" : gb >= 10 ? "%.1f GB" : gb >= 1 ? "%.2f GB" : "%.3g GB", gb);
    return text;
}

namespace {
// The Runtime's pool while it serves StarPU's host allocations (serve_starpu_allocations).
std::atomic<HostMemoryPool*> g_starpu_pool{nullptr};
}  // namespace

void require_host_memory(const std::string& who, uint64_t bytes) {
    uint64_t available = available_host_memory();
    // Blocks the Runtime's pool keeps for reuse are available too: free them before refusing.
    HostMemoryPool* pool = g_starpu_pool.load();
    if (available != 0 && bytes > available && pool && pool->drop_kept()) available = available_host_memory();
    if (available != 0 && bytes > available)
        throw Error(who + ": needs " + format_gb(double(bytes)) + " of host memory, " + format_gb(double(available)) +
                    " available");
}

void require_host_arrays(const std::string& who, int64_t rows, int64_t cols, uint64_t elem, uint64_t count) {
    uint64_t bytes = 0;
    if (rows < 0 || cols < 0 || __builtin_mul_overflow(uint64_t(rows), uint64_t(cols), &bytes) ||
        __builtin_mul_overflow(bytes, elem, &bytes) || __builtin_mul_overflow(bytes, count, &bytes))
        throw Error(who + ": " + (count == 1 ? "a " : std::to_string(count) + " matrices of ") + std::to_string(rows) +
                    " x " + std::to_string(cols) + (count == 1 ? " matrix has" : " have") +
                    " more bytes than a 64-bit count can hold");
    require_host_memory(who, bytes);
}

int64_t tile_count(int64_t m, int64_t n, int64_t nb) {
    const int64_t mt = m / nb + (m % nb != 0), nt = n / nb + (n % nb != 0);  // no overflow of m + nb - 1
    int64_t tiles = 0;
    if (__builtin_mul_overflow(mt, nt, &tiles) || tiles > kMaxTiles) return -1;
    return tiles;
}

bool tile_storage_bytes(uint64_t tiles, uint64_t stored, uint64_t tile_elems, uint64_t elem, uint64_t& bytes) {
    uint64_t data = 0, overhead = 0;
    return !__builtin_mul_overflow(stored, tile_elems, &data) && !__builtin_mul_overflow(data, elem, &data) &&
           !__builtin_mul_overflow(tiles, kTileOverheadBytes, &overhead) &&
           !__builtin_add_overflow(data, overhead, &bytes);
}

namespace {

void* aligned_host(size_t bytes) {
    void* ptr = nullptr;
    return posix_memalign(&ptr, 4096, std::max<size_t>(bytes, 1)) == 0 ? ptr : nullptr;
}

int starpu_malloc_hook(unsigned /*node*/, void** ptr, size_t bytes, int flags) {
    HostMemoryPool* pool = g_starpu_pool.load();
    *ptr = pool ? pool->allocate_for_starpu(bytes, (flags & STARPU_MALLOC_PINNED) != 0) : aligned_host(bytes);
    return *ptr ? 0 : -ENOMEM;
}

int starpu_free_hook(unsigned /*node*/, void* ptr, size_t bytes, int /*flags*/) {
    HostMemoryPool* pool = g_starpu_pool.load();
    if (pool) pool->release_from_starpu(ptr, bytes);
    else std::free(ptr);  // StarPU's own default: posix_memalign without CUDA
    return 0;
}

}  // namespace

HostMemoryPool::HostMemoryPool(bool pinned) : kept_cap_(size_t(available_host_memory() / 16)) {
    const std::vector<int> devids = opencl_devids();
    if (devids.empty()) return;
    cl_device_id dev = nullptr;  // StarPU's context of the first device the Runtime drives
    starpu_opencl_get_context(devids[0], &context_);
    starpu_opencl_get_device(devids[0], &dev);
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr);
    max_alloc_ = size_t(max_alloc);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(context_, dev, 0, &err);
    if (err != CL_SUCCESS) throw Error("tessera::Runtime: clCreateCommandQueue for host memory failed (" +
                                       std::to_string(err) + ")");
    probe_queue_ = q;
    pin_ = pinned;
}

HostMemoryPool::~HostMemoryPool() {
    if (serving_starpu_) {  // StarPU's default allocator again (posix_memalign and free without CUDA)
        starpu_malloc_set_hooks(nullptr, nullptr);
        g_starpu_pool.store(nullptr);
    }
    for (auto& [bytes, ptr] : kept_)
        if (!pinned_.count(ptr)) std::free(ptr);  // kept pageable blocks (pinned ones go below)
    for (auto& [ptr, mem] : pinned_) {
        clReleaseMemObject(mem);
        std::free(ptr);
    }
    if (probe_queue_) clReleaseCommandQueue(probe_queue_);
}

void* HostMemoryPool::pin(size_t bytes) noexcept {
    if (!pin_ || bytes > max_alloc_) return nullptr;
    void* ptr = aligned_host(bytes);
    if (!ptr) return nullptr;
    // The buffer pins the pages for its life; it is never mapped nor used by a command, so the
    // host pages stay the storage and the driver gives it no device memory.
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context_, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, bytes, ptr, &err);
    if (err != CL_SUCCESS) {
        std::free(ptr);
        return nullptr;
    }
    try {
        std::lock_guard<std::mutex> guard(lock_);
        pinned_.emplace(ptr, mem);
    } catch (...) {  // no memory for the map's node: nothing pinned
        clReleaseMemObject(mem);
        std::free(ptr);
        return nullptr;
    }
    return ptr;
}

void* HostMemoryPool::take_kept(size_t bytes) noexcept {
    std::lock_guard<std::mutex> guard(lock_);
    auto it = kept_.find(bytes);
    if (it == kept_.end()) return nullptr;
    void* ptr = it->second;
    kept_.erase(it);
    kept_bytes_ -= bytes;
    return ptr;
}

void* HostMemoryPool::allocate(size_t bytes) {
    bytes = std::max<size_t>(bytes, 1);
    if (void* kept = take_kept(bytes)) return kept;
    void* ptr = pin(bytes);  // when the driver cannot pin this much: pageable memory
    if (!ptr) ptr = aligned_host(bytes);
    if (!ptr && drop_kept()) ptr = aligned_host(bytes);
    if (!ptr)
        throw Error("tessera: cannot allocate " + format_gb(double(bytes)) + " of host memory (" +
                    std::to_string(bytes) + " bytes)");
    return ptr;
}

void* HostMemoryPool::allocate_for_starpu(size_t bytes, bool pin_asked) noexcept {
    if (bytes >= kPinStarpuFrom) ++starpu_blocks_;
    if (!pin_asked || bytes < kPinStarpuFrom || !pin_) return aligned_host(bytes);
    if (void* kept = take_kept(bytes)) return kept;
    void* ptr = pin(bytes);
    if (ptr) ++starpu_new_pins_;
    return ptr ? ptr : aligned_host(bytes);
}

bool HostMemoryPool::keep(void* ptr, size_t bytes) noexcept {
    std::lock_guard<std::mutex> guard(lock_);
    if (!ptr || (pin_ && !pinned_.count(ptr)) || kept_bytes_ + bytes > kept_cap_) return false;
    try {
        kept_.emplace(bytes, ptr);
        kept_bytes_ += bytes;
        return true;
    } catch (...) {  // no memory for the node: the caller frees it
        return false;
    }
}

void HostMemoryPool::release_from_starpu(void* ptr, size_t bytes) noexcept {
    // StarPU's pageable blocks (a pageable pool's, or below kPinStarpuFrom) are not kept.
    if (!(pin_ && bytes >= kPinStarpuFrom && keep(ptr, bytes))) release(ptr);
}

bool HostMemoryPool::drop_kept() noexcept {
    std::multimap<size_t, void*> kept;
    {
        std::lock_guard<std::mutex> guard(lock_);
        kept.swap(kept_);
        kept_bytes_ = 0;
    }
    for (const auto& [bytes, ptr] : kept) release(ptr);
    return !kept.empty();
}

void HostMemoryPool::release(void* ptr, size_t bytes) noexcept {
    if (!keep(ptr, std::max<size_t>(bytes, 1))) release(ptr);
}

void HostMemoryPool::serve_starpu_allocations() {
    serving_starpu_ = true;
    g_starpu_pool.store(this);
    starpu_malloc_set_hooks(starpu_malloc_hook, starpu_free_hook);
}

void HostMemoryPool::release(void* ptr) noexcept {
    if (!ptr) return;
    cl_mem mem = nullptr;
    {
        std::lock_guard<std::mutex> guard(lock_);
        auto it = pinned_.find(ptr);
        if (it != pinned_.end()) {
            mem = it->second;
            pinned_.erase(it);
        }
    }
    if (mem) clReleaseMemObject(mem);  // unpins; no command uses it, so the pages are free at once
    std::free(ptr);
}

double HostMemoryPool::copy_rate(bool to_device) {
    if (rate_[to_device] < 0) probe(size_t(64) << 20, to_device);
    return rate_[to_device];
}

double HostMemoryPool::copy_enqueue_share(bool to_device) {
    if (rate_[to_device] < 0) probe(size_t(64) << 20, to_device);
    return enqueue_share_[to_device];
}

void HostMemoryPool::probe(size_t bytes, bool to_device) {
    rate_[to_device] = 0;
    if (!probe_queue_) return;
    cl_int err = CL_SUCCESS;
    cl_mem dev = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (err != CL_SUCCESS) return;
    void* host = allocate(bytes);
    std::fill_n(static_cast<char*>(host), bytes, char(1));
    using Clock = std::chrono::steady_clock;
    auto seconds = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
    auto copy = [&](cl_bool blocking) {
        return to_device ? clEnqueueWriteBuffer(probe_queue_, dev, blocking, 0, bytes, host, 0, nullptr, nullptr)
                         : clEnqueueReadBuffer(probe_queue_, dev, blocking, 0, bytes, host, 0, nullptr, nullptr);
    };
    double best = 1e30;
    for (int rep = 0; rep < 4 && err == CL_SUCCESS; ++rep) {  // the first copy warms the buffer up and is not counted
        const auto t0 = Clock::now();
        err = copy(CL_TRUE);
        if (rep > 0) best = std::min(best, seconds(t0, Clock::now()));
    }
    if (err == CL_SUCCESS) {
        const auto t0 = Clock::now();
        err = copy(CL_FALSE);
        const auto returned = Clock::now();
        if (err == CL_SUCCESS) err = clFinish(probe_queue_);
        const double all = seconds(t0, Clock::now());
        if (err == CL_SUCCESS && all > 0) enqueue_share_[to_device] = seconds(t0, returned) / all;
    }
    release(host);
    clReleaseMemObject(dev);
    if (err == CL_SUCCESS && best < 1e30) rate_[to_device] = double(bytes) / best * 1e-9;
}

}  // namespace tessera::detail

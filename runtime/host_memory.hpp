// Host memory for tile storage: page-locked through the OpenCL driver, or pageable.
// Internal: not installed.
#pragma once

#include <CL/cl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace tessera::detail {

/// Bytes of host memory that new allocations can have now without swapping (Linux's MemAvailable);
/// 0 when unknown (no /proc/meminfo), in which case nothing is refused on its account.
uint64_t available_host_memory();
/// A byte count in GB (10^9 bytes) to about 3 significant digits: "320 GB", "23.7 GB", "0.512 GB".
std::string format_gb(double bytes);
/// Throw tessera::Error("<who>: needs 320 GB of host memory, 23.7 GB available") when `bytes`
/// exceed available_host_memory() (after the Runtime's pool has freed the blocks it keeps): refuse a request the machine cannot hold before allocating any
/// of it (an over-committed allocation would succeed and the process be killed when it touched it).
void require_host_memory(const std::string& who, uint64_t bytes);
/// require_host_memory for `count` arrays of rows×cols scalars of `elem` bytes each (dense matrices
/// of a tool's user-given sizes); throws tessera::Error naming `who` when the byte count does not
/// even fit in 64 bits.
void require_host_arrays(const std::string& who, int64_t rows, int64_t cols, uint64_t elem, uint64_t count);

/// Host bytes each registered tile costs besides its scalars: StarPU 1.3's data handle with its
/// per-memory-node state and matrix interfaces (4.5 KB measured on x86-64, registering 10^5 tiles
/// and reading the resident set, with and without an OpenCL device), plus the TileMatrix's pointers.
/// Every rank registers every tile of a distributed matrix, so this counts all tiles on every rank.
constexpr uint64_t kTileOverheadBytes = 5120;
/// The most tiles one matrix may have: StarPU's tile coordinates are int. Far beyond any machine's
/// memory at kTileOverheadBytes each (11 TB), so it only refuses counts that are absurd anyway.
constexpr int64_t kMaxTiles = 2147483647;

/// ceil(m/nb)·ceil(n/nb), the tiles of an m×n matrix (m, n ≥ 0, nb ≥ 1), or -1 when it exceeds
/// kMaxTiles. Computed without any loop or allocation.
int64_t tile_count(int64_t m, int64_t n, int64_t nb);
/// Host bytes of a matrix in tile storage: `stored` tiles of `tile_elems` scalars of `elem` bytes each
/// (the tiles this rank stores) plus kTileOverheadBytes for each of the `tiles` it registers. False
/// when the count overflows 64 bits. The one count of TileMatrix's memory check and the tester's.
bool tile_storage_bytes(uint64_t tiles, uint64_t stored, uint64_t tile_elems, uint64_t elem, uint64_t& bytes);

/// Allocator of TileMatrix storage. StarPU 1.3 pins host memory only for CUDA; with OpenCL,
/// pageable memory is copied by the driver through a staging buffer at a fraction of the bus's
/// rate and the asynchronous copy's submission blocks StarPU's driver thread. Pinned mode
/// allocates each block as page-aligned host memory and wraps it in a CL_MEM_USE_HOST_PTR buffer
/// of the context StarPU created for OpenCL device 0, kept for the block's life and never mapped:
/// the driver page-locks the block and copies from it by DMA. A mapped CL_MEM_ALLOC_HOST_PTR
/// buffer (the idiom of NVIDIA's OpenCL best-practice guide) pins as well, but NVIDIA's driver
/// gives each mapped buffer a device copy of its size: on one H100, mapping 8 GiB took 8.2 GB of
/// the GPU's memory, and tiles of `tessera-tester gemm --n 57344` pinned that way filled 75.9 GB of
/// it while they were generated. Unmapped USE_HOST_PTR buffers took none and copied at 54.6 GB/s
/// against 8.0 from pageable memory (bench/pin_probe.cpp). Blocks larger than the device's
/// CL_DEVICE_MAX_MEM_ALLOC_SIZE fall back to pageable memory.
class HostMemoryPool {
public:
    /// `pinned` needs a running StarPU with at least one OpenCL device; without one the pool is
    /// pageable whatever `pinned` says.
    explicit HostMemoryPool(bool pinned);
    ~HostMemoryPool();
    HostMemoryPool(const HostMemoryPool&) = delete;
    HostMemoryPool& operator=(const HostMemoryPool&) = delete;

    /// `bytes` of host memory (aligned for any scalar): a kept block of exactly that size when there
    /// is one (release(ptr, bytes)), else a new one. Throws tessera::Error naming the size when
    /// the allocation fails; callers compare their whole request with the memory available first
    /// (require_host_memory), as TileMatrix and QRFactors do.
    void* allocate(size_t bytes);
    /// Free a block from allocate(); nullptr is ignored.
    void release(void* ptr) noexcept;
    /// Release a block of `bytes` from allocate(): kept for the next allocate() of that size (a
    /// pinned block: pinned; pageable: its pages already faulted in) while the kept blocks stay
    /// under their cap, 1/16 of the host memory available when the pool started; else freed. A
    /// program that factors one size again and again (the drop-in LAPACK's copies of each call's
    /// arrays, an application's time steps) then pins and faults its tile storage in once.
    void release(void* ptr, size_t bytes) noexcept;
    /// Free every kept block; whether there was one. require_host_memory does before it refuses a
    /// request, and allocate() before it fails.
    bool drop_kept() noexcept;
    bool pinned() const { return pin_; }

    /// Serve StarPU's own host allocations (starpu_malloc_set_hooks) from this pool until it goes:
    /// the host copies StarPU makes of tiles that have no home there (temporary tiles that cross
    /// devices, tiles received from other MPI ranks) are then pinned too. StarPU 1.3 pins only for
    /// CUDA: with OpenCL these copies were pageable, each transfer staged by the driver and
    /// holding StarPU's driver thread. StarPU frees such a copy when its tile goes, and pinning
    /// costs (a 4-GPU Cholesky trace showed 85–95 ms per step around one such 128 MiB block): a
    /// freed pinned block is kept for the next request of its size, up to 1/16 of the host memory available when the pool started. Blocks
    /// of at least kPinStarpuFrom bytes are pinned; smaller ones, and every allocation when the
    /// pool is pageable, are plain aligned host memory. StarPU must be shut down before the pool
    /// goes (it frees its blocks at shutdown).
    void serve_starpu_allocations();
    /// StarPU's host blocks of at least kPinStarpuFrom bytes served since the pool started, and
    /// how many of them had to be pinned anew (the others were kept blocks); the profile shows them.
    size_t starpu_blocks() const { return starpu_blocks_; }
    size_t starpu_new_pins() const { return starpu_new_pins_; }
    static constexpr size_t kPinStarpuFrom = size_t(64) << 10;

    /// Rate in GB/s of copying 64 MiB between a block of this pool and a buffer on OpenCL device 0
    /// (best of 3 blocking copies), host→device if `to_device`; 0 without a device. Measured at the
    /// first call for each direction and remembered: the rate belongs to the storage, not to a run.
    double copy_rate(bool to_device);
    /// Share (0..1) of a non-blocking 64 MiB copy's time, in the same direction, that the enqueue
    /// call (clEnqueueWrite/ReadBuffer with CL_FALSE) holds its caller: near 0 when the driver
    /// copies asynchronously, near 1 when it copies before returning (then StarPU's OpenCL worker,
    /// which issues the transfers, cannot launch kernels meanwhile). Measured with copy_rate.
    double copy_enqueue_share(bool to_device);

    /// The malloc hook's allocation (serve_starpu_allocations): `bytes` pinned when `pin_asked`
    /// (StarPU's STARPU_MALLOC_PINNED) and at least kPinStarpuFrom, else aligned host memory;
    /// nullptr when the host has none. Never throws.
    void* allocate_for_starpu(size_t bytes, bool pin_asked) noexcept;
    /// The free hook's release of a `bytes` block: a pinned block is kept for reuse while the kept
    /// blocks stay under their cap, else released.
    void release_from_starpu(void* ptr, size_t bytes) noexcept;

private:
    void probe(size_t bytes, bool to_device);
    bool keep(void* ptr, size_t bytes) noexcept;  // into kept_ when under the cap (pinned only in a pinned pool)
    void* take_kept(size_t bytes) noexcept;       // a kept block of exactly `bytes`, out of kept_; nullptr if none
    void* pin(size_t bytes) noexcept;  // a block wrapped in a CL_MEM_USE_HOST_PTR buffer, or nullptr

    std::mutex lock_;
    double rate_[2] = {-1, -1};  // copy_rate: device→host, host→device; < 0 until measured
    double enqueue_share_[2] = {0, 0};  // copy_enqueue_share, same order
    cl_context context_ = nullptr;
    bool pin_ = false;
    cl_command_queue probe_queue_ = nullptr;  // our own queue in StarPU's context (the probes)
    size_t max_alloc_ = 0;
    std::map<void*, cl_mem> pinned_;  // pinned blocks and the buffers that pin them
    bool serving_starpu_ = false;
    std::atomic<size_t> starpu_blocks_{0}, starpu_new_pins_{0};
    std::multimap<size_t, void*> kept_;  // released blocks kept for reuse, by size (pinned ones still in pinned_)
    size_t kept_bytes_ = 0, kept_cap_ = 0;
};

}  // namespace tessera::detail

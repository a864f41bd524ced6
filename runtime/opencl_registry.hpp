// OpenCL program registry: Tessera's kernels built for every StarPU OpenCL device, per precision.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/opencl/device.hpp"
#include "runtime/runtime_internal.hpp"

namespace tessera::detail {

/// The StarPU device ids of the OpenCL workers, ascending (0 … n−1 unless STARPU_WORKERS_OPENCLID
/// or a rank's share of its node's devices picked others, e.g. {1} for the second rank of a node).
std::vector<int> opencl_devids();

/// Each precision's program is built on first use, not when the Runtime starts: NVIDIA's driver
/// compiles one for about 16 s on a machine whose caches are cold (bench/gpu_notes.md), and most
/// programs use one or two of the four precisions. Programs already in the binary cache are loaded
/// in the background from the start (start_preload): a load took about 30 ms per precision, which
/// the first operation of a process paid (H200, bench/gpu_notes.md, "A process's first operation").
class OpenCLRegistry {
public:
    /// Query every OpenCL device StarPU drives (name, fp64, limits); builds nothing.
    OpenCLRegistry();
    /// Waits for the background loads (start_preload) to stop: at most the one under way.
    ~OpenCLRegistry();
    /// Start one thread that loads, in the order d, s, z, c, every program found in the binary cache
    /// (never one built from source: that is left to the first use), as ensure() would; none when no
    /// device uses the cache (CPU devices keep their own). A load that fails is left to ensure(),
    /// which reports it. `loaded(prec)`, when given, is called on that thread after precision prec's
    /// program is loaded on every device (the Runtime learns the placement prior's OpenCL rates of that
    /// precision there, runtime/worker_rates.hpp, off the first task's submission); it must not throw.
    /// Call once, after the constructor.
    void start_preload(std::function<void(char)> loaded = {});
    /// Build (or load from the binary cache) precision `prec`'s program ('s', 'd', 'c' or 'z') for
    /// every device that can run it (d and z need fp64), once; returns at once afterwards (two atomic
    /// loads: the submission of every task with an OpenCL implementation calls it). Thread-safe.
    /// Throws tessera::Error naming the device and the failed OpenCL call (with the build log when a
    /// build fails); a device built before the failure keeps its program.
    void ensure(char prec);
    /// Kernels for StarPU OpenCL device `devid` and precision `prec` (built first if no ensure did).
    /// Throws tessera::Error when the device cannot run that precision (d and z need fp64), or as ensure.
    const ocl::DeviceKernels& kernels(int devid, char prec);
    /// Device `devid`'s panel queue with precision `prec`'s kernels, held by the caller until the
    /// result is destroyed (runtime/panel_queue.cpp). Thread-safe; throws as kernels().
    PanelQueue panel(int devid, char prec);
    /// Device `devid`'s properties, or null when StarPU drives no OpenCL device of that id.
    const ocl::DeviceInfo* info(int devid) const;
    /// One line per device: name, driver, precisions built so far, cache hits.
    std::string describe() const;
    /// Directory of the program binary cache.
    static std::string cache_dir();

private:
    struct Device {
        cl_context ctx = nullptr;
        cl_device_id dev = nullptr;
        std::unique_ptr<ocl::DeviceInfo> info;                  // null: no OpenCL worker has this id
        std::array<std::unique_ptr<ocl::DeviceKernels>, 4> by_prec;  // s, d, c, z
        std::string built;                                      // letters, in build order
        int cache_hits = 0;
        // The panel queue (panel()): a second in-order queue, kernels of its own (a kernel's
        // arguments are per object, and the worker's thread sets those of the first), made on first use.
        cl_command_queue panel_queue = nullptr;
        std::array<std::unique_ptr<ocl::DeviceKernels>, 4> panel_by_prec;
        std::unique_ptr<std::mutex> panel_lock = std::make_unique<std::mutex>();
    };
    void preload_cached(const std::function<void(char)>& loaded);  // start_preload's thread
    /// Under lock_: build precision `prec`'s program (with `cached_only`, only load it from the binary
    /// cache) for every device that runs it and has none; returns whether each such device has one.
    /// Throws tessera::Error naming the device that failed.
    bool build_programs(char prec, bool cached_only);

    std::vector<Device> devices_;  // indexed by StarPU OpenCL devid
    std::array<std::atomic<bool>, 4> built_{};  // by precision: ensure completed on every device
    mutable std::mutex lock_;      // builds, and `built` / `cache_hits`
    std::atomic<bool> stop_{false};  // the destructor asks the preload to stop
    std::thread preload_;
};

}  // namespace tessera::detail

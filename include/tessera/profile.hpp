// Profile of a run: where the time went on each worker, what moved over each bus.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

/// What the runtime did between Runtime::profile_begin() and Runtime::profile_end(), from StarPU's
/// profiling API (worker, task and bus counters; no FxT needed) and OpenCL markers. All
/// times are seconds, sizes bytes, rates GB/s (1e9 bytes per second).
struct Profile {
    double wall_s = 0;  ///< wall-clock time between begin and end

    struct Worker {
        std::string name;         ///< StarPU's worker name
        bool opencl = false;
        long tasks = 0;           ///< tasks it executed
        double executing_s = 0;   ///< StarPU's executing time. For an OpenCL worker it counts from
                                  ///< enqueue to detected completion, queueing included.
        double kernel_s = 0;      ///< OpenCL only: time its queue was running our kernels: the union
                                  ///< of the intervals between markers enqueued before and after
                                  ///< each task's kernels, timed on the device clock (device_clock)
                                  ///< or by the markers' completion callbacks on the host clock
        double first_kernel_s = 0;  ///< OpenCL only: when its first kernel started and its last one
        double last_kernel_s = 0;   ///< ended, seconds since profile_begin (before and after them:
                                    ///< the first operands' transfer, the last results' write-back)
        std::vector<double> idle_by_tenth;  ///< OpenCL only: seconds without a kernel running in
                                            ///< each tenth of the wall time (empty without kernels)
        double wait_data_s = 0;   ///< time its tasks waited for their input data to arrive
                                  ///< (transfers that prefetch did not hide)
    };
    std::vector<Worker> workers;

    /// Tasks of one codelet on one kind of worker.
    struct Codelet {
        std::string name;        ///< codelet, e.g. "dgemm"
        bool opencl = false;     ///< ran on OpenCL workers (else CPU)
        long tasks = 0;
        double seconds = 0;      ///< CPU: sum of execution times; OpenCL: sum of kernel times
        long uncalibrated = 0;   ///< of `tasks`, those a performance-model scheduler (dm, dmda,
                                 ///< dmdas, ...) placed without a prediction: the codelet's
                                 ///< history-based perfmodel had fewer than STARPU_CALIBRATE_MINIMUM
                                 ///< (10) measurements of that tile size on that worker kind, so the
                                 ///< task was sent there to measure it, not because it was fastest
    };
    std::vector<Codelet> codelets;

    /// Bytes moved between two memory nodes (e.g. "NUMA 0" -> "OpenCL 0").
    struct Transfer {
        std::string from, to;
        int64_t bytes = 0;
        long count = 0;
    };
    std::vector<Transfer> transfers;

    bool device_clock = false;   ///< kernel times come from OpenCL event profiling (exact); false:
                                 ///< from completion callbacks, which may fire late (approximate)
    bool pinned = false;         ///< tile storage is page-locked (see RuntimeConfig::host_memory)
    long starpu_host_blocks = 0;  ///< host blocks of at least 64 KiB that StarPU allocated for itself
                                  ///< since the Runtime started (host copies of temporary tiles that
                                  ///< crossed devices, of tiles received from other MPI ranks)
    long starpu_new_pins = 0;     ///< how many of them the Runtime pinned anew (pinned storage only;
                                  ///< the others reused a pinned block StarPU had freed)
    double probe_h2d_gbps = 0;   ///< host→device rate of a 64 MiB copy from storage allocated like
                                 ///< the tiles, on the first OpenCL device (0 without one);
                                 ///< measured at the Runtime's first profile, then reused
    double probe_d2h_gbps = 0;   ///< the same, device→host
    double probe_h2d_enqueue = 0;  ///< share (0..1) of a non-blocking host→device copy's time for which
                                   ///< the enqueue call holds its caller (StarPU's OpenCL worker)
    double probe_d2h_enqueue = 0;  ///< the same, device→host

    /// A short fixed-width table of all of the above, ending with a newline.
    std::string table() const;
};

}  // namespace tessera

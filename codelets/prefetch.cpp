// DevicePrefetch: operands streamed to the OpenCL devices in the order the tasks will use them.
#include <starpu.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>

#include "codelets/tasks.hpp"
#include "runtime/device_map.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/opencl_registry.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/starpu_env.hpp"

namespace tessera::tasks {

namespace {
// Below every task priority of the algorithms, so that the inputs of ready tasks (which StarPU
// prefetches at the task's priority) go first; decreasing, so that the plan keeps its order.
// Priority alone does not put them first once copies are queued: StarPU 1.3 starts up to 10
// prefetches per device, in the device's in-order copy queue, and a copy a task waits for then
// queues behind them (~25 ms of 128 MB tiles). As idle prefetches (started only while the device
// has no other copy pending, one at a time) the plan fills the gaps instead:
// bench/cholesky_schedule_model.py predicts dpotrf n = 65536 nb = 4096 on 1 / 2 / 4 H100s
// 41.0 / 74.5 / 128.7 TFLOP/s queued (measured 39.1 / 72.1 / 120.5) and 42.4 / 79.9 / 134.1 idle.
constexpr int kFirstPriority = INT_MIN / 2;

// Bytes prefetched to each device by the plans whose sequences may still run. Several application
// threads may run algorithms at once: together, their plans stay within half of each device's
// memory, so that prefetches never start an eviction storm (StarPU fetches the rest on demand).
std::atomic<size_t> g_planned[STARPU_MAXOPENCLDEVS];

bool reserve(int device, size_t bytes, size_t budget) {
    size_t planned = g_planned[device].load();
    do {
        if (planned > budget || bytes > budget - planned) return false;
    } while (!g_planned[device].compare_exchange_weak(planned, planned + bytes));
    return true;
}
}  // namespace

DevicePrefetch::DevicePrefetch(Mode mode)
    : idle_(mode == Mode::Plan && detail::idle_prefetch()),
      priority_(mode == Mode::Plan ? kFirstPriority + (1 << 24) : STARPU_MAX_PRIO) {
    // Distributed, a rank's device gets its tiles from StarPU-MPI's transfers, not from home.
    if (detail::distributed()) return;
    // The map's devices in its order, or the only device.
    std::vector<int> devids;
    for (int d = 0; d < detail::mapped_devices(); ++d) devids.push_back(detail::mapped_devid(d));
    if (devids.empty() && starpu_opencl_worker_get_count() == 1) devids = detail::opencl_devids();
    for (size_t d = 0; d < devids.size() && d < STARPU_MAXOPENCLDEVS; ++d) {
        const int worker = starpu_worker_get_by_devid(STARPU_OPENCL_WORKER, devids[d]);  // devids are workers'
        const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
        const starpu_ssize_t total = starpu_memory_get_total(node);  // -1 when unknown: no limit
        devices_.push_back({int(node), total > 0 ? size_t(total) / 2 : SIZE_MAX, 0, false});
    }
}

DevicePrefetch::~DevicePrefetch() {
    // The reservations last while the submitting sequence's tasks may run: its group holds them
    // until the sequence next drains (wait) or goes.
    for (size_t d = 0; d < devices_.size(); ++d) {
        const size_t bytes = devices_[d].reserved;
        if (bytes == 0) continue;
        auto release = [d, bytes](void*) { g_planned[d] -= bytes; };
        try {
            detail::current_group()->hold(std::shared_ptr<void>(nullptr, release));
        } catch (...) {
            release(nullptr);  // out of memory: give the reservation back now
        }
    }
}

void DevicePrefetch::to_device(TileHandle h, int device) {
    if (device < 0 || size_t(device) >= devices_.size()) return;
    Device& dev = devices_[size_t(device)];
    if (dev.full || !sent_.insert({h, device}).second) return;
    const size_t bytes = starpu_data_get_size(h);
    if (!reserve(device, bytes, dev.budget)) {
        dev.full = true;  // the rest of the plan is fetched on demand
        return;
    }
    dev.reserved += bytes;
    if (idle_) starpu_data_idle_prefetch_on_node_prio(h, unsigned(dev.node), 1, priority_);
    else starpu_data_prefetch_on_node_prio(h, unsigned(dev.node), 1, priority_);
    if (priority_ > kFirstPriority) --priority_;  // Ahead: from STARPU_MAX_PRIO down, still in call order
}

void DevicePrefetch::operator()(TileHandle h) { to_device(h, devices_.size() == 1 ? 0 : detail::tile_device(h)); }

void DevicePrefetch::operator()(TileHandle h, TileHandle written) {
    to_device(h, devices_.size() == 1 ? 0 : detail::tile_device(written));
}

}  // namespace tessera::tasks

// DevicePrefetch: operands streamed to the only OpenCL device in the order the tasks will use them.
#include <starpu.h>

#include <atomic>
#include <climits>
#include <memory>

#include "codelets/tasks.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/sequence_internal.hpp"

namespace tessera::tasks {

namespace {
// Below every task priority of the algorithms, so that the inputs of ready tasks (which StarPU
// prefetches at the task's priority) go first; decreasing, so that the plan keeps its order.
constexpr int kFirstPriority = INT_MIN / 2;

// Operand bytes of the plans whose sequences may still run. Several application threads may run
// algorithms at once on the one device: together, their plans stay within half its memory (a plan
// that does not fit is off), so that concurrent plans cannot start an eviction storm either.
std::atomic<size_t> g_planned{0};

bool reserve(size_t bytes, size_t budget) {
    size_t planned = g_planned.load();
    do {
        if (planned > budget || bytes > budget - planned) return false;
    } while (!g_planned.compare_exchange_weak(planned, planned + bytes));
    return true;
}
}  // namespace

DevicePrefetch::DevicePrefetch(size_t bytes) : priority_(kFirstPriority + (1 << 24)) {
    // Distributed, a rank's device gets its tiles from StarPU-MPI's transfers, not from home.
    if (starpu_opencl_worker_get_count() != 1 || detail::distributed()) return;
    const int worker = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    const starpu_ssize_t total = starpu_memory_get_total(node);
    if (total > 0) {  // leave room: no eviction storm for big problems
        if (!reserve(bytes, size_t(total) / 2)) return;
        // The reservation lasts while the submitting sequence's tasks may run: its group holds it
        // until the sequence next drains (wait) or goes.
        detail::current_group()->hold(std::shared_ptr<void>(nullptr, [bytes](void*) { g_planned -= bytes; }));
    }
    node_ = int(node);
}

void DevicePrefetch::operator()(TileHandle h) {
    if (node_ < 0) return;
    starpu_data_prefetch_on_node_prio(h, unsigned(node_), 1, priority_);
    if (priority_ > kFirstPriority) --priority_;
}

}  // namespace tessera::tasks

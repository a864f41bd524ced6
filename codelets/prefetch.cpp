// DevicePrefetch: operands streamed to the only OpenCL device in the order the tasks will use them.
#include <starpu.h>

#include <climits>

#include "codelets/tasks.hpp"

namespace tessera::tasks {

namespace {
// Below every task priority of the algorithms, so that the inputs of ready tasks (which StarPU
// prefetches at the task's priority) go first; decreasing, so that the plan keeps its order.
constexpr int kFirstPriority = INT_MIN / 2;
}  // namespace

DevicePrefetch::DevicePrefetch(size_t bytes) : priority_(kFirstPriority + (1 << 24)) {
    if (starpu_opencl_worker_get_count() != 1) return;
    const int worker = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    const starpu_ssize_t total = starpu_memory_get_total(node);
    if (total > 0 && bytes > size_t(total) / 2) return;  // leave room: no eviction storm for big problems
    node_ = int(node);
}

void DevicePrefetch::operator()(TileHandle h) {
    if (node_ < 0) return;
    starpu_data_prefetch_on_node_prio(h, unsigned(node_), 1, priority_);
    if (priority_ > kFirstPriority) --priority_;
}

}  // namespace tessera::tasks

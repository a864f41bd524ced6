// Codelets whose tasks run on an OpenCL device's panel queue (runtime_internal.hpp, PanelQueue): a
// CPU worker runs the task with its data on the device's memory node (starpu_codelet::
// specific_nodes), enqueues the OpenCL implementation's launches on the device's second queue and
// waits for them, while the device's own worker runs other tasks on StarPU's queue. Internal header.
#pragma once

#include <starpu.h>

#include <initializer_list>

#include "kernels/opencl/device.hpp"
#include "runtime/runtime_internal.hpp"
#include "tessera/types.hpp"

namespace tessera::codelets {

/// The panel queue of the device holding the calling task's first buffer, held, with precision
/// `prec`'s kernels. Its destructor waits for everything enqueued on it, also when the codelet throws, so
/// that no kernel still uses the task's tiles once StarPU has them back; finish() waits and reports.
class PanelQueueTask {
public:
    explicit PanelQueueTask(char prec);
    ~PanelQueueTask();
    PanelQueueTask(const PanelQueueTask&) = delete;
    PanelQueueTask& operator=(const PanelQueueTask&) = delete;
    const ocl::DeviceKernels& kernels() const { return panel_.kernels; }
    cl_command_queue queue() const { return panel_.queue; }
    /// Wait for the launches; throws tessera::Error naming clFinish when the queue reports an error.
    void finish();

private:
    detail::PanelQueue panel_;
};

/// The codelet `name` (kept, e.g. from kept_name) of the guarded CPU implementation `cpu`, whose
/// buffers (`modes`, at most STARPU_NMAXBUFS) StarPU puts on memory node `node`. One per (name,
/// node), made on first use and kept until exit (StarPU 1.3 reads a codelet's nodes, not a
/// task's). No perfmodel: only CPU workers run it, so there is no placement to predict, and its
/// time depends on what runs beside it (the Cholesky panel: 7.7 ms alone, 15–35 ms beside the
/// updates on an H200), which StarPU 1.3's history discards as errors (STARPU_HISTORY_MAX_ERROR):
/// such a model stayed uncalibrated for good.
starpu_codelet& panel_queue_codelet(const char* name, starpu_cpu_func_t cpu,
                                    std::initializer_list<starpu_data_access_mode> modes, int node);

/// The memory node of the panel queue a precision-`prec` panel task whose lead tile (the one that
/// places it) is `lead` goes to, or -1 (detail::panel_queue_node). When it is one, that precision's
/// program is built now (not inside the task, whose time it would take). Throws tessera::Error as
/// detail::prepare_opencl.
///
/// Only panels whose kernels need no co-resident work-groups may go there. LU's and QR's column
/// panels stay on the device's own queue: their one-launch leaves on NVIDIA GPUs (getrf.cl,
/// qr_grid.cl) have every work-group wait for the others, which a second queue's kernels beside
/// them can keep off the device (bench/gpu_notes.md, "Panels on a second queue").
int panel_queue_for(TileHandle lead, char prec);

}  // namespace tessera::codelets

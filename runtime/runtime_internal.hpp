// What the codelets need of the running Runtime. Internal: not installed.
#pragma once

#include <mutex>

#include "kernels/opencl/device.hpp"
#include "tessera/runtime.hpp"
#include "tessera/tile_storage.hpp"

namespace tessera::detail {

class HostMemoryPool;

/// Throw tessera::Error naming `func` unless a Runtime is running.
void require_runtime(const char* func);
/// Whether the running Runtime drives an OpenCL device of type GPU or accelerator (PoCL's CPU
/// devices are neither).
bool runtime_has_opencl_gpu();
/// Task placement chosen by the running Runtime.
Placement placement();
/// Number of OpenCL devices (workers) StarPU drives; 0 when no Runtime runs. Distributed, the
/// largest number of any rank, the same on every rank: an algorithm that shapes its task graph by
/// it (the GPU Cholesky's panel) submits the same tasks on every rank, as StarPU-MPI requires.
int opencl_devices();
/// OpenCL kernels of StarPU OpenCL device `devid` for precision `prec`.
const ocl::DeviceKernels& opencl_kernels(int devid, char prec);
/// An OpenCL device's panel queue, held: a second in-order command queue on StarPU's context for
/// the device, with kernels (and workspaces) of its own, on which a CPU worker runs a tile
/// algorithm's panel task (the diagonal tile's potrf and inverse) and waits for it, while the
/// device's OpenCL worker goes on with the trailing updates on StarPU's queue. StarPU 1.3 drives a
/// device from one worker and one in-order queue, so the panel's latency-bound launches (one-work-
/// group leaves, small products) otherwise keep the whole device waiting (bench/gpu_notes.md,
/// "Panels on a second queue"). One holder at a time per device.
struct PanelQueue {
    const ocl::DeviceKernels& kernels;
    cl_command_queue queue;
    std::unique_lock<std::mutex> hold;
};
/// The panel queue of StarPU OpenCL device `devid` with precision `prec`'s kernels, held until the
/// result is destroyed. Throws tessera::Error as opencl_kernels, or naming the OpenCL call that failed.
PanelQueue panel_queue(int devid, char prec);
/// StarPU OpenCL device `devid`'s properties, or null when no Runtime runs or it drives no such device.
const ocl::DeviceInfo* opencl_device_info(int devid);
/// The StarPU memory node of the OpenCL device whose panel queue runs the precision-`prec` panel
/// task of diagonal tile `t`, or -1 when panel tasks stay on the device's own worker: no OpenCL
/// device, one without fp64 for d and z, no CPU worker to drive the queue, Placement::OpenCLOnly
/// (every task on an OpenCL worker), several devices without a device map, a distributed run, or
/// TESSERA_PANEL_QUEUE=0 (any value other than 0 and 1 throws tessera::Error naming it).
int panel_queue_node(TileHandle t, char prec);
/// TESSERA_PANEL_QUEUE (env_switch): whether panel tasks may run on panel queues (1, the default).
bool panel_queues_enabled();
/// Before a task whose OpenCL implementation runs precision `prec`'s kernels is submitted: that
/// program built on every OpenCL device (OpenCLRegistry::ensure) and the placement prior's rate of
/// its real precision known (learn_opencl_rates). Returns at once after the first call per precision;
/// nothing without OpenCL devices. Throws tessera::Error when a program does not build.
void prepare_opencl(char prec);
/// The running Runtime's allocator of tile storage (pinned or pageable, RuntimeConfig::host_memory).
HostMemoryPool& host_memory();

}  // namespace tessera::detail

namespace tessera::detail {

/// The running Runtime's list of live TileMatrix objects (runtime/live_matrices.cpp): the Runtime's
/// destructor calls each one's `orphan` (in creation order, the same on every rank) before StarPU
/// stops, so that no matrix is left with handles of a stopped StarPU.
using OrphanFn = void (*)(void* self) noexcept;
/// Enter `self` in the list; returns its id (never 0).
uint64_t track_matrix(void* self, OrphanFn orphan);
/// The matrix of id `id` now lives at `self` (a move).
void moved_matrix(uint64_t id, void* self) noexcept;
/// Remove id from the list (its matrix is being released); ignored when absent.
void untrack_matrix(uint64_t id) noexcept;
/// Orphan every listed matrix and empty the list (Runtime's destructor).
void orphan_matrices() noexcept;

}  // namespace tessera::detail

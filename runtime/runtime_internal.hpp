// What the codelets need of the running Runtime. Internal: not installed.
#pragma once

#include "kernels/opencl/device.hpp"
#include "tessera/runtime.hpp"

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

// What the codelets need of the running Runtime. Internal: not installed.
#pragma once

#include "kernels/opencl/device.hpp"
#include "tessera/runtime.hpp"

namespace tessera::detail {

class HostMemoryPool;

/// Throw tessera::Error naming `func` unless a Runtime is running.
void require_runtime(const char* func);
/// Task placement chosen by the running Runtime.
Placement placement();
/// Number of OpenCL devices (workers) StarPU drives; 0 when no Runtime runs. Distributed, the
/// largest number of any rank, the same on every rank: an algorithm that shapes its task graph by
/// it (the GPU Cholesky's panel) submits the same tasks on every rank, as StarPU-MPI requires.
int opencl_devices();
/// OpenCL kernels of StarPU OpenCL device `devid` for precision `prec`.
const ocl::DeviceKernels& opencl_kernels(int devid, char prec);
/// The running Runtime's allocator of tile storage (pinned or pageable, RuntimeConfig::host_memory).
HostMemoryPool& host_memory();

}  // namespace tessera::detail

// Which panel tasks run on an OpenCL device's panel queue (runtime_internal.hpp, PanelQueue): the
// device that owns a diagonal tile, when a CPU worker can drive its second queue.
#include <starpu.h>

#include "runtime/device_map.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/starpu_env.hpp"

namespace tessera::detail {

bool panel_queues_enabled() {
    return env_switch("TESSERA_PANEL_QUEUE", "panels on a second queue of their device, driven by a CPU worker");
}

int panel_queue_node(TileHandle t, char prec) {
    if (opencl_devices() == 0 || starpu_cpu_worker_get_count() == 0 || placement() == Placement::OpenCLOnly ||
        distributed() || !panel_queues_enabled())
        return -1;
    // The owning device: the map's, else the one device of the process (none when several share
    // tiles freely: the tile may be on any of them).
    int devid = -1;
    if (mapped_devices() > 0)
        devid = mapped_devid(tile_device(t));
    else if (starpu_opencl_worker_get_count() == 1)
        devid = starpu_worker_get_devid(starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0));
    const ocl::DeviceInfo* info = devid < 0 ? nullptr : opencl_device_info(devid);
    if (!info || (ocl::real_prec(prec) == 'd' && !info->fp64)) return -1;
    const int worker = starpu_worker_get_by_devid(STARPU_OPENCL_WORKER, devid);
    return worker < 0 ? -1 : int(starpu_worker_get_memory_node(unsigned(worker)));
}

}  // namespace tessera::detail

// Device map: which of a process's OpenCL devices owns each tile, when the process drives two or
// more. Tiles are spread 2D block-cyclically over a p×q grid of the devices (as Chameleon and
// SLATE spread tiles over GPUs), and a task runs on the device owning the tile it writes, or on a
// CPU worker: StarPU still chooses among those (dmdas: by its performance models), so a panel may
// run on a CPU core, but a device never takes another device's tile away from it. Without a map,
// every dmda-family scheduler kept every task on the first GPU (the second had no data, so every
// estimate included transfers), and eager/lws moved tiles between the GPUs through the host
// (bench/multi_gpu.sh). Internal: not installed.
#pragma once

#include <starpu.h>

#include <cstdint>
#include <string>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// Called by the Runtime once its workers exist: builds the device grid and, for each device, the
/// set of workers a task owned by it may run on (the device's OpenCL workers and every CPU worker).
/// The map is on when the process has at least two OpenCL devices, unless TESSERA_DEVICE_MAP=0
/// (StarPU's scheduler then places every task on any device); any value of TESSERA_DEVICE_MAP but
/// 0 and 1 throws tessera::Error naming it. The grid is 1×n (tile column j on device j mod n), or
/// TESSERA_DEVICE_GRID=PxQ (a malformed value, or P·Q other than the devices, throws tessera::Error
/// naming it).
void start_device_map();
/// Called by the Runtime when it stops (no task may be pending).
void stop_device_map() noexcept;

/// The number of devices the map spreads tiles over: 0 when it is off.
int mapped_devices() noexcept;
/// StarPU's OpenCL device id of the map's device `device` (0 … mapped_devices()−1), -1 if none.
int mapped_devid(int device) noexcept;
/// "p×q grid over N OpenCL devices (tile (i, j) on device (i mod p)·q + j mod q)", or why it is off.
std::string describe_device_map();

/// Record the owning device of a tile whose block indices are (i, j) among the tiles of its process
/// (in a distributed matrix: the rank's local block indices). Does nothing while the map is off.
void set_tile_device(TileHandle h, int64_t i, int64_t j);
/// The device owning a tile: -1 for a tile with none (the map is off, or a temporary tile).
int tile_device(TileHandle h) noexcept;
/// Give tile `h` (a temporary one) the owning device of tile `like`, so that the tasks writing it
/// run there too. Does nothing while the map is off.
void share_tile_device(TileHandle h, TileHandle like) noexcept;

/// Restrict a task to the workers of the device owning its first written tile that has an owner
/// (else its first tile that has one), plus the CPU workers. Does nothing while the map is off, for
/// a task with no owned tile, a task bound to one worker, or a task that cannot run on OpenCL.
void apply_device_map(starpu_task* task) noexcept;

}  // namespace tessera::detail

// Handles that algorithms create besides a TileMatrix's tiles, in one place: tiles registered over
// existing memory, temporary tiles, LU's pivots, and the host storage of tile sets
// (QRFactors' T factors). Every handle made here is MPI-registered with its owner rank where it
// holds data; temporaries are tracked by the submitting SubmitScope, which unregisters them if the
// algorithm is interrupted by an exception.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// Register host memory (rows×cols of elem_size bytes, column-major, leading dimension ld) as a
/// tile owned by MPI rank `owner` (ignored in one process); ptr = nullptr registers a tile with no
/// home storage (another rank's, or one StarPU allocates where it is first written).
/// unregister_tile() waits for its tasks and drops it without bringing device copies home (as
/// TileMatrix does).
TileHandle register_tile(const void* ptr, int64_t rows, int64_t cols, int64_t ld, size_t elem_size, int owner);
void unregister_tile(TileHandle h);
/// Unregister tiles from register_tile() over host memory, waiting for their tasks, and leave their
/// latest values in that memory (results read on the host): the copies home from devices are all
/// requested first (StarPU prefetches, each after its tile's tasks), so that they travel together
/// rather than one unregister's copy after another.
void unregister_tiles_home(const std::vector<TileHandle>& tiles);
/// Handles from register_tile() over host memory, unregistered (device copies dropped) when the object
/// goes, unless home() brought their values home first: the guard of a host phase whose tasks may
/// fail before the memory goes (heevd's run_on_host, tridiag_dc's merges).
struct HostRegistrations {
    std::vector<TileHandle> h;
    HostRegistrations() = default;
    HostRegistrations(const HostRegistrations&) = delete;
    HostRegistrations& operator=(const HostRegistrations&) = delete;
    ~HostRegistrations() {
        for (TileHandle x : h) unregister_tile(x);
    }
    /// unregister_tiles_home() of every handle; the guard is then empty.
    void home() {
        unregister_tiles_home(h);
        h.clear();
    }
};

/// A rows×cols tile of T owned by MPI rank `owner` (ignored in one process) with no home storage:
/// StarPU allocates it where a task first writes it (its first access must be a write). Give it
/// back with release_temp_tile(). With several OpenCL devices (runtime/device_map.hpp), `device_like`
/// (a tile, or nullptr) gives it that tile's device, so that the tasks writing it run there; without
/// one, a task writing it runs on the device of its first operand that has one (a QR panel's V
/// tile: every column's Vᴴ·C then ran on the panel's device, and C's tiles crossed devices).
template <class T>
TileHandle temp_tile(int64_t rows, int64_t cols, int owner, TileHandle device_like = nullptr);
/// The pivots ipiv[0..count) (int64_t) as a handle owned by MPI rank `owner` (ignored in one
/// process): the partial-pivoting panel writes it, the interchanges read it, and StarPU-MPI brings
/// it to the ranks whose interchanges need it. Give it back with release_temp_tile() (its home
/// memory, ipiv, then holds this rank's copy).
TileHandle pivot_handle(int64_t* ipiv, int64_t count, int owner);
/// Unregister a temporary tile or pivots once the tasks submitted on it have run, without waiting.
void release_temp_tile(TileHandle h);

}  // namespace tessera::tasks

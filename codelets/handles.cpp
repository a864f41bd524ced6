// Handles besides a TileMatrix's tiles (see handles.hpp).
#include "codelets/handles.hpp"

#include <starpu.h>

#include "runtime/device_map.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/precisions.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"

namespace tessera {

TileHandle tasks::register_tile(const void* ptr, int64_t rows, int64_t cols, int64_t ld, size_t elem_size, int owner) {
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, ptr ? STARPU_MAIN_RAM : -1, reinterpret_cast<uintptr_t>(ptr),
                                uint32_t(ptr ? ld : rows), uint32_t(rows), uint32_t(cols), elem_size);
    detail::mpi_register(h, owner);
    return h;
}

void tasks::unregister_tile(TileHandle h) { starpu_data_unregister_no_coherency(h); }

void tasks::unregister_tiles_home(const std::vector<TileHandle>& tiles) {
    for (TileHandle h : tiles) starpu_data_prefetch_on_node(h, STARPU_MAIN_RAM, 1);
    for (TileHandle h : tiles) starpu_data_unregister(h);
}

template <class T>
TileHandle tasks::temp_tile(int64_t rows, int64_t cols, int owner, TileHandle device_like) {
    TileHandle h = register_tile(nullptr, rows, cols, rows, sizeof(T), owner);
    if (device_like) detail::share_tile_device(h, device_like);
    detail::track_temporary(h);  // unregistered by the scope if the algorithm is interrupted
    return h;
}

TileHandle tasks::pivot_handle(int64_t* ipiv, int64_t count, int owner) {
    TileHandle h = register_tile(ipiv, count, 1, count, sizeof(int64_t), owner);
    detail::track_temporary(h);  // unregistered by the scope if the algorithm is interrupted
    return h;
}

void tasks::release_temp_tile(TileHandle h) {
    detail::untrack_temporary(h);
    starpu_data_unregister_submit(h);
}

#define TESSERA_INSTANTIATE(T) template TileHandle tasks::temp_tile<T>(int64_t, int64_t, int, TileHandle);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

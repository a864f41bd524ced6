// TileMatrix storage and StarPU handles, and the waits that bring tiles to a memory node.
#include "tessera/tile_matrix.hpp"

#include <starpu.h>

#include <algorithm>
#include <complex>
#include <new>
#include <string>
#include <utility>

#include "runtime/device_map.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

// Everything that depends on the sizes is counted, without a loop over the tiles, and checked
// against the memory available before anything is allocated: a loop over 2^48 tiles, or a vector of
// 2^40 entries, would hang or throw std::bad_alloc first.
template <class T>
TileMatrix<T>::TileMatrix(int64_t m, int64_t n, int64_t nb, Distribution dist) : m_(m), n_(n), nb_(nb) {
    check_arg(m >= 0, "TileMatrix", "m", m, "must be >= 0");
    check_arg(n >= 0, "TileMatrix", "n", n, "must be >= 0");
    check_arg(nb >= 1, "TileMatrix", "nb", nb, "must be >= 1");
    detail::require_runtime("TileMatrix");
    dist_ = detail::resolve(dist, "TileMatrix");
    const int64_t mt = m / nb + (m % nb != 0), nt = n / nb + (n % nb != 0);  // ceil without overflowing m + nb - 1
    const std::string shape = std::to_string(m) + " x " + std::to_string(n);
    const int64_t tiles = detail::tile_count(m, n, nb);
    if (tiles < 0)
        throw Error("tessera::TileMatrix: argument 'nb' = " + std::to_string(nb) + " cuts a " + shape + " matrix into " +
                    std::to_string(mt) + " x " + std::to_string(nt) + " tiles, more than the " +
                    std::to_string(detail::kMaxTiles) + " a matrix may have (use a larger nb)");
    mt_ = mt, nt_ = nt;
    if (tiles == 0) return;
    // This rank's tiles of the 2D block-cyclic map: rows i ≡ my_row (mod P), columns j ≡ my_col (mod Q).
    const int me = detail::rank();
    const int64_t my_row = me / dist_.q, my_col = me % dist_.q;
    const int64_t local_rows = mt / dist_.p + (my_row < mt % dist_.p), local_cols = nt / dist_.q + (my_col < nt % dist_.q);
    // Tile (i, j) stores tile_rows(i) × tile_cols(j) scalars, so a partial last tile (an n×1
    // vector's tiles: nb×1) takes only what it holds. This rank's rows: its local_rows tiles, all
    // full but the last tile row when it is this rank's.
    int64_t local_m = 0, local_n = 0;
    if (__builtin_mul_overflow(local_rows, nb, &local_m) || __builtin_mul_overflow(local_cols, nb, &local_n))
        throw Error("tessera::TileMatrix: argument 'nb' = " + std::to_string(nb) + " gives tiles too large to address");
    if ((mt - 1) % dist_.p == my_row && m % nb != 0) local_m -= nb - m % nb;
    if ((nt - 1) % dist_.q == my_col && n % nb != 0) local_n -= nb - n % nb;
    // This rank's whole share (its tiles' scalars, every tile's StarPU handle) before its first
    // column: column by column, the first ones could succeed (overcommitted) and the process be
    // killed when they are touched, or fail naming one.
    uint64_t total_bytes = 0;
    if (!detail::tile_storage_bytes(uint64_t(tiles), uint64_t(local_m), uint64_t(local_n), sizeof(T), total_bytes))
        throw Error("tessera::TileMatrix: a " + shape + " matrix with nb = " + std::to_string(nb) +
                    " has more bytes than a 64-bit count can hold");
    detail::require_host_memory("tessera::TileMatrix", total_bytes);
    // One block of host memory per tile column holding this rank's tiles of it (pinned when the
    // runtime pins): a block stays under the OpenCL driver's largest allocation for any matrix a
    // device can hold one column of.
    try {
        tiles_.assign(size_t(tiles), nullptr);
        for (int64_t j = my_col; j < nt_ && local_rows > 0; j += dist_.q) {
            const size_t cols = size_t(tile_cols(j));
            T* column = static_cast<T*>(store_.allocate(size_t(local_m) * cols * sizeof(T)));
            for (int64_t i = my_row; i < mt_; i += dist_.p)
                tiles_[size_t(j * mt_ + i)] = column, column += size_t(tile_rows(i)) * cols;
        }
        register_tiles();
        store_.track();
    } catch (const std::bad_alloc&) {
        release();
        throw Error("tessera::TileMatrix: out of host memory for a " + shape + " matrix with nb = " +
                    std::to_string(nb) + " (" + detail::format_gb(double(total_bytes)) + ")");
    } catch (...) {
        release();
        throw;
    }
}

template <class T>
TileMatrix<T> TileMatrix<T>::view(T* a, int64_t m, int64_t n, int64_t lda, int64_t nb) {
    return unowned("TileMatrix::view", true, a, m, n, lda, nb);
}

template <class T>
TileMatrix<T> TileMatrix<T>::workspace(int64_t m, int64_t n, int64_t nb) {
    return unowned("TileMatrix::workspace", false, nullptr, m, n, 0, nb);
}

// A matrix whose tiles' storage is not its own: a view of the caller's array `base` (tile (i, j) at
// base + i·nb + j·nb·lda, brought home when the view goes), or a workspace (no storage: each tile
// registered with no home node). One process; only the handles are counted.
template <class T>
TileMatrix<T> TileMatrix<T>::unowned(const char* func, bool view, T* base, int64_t m, int64_t n, int64_t lda,
                                     int64_t nb) {
    const std::string who = std::string("tessera::") + func;
    check_arg(m >= 0, func, "m", m, "must be >= 0");
    check_arg(n >= 0, func, "n", n, "must be >= 0");
    check_arg(nb >= 1, func, "nb", nb, "must be >= 1");
    if (view) {
        check_arg(lda >= std::max<int64_t>(1, m), func, "lda", lda, "must be >= max(1, m)");
        check_arg(base != nullptr || m == 0 || n == 0, func, "a", 0, "must not be null");
    }
    detail::require_runtime(func);
    if (detail::distributed())
        throw Error(who + (view ? ": a view needs one process (a distributed matrix's tiles live on several ranks; use "
                                  "fill_from_lapack)"
                                : ": one process only"));
    TileMatrix U;
    U.m_ = m, U.n_ = n, U.nb_ = nb, U.lda_ = view ? lda : 0, U.dist_ = detail::resolve({}, func);
    const int64_t tiles = detail::tile_count(m, n, nb);
    U.mt_ = m / nb + (m % nb != 0);
    U.nt_ = n / nb + (n % nb != 0);
    const char* what = view ? " array" : " matrix";
    if (tiles < 0)
        throw Error(who + ": argument 'nb' = " + std::to_string(nb) + " cuts a " + std::to_string(m) + " x " +
                    std::to_string(n) + what + " into more than the " + std::to_string(detail::kMaxTiles) +
                    " tiles a matrix may have (use a larger nb)");
    if (tiles == 0) return U;
    uint64_t bytes = 0;
    detail::tile_storage_bytes(uint64_t(tiles), 0, 0, sizeof(T), bytes);  // handles only: no scalars of its own
    detail::require_host_memory(who, bytes);
    try {
        U.tiles_.assign(size_t(tiles), nullptr);
        if (view)
            for (int64_t j = 0; j < U.nt_; ++j)
                for (int64_t i = 0; i < U.mt_; ++i) U.tiles_[size_t(j * U.mt_ + i)] = base + i * nb + j * nb * lda;
        U.store_.set_coherent(view);  // a view's tiles come home into the caller's array
        U.register_tiles();
        U.store_.track();
    } catch (const std::bad_alloc&) {
        U.release();
        throw Error(who + ": out of host memory for the tiles of a " + std::to_string(m) + " x " + std::to_string(n) +
                    what + " with nb = " + std::to_string(nb));
    }
    return U;
}

// Every rank registers every tile, in the same order (StarPU-MPI tags are counted): its own with
// their storage (leading dimension tile_ld), the others with none (StarPU allocates a copy where a
// task needs one).
template <class T>
void TileMatrix<T>::register_tiles() {
    std::vector<TileHandle>& handles = store_.handles();
    handles.assign(size_t(mt_ * nt_), nullptr);
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            const uint32_t rows = uint32_t(tile_rows(i)), cols = uint32_t(tile_cols(j));
            T* data = tile_data(i, j);
            TileHandle& h = handles[size_t(j * mt_ + i)];
            starpu_matrix_data_register(&h, data ? STARPU_MAIN_RAM : -1, reinterpret_cast<uintptr_t>(data),
                                        uint32_t(tile_ld(i)), rows, cols, sizeof(T));
            starpu_data_set_coordinates(h, 2, int(i), int(j));  // the tile's indices, for traces (runtime/trace.cpp)
            detail::mpi_register(h, owner(i, j));
            detail::set_tile_device(h, i / dist_.p, j / dist_.q);  // the rank's own block indices
        }
}

template <class T>
T* TileMatrix<T>::tile_data(int64_t i, int64_t j) const {
    return tiles_.empty() || store_.orphaned() ? nullptr : tiles_[size_t(j * mt_ + i)];
}

template <class T>
void TileMatrix<T>::throw_orphaned(const char* func) {
    throw Error(std::string("tessera::") + func +
                ": the matrix's Runtime has stopped (a TileMatrix must not outlive its Runtime; its tiles were released "
                "when the Runtime stopped)");
}

template <class T>
void TileMatrix<T>::release() noexcept {
    store_.release();
    tiles_.clear();
}

template <class T>
TileMatrix<T>::~TileMatrix() = default;

template <class T>
TileMatrix<T>::TileMatrix(TileMatrix&& o) noexcept
    : m_(std::exchange(o.m_, 0)), n_(std::exchange(o.n_, 0)), nb_(o.nb_), mt_(std::exchange(o.mt_, 0)),
      nt_(std::exchange(o.nt_, 0)), lda_(std::exchange(o.lda_, 0)), dist_(o.dist_), tiles_(std::move(o.tiles_)),
      store_(std::move(o.store_)) {
    o.tiles_.clear();
}

template <class T>
TileMatrix<T>& TileMatrix<T>::operator=(TileMatrix&& o) noexcept {
    if (this != &o) {
        store_ = std::move(o.store_);  // releases this matrix's tiles first
        tiles_ = std::move(o.tiles_);
        o.tiles_.clear();
        m_ = std::exchange(o.m_, 0), n_ = std::exchange(o.n_, 0), nb_ = o.nb_, mt_ = std::exchange(o.mt_, 0),
        nt_ = std::exchange(o.nt_, 0), lda_ = std::exchange(o.lda_, 0), dist_ = o.dist_;
    }
    return *this;
}

// The handles of the tiles this rank stores (all of them in one process).
template <class T>
static std::vector<TileHandle> local_handles(const TileMatrix<T>& A) {
    std::vector<TileHandle> local;
    local.reserve(size_t(A.mt() * A.nt()));
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i)
            if (A.is_local(i, j)) local.push_back(A.handle(i, j));
    return local;
}

// Acquire every handle on memory node `node` in `mode` and release it: waits for the tasks on each
// tile and leaves a valid copy on `node` (write access also invalidates the copies elsewhere). The
// copies to `node` are all requested first (StarPU prefetches, each after the tasks writing its
// tile), so that they are in flight together rather than one acquire's copy after another.
// A wait: then reports a failure of the thread's tasks outside any Sequence (e.g. a generator's).
static void acquire_each(const std::vector<TileHandle>& handles, int node, starpu_data_access_mode mode) {
    for (TileHandle h : handles) starpu_data_prefetch_on_node(h, unsigned(node), 1);
    for (TileHandle h : handles) {
        starpu_data_acquire_on_node(h, node, mode);
        starpu_data_release_on_node(h, node);
    }
    detail::wait_detached();
}

template <class T>
void TileMatrix<T>::acquire_host() const {
    check_usable("TileMatrix::acquire_host");
    acquire_each(local_handles(*this), STARPU_MAIN_RAM, STARPU_R);
}

template <class T>
void TileMatrix<T>::flush_to_host() const {
    check_usable("TileMatrix::flush_to_host");
    auto release = [](void* h) { starpu_data_release(static_cast<TileHandle>(h)); };
    for (TileHandle h : local_handles(*this)) starpu_data_acquire_cb(h, STARPU_R, release, h);
}

template <class T>
void TileMatrix<T>::keep_only_on_host() const {
    check_usable("TileMatrix::keep_only_on_host");
    acquire_each(local_handles(*this), STARPU_MAIN_RAM, STARPU_RW);
}

template <class T>
void TileMatrix<T>::fetch_to_device(int device) const {
    check_usable("TileMatrix::fetch_to_device");
    const int worker = starpu_worker_get_by_devid(STARPU_OPENCL_WORKER, device);
    if (device < 0 || worker < 0)
        throw Error("tessera::TileMatrix::fetch_to_device: argument 'device' = " + std::to_string(device) +
                    " is not an OpenCL device of the runtime");
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    acquire_each(local_handles(*this), int(node), STARPU_R);
}

#define TESSERA_INSTANTIATE(T) template class TileMatrix<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

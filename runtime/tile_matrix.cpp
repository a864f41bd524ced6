// TileMatrix storage and StarPU handles, and the waits that bring tiles to a memory node.
#include "tessera/tile_matrix.hpp"

#include <starpu.h>

#include <algorithm>
#include <complex>

#include "runtime/host_memory.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
TileMatrix<T>::TileMatrix(int64_t m, int64_t n, int64_t nb, Distribution dist) : m_(m), n_(n), nb_(nb) {
    check_arg(m >= 0, "TileMatrix", "m", m, "must be >= 0");
    check_arg(n >= 0, "TileMatrix", "n", n, "must be >= 0");
    check_arg(nb >= 1, "TileMatrix", "nb", nb, "must be >= 1");
    detail::require_runtime("TileMatrix");
    dist_ = detail::resolve(dist, "TileMatrix");
    mt_ = m / nb + (m % nb != 0);  // ceil(m / nb) without overflowing m + nb - 1
    nt_ = n / nb + (n % nb != 0);
    if (mt_ == 0 || nt_ == 0) return;
    // One block of host memory per tile column holding this rank's tiles of it (pinned when the
    // runtime pins): a block stays under the OpenCL driver's largest allocation for any matrix a
    // device can hold one column of.
    const int me = detail::rank();
    std::vector<int64_t> local_in_column(size_t(nt_), 0);
    int64_t local_tiles = 0;
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i)
            if (owner(i, j) == me) ++local_in_column[size_t(j)], ++local_tiles;
    size_t tile_bytes = 0, column_bytes = 0, total_bytes = 0;
    if (__builtin_mul_overflow(size_t(nb), size_t(nb), &tile_bytes) ||
        __builtin_mul_overflow(tile_bytes, sizeof(T), &tile_bytes) ||
        __builtin_mul_overflow(tile_bytes, size_t(mt_), &column_bytes))
        throw Error("tessera::TileMatrix: argument 'nb' = " + std::to_string(nb) + " gives tiles too large to address");
    // This rank's whole share before its first column: column by column, the first ones could
    // succeed (overcommitted) and the process be killed when they are touched, or fail naming one.
    if (__builtin_mul_overflow(tile_bytes, size_t(local_tiles), &total_bytes))
        throw Error("tessera::TileMatrix: a " + std::to_string(m) + " x " + std::to_string(n) + " matrix with nb = " +
                    std::to_string(nb) + " has more bytes than a 64-bit count can hold");
    detail::require_host_memory("tessera::TileMatrix", total_bytes);
    tiles_.assign(size_t(mt_ * nt_), nullptr);
    columns_.reserve(size_t(nt_));
    try {
        for (int64_t j = 0; j < nt_; ++j) {
            if (local_in_column[size_t(j)] == 0) continue;
            T* column = static_cast<T*>(detail::host_memory().allocate(tile_bytes * size_t(local_in_column[size_t(j)])));
            columns_.push_back(column);
            for (int64_t i = 0; i < mt_; ++i)
                if (owner(i, j) == me) tiles_[size_t(j * mt_ + i)] = column, column += size_t(nb) * size_t(nb);
        }
    } catch (...) {
        release();
        throw;
    }
    register_tiles();
}

template <class T>
TileMatrix<T> TileMatrix<T>::view(T* a, int64_t m, int64_t n, int64_t lda, int64_t nb) {
    check_arg(m >= 0, "TileMatrix::view", "m", m, "must be >= 0");
    check_arg(n >= 0, "TileMatrix::view", "n", n, "must be >= 0");
    check_arg(nb >= 1, "TileMatrix::view", "nb", nb, "must be >= 1");
    check_arg(lda >= std::max<int64_t>(1, m), "TileMatrix::view", "lda", lda, "must be >= max(1, m)");
    check_arg(a != nullptr || m == 0 || n == 0, "TileMatrix::view", "a", 0, "must not be null");
    detail::require_runtime("TileMatrix::view");
    if (detail::distributed())
        throw Error("tessera::TileMatrix::view: a view needs one process (a distributed matrix's tiles live on several "
                    "ranks; use fill_from_lapack)");
    TileMatrix V;
    V.m_ = m, V.n_ = n, V.nb_ = nb, V.lda_ = lda, V.dist_ = detail::resolve({}, "TileMatrix::view");
    V.mt_ = m / nb + (m % nb != 0);
    V.nt_ = n / nb + (n % nb != 0);
    if (V.mt_ == 0 || V.nt_ == 0) return V;
    V.tiles_.resize(size_t(V.mt_ * V.nt_));
    for (int64_t j = 0; j < V.nt_; ++j)
        for (int64_t i = 0; i < V.mt_; ++i) V.tiles_[size_t(j * V.mt_ + i)] = a + i * nb + j * nb * lda;
    V.register_tiles();
    return V;
}

// Every rank registers every tile, in the same order (StarPU-MPI tags are counted): its own with
// their storage (leading dimension tile_ld), the others with none (StarPU allocates a copy where a
// task needs one).
template <class T>
void TileMatrix<T>::register_tiles() {
    handles_.resize(size_t(mt_ * nt_));
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            const uint32_t rows = uint32_t(tile_rows(i)), cols = uint32_t(tile_cols(j));
            T* data = tile_data(i, j);
            TileHandle& h = handles_[size_t(j * mt_ + i)];
            starpu_matrix_data_register(&h, data ? STARPU_MAIN_RAM : -1, reinterpret_cast<uintptr_t>(data),
                                        uint32_t(tile_ld(i)), rows, cols, sizeof(T));
            starpu_data_set_coordinates(h, 2, int(i), int(j));  // the tile's indices, for traces (runtime/trace.cpp)
            detail::mpi_register(h, owner(i, j));
        }
}

template <class T>
T* TileMatrix<T>::tile_data(int64_t i, int64_t j) const {
    return tiles_.empty() ? nullptr : tiles_[size_t(j * mt_ + i)];
}

template <class T>
void TileMatrix<T>::release() noexcept {
    // A view's tiles come home into the caller's array; owned storage is freed, its content dropped.
    for (TileHandle h : handles_) is_view() ? starpu_data_unregister(h) : starpu_data_unregister_no_coherency(h);
    handles_.clear();
    for (T* c : columns_) detail::host_memory().release(c);
    columns_.clear();
    tiles_.clear();
}

template <class T>
TileMatrix<T>::~TileMatrix() { release(); }

template <class T>
TileMatrix<T>::TileMatrix(TileMatrix&& o) noexcept
    : m_(o.m_), n_(o.n_), nb_(o.nb_), mt_(o.mt_), nt_(o.nt_), lda_(o.lda_), dist_(o.dist_), columns_(std::move(o.columns_)),
      tiles_(std::move(o.tiles_)), handles_(std::move(o.handles_)) {
    o.columns_.clear();
    o.tiles_.clear();
    o.handles_.clear();
    o.m_ = o.n_ = o.mt_ = o.nt_ = o.lda_ = 0;
}

template <class T>
TileMatrix<T>& TileMatrix<T>::operator=(TileMatrix&& o) noexcept {
    if (this != &o) {
        release();
        m_ = o.m_, n_ = o.n_, nb_ = o.nb_, mt_ = o.mt_, nt_ = o.nt_, lda_ = o.lda_, dist_ = o.dist_;
        columns_ = std::move(o.columns_);
        tiles_ = std::move(o.tiles_);
        handles_ = std::move(o.handles_);
        o.columns_.clear();
        o.tiles_.clear();
        o.handles_.clear();
        o.m_ = o.n_ = o.mt_ = o.nt_ = o.lda_ = 0;
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
// tile and leaves a valid copy on `node` (write access also invalidates the copies elsewhere).
// A wait: then reports a failure of the thread's tasks outside any Sequence (e.g. a generator's).
static void acquire_each(const std::vector<TileHandle>& handles, int node, starpu_data_access_mode mode) {
    for (TileHandle h : handles) {
        starpu_data_acquire_on_node(h, node, mode);
        starpu_data_release_on_node(h, node);
    }
    detail::wait_detached();
}

template <class T>
void TileMatrix<T>::acquire_host() const {
    acquire_each(local_handles(*this), STARPU_MAIN_RAM, STARPU_R);
}

template <class T>
void TileMatrix<T>::flush_to_host() const {
    auto release = [](void* h) { starpu_data_release(static_cast<TileHandle>(h)); };
    for (TileHandle h : local_handles(*this)) starpu_data_acquire_cb(h, STARPU_R, release, h);
}

template <class T>
void TileMatrix<T>::keep_only_on_host() const {
    acquire_each(local_handles(*this), STARPU_MAIN_RAM, STARPU_RW);
}

template <class T>
void TileMatrix<T>::fetch_to_device(int device) const {
    const int worker = starpu_worker_get_by_devid(STARPU_OPENCL_WORKER, device);
    if (device < 0 || worker < 0)
        throw Error("tessera::TileMatrix::fetch_to_device: argument 'device' = " + std::to_string(device) +
                    " is not an OpenCL device of the runtime");
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    const std::vector<TileHandle> local = local_handles(*this);
    for (TileHandle h : local) starpu_data_prefetch_on_node(h, node, 1);  // all copies in flight at once
    acquire_each(local, int(node), STARPU_R);
}

#define TESSERA_INSTANTIATE(T) template class TileMatrix<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

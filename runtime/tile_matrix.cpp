// TileMatrix storage and StarPU handles, and the waits that bring tiles to a memory node.
#include "tessera/tile_matrix.hpp"

#include <starpu.h>

#include <algorithm>
#include <complex>

#include "runtime/host_memory.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"

namespace tessera {

template <class T>
TileMatrix<T>::TileMatrix(int64_t m, int64_t n, int64_t nb, Distribution dist)
    : m_(m), n_(n), nb_(nb), dist_(dist) {
    check_arg(m >= 0, "TileMatrix", "m", m, "must be >= 0");
    check_arg(n >= 0, "TileMatrix", "n", n, "must be >= 0");
    check_arg(nb >= 1, "TileMatrix", "nb", nb, "must be >= 1");
    check_arg(dist.p >= 1, "TileMatrix", "p", dist.p, "must be >= 1");
    check_arg(dist.q >= 1, "TileMatrix", "q", dist.q, "must be >= 1");
    detail::require_runtime("TileMatrix");
    mt_ = m / nb + (m % nb != 0);  // ceil(m / nb) without overflowing m + nb - 1
    nt_ = n / nb + (n % nb != 0);
    if (mt_ == 0 || nt_ == 0) return;
    // One block of host memory per tile column (pinned when the runtime pins): a block stays under
    // the OpenCL driver's largest allocation for any matrix a device can hold one column of.
    size_t column_bytes = 0;
    if (__builtin_mul_overflow(size_t(mt_), size_t(nb), &column_bytes) ||
        __builtin_mul_overflow(column_bytes, size_t(nb), &column_bytes) ||
        __builtin_mul_overflow(column_bytes, sizeof(T), &column_bytes))
        throw Error("tessera::TileMatrix: argument 'nb' = " + std::to_string(nb) + " gives tiles too large to address");
    // The whole matrix before its first column: column by column, the first ones could succeed
    // (overcommitted) and the process be killed when they are touched, or fail naming one column.
    size_t total_bytes = 0;
    if (__builtin_mul_overflow(column_bytes, size_t(nt_), &total_bytes))
        throw Error("tessera::TileMatrix: a " + std::to_string(m) + " x " + std::to_string(n) + " matrix with nb = " +
                    std::to_string(nb) + " has more bytes than a 64-bit count can hold");
    detail::require_host_memory("tessera::TileMatrix", total_bytes);
    columns_.reserve(size_t(nt_));
    try {
        for (int64_t j = 0; j < nt_; ++j)
            columns_.push_back(static_cast<T*>(detail::host_memory().allocate(column_bytes)));
    } catch (...) {
        release();
        throw;
    }
    handles_.resize(size_t(mt_ * nt_));
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            const uint32_t rows = uint32_t(tile_rows(i)), cols = uint32_t(tile_cols(j));
            starpu_matrix_data_register(&handles_[size_t(j * mt_ + i)], STARPU_MAIN_RAM,
                                        reinterpret_cast<uintptr_t>(tile_data(i, j)), rows, rows, cols, sizeof(T));
        }
}

template <class T>
T* TileMatrix<T>::tile_data(int64_t i, int64_t j) const {
    return columns_[size_t(j)] + size_t(i) * size_t(nb_) * size_t(nb_);
}

template <class T>
void TileMatrix<T>::release() noexcept {
    for (TileHandle h : handles_) starpu_data_unregister_no_coherency(h);
    handles_.clear();
    for (T* c : columns_) detail::host_memory().release(c);
    columns_.clear();
}

template <class T>
TileMatrix<T>::~TileMatrix() { release(); }

template <class T>
TileMatrix<T>::TileMatrix(TileMatrix&& o) noexcept
    : m_(o.m_), n_(o.n_), nb_(o.nb_), mt_(o.mt_), nt_(o.nt_), dist_(o.dist_), columns_(std::move(o.columns_)),
      handles_(std::move(o.handles_)) {
    o.columns_.clear();
    o.handles_.clear();
    o.m_ = o.n_ = o.mt_ = o.nt_ = 0;
}

template <class T>
TileMatrix<T>& TileMatrix<T>::operator=(TileMatrix&& o) noexcept {
    if (this != &o) {
        release();
        m_ = o.m_, n_ = o.n_, nb_ = o.nb_, mt_ = o.mt_, nt_ = o.nt_, dist_ = o.dist_;
        columns_ = std::move(o.columns_);
        handles_ = std::move(o.handles_);
        o.columns_.clear();
        o.handles_.clear();
        o.m_ = o.n_ = o.mt_ = o.nt_ = 0;
    }
    return *this;
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
    acquire_each(handles_, STARPU_MAIN_RAM, STARPU_R);
}

template <class T>
void TileMatrix<T>::flush_to_host() const {
    auto release = [](void* h) { starpu_data_release(static_cast<TileHandle>(h)); };
    for (TileHandle h : handles_) starpu_data_acquire_cb(h, STARPU_R, release, h);
}

template <class T>
void TileMatrix<T>::keep_only_on_host() const {
    acquire_each(handles_, STARPU_MAIN_RAM, STARPU_RW);
}

template <class T>
void TileMatrix<T>::fetch_to_device(int device) const {
    const int worker = starpu_worker_get_by_devid(STARPU_OPENCL_WORKER, device);
    if (device < 0 || worker < 0)
        throw Error("tessera::TileMatrix::fetch_to_device: argument 'device' = " + std::to_string(device) +
                    " is not an OpenCL device of the runtime");
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    for (TileHandle h : handles_) starpu_data_prefetch_on_node(h, node, 1);  // all copies in flight at once
    acquire_each(handles_, int(node), STARPU_R);
}

template class TileMatrix<float>;
template class TileMatrix<double>;

}  // namespace tessera

// QRFactors: the T factors of a tile QR, one ib×nb tile per tile of A (include/tessera/qr.hpp).
#include <utility>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/precisions.hpp"
#include "tessera/qr.hpp"

namespace tessera {

template <class T>
QRFactors<T>::QRFactors(const TileMatrix<T>& A, int64_t ib)
    : m_(A.m()), n_(A.n()), nb_(A.nb()), ib_(ib), mt_(A.mt()), nt_(A.nt()) {
    check_arg(ib >= 1, "QRFactors", "ib", ib, "must be >= 1");
    detail::require_runtime("QRFactors");
    if (mt_ == 0 || nt_ == 0) return;
    // Distributed, T(i, j) belongs to the owner of A(i, j): this rank stores its own T tiles only
    // and registers the others without storage.
    size_t local = 0;
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) local += A.is_local(i, j);
    size_t tile = 0, bytes = 0;  // elements of one ib×nb T tile; bytes of this rank's
    if (__builtin_mul_overflow(size_t(ib_), size_t(nb_), &tile) || __builtin_mul_overflow(tile, local, &bytes) ||
        __builtin_mul_overflow(bytes, sizeof(T), &bytes))
        throw Error("tessera::QRFactors: argument 'ib' = " + std::to_string(ib) + " gives T factors too large to address");
    T* next = nullptr;
    if (bytes > 0) {
        detail::require_host_memory("tessera::QRFactors", bytes);
        next = static_cast<T*>(store_.allocate(bytes));
    }
    std::vector<TileHandle>& handles = store_.handles();
    handles.resize(size_t(mt_ * nt_));
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            T* t = A.is_local(i, j) ? std::exchange(next, next + tile) : nullptr;
            handles[size_t(j * mt_ + i)] = tasks::register_tile(t, ib_, A.tile_cols(j), ib_, sizeof(T), A.owner(i, j));
        }
    store_.track();
}

template <class T>
void QRFactors<T>::throw_orphaned() {
    throw Error("tessera::QRFactors: the factors' Runtime has stopped (they must not outlive their Runtime)");
}

template <class T>
QRFactors<T>::~QRFactors() = default;

template <class T>
QRFactors<T>::QRFactors(QRFactors&& o) noexcept
    : m_(std::exchange(o.m_, 0)), n_(std::exchange(o.n_, 0)), nb_(o.nb_), ib_(o.ib_), mt_(std::exchange(o.mt_, 0)),
      nt_(std::exchange(o.nt_, 0)), store_(std::move(o.store_)) {}

template <class T>
QRFactors<T>& QRFactors<T>::operator=(QRFactors&& o) noexcept {
    if (this != &o) {
        store_ = std::move(o.store_);  // releases these factors first
        m_ = std::exchange(o.m_, 0), n_ = std::exchange(o.n_, 0), nb_ = o.nb_, ib_ = o.ib_,
        mt_ = std::exchange(o.mt_, 0), nt_ = std::exchange(o.nt_, 0);
    }
    return *this;
}

#define TESSERA_INSTANTIATE(T) template class QRFactors<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// QRFactors: the T factors of a QR, one ib×nb tile per tile of A (TileTree) or one nb×nb tile per
// tile column (ColumnPanel) (include/tessera/qr.hpp).
#include <utility>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/precisions.hpp"
#include "tessera/qr.hpp"

namespace tessera {

namespace {

/// QRForm::Auto resolved: ColumnPanel with an OpenCL device (distributed, rank 0's devices, so that
/// every rank submits the same graph), else TileTree.
QRForm resolve_form(QRForm form) {
    if (form != QRForm::Auto) return form;
    bool column = detail::opencl_devices() > 0;
    if (detail::distributed()) {
        const bool root = detail::rank() == 0;
        column = detail::sum_over_ranks({root && column ? 1.0 : 0.0})[0] > 0.5;
    }
    return column ? QRForm::ColumnPanel : QRForm::TileTree;
}

}  // namespace

template <class T>
QRFactors<T>::QRFactors(const TileMatrix<T>& A, int64_t ib, QRForm form)
    : m_(A.m()), n_(A.n()), nb_(A.nb()), ib_(ib), mt_(A.mt()), nt_(A.nt()) {
    check_arg(ib >= 1, "QRFactors", "ib", ib, "must be >= 1");
    detail::require_runtime("QRFactors");
    form_ = resolve_form(form);
    build(A, false);
}

template <class T>
QRFactors<T>::QRFactors(const TileMatrix<T>& A, int64_t ib, Transposed)
    : m_(A.n()), n_(A.m()), nb_(A.nb()), ib_(ib), mt_(A.nt()), nt_(A.mt()) {
    check_arg(ib >= 1, "QRFactors", "ib", ib, "must be >= 1");
    detail::require_runtime("QRFactors");
    form_ = QRForm::TileTree;
    build(A, true);
}

template <class T>
void QRFactors<T>::build(const TileMatrix<T>& A, bool transposed) {
    if (mt_ == 0 || nt_ == 0) return;
    const bool column = form_ == QRForm::ColumnPanel;
    // Which tiles exist, and their rows: TileTree every (i, j) with ib rows; ColumnPanel (k, k),
    // square. Distributed, T(i, j) belongs to the owner of A(i, j) (of A(j, i) when transposed):
    // this rank stores its own only and registers the others without storage.
    auto exists = [&](int64_t i, int64_t j) { return !column || i == j; };
    auto cols = [&](int64_t j) { return transposed ? A.tile_rows(j) : A.tile_cols(j); };
    auto rows = [&](int64_t j) { return column ? cols(j) : ib_; };
    auto local = [&](int64_t i, int64_t j) { return transposed ? A.is_local(j, i) : A.is_local(i, j); };
    auto owner = [&](int64_t i, int64_t j) { return transposed ? A.owner(j, i) : A.owner(i, j); };
    size_t elems = 0, bytes = 0;  // this rank's elements; bytes
    bool overflow = false;
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            size_t tile = 0;
            if (!exists(i, j) || !local(i, j)) continue;
            overflow |= __builtin_mul_overflow(size_t(rows(j)), size_t(cols(j)), &tile) ||
                        __builtin_add_overflow(elems, tile, &elems);
        }
    if (overflow || __builtin_mul_overflow(elems, sizeof(T), &bytes))
        throw Error("tessera::QRFactors: argument 'ib' = " + std::to_string(ib_) + " gives T factors too large to address");
    T* next = nullptr;
    if (bytes > 0) {
        detail::require_host_memory("tessera::QRFactors", bytes);
        next = static_cast<T*>(store_.allocate(bytes));
    }
    std::vector<TileHandle>& handles = store_.handles();
    handles.assign(size_t(mt_ * nt_), nullptr);
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            if (!exists(i, j)) continue;
            const int64_t r = rows(j), c = cols(j);
            T* t = local(i, j) ? std::exchange(next, next + r * c) : nullptr;
            handles[size_t(j * mt_ + i)] = tasks::register_tile(t, r, c, r, sizeof(T), owner(i, j));
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
      nt_(std::exchange(o.nt_, 0)), form_(o.form_), store_(std::move(o.store_)) {}

template <class T>
QRFactors<T>& QRFactors<T>::operator=(QRFactors&& o) noexcept {
    if (this != &o) {
        store_ = std::move(o.store_);  // releases these factors first
        m_ = std::exchange(o.m_, 0), n_ = std::exchange(o.n_, 0), nb_ = o.nb_, ib_ = o.ib_,
        mt_ = std::exchange(o.mt_, 0), nt_ = std::exchange(o.nt_, 0), form_ = o.form_;
    }
    return *this;
}

#define TESSERA_INSTANTIATE(T) template class QRFactors<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// The column-panel form of QR (qr_column.hpp): the reflectors of one panel as GEMMs, and geqrf.
#include "algorithms/qr_column.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

template <class T>
ColumnReflectors<T>::ColumnReflectors(const TileMatrix<T>& A, TileHandle t, int64_t k, int64_t r, int prio)
    : A_(A), k_(k), r_(r), t_(t) {
    const int64_t reflectors = std::min(A.m() - r * A.nb(), A.tile_cols(k));
    vkk_ = tasks::temp_tile<T>(A.tile_rows(r), A.tile_cols(k), A.owner(r, k), A.handle(r, k));
    tasks::unit_lower<T>(reflectors, A.handle(r, k), vkk_, prio);
}

template <class T>
ColumnReflectors<T>::~ColumnReflectors() {
    tasks::release_temp_tile(vkk_);
}

template <class T>
TileHandle ColumnReflectors<T>::v(int64_t m) const {
    return m == r_ ? vkk_ : A_.handle(m, k_);
}

template <class T>
void ColumnReflectors<T>::left(Trans trans, TileMatrix<T>& C, int64_t o, int prio, int64_t zero_from) {
    const Trans op = trans == Trans::NoTrans ? Trans::NoTrans : Trans::ConjTrans;
    const int64_t mt = A_.mt(), nonzero = zero_from > r_ ? std::min(zero_from, mt) : mt;
    // W and T·W on the device of C's tile column (o): only V_k and T_k travel to it.
    const TileHandle w = tasks::temp_tile<T>(A_.tile_cols(k_), C.tile_cols(o), C.owner(r_, o), C.handle(r_, o));
    const TileHandle tw = tasks::temp_tile<T>(A_.tile_cols(k_), C.tile_cols(o), C.owner(r_, o), C.handle(r_, o));
    for (int64_t m = r_; m < nonzero; ++m)
        tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(1), v(m), C.handle(m, o), T(m == r_ ? 0 : 1), w, prio);
    tasks::gemm<T>(op, Trans::NoTrans, T(1), t_, w, T(0), tw, prio);
    for (int64_t m = r_; m < mt; ++m)
        tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), v(m), tw, T(1), C.handle(m, o), prio);
    tasks::release_temp_tile(w);
    tasks::release_temp_tile(tw);
}

template <class T>
void ColumnReflectors<T>::right(Trans trans, TileMatrix<T>& C, int64_t o, int prio) {
    const Trans op = trans == Trans::NoTrans ? Trans::NoTrans : Trans::ConjTrans;
    const int64_t mt = A_.mt();
    const TileHandle w = tasks::temp_tile<T>(C.tile_rows(o), A_.tile_cols(k_), C.owner(o, r_), C.handle(o, r_));
    const TileHandle wt = tasks::temp_tile<T>(C.tile_rows(o), A_.tile_cols(k_), C.owner(o, r_), C.handle(o, r_));
    for (int64_t m = r_; m < mt; ++m)
        tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), C.handle(o, m), v(m), T(m == r_ ? 0 : 1), w, prio);
    tasks::gemm<T>(Trans::NoTrans, op, T(1), w, t_, T(0), wt, prio);
    for (int64_t m = r_; m < mt; ++m)
        tasks::gemm<T>(Trans::NoTrans, Trans::ConjTrans, T(-1), wt, v(m), T(1), C.handle(o, m), prio);
    tasks::release_temp_tile(w);
    tasks::release_temp_tile(wt);
}

template <class T>
void geqrf_columns(TileMatrix<T>& A, QRFactors<T>& F) {
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt);
    // Priorities (higher first): panel k, then the update of column k+1 (the next panel), then the
    // rest of step k's trailing update.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - std::min<int64_t>(dist, 2)); };
    for (int64_t k = 0; k < kt; ++k) {
        std::vector<TileHandle> column;
        for (int64_t m = k; m < mt; ++m) column.push_back(A.handle(m, k));
        tasks::geqrf_panel<T>(column, F.handle(k, k), prio(k, 0));
        if (k + 1 == nt) continue;
        ColumnReflectors<T> q(A, F, k, prio(k, 1));
        for (int64_t n = k + 1; n < nt; ++n) q.left(Trans::ConjTrans, A, n, prio(k, n - k));
    }
}

#define TESSERA_INSTANTIATE(T)                  \
    template class ColumnReflectors<T>;         \
    template void geqrf_columns(TileMatrix<T>&, QRFactors<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

// The panels of the reductions to band form (band_panels.hpp): their factorization and their
// application to tiles by GEMMs.
#include "algorithms/band_panels.hpp"

#include <algorithm>

#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_eig.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"
#include "tessera/eig.hpp"

namespace tessera::detail {

void release(BandPanel& p) {
    for (TileHandle h : p.v) tasks::release_temp_tile(h);
    if (p.t) tasks::release_temp_tile(p.t);
    p.v.clear();
    p.t = nullptr;
}

BandPanels::~BandPanels() {
    for (BandPanel& p : panels) release(p);
}

int64_t band_width(int64_t kd, int64_t nb, int64_t n, int64_t widest) {
    if (kd == 0) {
        kd = std::max<int64_t>(1, std::min(nb, widest));
        while (nb % kd != 0) --kd;
    }
    return std::max<int64_t>(1, std::min(kd, n - 1));
}

template <class T>
BandPanel factor_band_panel(TileMatrix<T>& A, int64_t k, int64_t col0, int64_t first_row, int64_t width, int prio) {
    BandPanel p;
    p.width = width;
    p.first_tile = first_row / A.nb();
    std::vector<TileHandle> column;
    for (int64_t m = p.first_tile; m < A.mt(); ++m) {
        column.push_back(A.handle(m, k));
        p.v.push_back(tasks::temp_tile<T>(A.tile_rows(m), width, A.owner(m, k), A.handle(m, k)));
    }
    p.t = tasks::temp_tile<T>(width, width, A.owner(p.first_tile, k), A.handle(p.first_tile, k));
    tasks::band_panel<T>(column, first_row % A.nb(), col0, width, p.v, p.t, prio);
    return p;
}

template <class T>
void apply_left(const BandPanel& p, Trans trans, TileMatrix<T>& C, int64_t o, int64_t kept_cols, int prio) {
    const Trans op = trans == Trans::NoTrans ? Trans::NoTrans : Trans::ConjTrans;
    const int64_t r = p.first_tile, mt = C.mt();
    // W and op(T)·W on the device of C's tile column: only V and T travel to it.
    const TileHandle w = tasks::temp_tile<T>(p.width, C.tile_cols(o), C.owner(r, o), C.handle(r, o));
    const TileHandle tw = tasks::temp_tile<T>(p.width, C.tile_cols(o), C.owner(r, o), C.handle(r, o));
    for (int64_t m = r; m < mt; ++m)
        tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(1), p.v[size_t(m - r)], C.handle(m, o), T(m == r ? 0 : 1), w,
                       prio);
    tasks::gemm<T>(op, Trans::NoTrans, T(1), p.t, w, T(0), tw, prio);
    tasks::zero_region<T>(p.width, kept_cols, tw, prio);
    for (int64_t m = r; m < mt; ++m)
        tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), p.v[size_t(m - r)], tw, T(1), C.handle(m, o), prio);
    tasks::release_temp_tile(w);
    tasks::release_temp_tile(tw);
}

template <class T>
void apply_right(const BandPanel& p, Trans trans, TileMatrix<T>& C, int64_t o, int64_t kept_rows, int prio) {
    const Trans op = trans == Trans::NoTrans ? Trans::NoTrans : Trans::ConjTrans;
    const int64_t r = p.first_tile, nt = C.nt();
    const TileHandle w = tasks::temp_tile<T>(C.tile_rows(o), p.width, C.owner(o, r), C.handle(o, r));
    const TileHandle wt = tasks::temp_tile<T>(C.tile_rows(o), p.width, C.owner(o, r), C.handle(o, r));
    for (int64_t j = r; j < nt; ++j)
        tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), C.handle(o, j), p.v[size_t(j - r)], T(j == r ? 0 : 1), w,
                       prio);
    tasks::zero_region<T>(kept_rows, p.width, w, prio);
    tasks::gemm<T>(Trans::NoTrans, op, T(1), w, p.t, T(0), wt, prio);
    for (int64_t j = r; j < nt; ++j)
        tasks::gemm<T>(Trans::NoTrans, Trans::ConjTrans, T(-1), wt, p.v[size_t(j - r)], T(1), C.handle(o, j), prio);
    tasks::release_temp_tile(w);
    tasks::release_temp_tile(wt);
}

template <class T>
void apply_band_panels(const BandPanels& q, TileMatrix<T>& Z) {
    const int64_t np = int64_t(q.panels.size());
    for (int64_t i = np - 1; i >= 0; --i)
        for (int64_t o = 0; o < Z.nt(); ++o) apply_left<T>(q.panels[size_t(i)], Trans::NoTrans, Z, o, 0, int(np - i));
}

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template BandPanel factor_band_panel<T>(TileMatrix<T>&, int64_t, int64_t, int64_t, int64_t, int);          \
    template void apply_left<T>(const BandPanel&, Trans, TileMatrix<T>&, int64_t, int64_t, int);               \
    template void apply_right<T>(const BandPanel&, Trans, TileMatrix<T>&, int64_t, int64_t, int);              \
    template void apply_band_panels<T>(const BandPanels&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

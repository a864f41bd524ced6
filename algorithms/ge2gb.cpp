// Stage 1 of the two-stage SVD: A = Q1·B·P1ᴴ with B an upper band of bandwidth kd, by alternating
// QR and LQ panels of kd columns (rows) inside the tiles, each applied as tile GEMMs (ge2gb.hpp).
#include "algorithms/ge2gb.hpp"

#include <algorithm>
#include <vector>

#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

namespace {

void keep_or_release(BandPanel&& p, BandPanels* into) {
    if (into) into->panels.push_back(std::move(p));
    else release(p);
}

}  // namespace

template <class T>
void ge2gb(TileMatrix<T>& A, int64_t kd, TileMatrix<T>& P, BandPanels* q1, BandPanels* p1) {
    const int64_t n = A.n(), nb = A.nb(), mt = A.mt(), nt = A.nt();
    const int64_t np = (n + kd - 1) / kd;
    for (int64_t q = 0; q < np; ++q) {
        const int64_t c = q * kd, w = std::min(kd, n - c), k = c / nb, col0 = c % nb;
        // Priorities (higher first): the panels and the tiles the next panel needs, then the rest.
        const int prio = int(3 * (np - q)), next = prio + 2;
        // QR of columns c … c+w−1 from row c down; Q_pᴴ on the columns right of them.
        BandPanel qr = factor_band_panel(A, k, col0, c, w, next + 1);
        const int64_t kept = col0 + w == A.tile_cols(k) ? -1 : col0 + w;  // -1: tile column k is done
        for (int64_t o = kept < 0 ? k + 1 : k; o < nt; ++o)
            apply_left<T>(qr, Trans::ConjTrans, A, o, o == k ? kept : 0, o <= k + 1 ? next : prio);
        keep_or_release(std::move(qr), q1);
        if (c + w >= n) break;
        // LQ of rows c … c+w−1 right of column c+w, through P's tile column k: A(c:, c+w:)·P_p.
        for (int64_t j = (c + w) / nb; j < nt; ++j) tasks::conj_transpose<T>(A.handle(k, j), P.handle(j, k), next);
        BandPanel lq = factor_band_panel(P, k, col0, c + w, w, next + 1);
        for (int64_t o = k; o < mt; ++o) apply_right<T>(lq, Trans::NoTrans, A, o, o == k ? col0 : 0, next);
        keep_or_release(std::move(lq), p1);
    }
}

#define TESSERA_INSTANTIATE(T) \
    template void ge2gb(TileMatrix<T>&, int64_t, TileMatrix<T>&, BandPanels*, BandPanels*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

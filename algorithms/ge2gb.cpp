// Stage 1 of the two-stage SVD: A = Q1·B·P1ᴴ with B an upper band of bandwidth nb, by alternating
// QR panels of tile columns and LQ panels of tile rows, each applied as tile GEMMs (ge2gb.hpp).
#include "algorithms/ge2gb.hpp"

#include <vector>

#include "algorithms/qr_column.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

template <class T>
void ge2gb(TileMatrix<T>& A, QRFactors<T>& FA, TileMatrix<T>& P, QRFactors<T>& FP) {
    const int64_t mt = A.mt(), nt = A.nt();
    for (int64_t k = 0; k < nt; ++k) {
        // Priorities (higher first): the panels and the tiles the next panel needs, then the rest.
        const int prio = int(3 * (nt - k)), next = prio + 2;
        std::vector<TileHandle> column;
        for (int64_t m = k; m < mt; ++m) column.push_back(A.handle(m, k));
        tasks::geqrf_panel<T>(column, FA.handle(k, k), next + 1);
        if (k + 1 == nt) break;
        {
            ColumnReflectors<T> q(A, FA.handle(k, k), k, k, next);
            for (int64_t o = k + 1; o < nt; ++o) q.left(Trans::ConjTrans, A, o, o == k + 1 ? next : prio);
        }
        std::vector<TileHandle> row;
        for (int64_t j = k + 1; j < nt; ++j) {
            tasks::conj_transpose<T>(A.handle(k, j), P.handle(j, k), next);
            row.push_back(P.handle(j, k));
        }
        tasks::geqrf_panel<T>(row, FP.handle(k, k), next + 1);
        tasks::conj_transpose<T>(P.handle(k + 1, k), A.handle(k, k + 1), next);
        ColumnReflectors<T> p(P, FP.handle(k, k), k, k + 1, next);
        for (int64_t o = k + 1; o < mt; ++o) p.right(Trans::NoTrans, A, o, o == k + 1 ? next : prio);
    }
}

template <class T>
void unmqr_ge2gb_left(const TileMatrix<T>& A, const QRFactors<T>& FA, TileMatrix<T>& U) {
    const int64_t nt = A.nt();
    for (int64_t k = nt - 1; k >= 0; --k) {
        ColumnReflectors<T> q(A, FA.handle(k, k), k, k, int(nt - k));
        for (int64_t o = 0; o < U.nt(); ++o) q.left(Trans::NoTrans, U, o, int(nt - k));
    }
}

template <class T>
void unmqr_ge2gb_right(const TileMatrix<T>& P, const QRFactors<T>& FP, TileMatrix<T>& V) {
    const int64_t nt = P.nt();
    for (int64_t k = nt - 2; k >= 0; --k) {
        ColumnReflectors<T> p(P, FP.handle(k, k), k, k + 1, int(nt - k));
        for (int64_t o = 0; o < V.nt(); ++o) p.left(Trans::NoTrans, V, o, int(nt - k));
    }
}

#define TESSERA_INSTANTIATE(T)                                                                       \
    template void ge2gb(TileMatrix<T>&, QRFactors<T>&, TileMatrix<T>&, QRFactors<T>&);               \
    template void unmqr_ge2gb_left(const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&); \
    template void unmqr_ge2gb_right(const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

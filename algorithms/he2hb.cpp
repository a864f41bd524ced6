// Stage 1 of the two-stage Hermitian eigensolver: A = Q1·B·Q1ᴴ with B a band of bandwidth kd, by
// panels of kd columns inside the tile columns and LAPACK xSYTRD_SY2SB's two-sided update as tile
// GEMMs (he2hb.hpp).
#include "algorithms/he2hb.hpp"

#include <algorithm>
#include <vector>

#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

namespace {

// Q_pᴴ·A₂·Q_p on the tiles from tile row r = p.first_tile down; the panel's reflectors start at row
// row0 of tile r (V's rows above it are zero).
template <class T>
void two_sided_update(TileMatrix<T>& A, const BandPanel& p, int64_t row0, int prio) {
    const int64_t nt = A.nt(), r = p.first_tile, width = p.width;
    const Trans C = Trans::ConjTrans, N = Trans::NoTrans;
    auto v = [&](int64_t i) { return p.v[size_t(i - r)]; };
    // W_i = (A₂·V)_i·T, tile row by tile row: A₂(i, j) is A(i, j) on and below the diagonal, A(j, i)ᴴ above.
    std::vector<TileHandle> w(size_t(nt), nullptr);
    for (int64_t i = r; i < nt; ++i) {
        const TileHandle x = tasks::temp_tile<T>(A.tile_rows(i), width, A.owner(i, i), A.handle(i, i));
        for (int64_t j = r; j < nt; ++j) {
            const T beta = j == r ? T(0) : T(1);
            if (j <= i) tasks::gemm<T>(N, N, T(1), A.handle(i, j), v(j), beta, x, prio);
            else tasks::gemm<T>(C, N, T(1), A.handle(j, i), v(j), beta, x, prio);
        }
        w[size_t(i)] = tasks::temp_tile<T>(A.tile_rows(i), width, A.owner(i, i), A.handle(i, i));
        tasks::gemm<T>(N, N, T(1), x, p.t, T(0), w[size_t(i)], prio);
        tasks::release_temp_tile(x);
    }
    // Tile r's rows above row0 lie outside the trailing matrix: W's are set to zero, so that the
    // rank-2k update leaves those rows and columns as they are.
    tasks::zero_region<T>(row0, width, w[size_t(r)], prio);
    // M = −½·Tᴴ·(Vᴴ·W), then Y_i = W_i + V_i·M in place of W_i.
    const TileHandle pw = tasks::temp_tile<T>(width, width, A.owner(r, r), A.handle(r, r));
    for (int64_t i = r; i < nt; ++i) tasks::gemm<T>(C, N, T(1), v(i), w[size_t(i)], T(i == r ? 0 : 1), pw, prio);
    const TileHandle m = tasks::temp_tile<T>(width, width, A.owner(r, r), A.handle(r, r));
    tasks::gemm<T>(C, N, T(-0.5), p.t, pw, T(0), m, prio);
    tasks::release_temp_tile(pw);
    for (int64_t i = r; i < nt; ++i) tasks::gemm<T>(N, N, T(1), v(i), m, T(1), w[size_t(i)], prio);
    tasks::release_temp_tile(m);
    // A₂ −= Y·Vᴴ + V·Yᴴ on the lower tiles; the next panel's tile column (j = r) first.
    for (int64_t j = r; j < nt; ++j)
        for (int64_t i = j; i < nt; ++i) {
            const int pr = j == r ? prio + 1 : prio;
            tasks::gemm<T>(N, C, T(-1), w[size_t(i)], v(j), T(1), A.handle(i, j), pr);
            tasks::gemm<T>(N, C, T(-1), v(i), w[size_t(j)], T(1), A.handle(i, j), pr);
        }
    for (int64_t i = r; i < nt; ++i) tasks::release_temp_tile(w[size_t(i)]);
}

}  // namespace

template <class T>
void he2hb(TileMatrix<T>& A, int64_t kd, BandPanels* q1) {
    const int64_t n = A.n(), nb = A.nb();
    // Panel q: columns c = q·kd … c+kd−1 (inside one tile column: kd divides nb), while rows remain below.
    const int64_t np = n > 0 ? (n - 1) / kd : 0;
    for (int64_t q = 0; q < np; ++q) {
        const int64_t c = q * kd, first_row = c + kd;  // the reflectors' first row
        const int prio = int(2 * (np - q));
        BandPanel p = factor_band_panel(A, c / nb, c % nb, first_row, kd, prio + 2);
        two_sided_update<T>(A, p, first_row % nb, prio);
        if (q1) q1->panels.push_back(std::move(p));
        else release(p);
    }
}

#define TESSERA_INSTANTIATE(T) template void he2hb(TileMatrix<T>&, int64_t, BandPanels*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

// The panels of the two-stage reductions to band form (he2hb, ge2gb): blocks of kd columns inside
// the tiles, each factored by tasks::band_panel into Q_p = I − V_p·T_p·V_pᴴ with V_p as zero-padded
// tiles, so that Q_p multiplies whole tiles by GEMMs. Internal header of he2hb.cpp, ge2gb.cpp and
// the solvers that apply their Q.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// One panel, Q_p = I − V_p·T_p·V_pᴴ: V_p's tiles for tile rows first_tile … mt−1 (each of its tile's
/// rows × width, zero above the panel's first reflector row), T_p (width²). Empty once given back.
struct BandPanel {
    int64_t width = 0, first_tile = 0;
    std::vector<TileHandle> v;
    TileHandle t = nullptr;
};

/// Give a panel's tiles back (release_temp_tile: once the tasks submitted on them have run).
void release(BandPanel& p);

/// Q = Q_0·Q_1·…·Q_{P−1}, the panels given back on destruction.
class BandPanels {
public:
    BandPanels() = default;
    ~BandPanels();
    BandPanels(const BandPanels&) = delete;
    BandPanels& operator=(const BandPanels&) = delete;
    std::vector<BandPanel> panels;
};

/// The band's width heevd and the SVDs use for tiles of nb and order n: kd when given (not 0; the
/// callers check that it divides nb), else the largest divisor of nb not above `widest` (kHeevdBand or
/// kHeevdBandValues, tessera/eig.hpp); then at most n − 1 and at least 1. The panels must all be as
/// wide, so that each panel's R lies in the next panel's diagonal block.
int64_t band_width(int64_t kd, int64_t nb, int64_t n, int64_t widest);

/// Submit the QR of the `width` columns col0 … of A's tile column k from global row first_row down
/// (tasks::band_panel: R and the vectors in place) and return its panel.
template <class T>
BandPanel factor_band_panel(TileMatrix<T>& A, int64_t k, int64_t col0, int64_t first_row, int64_t width, int prio);

/// C(r:, o) = op(Q_p)·C(r:, o) on tile column o of C (tiled like the panel's rows, r = first_tile),
/// leaving the first `kept_cols` columns of the tile column as they are: W = V_pᴴ·C, W = op(T_p)·W
/// (its first kept_cols columns set to zero), C −= V_p·W (xLARFB's products).
template <class T>
void apply_left(const BandPanel& p, Trans trans, TileMatrix<T>& C, int64_t o, int64_t kept_cols, int prio);

/// C(o, r:) = C(o, r:)·op(Q_p) on tile row o of C (its columns tiled like the panel's rows), leaving
/// the first `kept_rows` rows of the tile row as they are: W = C·V_p (its first kept_rows rows set
/// to zero), W = W·op(T_p), C −= W·V_pᴴ.
template <class T>
void apply_right(const BandPanel& p, Trans trans, TileMatrix<T>& C, int64_t o, int64_t kept_rows, int prio);

/// Submit Z = Q·Z for the panels' Q and Z tiled like their rows, last panel first.
template <class T>
void apply_band_panels(const BandPanels& q, TileMatrix<T>& Z);

}  // namespace tessera::detail

// Stage 1 of the two-stage Hermitian eigensolver (tessera/eig.hpp): the reduction of a Hermitian
// matrix to band form, A = Q1·B·Q1ᴴ, and the application of Q1. Internal header of heevd.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// One panel of he2hb, Q_p = I − V_p·T_p·V_pᴴ: V_p's tiles for tile rows first_tile … nt−1 (each of
/// its tile's rows × width, zero above the panel's first reflector row), T_p (width²).
struct BandPanel {
    int64_t width = 0, first_tile = 0;
    std::vector<TileHandle> v;
    TileHandle t = nullptr;
};

/// Q1 = Q_0·Q_1·…·Q_{P−1} of he2hb, as temporary tiles given back (release_temp_tile) on destruction.
class BandPanels {
public:
    BandPanels() = default;
    ~BandPanels();
    BandPanels(const BandPanels&) = delete;
    BandPanels& operator=(const BandPanels&) = delete;
    std::vector<BandPanel> panels;
};

/// Submit the reduction of the Hermitian n×n A (tiles of nb, mt = nt) to the Hermitian band B of
/// bandwidth kd, a divisor of nb (LAPACK xSYTRD_SY2SB / xHETRD_HE2HB's algorithm, Haidar, Ltaief and
/// Dongarra, SC11). A's lower triangle must be complete and its diagonal tiles full (both triangles,
/// Hermitian); the upper tiles (i < j) are not read. The panels are blocks of kd columns inside the
/// tile columns (all as wide, so that each panel's R lies in the next one's diagonal block; the
/// last tile's last block, which ends at row n, needs none): panel p, columns c … c+kd−1, is the QR
/// of its rows c+kd … n−1 (tasks::band_panel: R and the vectors in place, V_p as zero-padded
/// tiles, T_p); then, with V = V_p and A₂ the tiles from V's first tile row down (the upper tiles
/// read as conjugate transposes of the lower ones),
///   X = A₂·V, W = X·T_p (W's rows above the panel's reflectors set to zero), M = −½·T_pᴴ·(Vᴴ·W),
///   Y = W + V·M, A₂ −= Y·Vᴴ + V·Yᴴ,
/// which is Q_pᴴ·A₂·Q_p on the trailing matrix (rows and columns c+kd …) and leaves the rest of those
/// tiles unchanged, on the lower tiles and the whole diagonal tiles (so they stay full). Tile GEMMs
/// of nb × nb × kd only, on CPU workers and OpenCL devices: 4n³/3 flops. Afterwards B is A's lower
/// band of width kd (below it lie the Householder vectors). q1, when not null, receives the panels'
/// V and T (Q1); else they are given back once their update has run.
template <class T>
void he2hb(TileMatrix<T>& A, int64_t kd, BandPanels* q1);

/// Submit Z = Q1·Z for he2hb's Q1 and the n × Z.n() matrix Z tiled like A's rows, last panel first
/// (xLARFB's GEMMs, tile column by tile column).
template <class T>
void unmqr_he2hb(const BandPanels& q1, TileMatrix<T>& Z);

}  // namespace tessera::detail

// Stage 1 of the two-stage SVD (tessera/svd.hpp): the reduction of a general matrix to upper band
// form, A = Q1·B·P1ᴴ (Q1 and P1 applied by apply_band_panels). Internal header of gesvd.cpp.
#pragma once

#include <cstdint>

#include "algorithms/band_panels.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// Submit the reduction of the m×n A (m ≥ n, tiles of nb) to the n×n upper band B of bandwidth kd, a
/// divisor of nb (PLASMA's zgebrd_ge2gb, Haidar, Ltaief, Luszczek and Dongarra, IPDPS 2012; LAPACK
/// xGEBRD's order of QR and LQ steps), by panels of kd columns (the last one narrower when kd does
/// not divide n). For panel p, columns c … c+w−1 inside tile column k: the QR of its rows c … m−1
/// (factor_band_panel: R and the vectors in place, Q_p's V as zero-padded tiles) and Q_pᴴ on the
/// columns right of it (apply_left, the tile column's first columns kept); then, while columns
/// remain right of c+w, the LQ of rows c … c+w−1 right of c+w: P's tile column k receives A's tile
/// row k conjugate-transposed tile by tile (P is scratch, n×n with tiles of nb), its columns of the
/// panel are factored from row c+w down (P_p), and A(c:, c+w:)·P_p by apply_right from row c on, which
/// also turns the panel's own rows into [L, 0] (L lower triangular: the band's entries; the entries
/// beyond the band are left at rounding level, as xGEBRD's reflectors are, and never read). Tile
/// GEMMs (xLARFB's products) on CPU workers and OpenCL devices, about 4mn² − 4n³/3 flops. Afterwards B
/// is A's upper band of width kd. q1 and p1, when not null, receive the panels of Q1 = Q_0·Q_1·… and
/// P1 = P_0·P_1·…; else they are given back once applied.
template <class T>
void ge2gb(TileMatrix<T>& A, int64_t kd, TileMatrix<T>& P, BandPanels* q1, BandPanels* p1);

}  // namespace tessera::detail

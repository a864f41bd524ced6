// Stage 1 of the two-stage Hermitian eigensolver (tessera/eig.hpp): the reduction of a Hermitian
// matrix to band form, A = Q1·B·Q1ᴴ (Q1 applied by apply_band_panels). Internal header of heevd.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/band_panels.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

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

}  // namespace tessera::detail

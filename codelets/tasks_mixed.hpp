// Typed task insertion for the mixed-precision solvers (algorithms/mixed.cpp): precision
// conversions of tiles (CPU and OpenCL).
#pragma once

#include "kernels/cpu/lag2.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// B = alpha·A rounded to the low precision (T = double: float; std::complex<double>:
/// std::complex<float>) on the tile or its uplo trapezoid (R A, W B; LAPACK xLAG2S / xLAT2S /
/// xLAG2C / xLAT2C; alpha a power of 2, 1 for LAPACK's conversion). The kernel writes 1 into *info
/// when an entry of alpha·A overflows the low precision, else 0; with info null it tests nothing (on
/// a device: no flag to clear and read back; the CPU kernel still stops at the first overflow).
template <class T>
void lag2_down(Uplo uplo, TileHandle A, TileHandle B, int* info, double alpha = 1, int prio = 0);
/// B = A (accumulate false) or B += A, A a tile of the low precision of T, B of T (R A, RW B;
/// LAPACK xLAG2D / xLAG2Z, then the refinement's xAXPY; CPU only).
template <class T>
void lag2_up(bool accumulate, TileHandle A, TileHandle B, int prio = 0);

}  // namespace tessera::tasks

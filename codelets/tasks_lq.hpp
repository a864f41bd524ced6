// Typed task insertion for the tile LQ (gelqt, tplqt, gemlqt, tpmlqt; Chameleon's LQ tile kernels).
// Each LQ kernel is the QR kernel of tasks_qr.hpp on conjugate-transposed operands
// (codelets/lq_kernels.cpp): the tile layout is the conjugate transpose of the tile QR of Aᴴ, and the
// T factors (ib × reflectors, LAPACK's compact-WY layout) are those of that QR. op(Q) below is of the
// LQ's Q (= Q̃ᴴ, Q̃ the QR's). Tile sizes come from the handles. Each function submits one StarPU task.
#pragma once

#include <cstdint>

#include "codelets/tasks.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// LQ of tile A (m×n): L on and below the diagonal, the conjugated reflectors right of it, T (ib × m
/// tile) the block factors of the min(m, n) reflectors (RW A, W T; CPU).
template <class T>
void gelqt(int64_t ib, TileHandle A, TileHandle Tf, int prio = 0);
/// C = op(Q)·C (Left) or C·op(Q) (Right) with gelqt's Q: V is the factored tile (k = min(rows, cols)
/// reflectors, only its strictly upper part read), C has V's column count as rows (Left) or columns
/// (Right) (R V, R T, RW C; CPU and OpenCL).
template <class T>
void gemlqt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle C, int prio = 0);
/// LQ of [L B], L the lower triangle of A's leading m×m block, B m×n (m = rows of B): L updated, B
/// overwritten by the reflectors, T (ib×m) written (RW A, RW B, W T; CPU; PLASMA's tslqt).
template <class T>
void tplqt(int64_t ib, TileHandle A, TileHandle B, TileHandle Tf, int prio = 0);
/// Apply tplqt's Q with V (k×n, k = rows of V): Left: [A1; A2] = op(Q)·[A1; A2] on A1's leading k
/// rows, A2 with n rows; Right: [A1 A2] = [A1 A2]·op(Q) on A1's leading k columns, A2 with n columns
/// (R V, R T, RW A1, RW A2; CPU and OpenCL; PLASMA's tsmlq).
template <class T>
void tpmlqt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle A1, TileHandle A2,
            int prio = 0);

}  // namespace tessera::tasks

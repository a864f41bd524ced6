// The symmetric tridiagonal eigenproblem by divide and conquer with the merges as tasks (heevd's
// eigenvectors where a GPU runs). Internal header.
#pragma once

#include <cstdint>

namespace tessera::detail {

/// LAPACK's smallest subproblem (xSTEDC's SMLSIZ from ILAENV): the leaf size under which every merge
/// of tridiag_dc is a task, as the tests' OpenCL mode runs it.
inline constexpr int64_t kTridiagDcSmallLeaf = 25;
/// tridiag_dc's leaf size on a GPU: leaves of at most 512 rows on the CPU workers (xSTEDC each, about
/// 8 ms on one core), every merge above them a task (bench/gpu_notes.md, "The divide and conquer's
/// merges on the device").
inline constexpr int64_t kTridiagDcGpuLeaf = 512;

/// The eigenvalues and eigenvectors of the n×n real symmetric tridiagonal T with diagonal d[0..n) and
/// off-diagonal e[0..n−1), as LAPACK's xSTEDC with COMPZ = 'I' (Cuppen's divide and conquer, Gu and
/// Eisenstat's merges; xLAED0's tree): T scaled to max norm 1; cut in halves, ⌊s/2⌋ then ⌈s/2⌉ rows,
/// until every piece has at most max(leaf, 2) rows, each cut tearing off a rank-one term; the pieces
/// solved by xSTEDC as CPU tasks (tasks::run_host_tasks); then, level by level, each pair merged:
/// xLAED2's deflation on the host, then xLAED3's roots and products as one tasks::secular_merge
/// (on a GPU: the roots by bisection, the products there), the level's merges concurrent; finally
/// the eigenvalues sorted ascending with their vectors and scaled back.
/// On return d holds the eigenvalues ascending, z (n×n, leading dimension ldz ≥ max(1, n), column-
/// major, host) the orthonormal eigenvectors, e is destroyed. Returns 0, or > 0 as xSTEDC's info
/// when a piece's xSTEDC or a merge's xLAED4 failed ((first + 1)·(n + 1) + last + 1 of the rows
/// concerned, 0-based). R: float or double. Needs a running Runtime; the calling thread waits.
/// Throws Error when a task fails.
template <class R>
int64_t tridiag_dc(int64_t n, R* d, R* e, R* z, int64_t ldz, int64_t leaf);

}  // namespace tessera::detail

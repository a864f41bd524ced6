// Solves with a Cholesky factor by the inverses of its diagonal tiles: the mixed solvers' repeated
// solves with one low-precision factor on OpenCL devices. Internal header.
//
// A device trsm of a diagonal tile re-inverts its small diagonal blocks on every call and is a
// chain of short launches: 1.05 ms per 4096 tile with one right-hand side, 48 of them in one
// dsposv at n = 32768 (H200, bench/gpu_factorizations.sh case posv_mixed+tf32:d:32768:4096, profile).
// Here each diagonal tile is inverted once (with its factor, potrf_inverse, on OpenCL devices; by
// trtri otherwise), and every solve is products only: the off-diagonal
// updates as in potrs, each diagonal step a GEMM by the inverse into a second matrix Y (forward
// into Y, backward back into B), so that no GEMM reads the tile it writes; with one OpenCL device
// a block row's products are one task (block_row). Backward stable in the
// sense of block methods with explicit diagonal inverses (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., §13.2): the error grows with
// the diagonal tiles' condition numbers, which the refinement around it tolerates.
// Not for LU: dsgesv with solves by the inverses of L's and U's diagonal tiles took one more
// refinement step and as long (H200, n = 32768, nb 4096: 1.165-1.198 s against 1.174-1.182 s;
// bench/gpu_notes.md).
#pragma once

#include <optional>
#include <vector>

#include "tessera/tile_matrix.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {

/// potrf_async (tessera/cholesky.hpp) that, with inverses not null, also hands over the inverse of
/// every diagonal tile: made with the factor (potrf_inverse) with OpenCL devices, else by trtri
/// tasks; the caller releases them (tasks::release_temp_tile). cholesky.cpp.
template <class T>
void potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq, std::vector<TileHandle>* inverses);

/// One Cholesky factorization of A (n×n, nb) and any number of solves A·X = B with it.
template <class T>
class DiagonalInverseSolves {
public:
    DiagonalInverseSolves() = default;
    ~DiagonalInverseSolves();  ///< releases the inverses (after their tasks)
    DiagonalInverseSolves(const DiagonalInverseSolves&) = delete;
    DiagonalInverseSolves& operator=(const DiagonalInverseSolves&) = delete;

    /// Submit, in seq, A = L·Lᴴ (Lower) or Uᴴ·U (Upper) by potrf_async, keeping the inverses of
    /// its diagonal tiles. seq.wait() returns potrf's info.
    void potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq);
    /// B = A⁻¹·B (n × nrhs, A's nb), in seq, with the factors of the call above (same A).
    void solve_async(const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq);
    /// Whether a factorization was submitted.
    bool factored() const { return !inverse_.empty(); }

private:
    /// out = op(W)·(acc − Σ_j op(F_j)·X_j), acc left holding the bracket: one block row of a solve.
    /// With one OpenCL device one task (tasks::solve_row: the tasks of a solve with one right-hand
    /// side are short, and each cost the device ~30 µs of idle between them); with several, one
    /// gemm task per tile, each where its tile of A lives (runtime/device_map.hpp) rather than a
    /// block row of A gathered on one device.
    static void block_row(Trans op, TileHandle W, const std::vector<TileHandle>& F, const std::vector<TileHandle>& X,
                          TileHandle acc, TileHandle out, int prio);

    Uplo uplo_ = Uplo::Lower;
    std::vector<TileHandle> inverse_;  ///< inverse_[k] = A(k, k)⁻¹, a temporary tile
    std::optional<TileMatrix<T>> y_;   ///< the forward solution, B's shape (no host storage)
};

}  // namespace tessera::detail

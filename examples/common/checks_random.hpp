// Randomized residuals (Freivalds' test) of gemm, potrf, getrf and geqrf on TileMatrix tiles: the
// scaled residuals of docs/architecture.md#numerical-checks applied to k = 4 random vectors X (n×4,
// entries in [0.5, 1.5), the same X for every check) instead of formed in full: O(n²) flops and no
// LAPACK-layout copy, for the large problems of the GPU benchmark.
//
// ‖(F − G)·X‖∞ / ‖X‖∞ ≤ ‖F − G‖∞, so each residual is at most the full residual in the ∞-norm and
// passes under the same threshold (kThreshold, checks.hpp); an error in the factors larger than
// rounding shows with probability 1 over X. ‖·‖ below is the ∞-norm (largest row sum), which for
// the symmetric A of potrf equals the 1-norm.
//
// Shape: prepare before the operation, residual after. The constructor reads the input (its tiles
// after acquire_host(), which waits for the tasks on it and brings every tile to host memory) and
// keeps only O(n) vectors and norms: A·X and ‖A‖. residual() reads the result the same way and
// returns the scaled residual. Tile (i, j) is read through tile_data(i, j) (column-major, leading
// dimension tile_ld(i)) by CBLAS calls on the caller's thread; products with triangular factors
// treat off-diagonal tiles by gemm and diagonal tiles through a copy with the other triangle zeroed
// (unit diagonal for getrf's L). Neither waits inside a tessera::CallerBlasThreads scope on tasks
// that still run: acquire_host() the matrix (or wait) before opening one around the check.
// Throws tessera::Error for inconsistent shapes.
//
// Distributed (docs/distributed.md): the constructors and residual() are collective, called on
// every rank in the same order. Each rank multiplies and sums only the tiles it owns (acquire_host()
// brings those to its host memory); the n×4 partial products and the row or column sums of the
// norms are summed over the ranks (MPI_Allreduce through detail::sum_over_ranks, 32·n bytes per
// product in double, 64·n in complex), so no rank gathers a matrix, and residual() returns rank 0's
// value on every rank: the ranks agree on pass or fail.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"
#include "tessera/types.hpp"

namespace tessera::check {

/// What the square checks keep of A before the operation overwrites it: the random vectors X
/// (n×4), A·X and ‖A‖∞. Throws tessera::Error (naming `func`) unless A is square.
template <class T>
struct SquareReference {
    SquareReference(const char* func, const TileMatrix<T>& A);
    int64_t n;
    std::vector<T> x, ax;
    double norm_a;
};

/// potrf of the symmetric positive definite n×n A (both triangles set, as generate_random_spd
/// fills it): ‖A·X − L·(Lᵀ·X)‖ / (n · ‖A‖ · ‖X‖ · eps), Uᵀ·(U·X) for uplo Upper. F holds the
/// factor in its uplo triangle as xPOTRF leaves it (the other triangle is not read).
template <class T>
class PotrfCheckRandom {
public:
    PotrfCheckRandom(Uplo uplo, const TileMatrix<T>& A);
    double residual(const TileMatrix<T>& F) const;

private:
    Uplo uplo_;
    SquareReference<T> ref_;
};

/// getrf of the square n×n A: ‖P·A·X − L·(U·X)‖ / (n · ‖A‖ · ‖X‖ · eps). F holds L (unit lower,
/// strictly below the diagonal) and U (upper, on and above) as xGETRF leaves them; ipiv holds the n
/// 1-based row interchanges applied in order (LAPACK's convention, as getrf returns them), or is
/// empty for a factorization without pivoting (P = I).
template <class T>
class GetrfCheckRandom {
public:
    explicit GetrfCheckRandom(const TileMatrix<T>& A);
    double residual(const TileMatrix<T>& F, const std::vector<int64_t>& ipiv) const;

private:
    SquareReference<T> ref_;
};

/// geqrf of the m×n A, m ≥ n: ‖Aᵀ·(A·X) − Rᵀ·(R·X)‖ / (m · max(‖A‖₁, ‖A‖∞)² · ‖X‖ · eps), R the
/// upper triangle of F's leading n×n block (AᵀA = RᵀR when A = Q·R with Q orthonormal; the
/// Householder vectors below R are not read). max(‖A‖₁, ‖A‖∞)² bounds ‖Aᵀ‖∞·‖A‖∞.
template <class T>
class GeqrfCheckRandom {
public:
    explicit GeqrfCheckRandom(const TileMatrix<T>& A);
    double residual(const TileMatrix<T>& F) const;

private:
    int64_t m_, n_;
    std::vector<T> x_, atax_;  // n×4
    double norm_a_;
};

/// gemm C = α·op(A)·op(B) + β·C0, C and C0 m×n, op(A) m×k, op(B) k×n:
/// ‖C·X − α·op(A)·(op(B)·X) − β·C0·X‖ / ((|α|·‖op(A)‖·‖op(B)‖ + |β|·‖C0‖) · k · ‖X‖ · eps).
/// The constructor forms the reference α·op(A)·(op(B)·X) + β·C0·X and the norms at once, so A, B and
/// C0 are read only there: C0 may be the matrix the gemm then overwrites.
template <class T>
class GemmCheckRandom {
public:
    GemmCheckRandom(Trans ta, Trans tb, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                    const TileMatrix<T>& C0);
    double residual(const TileMatrix<T>& C) const;

private:
    int64_t m_, n_;
    std::vector<T> x_, ref_;  // n×4, m×4
    double scale_;           // (|α|·‖op(A)‖·‖op(B)‖ + |β|·‖C0‖) · max(k, 1)
};

}  // namespace tessera::check

// Symmetric and Hermitian eigenvalue problems: heevd / syevd (LAPACK xHEEVD, xSYEVD), the two-stage
// way (Haidar, Ltaief and Dongarra, "Parallel reduction to condensed forms for symmetric eigenvalue
// problems using aggregated fine-grained and memory-aware kernels", SC11; PLASMA's and Chameleon's
// zheevd, MAGMA's dsyevdx_2stage):
//   1. A = Q1·B·Q1ᴴ, B Hermitian band of bandwidth kd (a divisor of the tile size nb): a task graph
//      over the tiles (algorithms/he2hb.hpp). Each panel is the QR of kd columns of a tile column
//      below the band (tasks::band_panel), and the trailing matrix gets the two-sided update of LAPACK's
//      xSYTRD_SY2SB: W = A·V·T, Y = W − ½·V·(Tᴴ·Vᴴ·W), A −= Y·Vᴴ + V·Yᴴ, as tile GEMMs on CPU
//      workers and OpenCL devices (4n³/3 flops).
//   2. B = Q2·Tr·Q2ᴴ, Tr real symmetric tridiagonal: the bulge chasing of LAPACK's xSYTRD_SB2ST /
//      xHETRD_HB2ST kernels, with the sweeps pipelined by LAPACK's OpenMP dependencies: on an OpenCL
//      GPU in one task (kernels/opencl/band_chase.cl, the sweeps on its compute units), else LAPACK's
//      own kernels on a host copy of the band as CPU tasks; every reflector is kept when vectors are
//      wanted (kernels/cpu/band_tridiag.hpp).
//   3. Tr = Z·Λ·Zᵀ: values only, a task that runs LAPACK's xSTERF on a CPU worker or bisection on
//      Sturm counts on an OpenCL device (xSTEBZ's method, one work-item per eigenvalue); with
//      vectors, divide and conquer (Cuppen; Gu and Eisenstat): where the chase ran on a device,
//      xLAED0's tree with its leaves (xSTEDC) on CPU workers and each merge a task, xLAED2's deflation
//      on the host and the secular equation's roots (bisection), the repaired vectors and xLAED3's
//      products on the device (algorithms/tridiag_dc.hpp); else LAPACK's xSTEDC on the host.
//   4. With vectors, A's eigenvectors Q1·Q2·Z: Q2 (the reflectors of consecutive sweeps grouped
//      into block reflectors: xLARFT's T, GEMMs) on the OpenCL GPU in one task on a dense Z where the
//      chase ran there (the T factors formed there too), else by CPU tasks, one per tile column; then Q1 as tile GEMMs (xLARFB's
//      products) on any worker.
// As in LAPACK's xHEEVD, A is scaled into [RMIN, RMAX] when its largest entry lies outside
// (RMIN = sqrt(safe minimum / eps), RMAX = 1 / RMIN), and the eigenvalues are scaled back.
//
// One process only (the band and the tridiagonal stages run on the host): on a distributed Runtime
// the calls throw Error. Invalid arguments throw Error naming the argument before anything is
// submitted; a task failing on its worker throws TaskError (see Sequence in tile_matrix.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// Eigenvalues, and with jobz = Vec eigenvectors, of the Hermitian (complex T) or symmetric (real T)
/// n×n A given by its uplo triangle (Lower or Upper; the other triangle is not read), tiles of nb.
/// kd: the width of the band stage 1 reduces A to, a divisor of nb (0: the largest divisor of nb not
/// above kHeevdBandValues for values only, kHeevdBand with vectors, below).
/// w is resized to n and holds the eigenvalues in ascending order (T's real type).
/// jobz = Vec: A is overwritten by the orthonormal eigenvectors, column j for w[j] (as LAPACK);
/// jobz = NoVec: A is left unchanged (LAPACK allows destroying its uplo triangle).
/// Returns info: 0, or i > 0 when xSTERF / xSTEDC failed to converge (LAPACK's meaning: i
/// off-diagonal elements of an intermediate tridiagonal did not converge (NoVec), or the eigenvalue
/// i/(n+1) through mod(i, n+1) could not be computed (Vec)); w is then not meaningful.
/// Throws Error if A is not square, uplo is General, jobz is not NoVec or Vec, kd is negative or does
/// not divide nb, A holds a NaN or an infinity in its uplo triangle (its largest entry is checked
/// first, LAPACK's xLANHE 'M'), or the Runtime is distributed; TaskError if a task fails.
/// Memory: with vectors a second n×n tile matrix (the working copy reduced to the band), Q1's
/// reflectors (about n²/2 scalars, in temporary tiles wherever StarPU places them), and the n×n real
/// tridiagonal eigenvectors and Q2's reflectors (about n² scalars each) on the host; values only, the
/// working copy.
template <class T>
int64_t heevd(Job jobz, Uplo uplo, TileMatrix<T>& A, std::vector<real_t<T>>& w, int64_t kd = 0);

/// heevd for real T (LAPACK xSYEVD's name): the same function.
template <class T>
int64_t syevd(Job jobz, Uplo uplo, TileMatrix<T>& A, std::vector<T>& w, int64_t kd = 0) {
    static_assert(!is_complex_v<T>, "syevd is for real matrices; use heevd");
    return heevd(jobz, uplo, A, w, kd);
}

/// The widest band heevd's stage 1 reduces to by default: the largest divisor of nb not above it (and
/// below n), panels of that many columns inside the tiles of nb. The band-to-tridiagonal stage costs
/// O(n²·kd) on the CPU workers (at n = 4096 on this project's 2-core CI machine, with the band as wide
/// as the tile, the whole values-only solve took 4.5, 5.0 and 3.5 s with 64, 96 and 128, and 4 to 5
/// times longer at 480), while stage 1's GEMMs (nb × nb × kd) want large tiles.
inline constexpr int64_t kHeevdBand = 128;
/// The same for heevd's values only, where no Q2 is applied: a narrower band halves the bulge
/// chasing's work for a slower stage 1 (bench/gpu_notes.md, "The band narrower than the tile": H200,
/// n = 16384, values only 8.40–8.47 s with 64 against 10.39–10.42 with 128; this project's 2-core CI
/// machine, n = 4096, tiles of 384: 2.09–2.17 s against 2.30–2.31).
inline constexpr int64_t kHeevdBandValues = 64;
/// The tile size the lapack:: forms and tessera-tester give heevd and syevd of order n in T's
/// precision when none is given: the tuned geqrf tile size (tuned_tile). Needs a running Runtime.
template <class T>
int64_t heevd_nb(int64_t n);

namespace lapack {
/// LAPACK-layout forms with LAPACK's arguments (its WORK, IWORK and their sizes are allocated
/// inside): a is n×n column-major, lda ≥ max(1, n), w has n entries; jobz 'N' or 'V', uplo 'L' or 'U'
/// (either case). On return a holds the eigenvectors when jobz = 'V' and is unchanged when jobz = 'N'.
/// Tiles of opts.nb (0: heevd_nb(n)), heevd's default band. Return info as
/// heevd. Invalid arguments throw Error naming the argument ('jobz', 'uplo', 'n', 'lda', 'nb'); the
/// rest as heevd. syevd: float and double; heevd: all four precisions.
template <class T>
int64_t syevd(char jobz, char uplo, int64_t n, T* a, int64_t lda, T* w, const Options& opts = {});
template <class T>
int64_t heevd(char jobz, char uplo, int64_t n, T* a, int64_t lda, real_t<T>* w, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera

// Helpers shared by the tile algorithms. Internal header.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"
#include "tessera/tile_matrix.hpp"
#include "tessera/tuning.hpp"

// Every `_async` entry point (and any other function that submits tasks itself) starts with
// `detail::SubmitScope scope(seq);`: the tasks it submits then belong to `seq`, which learns of
// their failures and waits for exactly them (runtime/sequence_internal.hpp explains why a scope).

namespace tessera {

/// Check that the dimension `name` of a LAPACK-layout entry point is ≥ 0.
inline void check_dim(const char* func, const char* name, int64_t value) { check_arg(value >= 0, func, name, value, "must be >= 0"); }

/// Check m, n, k ≥ 0 for a LAPACK-layout entry point.
inline void check_dims(const char* func, int64_t m, int64_t n, int64_t k) {
    check_arg(m >= 0, func, "m", m, "must be >= 0");
    check_arg(n >= 0, func, "n", n, "must be >= 0");
    check_arg(k >= 0, func, "k", k, "must be >= 0");
}

/// Check `trans` against the ops LAPACK accepts for T: where an operation is defined with a
/// conjugate transpose (xHERK, xUNMQR, xGELS: `conjugate` true) complex T takes 'N' or 'C' only;
/// where with a plain transpose (complex xSYRK) 'N' or 'T' only; real T takes all three ('C' = 'T').
template <class T>
void check_trans(const char* func, Trans trans, bool conjugate) {
    if constexpr (is_complex_v<T>) {
        const Trans refused = conjugate ? Trans::Trans : Trans::ConjTrans;
        if (trans == refused)
            throw Error(std::string("tessera::") + func + ": argument 'trans' = '" + char(trans) + "' must be " +
                        (conjugate ? "NoTrans or ConjTrans" : "NoTrans or Trans") + " for complex matrices");
    }
}

namespace detail {

/// Distributed: drop the copies of A's tiles that other ranks received (StarPU-MPI's cache), once
/// the tasks submitted on them have run, as Chameleon flushes a descriptor after an algorithm.
/// Collective; nothing in one process.
template <class T>
void flush_received(const TileMatrix<T>& A) {
    if (!distributed()) return;
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) mpi_flush(A.handle(i, j));
}

/// opts with nb resolved: its own when given (> 0), else the tuned tile size (tuned_tile) of the
/// routine family `family` ("potrf", "getrf", "geqrf" or "gemm") in T's precision for a problem of
/// order `order` (its largest dimension: with OpenCL GPUs the tile grows with it). ib is left for
/// resolve_ib, where a tile algorithm uses it. Throws Error naming `func` when no Runtime is running
/// (every tessera::lapack:: entry point starts here), for nb < 0 or ib < 0.
template <class T>
Options with_tuned_nb(const Options& opts, const char* family, const char* func, int64_t order) {
    require_runtime(func);  // first: without a Runtime, tuned_tile would be blamed, not `func`
    check_arg(opts.nb >= 0, func, "nb", opts.nb, "must be >= 1 (or 0: the tuned tile size)");
    check_arg(opts.ib >= 0, func, "ib", opts.ib, "must be >= 1 (or 0: the tuned inner block)");
    Options r = opts;
    if (r.nb == 0) r.nb = tuned_tile(prec_letter<T>() + std::string(family), order).nb;
    return r;
}

/// The inner block for tiles of size nb: opts.ib when given (> 0), else the tuned one of `family`
/// clamped to nb. Throws Error naming `func` for ib < 0.
template <class T>
int64_t resolve_ib(const Options& opts, int64_t nb, const char* family, const char* func) {
    require_runtime(func);
    check_arg(opts.ib >= 0, func, "ib", opts.ib, "must be >= 1 (or 0: the tuned inner block)");
    if (opts.ib > 0) return opts.ib;
    return std::max<int64_t>(1, std::min(tuned_tile(prec_letter<T>() + std::string(family)).ib, nb));
}

/// The argument checks trsm and trmm share: uplo Lower or Upper, A square of the order of B's rows
/// (side Left) or columns (side Right), A and B of the same tile size. Throws Error naming `func`.
template <class T>
void check_triangular_operands(const char* func, Side side, Uplo uplo, const TileMatrix<T>& A,
                               const TileMatrix<T>& B) {
    check_arg(uplo != Uplo::General, func, "uplo", 'G', "must be Lower or Upper");
    check_arg(A.m() == A.n(), func, "A", A.n(), "must be square");
    const int64_t order = side == Side::Left ? B.m() : B.n();
    check_arg(A.n() == order, func, "A", A.n(),
              side == Side::Left ? "order must equal rows of B" : "order must equal columns of B");
    check_arg(A.nb() == B.nb(), func, "nb", A.nb(), "must be the same for A and B");
}

/// Whether the lapack:: forms work on the caller's arrays in place (Options::layout InPlace, or Auto
/// in one process without OpenCL devices) rather than on tile-major copies.
inline bool lapack_in_place(const Options& opts) {
    return opts.layout == LapackLayout::InPlace ||
           (opts.layout == LapackLayout::Auto && !distributed() && opencl_devices() == 0);
}

/// The caller's column-major rows×cols array `a` (ld ≥ max(1, rows)) as a tile matrix of tile size
/// opts.nb (already resolved), as opts.layout says: a view of `a` (TileMatrix::view: InPlace, or
/// Auto without OpenCL devices in one process) or a tile-major copy filled from it (TileCopy). A view
/// of an array the call only reads is made through const_cast: no task writes it. uplo Lower or
/// Upper: a copy holds only that triangle's tiles (TileMatrix::fill_from_lapack), for calls that
/// read no other.
template <class T>
TileMatrix<T> lapack_tiles(const T* a, int64_t ld, int64_t rows, int64_t cols, const Options& opts, const char* func,
                           const char* ld_name, Uplo uplo = Uplo::General) {
    // Distributed, rank 0's array is scattered: the other ranks' ld is not used.
    check_arg(rank() != 0 || ld >= std::max<int64_t>(1, rows), func, ld_name, ld, "must be >= max(1, rows)");
    require_runtime(func);
    if (lapack_in_place(opts)) return TileMatrix<T>::view(const_cast<T*>(a), rows, cols, ld, opts.nb);
    TileMatrix<T> A(rows, cols, opts.nb);
    A.fill_from_lapack(a, ld, uplo);
    return A;
}

/// lapack_tiles for an array the call only writes (its content on entry is not read): the same view
/// in place, or a tile matrix left unfilled (the copy in would be wasted; lapack_result copies it out).
template <class T>
TileMatrix<T> lapack_output_tiles(T* a, int64_t ld, int64_t rows, int64_t cols, const Options& opts, const char* func,
                                  const char* ld_name) {
    check_arg(rank() != 0 || ld >= std::max<int64_t>(1, rows), func, ld_name, ld, "must be >= max(1, rows)");
    require_runtime(func);
    if (lapack_in_place(opts)) return TileMatrix<T>::view(a, rows, cols, ld, opts.nb);
    return TileMatrix<T>(rows, cols, opts.nb);
}

/// Leave the result of A (from lapack_tiles) in the caller's array `a`: a view waits for its tasks
/// and brings every tile home; a copy is copied back (TileMatrix::to_lapack), only uplo's triangle
/// of tiles for Lower or Upper (a call that wrote no other).
template <class T>
void lapack_result(const TileMatrix<T>& A, T* a, int64_t ld, Uplo uplo = Uplo::General) {
    if (A.is_view()) A.acquire_host();
    else A.to_lapack(a, ld, uplo);
}

/// A caller's complete LAPACK pivots (1-based), refused before any task when one is not a row of
/// A (1..n): Error naming `func` and 'ipiv' (laswp checks again when it runs).
inline void check_pivots(const char* func, const int64_t* ipiv, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (ipiv[i] < 1 || ipiv[i] > n)
            throw Error(std::string("tessera::") + func + ": argument 'ipiv' has ipiv[" + std::to_string(i) + "] = " +
                        std::to_string(ipiv[i]) + ", not a row of A (1.." + std::to_string(n) + ")");
}

/// The LAPACK-layout QR and LQ forms' check of tau: null only when it has no entries.
inline void check_tau(const char* func, const void* tau, int64_t count) {
    check_arg(tau != nullptr || count == 0, func, "tau", 0, "must not be null");
}

/// Submit A = 0 (every entry of every tile).
template <class T>
void set_zero(TileMatrix<T>& A) {
    A.generate([](int64_t, int64_t, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j) std::fill(tile + j * ld, tile + j * ld + rows, T(0));
    });
}

/// Submit A = the identity (ones where the row index equals the column index, zeros elsewhere; A may
/// be rectangular): where ungqr and unglq start their products.
template <class T>
void set_identity(TileMatrix<T>& A) {
    A.generate([](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) tile[i + j * ld] = i0 + i == j0 + j ? T(1) : T(0);
    });
}

}  // namespace detail
}  // namespace tessera

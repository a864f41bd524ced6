// TileMatrix<T>: an m×n matrix in block data layout, one StarPU handle per tile.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tessera/tile_storage.hpp"
#include "tessera/types.hpp"

namespace tessera {

/// An m×n matrix of scalars T (float, double, std::complex<float>, std::complex<double>) split into
/// mt×nt tiles of nb×nb, the last row and column of tiles possibly partial (m − (mt−1)·nb rows,
/// n − (nt−1)·nb columns).
/// Storage is tile-major and owned by the matrix: tile (i, j) is contiguous and column-major with
/// leading dimension tile_rows(i); each tile column is one block of host memory, page-locked when
/// the Runtime pins (RuntimeConfig::host_memory). Each tile is registered with StarPU as one matrix handle.
/// A view (TileMatrix::view) instead registers the blocks of a caller's column-major array in place.
/// Distributed (Runtime::distributed()): the tiles are spread over a P×Q process grid `dist`
/// (default: the Runtime's grid) 2D block-cyclically; each rank stores only the tiles it owns
/// (owner(i, j) == Runtime::rank()), and every rank registers every tile with StarPU-MPI (the
/// others' without storage), so constructing, filling and destroying a matrix are collective.
/// The running Runtime should outlive the TileMatrix (its destructor unregisters the handles, which
/// waits for the tasks that use them). If the Runtime stops first, its destructor releases the
/// matrix's tiles (a view's results are left in the caller's array); every later use of the matrix
/// (handle(), the copies and waits below, an algorithm) throws tessera::Error, and its destructor
/// does nothing. m = 0 or n = 0 gives an empty matrix with no tiles.
/// Throws tessera::Error for m < 0, n < 0 or nb < 1, for a grid whose P·Q is not the number of
/// ranks, for more than 2^31 − 1 tiles or tiles whose byte count overflows, and when this rank
/// needs more host memory than is available (MemAvailable) for its tiles' scalars plus about
/// 5 KB per tile of StarPU's and Tessera's bookkeeping (docs/errors.md), before allocating any;
/// an allocation that still fails throws Error too, never std::bad_alloc.
template <class T>
class TileMatrix {
public:
    TileMatrix(int64_t m, int64_t n, int64_t nb, Distribution dist = {});
    /// A view of the caller's column-major m×n array `a` (lda ≥ max(1, m)) as tiles of nb×nb, with no
    /// copy: tile (i, j) is the block at a + i·nb + j·nb·lda, leading dimension lda, registered with
    /// StarPU in place (its matrix interface carries the leading dimension; a device copy of such a
    /// tile is a strided copy from the caller's pageable memory). `a` must stay valid and untouched
    /// by the caller until the view is destroyed: the destructor waits for the tasks on the tiles and
    /// leaves every tile's result in `a` (as does acquire_host()). A view of an array that is only read
    /// may be made from a const array with const_cast: nothing is written back to a tile no task wrote.
    /// One process only. Throws Error for m < 0, n < 0, nb < 1, lda < max(1, m), a null `a` with
    /// m·n > 0, or a distributed Runtime (its tiles live on several ranks: use fill_from_lapack).
    static TileMatrix view(T* a, int64_t m, int64_t n, int64_t lda, int64_t nb);
    /// An m×n workspace of nb×nb tiles with no host storage: StarPU allocates each tile's buffer in
    /// the memory of the first task that writes it (a device's when a device runs that task), so a
    /// matrix that only tasks use costs no host memory and no page-locking (the mixed solvers'
    /// low-precision copy of A: 4 GiB of float at n = 32768, whose pinned host allocation took
    /// 1.6 s). Tasks, fill_from_lapack, to_lapack and generate work as on any matrix; tile_data() is
    /// nullptr and is_local() false, so acquire_host(), flush_to_host() and keep_only_on_host() have
    /// no tile to bring home. One process only. Throws Error as the constructor for bad sizes, or
    /// for a distributed Runtime.
    static TileMatrix workspace(int64_t m, int64_t n, int64_t nb);
    ~TileMatrix();
    TileMatrix(TileMatrix&&) noexcept;
    TileMatrix& operator=(TileMatrix&&) noexcept;
    TileMatrix(const TileMatrix&) = delete;
    TileMatrix& operator=(const TileMatrix&) = delete;

    int64_t m() const { return m_; }    ///< rows
    int64_t n() const { return n_; }    ///< columns
    int64_t nb() const { return nb_; }  ///< tile size
    int64_t mt() const { return mt_; }  ///< tile rows, ceil(m / nb)
    int64_t nt() const { return nt_; }  ///< tile columns, ceil(n / nb)
    int64_t tile_rows(int64_t i) const { return i + 1 < mt_ ? nb_ : m_ - i * nb_; }
    int64_t tile_cols(int64_t j) const { return j + 1 < nt_ ? nb_ : n_ - j * nb_; }
    const Distribution& distribution() const { return dist_; }
    int owner(int64_t i, int64_t j) const { return dist_.owner(i, j); }  ///< MPI rank that stores tile (i, j)
    /// Whether this rank stores tile (i, j) (always, in one process).
    bool is_local(int64_t i, int64_t j) const { return tile_data(i, j) != nullptr; }
    /// Whether the tiles are a view of a caller's array (TileMatrix::view) rather than owned storage.
    bool is_view() const { return lda_ != 0; }
    /// Leading dimension of tile row i's host storage: the array's lda for a view, else tile_rows(i).
    int64_t tile_ld(int64_t i) const { return lda_ != 0 ? lda_ : tile_rows(i); }

    /// StarPU handle of tile (i, j), 0 ≤ i < mt, 0 ≤ j < nt. Throws Error once the Runtime that
    /// registered it has stopped.
    TileHandle handle(int64_t i, int64_t j) const {
        if (store_.orphaned()) throw_orphaned("TileMatrix::handle");
        return store_.handles()[size_t(j * mt_ + i)];
    }
    /// Host storage of tile (i, j) (leading dimension tile_ld(i)); nullptr when another rank owns
    /// it. Its content is current only when no task uses the tile and its valid copy is in main
    /// memory (e.g. after acquire_host()).
    T* tile_data(int64_t i, int64_t j) const;
    /// Wait for every task on the matrix and bring each tile's valid copy back to main memory.
    /// Distributed, this and the waits below concern the tiles this rank stores.
    /// Like every wait below, throws TaskError when a task the calling thread submitted outside
    /// any Sequence has failed (see Sequence).
    void acquire_host() const;
    /// Ask for every tile's copy in main memory as soon as the tasks submitted so far that use it
    /// complete, and return at once: results come home while later tasks still run, so an
    /// end-to-end run overlaps the write-back with computation (acquire_host() still waits).
    void flush_to_host() const;
    /// acquire_host(), then drop every other copy: main memory holds the only valid copy of each
    /// tile, so the next task on a device transfers it again (the device buffers stay in StarPU's
    /// allocation cache for reuse). The starting state of an end-to-end timing.
    void keep_only_on_host() const;
    /// Copy every tile to the memory of OpenCL device `device` (StarPU's device numbering) and wait
    /// until all are there, so that later tasks on that device find their data resident (the
    /// device-resident mode: results stay there until acquire_host(), to_lapack() or a CPU task
    /// needs them). The host copies stay valid until a task writes the tile. Throws tessera::Error
    /// when StarPU drives no such device.
    void fetch_to_device(int device = 0) const;

    /// Copy a LAPACK column-major m×n array `a` (lda ≥ max(1, m)) into the tiles, as one copy task
    /// per tile. Returns when the tasks are submitted; `a` must stay valid until they have run
    /// (any later wait on the same thread, e.g. the next algorithm's synchronous call). Throws
    /// Error if lda < max(1, m) or `a` is null (m·n > 0). Distributed: collective; rank 0's `a` is scattered to the owners
    /// (the other ranks' `a` and lda are not used and may be nullptr and 0). uplo Lower (Upper): only
    /// the tiles that hold part of the lower (upper) triangle, diagonal included, are copied; the
    /// others are not written (a new matrix's hold unspecified values): what potrf, which reads one
    /// triangle, needs. General: every tile.
    void fill_from_lapack(const T* a, int64_t lda, Uplo uplo = Uplo::General);
    /// Copy the tiles into a LAPACK column-major array `a` (lda ≥ max(1, m)) as one task per tile,
    /// and wait until `a` holds the result. Throws Error if lda < max(1, m) or `a` is null (m·n > 0), TaskError as
    /// acquire_host(). Distributed: collective; the tiles are gathered into rank 0's `a` (the other
    /// ranks' `a` and lda are not used), holding at most a few tiles besides `a` at a time. uplo Lower
    /// (Upper): only the tiles that hold part of that triangle, as fill_from_lapack; the entries of
    /// `a` the other tiles cover are not written.
    void to_lapack(T* a, int64_t lda, Uplo uplo = Uplo::General) const;

    /// Fill every tile with f(i0, j0, rows, cols, tile, ld): i0, j0 are the global 0-based indices of
    /// the tile's first row and column. One CPU task per tile; `f` is copied and must be thread-safe.
    /// Distributed: each tile is generated on its owner (no rank ever holds the whole matrix).
    /// An exception thrown by `f` fails its task (see Sequence): the next wait throws it as TaskError.
    using TileGenerator = std::function<void(int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld)>;
    void generate(TileGenerator f);

private:
    TileMatrix() = default;
    /// view (the caller's array `base`) and workspace (no storage) share this construction.
    static TileMatrix unowned(const char* func, bool view, T* base, int64_t m, int64_t n, int64_t lda, int64_t nb);
    void register_tiles();
    void release() noexcept;
    void check_usable(const char* func) const { if (store_.orphaned()) throw_orphaned(func); }
    [[noreturn]] static void throw_orphaned(const char* func);
    int64_t m_ = 0, n_ = 0, nb_ = 1, mt_ = 0, nt_ = 0;
    int64_t lda_ = 0;  // a view's leading dimension; 0 for owned storage
    Distribution dist_;
    std::vector<T*> tiles_;  // each tile's storage (in store_'s blocks, one per tile column with local
                             // tiles, or a view's array), nullptr where another rank owns it
    detail::TileStorage store_;  // blocks and handles; released when the Runtime stops first
};

namespace detail {
class SubmitScope;
}

/// Tracks the tasks `_async` algorithms submitted into it, the LAPACK `info` they report and
/// whether one of them failed. Keep it alive until wait() returns: running tasks write into it.
///
/// Failures inside tasks. A task that fails on its worker (an OpenCL launch or device error, an
/// exception thrown by a user's tile generator, an allocation inside a task) marks its sequence
/// failed, keeping the first failure's message, e.g. "tessera: task dgemm on OpenCL 0 failed:
/// clEnqueueNDRangeKernel(tessera_gemm) returned -5 (CL_OUT_OF_RESOURCES)". The sequence's later
/// tasks skip their work, and wait() throws TaskError with that message once every task submitted
/// into the sequence has completed; a failed sequence stays failed (every later wait() throws), and
/// the matrices its tasks wrote hold unspecified values. The process, the Runtime and other
/// sequences are unaffected. The synchronous algorithms wait on a sequence of their own, so they
/// throw TaskError the same way.
///
/// Submission failures. When StarPU refuses a task (no worker can run it), the `_async` call
/// throws Error naming the task; nothing of the refused task is left behind, the sequence is
/// marked failed (its graph is incomplete), and the tasks already submitted still run.
///
/// Tasks outside any sequence. TileMatrix::fill_from_lapack, generate and to_lapack called by the
/// application submit into the calling thread's own implicit sequence. Every wait on that thread
/// (Sequence::wait, a synchronous algorithm, TileMatrix::acquire_host, keep_only_on_host,
/// fetch_to_device, to_lapack, Runtime::wait_all) also waits for those tasks and throws their
/// first failure as TaskError, then forgets it; until then, that thread's later tasks outside any
/// sequence are skipped. (A sequence's own failure is thrown first; the thread's waits for the next
/// wait.)
///
/// Threads. Several application threads may submit into and wait on their own sequences through
/// one Runtime: wait() waits for this sequence's tasks (and the calling thread's outside any
/// sequence), not for the whole process's, and a failure stays with its sequence or thread.
class Sequence {
public:
    Sequence();
    /// Waits for the tasks submitted into the sequence (they write into it and into the
    /// caller's data), without throwing.
    ~Sequence();
    Sequence(const Sequence&) = delete;
    Sequence& operator=(const Sequence&) = delete;
    /// Wait for every task submitted into this sequence (and for the calling thread's tasks
    /// outside any sequence) and return info: 0, or the smallest 1-based global index reported by
    /// a failing kernel (LAPACK's convention). Throws TaskError if a task of the sequence failed
    /// (see above), or, the sequence itself being sound, if one of those other tasks failed.
    /// Distributed: collective; every rank returns the smallest info of all ranks and throws the
    /// failure of the lowest-numbered failing rank ("tessera: on MPI rank r: ..." on the others).
    int64_t wait();

private:
    friend class detail::SubmitScope;
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tessera

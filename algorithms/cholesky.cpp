// Tile Cholesky (right-looking, Buttari et al. 2009; Chameleon's pzpotrf), potrs and posv, for
// symmetric (s, d) and Hermitian (c, z) positive definite matrices: A = L·Lᴴ or Uᴴ·U, ᴴ being ᵀ for
// real T.
#include "tessera/cholesky.hpp"

#include <map>

#include "algorithms/common.hpp"
#include "algorithms/diagonal_inverse_solves.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "tessera/blas3.hpp"
#include "runtime/device_map.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

// Cholesky's panel k: the diagonal tile factored and inverted in one task (potrf_inverse: one
// recursion for both on a device, bench/gpu_notes.md; LAPACK's xPOTRF then xTRTRI on a CPU), then
// each panel tile multiplied by the inverse (trmm), as MAGMA's panels do, where LAPACK's xPOTRF
// solves with the factor (trsm). Products are a device's GEMMs, where its trsm is a chain of small
// diagonal-block solves several times slower; and on CPU cores OpenBLAS's single-threaded dtrmm runs
// 71-78 GFLOP/s against dtrsm's 40-47 (2-core Intel VM, tiles of 768 and 1024), so the inverse's
// nb³/3 flops pay for themselves: dpotrf n = 8192 1.25-1.27 s against 1.34-1.47 with trsm
// (`tessera-tester potrf --n 8192 --nb 1024`). The residual's bound grows with κ(L(k,k)).
// Over several devices of one process, each other device that owns tiles of the panel inverts its
// own copy (trtri): an inverse that crossed devices went through host memory StarPU allocated for
// it each step, ~90 ms on the critical path of every step (dpotrf n=65536 nb=4096 on 4 H100s, 2×2
// device grid: bench/multi_gpu.sh trace), where the diagonal tile itself travels through its home.
template <class T>
class Panel {
public:
    /// keep_inverse: the caller takes the diagonal tile's inverse (take_inverse), also for the last
    /// panel, which solves nothing.
    Panel(Uplo uplo, const TileMatrix<T>& A, int64_t k, bool keep_inverse, int prio)
        : uplo_(uplo), side_(uplo == Uplo::Lower ? Side::Right : Side::Left), A_(A), k_(k),
          invert_with_factor_(k + 1 < A.nt() || keep_inverse), prio_(prio) {}
    ~Panel() {
        for (const auto& [device, h] : inverses_) tasks::release_temp_tile(h);
    }
    Panel(const Panel&) = delete;
    Panel& operator=(const Panel&) = delete;

    /// Factor the diagonal tile (its local info to *info), with its inverse unless nothing uses it.
    void factor(int* info) {
        const TileHandle d = A_.handle(k_, k_);
        if (invert_with_factor_) tasks::potrf_inverse<T>(uplo_, d, new_inverse(d), info, prio_);
        else tasks::potrf<T>(uplo_, d, info, prio_);
    }
    /// Solve panel tile t (below the diagonal for Lower, right of it for Upper) at priority prio.
    void operator()(TileHandle t, int prio) {
        // the inverse has zeros in its other triangle (trtri's and potrf_inverse's contract)
        tasks::trmm<T>(side_, uplo_, Trans::ConjTrans, Diag::NonUnit, T(1), inverse_for(t), t, prio, true);
    }
    /// The inverse of the diagonal tile, handed to the caller (who releases it): one the panel
    /// made, else one made now (trtri on the diagonal tile's device).
    TileHandle take_inverse() {
        if (inverses_.empty()) inverse_for(A_.handle(k_, k_));
        const TileHandle h = inverses_.begin()->second;
        inverses_.erase(inverses_.begin());
        return h;
    }

private:
    // The inverse on t's device, made by the first tile of that device: one per device of the map,
    // or one (no map; distributed, where it goes from the owner of (k, k) to the ranks that use it).
    TileHandle inverse_for(TileHandle t) {
        TileHandle h = inverses_[device_of(t)];
        if (!h) tasks::trtri<T>(uplo_, Diag::NonUnit, A_.handle(k_, k_), h = new_inverse(t), prio_);
        return h;
    }
    // A new tile for the inverse on t's device (the task that writes it runs there), kept as that
    // device's.
    TileHandle new_inverse(TileHandle t) {
        TileHandle& h = inverses_[device_of(t)];
        h = tasks::temp_tile<T>(A_.tile_rows(k_), A_.tile_cols(k_), A_.owner(k_, k_));
        if (device_of(t) >= 0) detail::share_tile_device(h, t);
        return h;
    }
    static int device_of(TileHandle t) { return detail::distributed() ? -1 : detail::tile_device(t); }

    const Uplo uplo_;
    const Side side_;
    const TileMatrix<T>& A_;
    const int64_t k_;
    const bool invert_with_factor_;
    const int prio_;
    std::map<int, TileHandle> inverses_;  // by device (-1: none)
};

}  // namespace

namespace detail {

template <class T>
void potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq, std::vector<TileHandle>* inverses) {
    SubmitScope scope(seq);
    detail::require_runtime("potrf");
    check_arg(uplo != Uplo::General, "potrf", "uplo", 'G', "must be Lower or Upper");
    check_arg(A.m() == A.n(), "potrf", "A", A.m(), "rows must equal columns");
    const int64_t nt = A.nt();
    // Priorities along the critical path: step k's panel before its updates, and the update of the
    // next panel column before the rest of the trailing matrix.
    auto prio = [nt](int64_t k, int64_t dist) { return int(3 * (nt - k) - dist); };
    if (inverses) inverses->assign(size_t(nt), nullptr);
    // One loop for both triangles (as SLATE's potrf after its flip): tile(i, j) is the Lower
    // triangle's tile (i, j), i ≥ j, which for Upper is stored at (j, i).
    const bool lower = uplo == Uplo::Lower;
    auto tile = [&](int64_t i, int64_t j) { return lower ? A.handle(i, j) : A.handle(j, i); };
    // The devices get the uplo triangle streamed in the order of first use, column by column, each
    // tile to the device that owns it.
    tasks::DevicePrefetch prefetch;
    for (int64_t k = 0; k < nt; ++k)
        for (int64_t m = k; m < nt; ++m) prefetch(tile(m, k));
    for (int64_t k = 0; k < nt; ++k) {
        Panel<T> panel(uplo, A, k, inverses != nullptr, prio(k, 0));
        panel.factor(detail::info_slot(k * A.nb()));
        // L(m,k) = A(m,k)·L(k,k)⁻ᴴ (Upper: U(k,m) = U(k,k)⁻ᴴ·A(k,m)) for every tile below the diagonal.
        for (int64_t m = k + 1; m < nt; ++m) panel(tile(m, k), prio(k, m - k));
        if (inverses) (*inverses)[size_t(k)] = panel.take_inverse();
        // The trailing update, in the Lower triangle's coordinates: A(n,n) -= L(n,k)·L(n,k)ᴴ and
        // A(m,n) -= L(m,k)·L(n,k)ᴴ (Upper: the same tiles transposed, U(k,n)ᴴ·U(k,n) and U(k,n)ᴴ·U(k,m)).
        for (int64_t n = k + 1; n < nt; ++n) {
            tasks::herk<T>(uplo, lower ? Trans::NoTrans : Trans::ConjTrans, -1, tile(n, k), 1, tile(n, n),
                           prio(k, n - k + 1));
            for (int64_t m = n + 1; m < nt; ++m) {
                if (lower)
                    tasks::gemm<T>(Trans::NoTrans, Trans::ConjTrans, T(-1), tile(m, k), tile(n, k), T(1), tile(m, n),
                                   prio(k, m - k + 1));
                else
                    tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(-1), tile(n, k), tile(m, k), T(1), tile(m, n),
                                   prio(k, m - k + 1));
            }
        }
        for (int64_t m = k; m < nt; ++m) detail::mpi_flush(tile(m, k));  // step k's panel is used no more
    }
}

}  // namespace detail

template <class T>
void potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq) {
    detail::potrf_async(uplo, A, seq, nullptr);
}

template <class T>
int64_t potrf(Uplo uplo, TileMatrix<T>& A) {
    Sequence seq;
    potrf_async(uplo, A, seq);
    return seq.wait();
}

template <class T>
void potrs_async(Uplo uplo, const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    check_arg(uplo != Uplo::General, "potrs", "uplo", 'G', "must be Lower or Upper");
    check_arg(A.m() == A.n(), "potrs", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "potrs", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "potrs", "nb", B.nb(), "must be the same for A and B");
    // A = L·Lᴴ: solve L·Y = B then Lᴴ·X = Y; A = Uᴴ·U: Uᴴ·Y = B then U·X = Y.
    const Trans first = uplo == Uplo::Lower ? Trans::NoTrans : Trans::ConjTrans;
    const Trans second = uplo == Uplo::Lower ? Trans::ConjTrans : Trans::NoTrans;
    trsm_async(Side::Left, uplo, first, Diag::NonUnit, T(1), A, B, seq);
    trsm_async(Side::Left, uplo, second, Diag::NonUnit, T(1), A, B, seq);
}

template <class T>
void potrs(Uplo uplo, const TileMatrix<T>& A, TileMatrix<T>& B) {
    Sequence seq;
    potrs_async(uplo, A, B, seq);
    seq.wait();
}

template <class T>
void posv_async(Uplo uplo, TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    potrf_async(uplo, A, seq);
    potrs_async(uplo, A, B, seq);
}

template <class T>
int64_t posv(Uplo uplo, TileMatrix<T>& A, TileMatrix<T>& B) {
    check_arg(B.m() == A.n(), "posv", "B", B.m(), "rows must equal the order of A");
    const int64_t info = potrf(uplo, A);
    if (info == 0) potrs(uplo, A, B);
    return info;
}

namespace lapack {

template <class T>
int64_t potrf(char uplo, int64_t n, T* a, int64_t lda, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim("lapack::potrf", "n", n);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::potrf", n);
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::potrf", "lda", u);  // the uplo triangle only
    const int64_t info = tessera::potrf(u, A);
    detail::lapack_result(A, a, lda, u);
    return info;
}

template <class T>
void potrs(char uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim("lapack::potrs", "n", n);
    check_dim("lapack::potrs", "nrhs", nrhs);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::potrs", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::potrs", "lda", u);
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::potrs", "ldb");
    tessera::potrs(u, A, B);
    detail::lapack_result(B, b, ldb);
}

template <class T>
int64_t posv(char uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim("lapack::posv", "n", n);
    check_dim("lapack::posv", "nrhs", nrhs);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::posv", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::posv", "lda", u);
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::posv", "ldb");
    const int64_t info = tessera::posv(u, A, B);
    detail::lapack_result(A, a, lda, u);
    if (info == 0) detail::lapack_result(B, b, ldb);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template void potrf_async(Uplo, TileMatrix<T>&, Sequence&);                                                 \
    template void detail::potrf_async(Uplo, TileMatrix<T>&, Sequence&, std::vector<TileHandle>*);               \
    template int64_t potrf(Uplo, TileMatrix<T>&);                                                               \
    template void potrs_async(Uplo, const TileMatrix<T>&, TileMatrix<T>&, Sequence&);                           \
    template void potrs(Uplo, const TileMatrix<T>&, TileMatrix<T>&);                                            \
    template void posv_async(Uplo, TileMatrix<T>&, TileMatrix<T>&, Sequence&);                                  \
    template int64_t posv(Uplo, TileMatrix<T>&, TileMatrix<T>&);                                                \
    template int64_t lapack::potrf(char, int64_t, T*, int64_t, const Options&);                                 \
    template void lapack::potrs(char, int64_t, int64_t, const T*, int64_t, T*, int64_t, const Options&);        \
    template int64_t lapack::posv(char, int64_t, int64_t, T*, int64_t, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

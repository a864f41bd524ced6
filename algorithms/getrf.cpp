// Tile LU with partial pivoting (LAPACK xGETRF semantics): one CPU panel task per column of tiles,
// laswp tasks for the interchanges on the other columns, trsm + gemm trailing updates; look-ahead
// from priorities and the DAG. Each panel's pivots are a handle (written by the panel, read by the
// interchanges), so that distributed, StarPU-MPI brings them to the ranks that apply them, and a
// panel whose tiles several ranks own runs on one of them, its tiles sent there and back.
#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_lu.hpp"
#include "tessera/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

/// Tiles (k..mt−1, j) of A, top to bottom.
template <class T>
std::vector<TileHandle> column_from(const TileMatrix<T>& A, int64_t k, int64_t j) {
    std::vector<TileHandle> c;
    c.reserve(size_t(A.mt() - k));
    for (int64_t i = k; i < A.mt(); ++i) c.push_back(A.handle(i, j));
    return c;
}

}  // namespace

template <class T>
void getrf_async(TileMatrix<T>& A, std::vector<int64_t>& ipiv, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getrf");
    const int64_t m = A.m(), n = A.n(), nb = A.nb(), mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt);
    ipiv.assign(size_t(std::min(m, n)), 0);
    // Priorities (higher first): panel k, then the update of column k+1 (the next panel), then
    // panel k+1 ahead of the rest of step k's trailing update; interchanges on the columns left of
    // the panel (needed only at the end) last.
    auto prio_panel = [kt](int64_t k) { return int(3 * (kt - k)); };
    auto prio_update = [kt](int64_t k, int64_t j) { return int(3 * (kt - k) - (j == k + 1 ? 1 : 4)); };
    const int prio_left = -1;
    for (int64_t k = 0; k < kt; ++k) {
        const int64_t row0 = k * nb, kb = std::min(m - row0, A.tile_cols(k));
        TileHandle pivots = tasks::pivot_handle(ipiv.data() + row0, kb, A.owner(k, k));
        tasks::getrf_panel<T>(column_from(A, k, k), row0, ipiv.data() + row0, detail::info_slot(row0), pivots,
                              prio_panel(k));
        for (int64_t j = k + 1; j < nt; ++j) {
            const int prio = prio_update(k, j);
            tasks::laswp<T>(column_from(A, k, j), row0, ipiv.data(), row0, row0 + kb, true, {pivots}, prio);
            tasks::trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A.handle(k, k), A.handle(k, j), prio);
            for (int64_t i = k + 1; i < mt; ++i)
                tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), A.handle(i, k), A.handle(k, j), T(1), A.handle(i, j),
                               prio);
        }
        // LAPACK's L carries every later interchange: apply step k's to the columns already factored.
        for (int64_t j = 0; j < k; ++j)
            tasks::laswp<T>(column_from(A, k, j), row0, ipiv.data(), row0, row0 + kb, true, {pivots}, prio_left);
        detail::mpi_copy_to_every_rank(pivots);  // every rank returns the whole ipiv
        tasks::release_temp_tile(pivots);
    }
}

template <class T>
int64_t getrf(TileMatrix<T>& A, std::vector<int64_t>& ipiv) {
    Sequence seq;
    getrf_async(A, ipiv, seq);
    return seq.wait();
}

namespace lapack {

template <class T>
int64_t getrf(int64_t m, int64_t n, T* a, int64_t lda, int64_t* ipiv, const Options& opts) {
    check_dims("lapack::getrf", m, n, 0);
    check_arg(ipiv != nullptr || std::min(m, n) == 0, "lapack::getrf", "ipiv", 0, "must not be null");
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::getrf", std::max(m, n));
    auto A = detail::lapack_tiles(a, lda, m, n, o, "lapack::getrf", "lda");
    std::vector<int64_t> piv;
    const int64_t info = tessera::getrf(A, piv);
    detail::lapack_result(A, a, lda);
    std::copy(piv.begin(), piv.end(), ipiv);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                    \
    template void getrf_async(TileMatrix<T>&, std::vector<int64_t>&, Sequence&);  \
    template int64_t getrf(TileMatrix<T>&, std::vector<int64_t>&);                \
    template int64_t lapack::getrf(int64_t, int64_t, T*, int64_t, int64_t*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// Stage 1 of the two-stage Hermitian eigensolver: A = Q1·B·Q1ᴴ with B a band of bandwidth nb, by
// tile column panels and LAPACK xSYTRD_SY2SB's two-sided update as tile GEMMs (he2hb.hpp).
#include "algorithms/he2hb.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/qr_column.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

namespace {

// Q_kᴴ·A₂·Q_k on the trailing tiles r .. nt−1 (r = k+1) with panel k's reflectors q.
template <class T>
void two_sided_update(TileMatrix<T>& A, const ColumnReflectors<T>& q, int64_t r, int64_t width, int prio) {
    const int64_t nt = A.nt();
    const Trans C = Trans::ConjTrans, N = Trans::NoTrans;
    // W_i = (A₂·V)_i·T, tile row by tile row: A₂(i, j) is A(i, j) on and below the diagonal, A(j, i)ᴴ above.
    std::vector<TileHandle> w(size_t(nt), nullptr);
    for (int64_t i = r; i < nt; ++i) {
        const TileHandle x = tasks::temp_tile<T>(A.tile_rows(i), width, A.owner(i, i), A.handle(i, i));
        for (int64_t j = r; j < nt; ++j) {
            const T beta = j == r ? T(0) : T(1);
            if (j <= i) tasks::gemm<T>(N, N, T(1), A.handle(i, j), q.v(j), beta, x, prio);
            else tasks::gemm<T>(C, N, T(1), A.handle(j, i), q.v(j), beta, x, prio);
        }
        w[size_t(i)] = tasks::temp_tile<T>(A.tile_rows(i), width, A.owner(i, i), A.handle(i, i));
        tasks::gemm<T>(N, N, T(1), x, q.t(), T(0), w[size_t(i)], prio);
        tasks::release_temp_tile(x);
    }
    // M = −½·Tᴴ·(Vᴴ·W), then Y_i = W_i + V_i·M in place of W_i.
    const TileHandle p = tasks::temp_tile<T>(width, width, A.owner(r, r), A.handle(r, r));
    for (int64_t i = r; i < nt; ++i) tasks::gemm<T>(C, N, T(1), q.v(i), w[size_t(i)], T(i == r ? 0 : 1), p, prio);
    const TileHandle m = tasks::temp_tile<T>(width, width, A.owner(r, r), A.handle(r, r));
    tasks::gemm<T>(C, N, T(-0.5), q.t(), p, T(0), m, prio);
    tasks::release_temp_tile(p);
    for (int64_t i = r; i < nt; ++i) tasks::gemm<T>(N, N, T(1), q.v(i), m, T(1), w[size_t(i)], prio);
    tasks::release_temp_tile(m);
    // A₂ −= Y·Vᴴ + V·Yᴴ on the lower tiles; the next panel's column (j = r) first.
    for (int64_t j = r; j < nt; ++j)
        for (int64_t i = j; i < nt; ++i) {
            const int pr = j == r ? prio + 1 : prio;
            tasks::gemm<T>(N, C, T(-1), w[size_t(i)], q.v(j), T(1), A.handle(i, j), pr);
            tasks::gemm<T>(N, C, T(-1), q.v(i), w[size_t(j)], T(1), A.handle(i, j), pr);
        }
    for (int64_t i = r; i < nt; ++i) tasks::release_temp_tile(w[size_t(i)]);
}

}  // namespace

template <class T>
void he2hb(TileMatrix<T>& A, QRFactors<T>& F) {
    const int64_t nt = A.nt();
    for (int64_t k = 0; k + 1 < nt; ++k) {
        const int prio = int(2 * (nt - k));
        std::vector<TileHandle> column;
        for (int64_t m = k + 1; m < nt; ++m) column.push_back(A.handle(m, k));
        tasks::geqrf_panel<T>(column, F.handle(k, k), prio + 2);
        const ColumnReflectors<T> q(A, F.handle(k, k), k, k + 1, prio + 2);
        two_sided_update(A, q, k + 1, A.tile_cols(k), prio);
    }
}

template <class T>
void unmqr_he2hb(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Z) {
    const int64_t nt = A.nt();
    for (int64_t k = nt - 2; k >= 0; --k) {
        ColumnReflectors<T> q(A, F.handle(k, k), k, k + 1, int(nt - k));
        for (int64_t o = 0; o < Z.nt(); ++o) q.left(Trans::NoTrans, Z, o, int(nt - k));
    }
}

#define TESSERA_INSTANTIATE(T)                                \
    template void he2hb(TileMatrix<T>&, QRFactors<T>&); \
    template void unmqr_he2hb(const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

// getri: the inverse from the partial-pivoting LU factors (LAPACK xGETRI's blocked algorithm in tile
// form), tile and LAPACK-layout forms.
#include <string>
#include <vector>

#include "algorithms/common.hpp"
#include "algorithms/inverse_tiles.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_inverse.hpp"
#include "runtime/precisions.hpp"
#include "tessera/inverse.hpp"

namespace tessera {

namespace {

template <class T>
void check_getri(const TileMatrix<T>& A, const std::vector<int64_t>& ipiv) {
    check_arg(A.m() == A.n(), "getri", "A", A.m(), "rows must equal columns");
    check_arg(int64_t(ipiv.size()) == A.n(), "getri", "ipiv", int64_t(ipiv.size()),
              "length must equal the order of A");
}


// Everything after the diagonal check: U := U⁻¹, then xGETRI's column sweep and interchanges.
template <class T>
void getri_tiles(TileMatrix<T>& A, const std::vector<int64_t>& ipiv) {
    const int64_t nt = A.nt();
    // U := U⁻¹ on the upper triangle (L below it untouched), the diagonal tiles' inverses out of
    // place: D[k] = U(k, k)⁻¹ with zeros below, which replaces tile (k, k) once its L part is saved.
    std::vector<TileHandle> D;
    detail::trtri_tiles(Uplo::Upper, Diag::NonUnit, A, &D);
    // From the last tile column to the first (xGETRI): W(:, k) = the L part of column k, zeroed in A;
    // A(:, k) −= A(:, k+1:)·W(k+1:, k); A(:, k) := A(:, k)·L(k, k)⁻¹ (a trmm with the unit lower
    // inverse Li = L(k, k)⁻¹, made from A(k, k) before the tile changes: trmm tiles run at twice
    // trsm's speed with OpenBLAS). Columns right of k are final.
    std::vector<TileHandle> W(size_t(nt), nullptr);
    for (int64_t k = nt - 1; k >= 0; --k) {
        const int prio = int(k);
        const TileHandle li = tasks::temp_tile<T>(A.tile_cols(k), A.tile_cols(k), A.owner(k, k), A.handle(k, k));
        tasks::trtri<T>(Uplo::Lower, Diag::Unit, A.handle(k, k), li, prio + 1);
        for (int64_t j = k + 1; j < nt; ++j) {
            W[size_t(j)] = tasks::temp_tile<T>(A.tile_rows(j), A.tile_cols(k), A.owner(j, k), A.handle(j, k));
            tasks::lacpy<T>(Uplo::General, A.handle(j, k), W[size_t(j)], prio);
        }
        tasks::lacpy<T>(Uplo::General, D[size_t(k)], A.handle(k, k), prio);  // U(k, k)⁻¹, zeros below
        tasks::release_temp_tile(D[size_t(k)]);
        for (int64_t i = 0; i < nt; ++i) {
            // Below the diagonal A(i, k) is zero after the copy: the first product overwrites it.
            for (int64_t j = k + 1; j < nt; ++j)
                tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), A.handle(i, j), W[size_t(j)],
                               i > k && j == k + 1 ? T(0) : T(1), A.handle(i, k), prio);
            tasks::trmm<T>(Side::Right, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), li, A.handle(i, k), prio);
        }
        tasks::release_temp_tile(li);
        for (int64_t j = k + 1; j < nt; ++j) tasks::release_temp_tile(W[size_t(j)]);
    }
    // A⁻¹ = U⁻¹·L⁻¹·P: the column interchanges in reverse order, one task per tile row.
    for (int64_t i = 0; i < A.mt(); ++i) {
        std::vector<TileHandle> row;
        for (int64_t j = 0; j < nt; ++j) row.push_back(A.handle(i, j));
        tasks::laswp_columns<T>(row, ipiv.data(), 0, A.n(), 0);
    }
}

}  // namespace

template <class T>
void getri_async(TileMatrix<T>& A, const std::vector<int64_t>& ipiv, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getri");
    detail::require_one_process("getri_async");
    check_getri(A, ipiv);
    detail::check_diagonal(A);
    getri_tiles(A, ipiv);
}

template <class T>
int64_t getri(TileMatrix<T>& A, const std::vector<int64_t>& ipiv) {
    detail::require_runtime("getri");
    detail::require_one_process("getri");
    check_getri(A, ipiv);
    detail::check_pivots("getri", ipiv.data(), A.n());
    if (const int64_t info = detail::diagonal_info(A)) return info;  // A unchanged, as xGETRI
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        getri_tiles(A, ipiv);
    }
    return seq.wait();
}

namespace lapack {

template <class T>
int64_t getri(int64_t n, T* a, int64_t lda, const int64_t* ipiv, const Options& opts) {
    check_dim("lapack::getri", "n", n);
    check_arg(ipiv != nullptr || n == 0, "lapack::getri", "ipiv", 0, "must not be null");
    detail::check_pivots("lapack::getri", ipiv, n);
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::getri", n);
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::getri", "lda");
    const std::vector<int64_t> piv(ipiv, ipiv + n);
    const int64_t info = tessera::getri(A, piv);
    if (info == 0) detail::lapack_result(A, a, lda);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                              \
    template void getri_async(TileMatrix<T>&, const std::vector<int64_t>&, Sequence&);      \
    template int64_t getri(TileMatrix<T>&, const std::vector<int64_t>&);                    \
    template int64_t lapack::getri(int64_t, T*, int64_t, const int64_t*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

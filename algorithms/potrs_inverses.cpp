// PotrsByInverses (potrs_inverses.hpp): a tile potrs whose diagonal steps are GEMMs by the
// inverses of the factor's diagonal tiles.
#include "algorithms/potrs_inverses.hpp"

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

template <class T>
PotrsByInverses<T>::~PotrsByInverses() {
    for (TileHandle h : inverse_)
        if (h) tasks::release_temp_tile(h);  // null: factor_async stopped by an error
}

template <class T>
void PotrsByInverses<T>::factor_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq) {
    SubmitScope scope(seq);
    check_arg(uplo != Uplo::General, "potrf", "uplo", 'G', "must be Lower or Upper");
    check_arg(inverse_.empty(), "potrf", "inverses", int64_t(inverse_.size()), "are made once per object");
    potrf_async(uplo, A, seq, &inverse_);
    for (int64_t k = 0; k < A.nt(); ++k) {
        TileHandle& h = inverse_[size_t(k)];
        if (h) continue;
        h = tasks::temp_tile<T>(A.tile_rows(k), A.tile_cols(k), A.owner(k, k), A.handle(k, k));
        tasks::trtri<T>(uplo, Diag::NonUnit, A.handle(k, k), h, int(A.nt() - k));
    }
}

template <class T>
void PotrsByInverses<T>::potrs_async(Uplo uplo, const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    SubmitScope scope(seq);
    check_arg(int64_t(inverse_.size()) == A.nt(), "potrs", "inverses", int64_t(inverse_.size()),
              "must have been made (invert_async) for A");
    check_arg(B.m() == A.n(), "potrs", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "potrs", "nb", B.nb(), "must be the same for A and B");
    if (!y_ || y_->m() != B.m() || y_->n() != B.n()) y_.emplace(TileMatrix<T>::workspace(B.m(), B.n(), B.nb()));
    TileMatrix<T>& Y = *y_;
    const int64_t nt = A.nt();
    const Trans N = Trans::NoTrans, C = Trans::ConjTrans;
    // L·Y = B then Lᴴ·X = Y (Lower); Uᴴ·Y = B then U·X = Y (Upper). One loop for both, in the Lower
    // triangle's coordinates: tile(i, j) is L(i, j), stored at (j, i) as U(j, i) = L(i, j)ᴴ for Upper,
    // so that the forward products take it as is (Lower) or conjugate-transposed (Upper), and the
    // backward ones the other way.
    const bool lower = uplo == Uplo::Lower;
    auto tile = [&](int64_t i, int64_t j) { return lower ? A.handle(i, j) : A.handle(j, i); };  // i ≥ j
    const Trans fwd = lower ? N : C, bwd = lower ? C : N;
    for (int64_t c = 0; c < B.nt(); ++c) {
        for (int64_t k = 0; k < nt; ++k) {  // Y(k) = D(k)⁻¹·(B(k) − Σ_{j<k} L(k, j)·Y(j))
            for (int64_t j = 0; j < k; ++j)
                tasks::gemm<T>(fwd, N, T(-1), tile(k, j), Y.handle(j, c), T(1), B.handle(k, c), int(2 * nt - k));
            tasks::gemm<T>(fwd, N, T(1), inverse_[size_t(k)], B.handle(k, c), T(0), Y.handle(k, c), int(2 * nt - k));
        }
        for (int64_t k = nt - 1; k >= 0; --k) {  // X(k) = D(k)⁻ᴴ·(Y(k) − Σ_{j>k} L(j, k)ᴴ·X(j)), X in B
            for (int64_t j = k + 1; j < nt; ++j)
                tasks::gemm<T>(bwd, N, T(-1), tile(j, k), B.handle(j, c), T(1), Y.handle(k, c), int(k + 1));
            tasks::gemm<T>(bwd, N, T(1), inverse_[size_t(k)], Y.handle(k, c), T(0), B.handle(k, c), int(k + 1));
        }
    }
}

#define TESSERA_INSTANTIATE(T) template class PotrsByInverses<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

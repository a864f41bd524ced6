// DiagonalInverseSolves (diagonal_inverse_solves.hpp): potrs whose diagonal steps are GEMMs by the
// inverses of the factor's diagonal tiles.
#include "algorithms/diagonal_inverse_solves.hpp"

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "runtime/precisions.hpp"

namespace tessera::detail {

template <class T>
DiagonalInverseSolves<T>::~DiagonalInverseSolves() {
    for (TileHandle h : inverse_)
        if (h) tasks::release_temp_tile(h);  // null: a factorization stopped by an error
}

template <class T>
void DiagonalInverseSolves<T>::potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq) {
    SubmitScope scope(seq);
    check_arg(uplo != Uplo::General, "potrf", "uplo", 'G', "must be Lower or Upper");
    check_arg(!factored(), "potrf", "factorizations", 2, "one per DiagonalInverseSolves");
    uplo_ = uplo;
    detail::potrf_async(uplo, A, seq, &inverse_);
}

template <class T>
void DiagonalInverseSolves<T>::solve_async(const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    SubmitScope scope(seq);
    check_arg(factored() && int64_t(inverse_.size()) == A.nt(), "solve", "A", A.nt(), "must be the factored matrix");
    check_arg(B.m() == A.n(), "solve", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "solve", "nb", B.nb(), "must be the same for A and B");
    if (!y_ || y_->m() != B.m() || y_->n() != B.n()) y_.emplace(TileMatrix<T>::workspace(B.m(), B.n(), B.nb()));
    TileMatrix<T>& Y = *y_;
    const int64_t nt = A.nt();
    const Trans N = Trans::NoTrans, C = Trans::ConjTrans;
    // F·Y = B then G·X = Y, F block lower and G block upper triangular with F(k, j) = opf(tile_f(k, j))
    // and G(k, j) = opb(tile_b(k, j)): L·Y = B then Lᴴ·X = Y (Lower), Uᴴ·Y = B then U·X = Y (Upper).
    const bool lower = uplo_ == Uplo::Lower;
    auto tile_f = [&](int64_t k, int64_t j) { return lower ? A.handle(k, j) : A.handle(j, k); };
    auto tile_b = [&](int64_t k, int64_t j) { return lower ? A.handle(j, k) : A.handle(k, j); };
    const Trans opf = lower ? N : C, opb = lower ? C : N;
    for (int64_t c = 0; c < B.nt(); ++c) {
        std::vector<TileHandle> F, X;
        for (int64_t k = 0; k < nt; ++k) {  // Y(k) = F(k, k)⁻¹·(B(k) − Σ_{j<k} F(k, j)·Y(j))
            F.clear(), X.clear();
            for (int64_t j = 0; j < k; ++j) F.push_back(tile_f(k, j)), X.push_back(Y.handle(j, c));
            block_row(opf, inverse_[size_t(k)], F, X, B.handle(k, c), Y.handle(k, c), int(2 * nt - k));
        }
        for (int64_t k = nt - 1; k >= 0; --k) {  // X(k) = G(k, k)⁻¹·(Y(k) − Σ_{j>k} G(k, j)·X(j)), X in B
            F.clear(), X.clear();
            for (int64_t j = k + 1; j < nt; ++j) F.push_back(tile_b(k, j)), X.push_back(B.handle(j, c));
            block_row(opb, inverse_[size_t(k)], F, X, Y.handle(k, c), B.handle(k, c), int(k + 1));
        }
    }
}

template <class T>
void DiagonalInverseSolves<T>::block_row(Trans op, TileHandle W, const std::vector<TileHandle>& F,
                                         const std::vector<TileHandle>& X, TileHandle acc, TileHandle out, int prio) {
    if (detail::opencl_devices() == 1) return tasks::solve_row<T>(op, W, F, X, acc, out, prio);
    for (size_t j = 0; j < F.size(); ++j) tasks::gemm<T>(op, Trans::NoTrans, T(-1), F[j], X[j], T(1), acc, prio);
    tasks::gemm<T>(op, Trans::NoTrans, T(1), W, acc, T(0), out, prio);
}

#define TESSERA_INSTANTIATE(T) template class DiagonalInverseSolves<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::detail

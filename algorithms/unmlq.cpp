// Apply the Q of an LQ to a tile matrix from either side (Chameleon's pzunmlq, flat tree).
//
// gelqf's step k factored Q_k = P_k,nt−1·…·P_k,k+1·G_k (G the gelqt of tile (k, k), P_k,j the tplqt
// of tile (k, j): the conjugate transpose of the QR of Aᴴ, geqrf's Q̃_k = G̃_k·P̃_k,k+1·…), and
// Q = Q_kt−1·…·Q_1·Q_0. Each product below applies these factors in the order its side and
// transposition require; tile (k, j) of the reflectors meets tile row (Left) or tile column (Right)
// j of C.
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/tasks_lq.hpp"
#include "runtime/precisions.hpp"
#include "tessera/lq.hpp"

namespace tessera {

template <class T>
void unmlq_async(Side side, Trans trans, const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& C,
                 Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("unmlq");
    check_arg(F.matches(A), "unmlq", "F", F.m(), "must be the factors of A (gelqf(A))");
    const bool left = side == Side::Left;
    check_arg((left ? C.m() : C.n()) == A.n(), "unmlq", "C", left ? C.m() : C.n(),
              left ? "rows must equal the columns of A" : "columns must equal the columns of A");
    check_arg(C.nb() == A.nb(), "unmlq", "nb", C.nb(), "must be the same for A and C");
    check_trans<T>("unmlq", trans, true);
    const int64_t nt = A.nt(), kt = std::min(A.mt(), A.nt()), ib = F.ib();
    const bool q = trans == Trans::NoTrans;  // op(Q) = Q
    // Left·Q and Right·Qᴴ take the steps first to last, each step's gelqt before its tplqt's;
    // Left·Qᴴ and Right·Q the reverse.
    const bool forward = left == q;
    const int64_t other = left ? C.nt() : C.mt();  // the tile index of C the reflectors do not touch
    auto tile = [&](int64_t r, int64_t o) { return left ? C.handle(r, o) : C.handle(o, r); };
    for (int64_t s = 0; s < kt; ++s) {
        const int64_t k = forward ? s : kt - 1 - s;
        const int prio = int(kt - s);
        auto apply_g = [&] {
            for (int64_t o = 0; o < other; ++o)
                tasks::gemlqt<T>(side, trans, ib, A.handle(k, k), F.handle(k, k), tile(k, o), prio + 1);
        };
        auto apply_p = [&](int64_t j) {
            for (int64_t o = 0; o < other; ++o)
                tasks::tpmlqt<T>(side, trans, ib, A.handle(k, j), F.handle(k, j), tile(k, o), tile(j, o), prio);
        };
        if (forward) {
            apply_g();
            for (int64_t j = k + 1; j < nt; ++j) apply_p(j);
        } else {
            for (int64_t j = nt - 1; j > k; --j) apply_p(j);
            apply_g();
        }
    }
}

template <class T>
void unmlq(Side side, Trans trans, const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& C) {
    Sequence seq;
    unmlq_async(side, trans, A, F, C, seq);
    seq.wait();
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void unmlq_async(Side, Trans, const TileMatrix<T>&, const LQFactors<T>&, TileMatrix<T>&, Sequence&); \
    template void unmlq(Side, Trans, const TileMatrix<T>&, const LQFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

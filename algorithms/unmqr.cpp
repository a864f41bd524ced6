// Apply the Q of a QR to a tile matrix from either side (Chameleon's pzunmqr, flat tree; or the
// column panels' reflectors, qr_column.hpp).
//
// Flat tree: geqrf's step k factored Q_k = G_k·P_k,k+1·…·P_k,mt−1 (G the geqrt of tile (k, k), P_k,i the
// tpqrt of tile (i, k)), and Q = Q_0·Q_1·…·Q_kt−1. Each product below applies these factors in the
// order its side and transposition require; tile (i, k) of the reflectors meets tile row (Left) or
// tile column (Right) i of C.
#include "tessera/qr.hpp"

#include <algorithm>

#include "algorithms/common.hpp"
#include "algorithms/qr_column.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void unmqr_async(Side side, Trans trans, const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& C,
                 Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("unmqr");
    check_arg(F.matches(A), "unmqr", "F", F.m(), "must be the factors of A (geqrf(A))");
    const bool left = side == Side::Left;
    check_arg((left ? C.m() : C.n()) == A.m(), "unmqr", "C", left ? C.m() : C.n(),
              left ? "rows must equal the rows of A" : "columns must equal the rows of A");
    check_arg(C.nb() == A.nb(), "unmqr", "nb", C.nb(), "must be the same for A and C");
    const int64_t mt = A.mt(), kt = std::min(A.mt(), A.nt()), ib = F.ib();
    check_trans<T>("unmqr", trans, true);
    const bool qt = trans != Trans::NoTrans;  // op(Q) = Qᴴ (Qᵀ for real T)
    // Left·Qᵀ and Right·Q take the steps first to last, each step's geqrt before its tpqrt's;
    // Left·Q and Right·Qᵀ the reverse.
    const bool forward = left == qt;
    const int64_t other = left ? C.nt() : C.mt();  // the tile index of C the reflectors do not touch
    auto tile = [&](int64_t r, int64_t o) { return left ? C.handle(r, o) : C.handle(o, r); };
    for (int64_t s = 0; s < kt; ++s) {
        const int64_t k = forward ? s : kt - 1 - s;
        const int prio = int(kt - s);
        if (F.form() == QRForm::ColumnPanel) {  // Q_k = I − V_k·T_k·V_kᴴ
            detail::ColumnReflectors<T> q(A, F, k, prio + 1);
            for (int64_t o = 0; o < other; ++o) left ? q.left(trans, C, o, prio) : q.right(trans, C, o, prio);
            continue;
        }
        auto apply_g = [&] {
            for (int64_t o = 0; o < other; ++o)
                tasks::gemqrt<T>(side, trans, ib, A.handle(k, k), F.handle(k, k), tile(k, o), prio + 1);
        };
        auto apply_p = [&](int64_t i) {
            for (int64_t o = 0; o < other; ++o)
                tasks::tpmqrt<T>(side, trans, ib, A.handle(i, k), F.handle(i, k), tile(k, o), tile(i, o), prio);
        };
        if (forward) {
            apply_g();
            for (int64_t i = k + 1; i < mt; ++i) apply_p(i);
        } else {
            for (int64_t i = mt - 1; i > k; --i) apply_p(i);
            apply_g();
        }
    }
}

template <class T>
void unmqr(Side side, Trans trans, const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& C) {
    Sequence seq;
    unmqr_async(side, trans, A, F, C, seq);
    seq.wait();
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void unmqr_async(Side, Trans, const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&, Sequence&); \
    template void unmqr(Side, Trans, const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// LQ factorization gelqf: the flat-tree tile LQ (Chameleon's pzgelqf; the tile QR of geqrf.cpp on
// Aᴴ, read through the conjugate transpose).
#include <algorithm>

#include "algorithms/common.hpp"
#include "algorithms/diagonal_reflectors.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_lq.hpp"
#include "runtime/precisions.hpp"
#include "tessera/lq.hpp"

namespace tessera {

template <class T>
void gelqf_async(TileMatrix<T>& A, LQFactors<T>& F, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("gelqf");
    check_arg(F.matches(A), "gelqf", "F", F.m(), "must be built for A (LQFactors(A, ib))");
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt), ib = F.ib();
    // Critical path: the panel of step k (gelqt, then the chain of tplqt along the row), then the
    // updates of row k+1 (which feed the next panel), then the rest of the trailing matrix.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - std::min<int64_t>(dist, 3)); };
    for (int64_t k = 0; k < kt; ++k) {
        tasks::gelqt<T>(ib, A.handle(k, k), F.handle(k, k), prio(k, 0));
        // step k's column update with the diagonal tile's reflectors (read from a copy while the chain runs)
        detail::DiagonalReflectors<T> v(A, k, Uplo::Upper, k + 1 < nt, prio(k, 0));
        for (int64_t m = k + 1; m < mt; ++m)
            tasks::gemlqt<T>(Side::Right, Trans::ConjTrans, ib, v.handle(), F.handle(k, k), A.handle(m, k),
                             prio(k, m - k));
        for (int64_t n = k + 1; n < nt; ++n) {
            // [A(k, k) A(k, n)] = [L 0]·Q(k, n), then its Qᴴ on tile columns k and n (PLASMA's tslqt, tsmlq).
            tasks::tplqt<T>(ib, A.handle(k, k), A.handle(k, n), F.handle(k, n), prio(k, 0));
            for (int64_t m = k + 1; m < mt; ++m)
                tasks::tpmlqt<T>(Side::Right, Trans::ConjTrans, ib, A.handle(k, n), F.handle(k, n), A.handle(m, k),
                                 A.handle(m, n), prio(k, m - k));
        }
    }
}

template <class T>
LQFactors<T> gelqf(TileMatrix<T>& A, const Options& opts) {
    LQFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "gelqf"));
    Sequence seq;
    gelqf_async(A, F, seq);
    seq.wait();
    return F;
}

#define TESSERA_INSTANTIATE(T)                                          \
    template void gelqf_async(TileMatrix<T>&, LQFactors<T>&, Sequence&); \
    template LQFactors<T> gelqf(TileMatrix<T>&, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

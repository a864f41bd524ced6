// LQ factorization gelqf: the flat-tree tile LQ (Chameleon's pzgelqf; the tile QR of geqrf.cpp on
// Aᴴ, read through the conjugate transpose).
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_lq.hpp"
#include "runtime/precisions.hpp"
#include "tessera/lq.hpp"

namespace tessera {

namespace {

// Step k's column update, A(m, k) = A(m, k)·Q(k, k)ᴴ for m > k (a gemlqt each), Q(k, k) being
// gelqt's reflectors of the diagonal tile. tplqt(k, k+1) rewrites L in A(k, k) while these updates
// read its V right of the diagonal: they read a copy instead (Chameleon's D workspace), made at the
// first update, so that the panel chain need not wait for them.
template <class T>
class ApplyDiagonalQ {
public:
    ApplyDiagonalQ(TileMatrix<T>& A, LQFactors<T>& F, int64_t k, int prio) : A_(A), F_(F), k_(k), prio_(prio) {}
    ~ApplyDiagonalQ() {
        if (copied_) tasks::release_temp_tile(v_);
    }
    ApplyDiagonalQ(const ApplyDiagonalQ&) = delete;
    ApplyDiagonalQ& operator=(const ApplyDiagonalQ&) = delete;

    void operator()(int64_t m, int prio) {
        if (!v_) {
            v_ = A_.handle(k_, k_);
            if (k_ + 1 < A_.nt()) {
                v_ = tasks::temp_tile<T>(A_.tile_rows(k_), A_.tile_cols(k_), A_.owner(k_, k_));
                tasks::lacpy<T>(Uplo::Upper, A_.handle(k_, k_), v_, prio_);
                copied_ = true;
            }
        }
        tasks::gemlqt<T>(Side::Right, Trans::ConjTrans, F_.ib(), v_, F_.handle(k_, k_), A_.handle(m, k_), prio);
    }

private:
    const TileMatrix<T>& A_;
    const LQFactors<T>& F_;
    const int64_t k_;
    const int prio_;
    TileHandle v_ = nullptr;  // V: A(k, k) or its copy
    bool copied_ = false;
};

}  // namespace

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
        ApplyDiagonalQ<T> column(A, F, k, prio(k, 0));
        for (int64_t m = k + 1; m < mt; ++m) column(m, prio(k, m - k));
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

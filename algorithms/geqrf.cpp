// Tile QR factorization: QRFactors storage and geqrf (flat tree; Buttari et al. 2009, PLASMA's
// pdgeqrf, Chameleon's pzgeqrf).
#include "tessera/qr.hpp"

#include <algorithm>
#include <utility>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

// ---- QRFactors

template <class T>
QRFactors<T>::QRFactors(const TileMatrix<T>& A, int64_t ib)
    : m_(A.m()), n_(A.n()), nb_(A.nb()), ib_(ib), mt_(A.mt()), nt_(A.nt()) {
    check_arg(ib >= 1, "QRFactors", "ib", ib, "must be >= 1");
    detail::require_runtime("QRFactors");
    if (mt_ == 0 || nt_ == 0) return;
    // Distributed, T(i, j) belongs to the owner of A(i, j): this rank stores its own T tiles only
    // and registers the others without storage.
    size_t local = 0;
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) local += A.is_local(i, j);
    size_t tile = 0, bytes = 0;  // elements of one ib×nb T tile; bytes of this rank's
    if (__builtin_mul_overflow(size_t(ib_), size_t(nb_), &tile) || __builtin_mul_overflow(tile, local, &bytes) ||
        __builtin_mul_overflow(bytes, sizeof(T), &bytes))
        throw Error("tessera::QRFactors: argument 'ib' = " + std::to_string(ib) + " gives T factors too large to address");
    storage_ = static_cast<T*>(tasks::alloc_tiles(bytes, "tessera::QRFactors"));
    handles_.resize(size_t(mt_ * nt_));
    T* next = storage_;
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            T* t = A.is_local(i, j) ? std::exchange(next, next + tile) : nullptr;
            handles_[size_t(j * mt_ + i)] = tasks::register_tile(t, ib_, A.tile_cols(j), ib_, sizeof(T), A.owner(i, j));
        }
    live_ = detail::track_matrix(this, &QRFactors::orphan);
}

template <class T>
void QRFactors<T>::orphan(void* self) noexcept {
    auto* F = static_cast<QRFactors*>(self);
    F->live_ = 0;
    F->release();
    F->orphaned_ = true;
}

template <class T>
void QRFactors<T>::throw_orphaned() {
    throw Error("tessera::QRFactors: the factors' Runtime has stopped (they must not outlive their Runtime)");
}

template <class T>
void QRFactors<T>::release() noexcept {
    if (live_ != 0) detail::untrack_matrix(live_);
    live_ = 0;
    for (TileHandle h : handles_) tasks::unregister_tile(h);
    handles_.clear();
    tasks::free_tiles(storage_);
    storage_ = nullptr;
}

template <class T>
QRFactors<T>::~QRFactors() { release(); }

template <class T>
QRFactors<T>::QRFactors(QRFactors&& o) noexcept
    : m_(o.m_), n_(o.n_), nb_(o.nb_), ib_(o.ib_), mt_(o.mt_), nt_(o.nt_), storage_(o.storage_),
      handles_(std::move(o.handles_)), live_(o.live_), orphaned_(o.orphaned_) {
    if (live_ != 0) detail::moved_matrix(live_, this);
    o.live_ = 0, o.orphaned_ = false;
    o.storage_ = nullptr;
    o.handles_.clear();
    o.m_ = o.n_ = o.mt_ = o.nt_ = 0;
}

template <class T>
QRFactors<T>& QRFactors<T>::operator=(QRFactors&& o) noexcept {
    if (this != &o) {
        release();
        m_ = o.m_, n_ = o.n_, nb_ = o.nb_, ib_ = o.ib_, mt_ = o.mt_, nt_ = o.nt_;
        storage_ = o.storage_;
        handles_ = std::move(o.handles_);
        live_ = o.live_, orphaned_ = o.orphaned_;
        if (live_ != 0) detail::moved_matrix(live_, this);
        o.live_ = 0, o.orphaned_ = false;
        o.storage_ = nullptr;
        o.handles_.clear();
        o.m_ = o.n_ = o.mt_ = o.nt_ = 0;
    }
    return *this;
}

// ---- geqrf

template <class T>
void geqrf_async(TileMatrix<T>& A, QRFactors<T>& F, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("geqrf");
    check_arg(F.matches(A), "geqrf", "F", F.m(), "must be built for A (QRFactors(A, ib))");
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt), ib = F.ib();
    // Critical path: the panel of step k (geqrt, then the chain of tpqrt down the column), then the
    // updates of column k+1 (which feed the next panel), then the rest of the trailing matrix.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - std::min<int64_t>(dist, 3)); };
    // With an OpenCL device, each panel tile's T is merged once into one k×k T (larft, a temporary
    // tile) and its updates apply the reflectors as one block, with ib = k: one large GEMM each way
    // instead of merging the inner blocks in every update (MAGMA's dgeqrf keeps one T per panel).
    // The diagonal tile's Qᴴ is also formed once (form_q), so that each update of its tile row is
    // one square GEMM rather than three products with triangles.
    // On CPUs the inner blocks stay: the merge's herk and the one block's k×k T product would be extra
    // flops, with no launches to save.
    const bool merge_t = detail::opencl_devices() > 0;
    struct Reflectors {
        TileHandle t;  // T for the updates: F's tile, or the merged temporary
        int64_t ib;    // their inner block size
    };
    auto reflectors = [&](bool below_identity, TileHandle v, int64_t m, int64_t k, int64_t refl) {
        if (!merge_t) return Reflectors{F.handle(m, k), ib};
        const TileHandle t = tasks::temp_tile<T>(refl, refl, A.owner(m, k));
        tasks::larft<T>(below_identity, ib, v, F.handle(m, k), t, prio(k, 0));
        return Reflectors{t, refl};
    };
    auto release = [&](const Reflectors& r) {
        if (merge_t) tasks::release_temp_tile(r.t);
    };
    for (int64_t k = 0; k < kt; ++k) {
        tasks::geqrt<T>(ib, A.handle(k, k), F.handle(k, k), prio(k, 0));
        // tpqrt(k+1, k) rewrites R in A(k, k) while the gemqrt tasks read its V below the diagonal:
        // they read a copy instead (Chameleon's D workspace), so the panel chain need not wait for them.
        const bool copy_v = k + 1 < mt && k + 1 < nt;
        TileHandle v = A.handle(k, k);
        if (copy_v) {
            v = tasks::temp_tile<T>(A.tile_rows(k), A.tile_cols(k), A.owner(k, k));
            tasks::lacpy<T>(Uplo::Lower, A.handle(k, k), v, prio(k, 0));
        }
        if (k + 1 < nt) {
            const Reflectors q = reflectors(false, v, k, k, std::min(A.tile_rows(k), A.tile_cols(k)));
            if (merge_t) {  // Qᴴ formed once; each update is one GEMM, A(k, n) = Qᴴ·(a copy of A(k, n))
                const int64_t rows = A.tile_rows(k);
                const TileHandle qh = tasks::temp_tile<T>(rows, rows, A.owner(k, k));
                tasks::form_q<T>(Trans::ConjTrans, q.ib, v, q.t, qh, prio(k, 0));
                for (int64_t n = k + 1; n < nt; ++n) {
                    const TileHandle c = tasks::temp_tile<T>(rows, A.tile_cols(n), A.owner(k, n));
                    tasks::lacpy<T>(Uplo::General, A.handle(k, n), c, prio(k, n - k));
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), qh, c, T(0), A.handle(k, n), prio(k, n - k));
                    tasks::release_temp_tile(c);
                }
                tasks::release_temp_tile(qh);
            } else {
                for (int64_t n = k + 1; n < nt; ++n)
                    tasks::gemqrt<T>(Side::Left, Trans::ConjTrans, q.ib, v, q.t, A.handle(k, n), prio(k, n - k));
            }
            release(q);
        }
        if (copy_v) tasks::release_temp_tile(v);
        for (int64_t m = k + 1; m < mt; ++m) {
            tasks::tpqrt<T>(ib, A.handle(k, k), A.handle(m, k), F.handle(m, k), prio(k, 0));
            if (k + 1 == nt) continue;
            const Reflectors q = reflectors(true, A.handle(m, k), m, k, A.tile_cols(k));
            for (int64_t n = k + 1; n < nt; ++n)
                tasks::tpmqrt<T>(Side::Left, Trans::ConjTrans, q.ib, A.handle(m, k), q.t, A.handle(k, n),
                                 A.handle(m, n), prio(k, n - k));
            release(q);
        }
    }
}

template <class T>
QRFactors<T> geqrf(TileMatrix<T>& A, const Options& opts) {
    QRFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "geqrf"));
    Sequence seq;
    geqrf_async(A, F, seq);
    seq.wait();
    return F;
}

#define TESSERA_INSTANTIATE(T)                                          \
    template class QRFactors<T>;                                        \
    template void geqrf_async(TileMatrix<T>&, QRFactors<T>&, Sequence&); \
    template QRFactors<T> geqrf(TileMatrix<T>&, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

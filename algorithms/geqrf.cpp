// Tile QR factorization geqrf (flat tree; Buttari et al. 2009, PLASMA's pdgeqrf, Chameleon's
// pzgeqrf).
#include "tessera/qr.hpp"

#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

// The reflectors an update applies, made at the first update that needs them: on CPUs, F's T
// tile with its inner blocks of ib; with an OpenCL device (`merge`), that T merged once into one
// refl×refl T (larft, a temporary tile) applied as one block, so that each update is one large GEMM
// each way instead of merging the inner blocks again (MAGMA's dgeqrf keeps one T per panel). On CPUs
// the merge's herk and the one block's refl×refl T product would be extra flops, with no launches
// to save.
template <class T>
class Reflectors {
public:
    Reflectors() = default;
    ~Reflectors() {
        if (merged_) tasks::release_temp_tile(t_);
    }
    Reflectors(const Reflectors&) = delete;
    Reflectors& operator=(const Reflectors&) = delete;

    /// Whether make() has run.
    bool made() const { return t_ != nullptr; }
    /// The reflectors of V `v` (unit lower triangular, or below an identity) with F's T tile `f`.
    void make(bool merge, bool below_identity, TileHandle v, TileHandle f, int64_t ib, int64_t refl, int owner, int prio) {
        t_ = f, ib_ = ib, merged_ = merge;
        if (!merged_) return;
        t_ = tasks::temp_tile<T>(refl, refl, owner);
        tasks::larft<T>(below_identity, ib, v, f, t_, prio);
        ib_ = refl;
    }
    TileHandle t() const { return t_; }  // T for the updates: F's tile, or the merged temporary
    int64_t ib() const { return ib_; }   // its inner block size

private:
    TileHandle t_ = nullptr;
    int64_t ib_ = 0;
    bool merged_ = false;
};

// Step k's row update, A(k, n) = Q(k, k)ᴴ·A(k, n) for n > k, Q(k, k) being geqrt's reflectors of
// the diagonal tile (PLASMA's unmqr step). tpqrt(k+1, k) rewrites R in A(k, k) while these updates
// read its V below the diagonal: they read a copy instead (Chameleon's D workspace), so the panel
// chain need not wait for them. On CPUs each update is a gemqrt; with an OpenCL device Qᴴ is formed
// once (form_q), and each update is one square GEMM on a copy of A(k, n) rather than three products
// with triangles.
template <class T>
class ApplyDiagonalQh {
public:
    ApplyDiagonalQh(TileMatrix<T>& A, QRFactors<T>& F, int64_t k, bool on_device, int prio)
        : A_(A), F_(F), k_(k), on_device_(on_device), prio_(prio) {}
    ~ApplyDiagonalQh() {
        if (qh_) tasks::release_temp_tile(qh_);
        if (v_copied_) tasks::release_temp_tile(v_);
    }
    ApplyDiagonalQh(const ApplyDiagonalQh&) = delete;
    ApplyDiagonalQh& operator=(const ApplyDiagonalQh&) = delete;

    void operator()(int64_t n, int prio) {
        if (!q_.made()) prepare();
        if (!on_device_) {
            tasks::gemqrt<T>(Side::Left, Trans::ConjTrans, q_.ib(), v_, q_.t(), A_.handle(k_, n), prio);
            return;
        }
        const TileHandle c = tasks::temp_tile<T>(A_.tile_rows(k_), A_.tile_cols(n), A_.owner(k_, n));
        tasks::lacpy<T>(Uplo::General, A_.handle(k_, n), c, prio);
        tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), qh_, c, T(0), A_.handle(k_, n), prio);
        tasks::release_temp_tile(c);
    }

private:
    // The copy of V (when a tpqrt follows), the reflectors, and with a device Qᴴ.
    void prepare() {
        const int64_t rows = A_.tile_rows(k_);
        v_ = A_.handle(k_, k_);
        if (k_ + 1 < A_.mt()) {
            v_ = tasks::temp_tile<T>(rows, A_.tile_cols(k_), A_.owner(k_, k_));
            tasks::lacpy<T>(Uplo::Lower, A_.handle(k_, k_), v_, prio_);
            v_copied_ = true;
        }
        q_.make(on_device_, false, v_, F_.handle(k_, k_), F_.ib(), std::min(rows, A_.tile_cols(k_)),
                   A_.owner(k_, k_), prio_);
        if (!on_device_) return;
        qh_ = tasks::temp_tile<T>(rows, rows, A_.owner(k_, k_));
        tasks::form_q<T>(Trans::ConjTrans, q_.ib(), v_, q_.t(), qh_, prio_);
    }

    const TileMatrix<T>& A_;
    const QRFactors<T>& F_;
    const int64_t k_;
    const bool on_device_;
    const int prio_;
    TileHandle v_ = nullptr, qh_ = nullptr;  // V (A(k, k) or its copy), Qᴴ
    bool v_copied_ = false;
    Reflectors<T> q_;
};

// Step k's update of rows k and m by the reflectors tpqrt left in A(m, k):
// [A(k, n); A(m, n)] = Q(m, k)ᴴ·[A(k, n); A(m, n)] for n > k (PLASMA's tsmqr step), a tpmqrt each.
template <class T>
class ApplyPairQh {
public:
    ApplyPairQh(TileMatrix<T>& A, QRFactors<T>& F, int64_t m, int64_t k, bool on_device, int prio)
        : A_(A), F_(F), m_(m), k_(k), on_device_(on_device), prio_(prio) {}
    ApplyPairQh(const ApplyPairQh&) = delete;
    ApplyPairQh& operator=(const ApplyPairQh&) = delete;

    void operator()(int64_t n, int prio) {
        if (!q_.made())
            q_.make(on_device_, true, A_.handle(m_, k_), F_.handle(m_, k_), F_.ib(), A_.tile_cols(k_),
                       A_.owner(m_, k_), prio_);
        tasks::tpmqrt<T>(Side::Left, Trans::ConjTrans, q_.ib(), A_.handle(m_, k_), q_.t(), A_.handle(k_, n),
                         A_.handle(m_, n), prio);
    }

private:
    const TileMatrix<T>& A_;
    const QRFactors<T>& F_;
    const int64_t m_, k_;
    const bool on_device_;
    const int prio_;
    Reflectors<T> q_;
};

}  // namespace

template <class T>
void geqrf_async(TileMatrix<T>& A, QRFactors<T>& F, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("geqrf");
    check_arg(F.matches(A), "geqrf", "F", F.m(), "must be built for A (QRFactors(A, ib))");
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt), ib = F.ib();
    // Critical path: the panel of step k (geqrt, then the chain of tpqrt down the column), then the
    // updates of column k+1 (which feed the next panel), then the rest of the trailing matrix.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - std::min<int64_t>(dist, 3)); };
    const bool on_device = detail::opencl_devices() > 0;  // the updates' formulation (the classes above)
    for (int64_t k = 0; k < kt; ++k) {
        tasks::geqrt<T>(ib, A.handle(k, k), F.handle(k, k), prio(k, 0));
        ApplyDiagonalQh<T> row(A, F, k, on_device, prio(k, 0));
        for (int64_t n = k + 1; n < nt; ++n) row(n, prio(k, n - k));
        for (int64_t m = k + 1; m < mt; ++m) {
            tasks::tpqrt<T>(ib, A.handle(k, k), A.handle(m, k), F.handle(m, k), prio(k, 0));
            ApplyPairQh<T> rows(A, F, m, k, on_device, prio(k, 0));
            for (int64_t n = k + 1; n < nt; ++n) rows(n, prio(k, n - k));
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
    template void geqrf_async(TileMatrix<T>&, QRFactors<T>&, Sequence&); \
    template QRFactors<T> geqrf(TileMatrix<T>&, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

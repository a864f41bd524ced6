// IncpivFactors: the pivots and L tiles of incremental-pivoting LU, as StarPU handles without home
// storage (StarPU allocates each where the task that produces it runs). Distributed, each belongs
// to the owner of the tile of A whose factorization step produces it.
#include <starpu.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/common.hpp"
#include "tessera/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
struct IncpivFactors<T>::Impl {
    int64_t m = 0, n = 0, nb = 1, ib = 1, mt = 0, nt = 0, kt = 0;
    std::vector<TileHandle> ipiv, l, diag;  // ipiv and l indexed k·mt + i
    uint64_t live = 0;      // id in the Runtime's list of live matrices (runtime/live_matrices.cpp)
    bool orphaned = false;  // the Runtime stopped first: handles released, every use refused

    Impl(int64_t m_, int64_t n_, int64_t nb_, int64_t ib_, Distribution dist) : m(m_), n(n_), nb(nb_), ib(ib_) {
        mt = m / nb + (m % nb != 0), nt = n / nb + (n % nb != 0), kt = std::min(mt, nt);  // no m + nb overflow
        ipiv.assign(size_t(kt * mt), nullptr);
        l.assign(size_t(kt * mt), nullptr);
        diag.assign(size_t(kt), nullptr);
        for (int64_t k = 0; k < kt; ++k) {
            const int64_t rows = k + 1 < mt ? nb : m - k * nb, cols = k + 1 < nt ? nb : n - k * nb;
            starpu_matrix_data_register(&diag[size_t(k)], -1, 0, uint32_t(rows), uint32_t(rows), uint32_t(cols), sizeof(T));
            detail::mpi_register(diag[size_t(k)], dist.owner(k, k));
            starpu_vector_data_register(&ipiv[size_t(k * mt + k)], -1, 0, uint32_t(std::min(rows, cols)), sizeof(int));
            detail::mpi_register(ipiv[size_t(k * mt + k)], dist.owner(k, k));
            for (int64_t i = k + 1; i < mt; ++i) {
                starpu_vector_data_register(&ipiv[size_t(k * mt + i)], -1, 0, uint32_t(cols), sizeof(int));
                detail::mpi_register(ipiv[size_t(k * mt + i)], dist.owner(i, k));
                starpu_matrix_data_register(&l[size_t(k * mt + i)], -1, 0, uint32_t(ib), uint32_t(ib), uint32_t(cols),
                                            sizeof(T));
                detail::mpi_register(l[size_t(k * mt + i)], dist.owner(i, k));
            }
        }
        live = detail::track_matrix(this, &Impl::orphan);
    }
    ~Impl() {
        if (live != 0) detail::untrack_matrix(live);
        drop();
    }
    void drop() noexcept {
        for (auto* v : {&ipiv, &l, &diag}) {
            for (TileHandle h : *v)
                if (h) starpu_data_unregister_no_coherency(h);
            v->clear();
        }
    }
    static void orphan(void* self) noexcept {
        auto* f = static_cast<Impl*>(self);
        f->live = 0;
        f->drop();
        f->orphaned = true;
    }
    const Impl& usable() const {
        if (orphaned)
            throw Error("tessera::IncpivFactors: the factors' Runtime has stopped (they must not outlive their Runtime)");
        return *this;
    }
};

template <class T>
IncpivFactors<T>::IncpivFactors() = default;
template <class T>
IncpivFactors<T>::~IncpivFactors() = default;
template <class T>
IncpivFactors<T>::IncpivFactors(IncpivFactors&&) noexcept = default;
template <class T>
IncpivFactors<T>& IncpivFactors<T>::operator=(IncpivFactors&&) noexcept = default;

template <class T>
int64_t IncpivFactors<T>::m() const { return impl_ ? impl_->m : 0; }
template <class T>
int64_t IncpivFactors<T>::n() const { return impl_ ? impl_->n : 0; }
template <class T>
int64_t IncpivFactors<T>::nb() const { return impl_ ? impl_->nb : 0; }
template <class T>
int64_t IncpivFactors<T>::ib() const { return impl_ ? impl_->ib : 0; }
template <class T>
bool IncpivFactors<T>::empty() const { return !impl_; }

template <class T>
void IncpivFactors<T>::reset(int64_t m, int64_t n, int64_t nb, int64_t ib, Distribution dist) {
    detail::require_runtime("IncpivFactors");
    impl_.reset();
    impl_ = std::make_unique<Impl>(m, n, nb, ib, dist);
}

template <class T>
TileHandle IncpivFactors<T>::ipiv(int64_t i, int64_t k) const { return impl_->usable().ipiv[size_t(k * impl_->mt + i)]; }
template <class T>
TileHandle IncpivFactors<T>::l(int64_t i, int64_t k) const { return impl_->usable().l[size_t(k * impl_->mt + i)]; }
template <class T>
TileHandle IncpivFactors<T>::diag(int64_t k) const { return impl_->usable().diag[size_t(k)]; }

#define TESSERA_INSTANTIATE(T) template class IncpivFactors<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

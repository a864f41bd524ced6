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
    // The handles: ipiv(i, k) at k·mt + i, then l(i, k) at kt·mt + k·mt + i, then diag(k) at 2·kt·mt + k.
    detail::TileStorage store;

    Impl(int64_t m_, int64_t n_, int64_t nb_, int64_t ib_, Distribution dist) : m(m_), n(n_), nb(nb_), ib(ib_) {
        mt = m / nb + (m % nb != 0), nt = n / nb + (n % nb != 0), kt = std::min(mt, nt);  // no m + nb overflow
        std::vector<TileHandle>& h = store.handles();
        h.assign(size_t(2 * kt * mt + kt), nullptr);
        auto reg = [&](TileHandle& handle, int owner, bool vector, int64_t rows, int64_t cols, size_t elem) {
            if (vector) starpu_vector_data_register(&handle, -1, 0, uint32_t(rows), elem);
            else starpu_matrix_data_register(&handle, -1, 0, uint32_t(rows), uint32_t(rows), uint32_t(cols), elem);
            detail::mpi_register(handle, owner);
        };
        for (int64_t k = 0; k < kt; ++k) {
            const int64_t rows = k + 1 < mt ? nb : m - k * nb, cols = k + 1 < nt ? nb : n - k * nb;
            reg(h[size_t(2 * kt * mt + k)], dist.owner(k, k), false, rows, cols, sizeof(T));
            reg(h[size_t(k * mt + k)], dist.owner(k, k), true, std::min(rows, cols), 1, sizeof(int));
            for (int64_t i = k + 1; i < mt; ++i) {
                reg(h[size_t(k * mt + i)], dist.owner(i, k), true, cols, 1, sizeof(int));
                reg(h[size_t(kt * mt + k * mt + i)], dist.owner(i, k), false, ib, cols, sizeof(T));
            }
        }
        store.track();
    }
    TileHandle at(int64_t index) const {
        if (store.orphaned())
            throw Error("tessera::IncpivFactors: the factors' Runtime has stopped (they must not outlive their Runtime)");
        return store.handles()[size_t(index)];
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
TileHandle IncpivFactors<T>::ipiv(int64_t i, int64_t k) const { return impl_->at(k * impl_->mt + i); }
template <class T>
TileHandle IncpivFactors<T>::l(int64_t i, int64_t k) const { return impl_->at(impl_->kt * impl_->mt + k * impl_->mt + i); }
template <class T>
TileHandle IncpivFactors<T>::diag(int64_t k) const { return impl_->at(2 * impl_->kt * impl_->mt + k); }

#define TESSERA_INSTANTIATE(T) template class IncpivFactors<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

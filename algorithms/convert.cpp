// Conversions between LAPACK column-major arrays and tile matrices, and tile generation, as tasks.
#include <starpu.h>

#include <algorithm>
#include <vector>

#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"
#include "tessera/tile_matrix.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

// Register the part of a column-major array that tile (i, j) of A covers (leading dimension lda).
// Distributed, the array is rank 0's: the region is rank 0's data, which the other ranks register
// without storage, and StarPU-MPI carries it between rank 0 and the tile's owner.
template <class T>
TileHandle register_region(const TileMatrix<T>& A, const T* a, int64_t lda, int64_t i, int64_t j) {
    const T* corner = detail::rank() == 0 ? a + i * A.nb() + j * A.nb() * lda : nullptr;
    return tasks::register_tile(corner, A.tile_rows(i), A.tile_cols(j), lda, sizeof(T), 0);
}

// Whether tile (i, j) of a matrix of square tiles holds part of uplo's triangle (General: every tile).
bool in_triangle(Uplo uplo, int64_t i, int64_t j) {
    return uplo == Uplo::General || (uplo == Uplo::Lower ? i >= j : i <= j);
}

// Distributed, rank 0 alone has the array: its lda and pointer are the ones that must be checked.
bool lda_ok(int64_t lda, int64_t m) { return detail::rank() != 0 || lda >= std::max<int64_t>(1, m); }
bool pointer_ok(const void* a, int64_t m, int64_t n) { return detail::rank() != 0 || a != nullptr || m == 0 || n == 0; }

}  // namespace

// Outside an algorithm, these tasks join the calling thread's implicit sequence (see Sequence):
// to_lapack, a wait, reports its failures. A region registered on the caller's array is always
// unregistered, even when a submission fails, so that StarPU keeps no handle on that memory.

template <class T>
void TileMatrix<T>::fill_from_lapack(const T* a, int64_t lda, Uplo uplo) {
    check_arg(lda_ok(lda, m_), "fill_from_lapack", "lda", lda, "must be >= max(1, m)");
    check_arg(pointer_ok(a, m_, n_), "fill_from_lapack", "a", 0, "must not be null");
    check_usable("TileMatrix::fill_from_lapack");
    detail::require_runtime("TileMatrix::fill_from_lapack");
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) {
            if (!in_triangle(uplo, i, j)) continue;
            TileHandle region = register_region(*this, a, lda, i, j);
            try {
                tasks::lacpy_host<T>(region, handle(i, j));
            } catch (...) {
                starpu_data_unregister_submit(region);
                throw;
            }
            starpu_data_unregister_submit(region);
        }
}

template <class T>
void TileMatrix<T>::to_lapack(T* a, int64_t lda, Uplo uplo) const {
    check_arg(lda_ok(lda, m_), "to_lapack", "lda", lda, "must be >= max(1, m)");
    check_arg(pointer_ok(a, m_, n_), "to_lapack", "a", 0, "must not be null");
    check_usable("TileMatrix::to_lapack");
    detail::require_runtime("TileMatrix::to_lapack");
    // Distributed, one tile column at a time: rank 0 then holds at most one column of other ranks'
    // tiles besides `a` (each received tile is dropped once copied). In one process every copy is
    // in flight at once.
    std::vector<TileHandle> regions;
    regions.reserve(size_t(detail::distributed() ? mt_ : mt_ * nt_));
    auto unregister_all = [&regions] {  // waits for the copies submitted, brings each region home
        for (TileHandle region : regions) starpu_data_unregister(region);
        regions.clear();
    };
    try {
        for (int64_t j = 0; j < nt_; ++j) {
            for (int64_t i = 0; i < mt_; ++i) {
                if (!in_triangle(uplo, i, j)) continue;
                regions.push_back(register_region(*this, a, lda, i, j));
                tasks::lacpy_host<T>(handle(i, j), regions.back());
                detail::mpi_flush(handle(i, j));
            }
            if (detail::distributed()) unregister_all();
        }
        unregister_all();
    } catch (...) {
        unregister_all();
        throw;
    }
    detail::wait_detached();
}

template <class T>
void TileMatrix<T>::generate(TileGenerator f) {
    check_usable("TileMatrix::generate");
    detail::require_runtime("TileMatrix::generate");
    check_arg(bool(f), "TileMatrix::generate", "f", 0, "must not be empty");
    auto shared = std::make_shared<const tasks::TileFunction<T>>(std::move(f));
    for (int64_t j = 0; j < nt_; ++j)
        for (int64_t i = 0; i < mt_; ++i) tasks::generate<T>(shared, i * nb_, j * nb_, handle(i, j));
}

#define TESSERA_INSTANTIATE(T)                                              \
    template void TileMatrix<T>::fill_from_lapack(const T*, int64_t, Uplo); \
    template void TileMatrix<T>::to_lapack(T*, int64_t, Uplo) const;        \
    template void TileMatrix<T>::generate(TileGenerator);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

// Host access to a tile matrix's entries for the eigen and SVD drivers' host phases (heevd.cpp,
// gesvd.cpp). The matrix's valid copies must be in main memory and no task may use it meanwhile.
#pragma once

#include <cstdint>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// Entry (r, c) of M's host storage.
template <class T>
T& host_at(const TileMatrix<T>& M, int64_t r, int64_t c) {
    const int64_t nb = M.nb();
    return M.tile_data(r / nb, c / nb)[r % nb + (c % nb) * M.tile_ld(r / nb)];
}

/// M = [Z 0; 0 I] on M's host tiles: Z the zr×zc column-major block z (leading dimension ldz) of
/// real_t<T> or T scalars in the top-left corner, ones on the rest of the diagonal, zeros elsewhere.
template <class T, class S = real_t<T>>
void host_embed(const S* z, int64_t ldz, int64_t zr, int64_t zc, const TileMatrix<T>& M) {
    const int64_t nb = M.nb();
    for (int64_t j = 0; j < M.nt(); ++j)
        for (int64_t i = 0; i < M.mt(); ++i) {
            T* a = M.tile_data(i, j);
            for (int64_t c = 0; c < M.tile_cols(j); ++c)
                for (int64_t r = 0; r < M.tile_rows(i); ++r) {
                    const int64_t gr = i * nb + r, gc = j * nb + c;
                    a[r + c * M.tile_ld(i)] = gr < zr && gc < zc ? T(z[gr + gc * ldz])
                                              : gr == gc && gc >= zc ? T(1)
                                                                     : T(0);
                }
        }
}

}  // namespace tessera::detail

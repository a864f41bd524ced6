// Host access to a tile matrix's entries for the eigen and SVD drivers' host phases (heevd.cpp,
// gesvd.cpp). The matrix's valid copies must be in main memory and no task may use it meanwhile.
#pragma once

#include <cstdint>

#include "kernels/cpu/band_reflectors.hpp"
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
/// The tiles one by one through for_each (heevd: CPU tasks; 2 GB took about a second in order on
/// an H200's host at n = 16384), or in order on the calling thread.
template <class T, class S = real_t<T>>
void host_embed(const S* z, int64_t ldz, int64_t zr, int64_t zc, const TileMatrix<T>& M,
                const cpu::ParallelFor& for_each = {}) {
    const int64_t nb = M.nb(), mt = M.mt();
    auto tile = [&](int64_t t) {
        const int64_t i = t % mt, j = t / mt, ld = M.tile_ld(i);
        T* a = M.tile_data(i, j);
        for (int64_t c = 0; c < M.tile_cols(j); ++c) {
            const int64_t gc = j * nb + c;
            for (int64_t r = 0; r < M.tile_rows(i); ++r) {
                const int64_t gr = i * nb + r;
                a[r + c * ld] = gr < zr && gc < zc ? T(z[gr + gc * ldz]) : gr == gc && gc >= zc ? T(1) : T(0);
            }
        }
    };
    if (for_each) for_each(mt * M.nt(), tile);
    else
        for (int64_t t = 0; t < mt * M.nt(); ++t) tile(t);
}

}  // namespace tessera::detail

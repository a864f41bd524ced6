// Communication models of tessera-tester --comm (comm_model.hpp).
#include "examples/tester/comm_model.hpp"

#include <algorithm>
#include <set>

namespace tessera::tester {
namespace {

int64_t tiles(int64_t n, int64_t nb) { return (n + nb - 1) / nb; }

// Bytes of tile (i, j) of an m×n matrix split in nb×nb tiles.
double tile_bytes(int64_t i, int64_t j, int64_t m, int64_t n, int64_t nb, size_t elem) {
    const int64_t rows = std::min(nb, m - i * nb), cols = std::min(nb, n - j * nb);
    return double(rows) * double(cols) * double(elem);
}

// Right-looking tile Cholesky (lower): at step k the diagonal tile goes to the owners of the panel
// tiles below it, and panel tile (m, k) to the owners of the trailing tiles of row m and column m.
double potrf_bytes(int64_t n, int64_t nb, Distribution g, size_t elem) {
    const int64_t nt = tiles(n, nb);
    double bytes = 0;
    for (int64_t k = 0; k < nt; ++k) {
        std::set<int> to;
        for (int64_t m = k + 1; m < nt; ++m) to.insert(g.owner(m, k));
        to.erase(g.owner(k, k));
        bytes += double(to.size()) * tile_bytes(k, k, n, n, nb, elem);
        for (int64_t m = k + 1; m < nt; ++m) {
            std::set<int> dest;
            for (int64_t j = k + 1; j <= m; ++j) dest.insert(g.owner(m, j));
            for (int64_t i = m + 1; i < nt; ++i) dest.insert(g.owner(i, m));
            dest.erase(g.owner(m, k));
            bytes += double(dest.size()) * tile_bytes(m, k, n, n, nb, elem);
        }
    }
    return bytes;
}

// C = A·B (no transposes): A(i, l) goes to the owners of row i of C, B(l, j) to those of column j.
double gemm_bytes(int64_t m, int64_t n, int64_t k, int64_t nb, Distribution g, size_t elem) {
    const int64_t mt = tiles(m, nb), nt = tiles(n, nb), kt = tiles(k, nb);
    double bytes = 0;
    for (int64_t l = 0; l < kt; ++l) {
        for (int64_t i = 0; i < mt; ++i) {
            std::set<int> dest;
            for (int64_t j = 0; j < nt; ++j) dest.insert(g.owner(i, j));
            dest.erase(g.owner(i, l));
            bytes += double(dest.size()) * tile_bytes(i, l, m, k, nb, elem);
        }
        for (int64_t j = 0; j < nt; ++j) {
            std::set<int> dest;
            for (int64_t i = 0; i < mt; ++i) dest.insert(g.owner(i, j));
            dest.erase(g.owner(l, j));
            bytes += double(dest.size()) * tile_bytes(l, j, k, n, nb, elem);
        }
    }
    return bytes;
}

}  // namespace

std::optional<double> model_bytes_sent(const std::string& op, const Params& p, Distribution grid, size_t elem_bytes) {
    if (op == "potrf" && p.uplo == Uplo::Lower) return potrf_bytes(p.n, p.nb, grid, elem_bytes);
    if (op == "gemm" && p.transA == Trans::NoTrans && p.transB == Trans::NoTrans)
        return gemm_bytes(p.m, p.n, p.k, p.nb, grid, elem_bytes);
    return std::nullopt;
}

}  // namespace tessera::tester

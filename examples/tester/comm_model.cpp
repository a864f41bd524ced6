// Communication models of tessera-tester --comm (comm_model.hpp).
#include "examples/tester/comm_model.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

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

// One datum a task accesses: its owner, its bytes, and how.
struct Access {
    int owner;
    double bytes;
    bool read, write;
};

// The rank StarPU-MPI runs a task on when its written data have several owners: the rank holding
// the most bytes of the task's data, read and written data counted once per mode, the lowest rank
// on a tie (StarPU 1.3's _starpu_mpi_select_node_with_most_data).
int executing_rank(const std::vector<Access>& data) {
    std::map<int, double> held;
    for (const Access& a : data) held[a.owner] += (a.read ? a.bytes : 0) + (a.write ? a.bytes : 0);
    int best = data.front().owner;
    for (const auto& [rank, bytes] : held)
        if (bytes > held[best] || (bytes == held[best] && rank < best)) best = rank;
    return best;
}

// What a task that writes tiles of several owners sends: each datum it reads from another rank,
// and each it writes back to its owner (a written datum leaves every rank's cache). `x` runs it.
double sent_by_task(const std::vector<Access>& data, int x) {
    double bytes = 0;
    for (const Access& a : data)
        if (a.owner != x) bytes += (a.read ? a.bytes : 0) + (a.write ? a.bytes : 0);
    return bytes;
}

// Tile LU with incremental pivoting (PLASMA's getrf_incpiv). At step k: the copy of the diagonal
// tile's L and its pivots go to the owners of row k's trailing tiles (gessm). tstrf(i) writes U_kk
// and A(i, k), ssssm(i, j) writes A(k, j) and A(i, j): each runs where most of its data is (on
// full tiles the owner of the lower tile), the other written tile travels there and back, and
// ssssm's read-only panel data (L(i, k) of ib rows, A(i, k), the pivots) go once to each rank
// that runs an update of row i.
double getrf_incpiv_bytes(int64_t n, int64_t nb, int64_t ib, Distribution g, size_t elem) {
    const int64_t nt = tiles(n, nb);
    double bytes = 0;
    for (int64_t k = 0; k < nt; ++k) {
        const int64_t cols = std::min(nb, n - k * nb);  // of tile column k: its pivots and L tiles
        const double diag = tile_bytes(k, k, n, n, nb, elem), pivots = double(cols) * sizeof(int);
        const double l_tile = double(std::min(ib, nb) * cols) * double(elem);
        std::set<int> row_k;
        for (int64_t j = k + 1; j < nt; ++j) row_k.insert(g.owner(k, j));
        row_k.erase(g.owner(k, k));
        bytes += double(row_k.size()) * (diag + pivots);
        for (int64_t i = k + 1; i < nt; ++i) {
            const int panel = g.owner(i, k);
            const double a_ik = tile_bytes(i, k, n, n, nb, elem);
            const std::vector<Access> tstrf{
                {g.owner(k, k), diag, true, true}, {panel, a_ik, true, true}, {panel, l_tile, false, true},
                {panel, pivots, false, true}};
            bytes += sent_by_task(tstrf, executing_rank(tstrf));
            std::set<int> panel_sent_to;
            for (int64_t j = k + 1; j < nt; ++j) {
                const std::vector<Access> ssssm{{g.owner(k, j), tile_bytes(k, j, n, n, nb, elem), true, true},
                                                {g.owner(i, j), tile_bytes(i, j, n, n, nb, elem), true, true},
                                                {panel, l_tile, true, false},
                                                {panel, a_ik, true, false},
                                                {panel, pivots, true, false}};
                const int x = executing_rank(ssssm);
                bytes += sent_by_task({ssssm[0], ssssm[1]}, x);
                if (x != panel) panel_sent_to.insert(x);
            }
            bytes += double(panel_sent_to.size()) * (a_ik + l_tile + pivots);
        }
    }
    return bytes;
}

}  // namespace

std::optional<double> model_bytes_sent(const std::string& op, const Params& p, Distribution grid, size_t elem_bytes) {
    if (op == "potrf" && p.uplo == Uplo::Lower) return potrf_bytes(p.n, p.nb, grid, elem_bytes);
    if (op == "gemm" && p.transA == Trans::NoTrans && p.transB == Trans::NoTrans)
        return gemm_bytes(p.m, p.n, p.k, p.nb, grid, elem_bytes);
    if (op == "getrf_incpiv") return getrf_incpiv_bytes(p.n, p.nb, p.ib, grid, elem_bytes);
    return std::nullopt;
}

}  // namespace tessera::tester

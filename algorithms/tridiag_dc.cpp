// The symmetric tridiagonal eigenproblem by divide and conquer with the merges as tasks
// (tridiag_dc.hpp): LAPACK xLAED0's tree, its leaves by xSTEDC on CPU workers, and each merge as
// xLAED1 does it (the z vector, xLAED2's deflation, xLAED3, xLAMRG's order) with xLAED3 as a
// tasks::secular_merge, which a GPU runs in milliseconds where xLAED3's products and xLAED4 take most
// of xSTEDC's time on the host.
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include "algorithms/tridiag_dc.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks_eig.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tile_storage.hpp"

extern "C" {
void slaed2_(int* k, const int* n, const int* n1, float* d, float* q, const int* ldq, int* indxq, float* rho, float* z,
             float* dlamda, float* w, float* q2, int* indx, int* indxc, int* indxp, int* coltyp, int* info);
void dlaed2_(int* k, const int* n, const int* n1, double* d, double* q, const int* ldq, int* indxq, double* rho,
             double* z, double* dlamda, double* w, double* q2, int* indx, int* indxc, int* indxp, int* coltyp,
             int* info);
void slamrg_(const int* n1, const int* n2, const float* a, const int* dtrd1, const int* dtrd2, int* index);
void dlamrg_(const int* n1, const int* n2, const double* a, const int* dtrd1, const int* dtrd2, int* index);
}

namespace tessera::detail {

namespace {

template <class R>
int stedc_leaf(int64_t m, R* d, R* e, R* z, int64_t ldz) {
    if constexpr (std::is_same_v<R, float>) return LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', int(m), d, e, z, int(ldz));
    else return LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', int(m), d, e, z, int(ldz));
}

template <class R>
void scale(R from, R to, int64_t m, R* x) {
    if (m <= 0) return;
    if constexpr (std::is_same_v<R, float>) LAPACKE_slascl(LAPACK_COL_MAJOR, 'G', 0, 0, from, to, int(m), 1, x, int(m));
    else LAPACKE_dlascl(LAPACK_COL_MAJOR, 'G', 0, 0, from, to, int(m), 1, x, int(m));
}

// One merge of rows off … off+n1+n2−1: xLAED1's host part before and after its tasks::secular_merge.
// q2 and qk point into staging buffers of the whole problem (n² each, at element off·n: a merge needs
// at most m² ≤ m·n), reused by every level, so that the copies of a level fault no page in.
template <class R>
struct Merge {
    int64_t off = 0, n1 = 0, n2 = 0;
    int k = 0, info = 0;
    ocl::SecularMerge shape{};
    std::vector<R> vec;  // DLAMDA, W, INDXC − 1 (as reals)
    R* q2 = nullptr;     // xLAED2's Q2 (xLAED1 gives it m²: the deflated columns pass through it too)
    R* qk = nullptr;     // the merge's m×k eigenvectors (leading dimension m), then copied into the block

    // xLAED1 up to xLAED3: the z vector from the halves' last and first rows, then xLAED2, which
    // deflates and leaves the deflated vectors in q's last m − k columns of the block.
    void deflate(R* d, R* q, int64_t ldq, int* indxq, R rho) {
        const int m = int(n1 + n2), in1 = int(n1), iq = int(ldq);
        R* block = q + off + off * ldq;
        std::vector<R> z(static_cast<size_t>(m)), dlamda(static_cast<size_t>(m)), w(static_cast<size_t>(m));
        for (int64_t c = 0; c < n1; ++c) z[size_t(c)] = block[(n1 - 1) + c * ldq];
        for (int64_t c = n1; c < m; ++c) z[size_t(c)] = block[n1 + c * ldq];
        // COLTYP gets xLAED2's four column counts whatever m (xLAED1's workspace is 4·n ints).
        std::vector<int> indx(static_cast<size_t>(m)), indxc(static_cast<size_t>(m)), indxp(static_cast<size_t>(m)),
            coltyp(static_cast<size_t>(std::max(m, 4)));
        int dinfo = 0;
        if constexpr (std::is_same_v<R, float>)
            slaed2_(&k, &m, &in1, d + off, block, &iq, indxq + off, &rho, z.data(), dlamda.data(), w.data(), q2,
                    indx.data(), indxc.data(), indxp.data(), coltyp.data(), &dinfo);
        else
            dlaed2_(&k, &m, &in1, d + off, block, &iq, indxq + off, &rho, z.data(), dlamda.data(), w.data(), q2,
                    indx.data(), indxc.data(), indxp.data(), coltyp.data(), &dinfo);
        if (dinfo != 0) throw Error("tessera::tridiag_dc: xLAED2 returned info " + std::to_string(dinfo));
        if (k == 0) return;
        shape = {k, n1, n2, coltyp[0] + coltyp[1], coltyp[1] + coltyp[2], coltyp[0], double(rho)};
        vec.resize(3 * size_t(k));
        for (int i = 0; i < k; ++i) {
            vec[size_t(i)] = dlamda[size_t(i)];
            vec[size_t(k + i)] = w[size_t(i)];
            vec[size_t(2 * k + i)] = R(indxc[size_t(i)] - 1);
        }
    }

    // The task's vectors into the block's first k columns.
    void place(R* q, int64_t ldq, int64_t c0, int64_t c1) const {
        const int64_t m = n1 + n2;
        for (int64_t c = c0; c < c1; ++c) std::copy(qk + c * m, qk + (c + 1) * m, q + off + (off + c) * ldq);
    }

    // xLAED1 after xLAED3: the block's order, its k roots ascending before the deflated values.
    void order(const R* d, int* indxq) const {
        const int m = int(n1 + n2), rest = m - k, one = 1, minus = -1;
        if (k == 0) {
            for (int i = 0; i < m; ++i) indxq[off + i] = i + 1;
        } else if constexpr (std::is_same_v<R, float>) {
            slamrg_(&k, &rest, d + off, &one, &minus, indxq + off);
        } else {
            dlamrg_(&k, &rest, d + off, &one, &minus, indxq + off);
        }
    }
};

// The merges of one level: every deflation on the host, each followed at once by its task, then the
// tasks waited for, their outputs brought home (one contiguous block each: a block of Q itself, of
// leading dimension n, came home a column at a time, 0.7 s a level at n = 16384 on an H200) and put
// into Q by CPU tasks.
template <class R>
void merge_level(std::vector<Merge<R>>& merges, R* d, R* q, int64_t ldq, int* indxq, const std::vector<R>& rho_at) {
    tasks::HostRegistrations reg;
    Sequence seq;
    {
        SubmitScope scope(seq);
        for (Merge<R>& mg : merges) {
            mg.deflate(d, q, ldq, indxq, rho_at[size_t(mg.off + mg.n1 - 1)]);
            if (mg.k == 0) continue;
            const int64_t k = mg.k, m = mg.n1 + mg.n2, l = mg.n1 * mg.shape.n12 + mg.n2 * mg.shape.n23;
            const size_t first = reg.h.size();
            reg.h.push_back(tasks::register_tile(mg.vec.data(), 3 * k, 1, 3 * k, sizeof(R), 0));
            reg.h.push_back(tasks::register_tile(d + mg.off, k, 1, k, sizeof(R), 0));
            reg.h.push_back(tasks::register_tile(mg.q2, l, 1, l, sizeof(R), 0));
            reg.h.push_back(tasks::register_tile(mg.qk, m, k, m, sizeof(R), 0));
            const TileHandle scratch = tasks::temp_tile<R>(k, 2 * k + 1, 0);
            const std::vector<TileHandle>& h = reg.h;
            tasks::secular_merge<R>(mg.shape, h[first], h[first + 1], h[first + 2], h[first + 3], scratch, &mg.info);
            tasks::release_temp_tile(scratch);
        }
    }
    seq.wait();
    reg.home();
    // Chunks of about 2²⁰ entries of the level's k columns, on the CPU workers.
    struct Part {
        const Merge<R>* mg;
        int64_t c0, c1;
    };
    std::vector<Part> parts;
    for (const Merge<R>& mg : merges) {
        const int64_t step = std::max<int64_t>(1, (int64_t(1) << 20) / (mg.n1 + mg.n2));
        for (int64_t c = 0; c < mg.k; c += step) parts.push_back({&mg, c, std::min<int64_t>(c + step, mg.k)});
    }
    tasks::run_host_tasks("tridiag_dc", int64_t(parts.size()), [&](int64_t i) {
        const Part& p = parts[size_t(i)];
        p.mg->place(q, ldq, p.c0, p.c1);
    });
}

// Columns and entries put in the order perm (0-based: new j = old perm[j]), in place by its cycles.
template <class R>
void permute(int64_t n, const std::vector<int>& perm, R* d, R* z, int64_t ldz) {
    std::vector<char> done(static_cast<size_t>(n), 0);
    std::vector<R> col(static_cast<size_t>(n));
    for (int64_t start = 0; start < n; ++start) {
        if (done[size_t(start)]) continue;
        const R dstart = d[start];
        std::copy(z + start * ldz, z + start * ldz + n, col.begin());
        int64_t j = start;
        for (;;) {
            done[size_t(j)] = 1;
            const int64_t from = perm[size_t(j)];
            if (from == start) break;
            d[j] = d[from];
            std::copy(z + from * ldz, z + from * ldz + n, z + j * ldz);
            j = from;
        }
        d[j] = dstart;
        std::copy(col.begin(), col.end(), z + j * ldz);
    }
}

}  // namespace

template <class R>
int64_t tridiag_dc(int64_t n, R* d, R* e, R* z, int64_t ldz, int64_t leaf) {
    if (n <= 0) return 0;
    for (int64_t j = 0; j < n; ++j) std::fill(z + j * ldz, z + j * ldz + n, R(0));
    R orgnrm = 0;
    for (int64_t i = 0; i < n; ++i) orgnrm = std::max(orgnrm, std::abs(d[i]));
    for (int64_t i = 0; i + 1 < n; ++i) orgnrm = std::max(orgnrm, std::abs(e[i]));
    if (orgnrm == 0 || n == 1) {
        for (int64_t j = 0; j < n; ++j) z[j + j * ldz] = R(1);
        return 0;
    }
    scale(orgnrm, R(1), n, d);
    scale(orgnrm, R(1), n - 1, e);

    // xLAED0's pieces: every piece halved (⌊s/2⌋ rows, then ⌈s/2⌉) while one exceeds the leaf size.
    leaf = std::max<int64_t>(leaf, 2);
    std::vector<int64_t> sizes{n};
    while (*std::max_element(sizes.begin(), sizes.end()) > leaf) {
        std::vector<int64_t> halves;
        for (int64_t s : sizes) halves.insert(halves.end(), {s / 2, (s + 1) / 2});
        sizes.swap(halves);
    }
    std::vector<int64_t> start(sizes.size(), 0);
    for (size_t i = 1; i < sizes.size(); ++i) start[i] = start[i - 1] + sizes[i - 1];
    // Tear T at each cut c into its pieces and the rank-one term rho·v·vᵀ, rho = e[c − 1] (xLAED0).
    std::vector<R> rho_at(e, e + n - 1);
    for (size_t i = 1; i < sizes.size(); ++i) {
        const int64_t c = start[i];
        d[c - 1] -= std::abs(e[c - 1]);
        d[c] -= std::abs(e[c - 1]);
    }

    std::vector<int> indxq(static_cast<size_t>(n));
    std::vector<int> leaf_info(sizes.size(), 0);
    tasks::run_host_tasks("tridiag_dc", int64_t(sizes.size()), [&](int64_t i) {
        const int64_t s = start[size_t(i)], m = sizes[size_t(i)];
        leaf_info[size_t(i)] = stedc_leaf(m, d + s, e + s, z + s + s * ldz, ldz);
        for (int64_t r = 0; r < m; ++r) indxq[size_t(s + r)] = int(r + 1);
    });
    for (size_t i = 0; i < sizes.size(); ++i)
        if (leaf_info[i] != 0) return (start[i] + 1) * (n + 1) + start[i] + sizes[i];

    // The staging from the Runtime's pool: pinned where a GPU runs (the merges' copies then move at
    // the bus's rate: pageable, the top merge's came home at 3.8 GB/s on an H200), faulted in once
    // and kept for the next call of this size.
    detail::TileStorage staging;
    R *q2 = nullptr, *qk = nullptr;
    if (sizes.size() > 1) {
        const size_t bytes = size_t(n) * size_t(n) * sizeof(R);
        require_host_memory("tessera::heevd (divide and conquer)", 2 * uint64_t(bytes));
        q2 = static_cast<R*>(staging.allocate(bytes));
        qk = static_cast<R*>(staging.allocate(bytes));
    }
    while (sizes.size() > 1) {
        std::vector<Merge<R>> merges(sizes.size() / 2);
        for (size_t p = 0; p < merges.size(); ++p) {
            merges[p].off = start[2 * p];
            merges[p].n1 = sizes[2 * p];
            merges[p].n2 = sizes[2 * p + 1];
            merges[p].q2 = q2 + start[2 * p] * n;
            merges[p].qk = qk + start[2 * p] * n;
        }
        merge_level(merges, d, z, ldz, indxq.data(), rho_at);
        sizes.clear();
        start.clear();
        for (const Merge<R>& mg : merges) {
            if (mg.info != 0) return (mg.off + 1) * (n + 1) + mg.off + mg.n1 + mg.n2;
            mg.order(d, indxq.data());
            sizes.push_back(mg.n1 + mg.n2);
            start.push_back(mg.off);
        }
    }

    // xLAMRG's order, made strictly ascending: xLAED2's rotations of close pairs can leave deflated
    // values a few ulps out of order (test_eig's repeated spectrum did), and xSTEDC sorts too.
    std::vector<int> perm(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = indxq[size_t(i)] - 1;
    std::stable_sort(perm.begin(), perm.end(), [d](int a, int b) { return d[a] < d[b]; });
    permute(n, perm, d, z, ldz);
    scale(R(1), orgnrm, n, d);
    return 0;
}

template int64_t tridiag_dc<float>(int64_t, float*, float*, float*, int64_t, int64_t);
template int64_t tridiag_dc<double>(int64_t, double*, double*, double*, int64_t, int64_t);

}  // namespace tessera::detail

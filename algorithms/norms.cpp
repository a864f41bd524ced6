// Matrix norms as tile reductions (LAPACK xLANGE, xLANSY, xLANHE, xLANTR): one norm_tile task per
// tile writes its partial (column maxima, column or row sums, the columns' xLASSQ pairs) into host
// memory registered as a small tile; once they have run, the partials are reduced on the host in a
// fixed order (tessera/norms.hpp).
#include "tessera/norms.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/norms.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

using cpu::NormPart;
using cpu::NormTile;

enum class Shape { General, Trapezoid, Symmetric };

struct Job {
    int64_t i, j;       // tile
    NormPart part;
    NormTile tile;
    size_t off;         // into the partials
    int64_t len;
    bool twice;         // an off-diagonal tile of a symmetric matrix: its entries count twice (Fro)
};

// The handles over the partials, unregistered (bringing every partial home) when done or on an
// exception.
struct PartialHandles {
    std::vector<TileHandle> h;
    void release() {
        tasks::unregister_tiles_home(h);
        h.clear();
    }
    ~PartialHandles() { release(); }
};

bool valid_norm(Norm norm) {
    return norm == Norm::Max || norm == Norm::One || norm == Norm::Inf || norm == Norm::Fro;
}

template <class T>
real_t<T> tile_norm(const char* func, Norm norm, Shape shape, Uplo uplo, Diag diag, bool herm,
                    const TileMatrix<T>& A) {
    using R = real_t<T>;
    check_char_arg(valid_norm(norm), func, "norm", char(norm), "must be Max, One, Inf or Fro ('M', 'O', 'I', 'F')");
    if (shape != Shape::General)
        check_char_arg(uplo == Uplo::Lower || uplo == Uplo::Upper, func, "uplo", char(uplo), "must be Lower or Upper");
    if (shape == Shape::Symmetric) check_arg(A.m() == A.n(), func, "A", A.m(), "rows must equal columns");
    if (shape == Shape::Trapezoid)
        check_char_arg(diag == Diag::Unit || diag == Diag::NonUnit, func, "diag", char(diag), "must be Unit or NonUnit");
    detail::require_runtime(func);
    if (detail::distributed())
        throw Error(std::string("tessera::") + func + ": distributed matrices are not supported (one process only)");
    if (A.m() == 0 || A.n() == 0) return R(0);

    const int64_t mt = A.mt(), nt = A.nt(), nb = A.nb();
    std::vector<Job> jobs;
    size_t total = 0;
    for (int64_t j = 0; j < nt; ++j)
        for (int64_t i = 0; i < mt; ++i) {
            if (shape != Shape::General && (uplo == Uplo::Lower ? i < j : i > j)) continue;
            const bool diagonal = shape != Shape::General && i == j;
            NormTile tile = NormTile::General;
            if (diagonal && shape == Shape::Trapezoid) tile = uplo == Uplo::Lower ? NormTile::Lower : NormTile::Upper;
            if (diagonal && shape == Shape::Symmetric)
                tile = uplo == Uplo::Lower ? NormTile::SymLower : NormTile::SymUpper;
            NormPart part = NormPart::ColMax;
            switch (norm) {
                case Norm::Max: part = NormPart::ColMax; break;
                case Norm::Fro: part = NormPart::ColSsq; break;
                case Norm::One: case Norm::Inf:
                    if (shape == Shape::Symmetric) part = diagonal ? NormPart::ColSum : NormPart::ColRowSum;
                    else part = norm == Norm::One ? NormPart::ColSum : NormPart::RowSum;
                    break;
            }
            const int64_t len = cpu::norm_part_length(part, A.tile_rows(i), A.tile_cols(j));
            jobs.push_back({i, j, part, tile, total, len, shape == Shape::Symmetric && !diagonal});
            total += size_t(len);
        }

    std::vector<R> partials(total);
    {
        Sequence seq;
        PartialHandles handles;
        {
            detail::SubmitScope scope(seq);
            handles.h.reserve(jobs.size());
            for (const Job& b : jobs) {
                handles.h.push_back(tasks::register_tile(partials.data() + b.off, b.len, 1, b.len, sizeof(R),
                                                         A.owner(b.i, b.j)));
                tasks::norm_tile<T>(int(b.part), int(b.tile), diag == Diag::Unit, herm, A.handle(b.i, b.j),
                                    handles.h.back());
            }
        }
        seq.wait();
        handles.release();
    }

    // The reduction, in the jobs' order (tile columns, then tile rows): the same bits every run.
    auto max_into = [](R& v, R x) {
        if (v < x || std::isnan(x)) v = x;
    };
    R value = 0;
    if (norm == Norm::Max) {
        for (R x : partials) max_into(value, x);
    } else if (norm == Norm::Fro) {
        R scale = 0, sumsq = 1;
        for (const Job& b : jobs)
            for (int64_t c = 0; c < b.len / 2; ++c) {
                const R s = partials[b.off + size_t(2 * c)], q = partials[b.off + size_t(2 * c + 1)];
                cpu::combine_ssq(scale, sumsq, s, b.twice ? R(2) * q : q);
            }
        value = scale * std::sqrt(sumsq);
    } else {
        const bool rows = norm == Norm::Inf && shape != Shape::Symmetric;
        std::vector<R> work(size_t(rows ? A.m() : A.n()), R(0));
        for (const Job& b : jobs) {
            const R* p = partials.data() + b.off;
            const int64_t cols = A.tile_cols(b.j), nrows = A.tile_rows(b.i);
            if (b.part == NormPart::RowSum) {
                for (int64_t r = 0; r < nrows; ++r) work[size_t(b.i * nb + r)] += p[r];
            } else {
                for (int64_t c = 0; c < cols; ++c) work[size_t(b.j * nb + c)] += p[c];
                if (b.part == NormPart::ColRowSum)
                    for (int64_t r = 0; r < nrows; ++r) work[size_t(b.i * nb + r)] += p[cols + r];
            }
        }
        for (R x : work) max_into(value, x);
    }
    return value;
}

}  // namespace

template <class T>
real_t<T> lange(Norm norm, const TileMatrix<T>& A) {
    return tile_norm("lange", norm, Shape::General, Uplo::General, Diag::NonUnit, false, A);
}

template <class T>
real_t<T> lansy(Norm norm, Uplo uplo, const TileMatrix<T>& A) {
    return tile_norm("lansy", norm, Shape::Symmetric, uplo, Diag::NonUnit, false, A);
}

template <class T>
real_t<T> lanhe(Norm norm, Uplo uplo, const TileMatrix<T>& A) {
    return tile_norm("lanhe", norm, Shape::Symmetric, uplo, Diag::NonUnit, is_complex_v<T>, A);
}

template <class T>
real_t<T> lantr(Norm norm, Uplo uplo, Diag diag, const TileMatrix<T>& A) {
    return tile_norm("lantr", norm, Shape::Trapezoid, uplo, diag, false, A);
}

namespace lapack {

namespace {

Norm parse_norm(char c, const char* func) {
    switch (c) {
        case 'M': case 'm': return Norm::Max;
        case 'O': case 'o': case '1': return Norm::One;
        case 'I': case 'i': return Norm::Inf;
        case 'F': case 'f': case 'E': case 'e': return Norm::Fro;
    }
    check_char_arg(false, func, "norm", c, "must be one of M, O, 1, I, F, E");
    return Norm::Max;
}

Uplo parse_uplo(char c, const char* func) {
    const bool ok = c == 'L' || c == 'l' || c == 'U' || c == 'u';
    check_char_arg(ok, func, "uplo", c, "must be L or U");
    return c == 'L' || c == 'l' ? Uplo::Lower : Uplo::Upper;
}

Diag parse_diag(char c, const char* func) {
    const bool ok = c == 'N' || c == 'n' || c == 'U' || c == 'u';
    check_char_arg(ok, func, "diag", c, "must be N or U");
    return c == 'U' || c == 'u' ? Diag::Unit : Diag::NonUnit;
}

// The checks every form shares (LAPACK's order: m, n, lda, n only for the square forms; then nb, and
// one process), then false for an empty matrix (nothing to do), else a non-null a and the tuned nb in o.
template <class T>
bool prepare(const char* func, int64_t m, int64_t n, const T* a, int64_t lda, const Options& opts, Options& o,
             bool square = false) {
    if (!square) check_arg(m >= 0, func, "m", m, "must be >= 0");
    check_arg(n >= 0, func, "n", n, "must be >= 0");
    check_arg(lda >= std::max<int64_t>(1, m), func, "lda", lda, square ? "must be >= max(1, n)" : "must be >= max(1, m)");
    o = detail::with_tuned_nb<T>(opts, "gemm", func, std::max(m, n));
    if (detail::distributed())
        throw Error(std::string("tessera::") + func + ": distributed matrices are not supported (one process only)");
    if (m == 0 || n == 0) return false;
    check_arg(a != nullptr, func, "a", 0, "must not be null");
    return true;
}

}  // namespace

template <class T>
real_t<T> lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda, const Options& opts) {
    const char* f = "lapack::lange";
    const Norm nm = parse_norm(norm, f);
    Options o;
    if (!prepare(f, m, n, a, lda, opts, o)) return 0;
    auto A = detail::lapack_tiles(a, lda, m, n, o, f, "lda");
    return tessera::lange(nm, A);
}

namespace {
// lansy and lanhe on a LAPACK-layout array: the same checks, then `tile_form` on the tiles.
template <class T, class F>
real_t<T> symmetric_lapack(const char* f, char norm, char uplo, int64_t n, const T* a, int64_t lda,
                           const Options& opts, F tile_form) {
    const Norm nm = parse_norm(norm, f);
    const Uplo u = parse_uplo(uplo, f);
    Options o;
    if (!prepare(f, n, n, a, lda, opts, o, true)) return 0;
    auto A = detail::lapack_tiles(a, lda, n, n, o, f, "lda");
    return tile_form(nm, u, A);
}
}  // namespace

template <class T>
real_t<T> lansy(char norm, char uplo, int64_t n, const T* a, int64_t lda, const Options& opts) {
    return symmetric_lapack("lapack::lansy", norm, uplo, n, a, lda, opts,
                            [](Norm nm, Uplo u, const TileMatrix<T>& A) { return tessera::lansy(nm, u, A); });
}

template <class T>
real_t<T> lanhe(char norm, char uplo, int64_t n, const T* a, int64_t lda, const Options& opts) {
    return symmetric_lapack("lapack::lanhe", norm, uplo, n, a, lda, opts,
                            [](Norm nm, Uplo u, const TileMatrix<T>& A) { return tessera::lanhe(nm, u, A); });
}

template <class T>
real_t<T> lantr(char norm, char uplo, char diag, int64_t m, int64_t n, const T* a, int64_t lda, const Options& opts) {
    const char* f = "lapack::lantr";
    const Norm nm = parse_norm(norm, f);
    const Uplo u = parse_uplo(uplo, f);
    const Diag d = parse_diag(diag, f);
    Options o;
    if (!prepare(f, m, n, a, lda, opts, o)) return 0;
    auto A = detail::lapack_tiles(a, lda, m, n, o, f, "lda");
    return tessera::lantr(nm, u, d, A);
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template real_t<T> lange<T>(Norm, const TileMatrix<T>&);                                                   \
    template real_t<T> lansy<T>(Norm, Uplo, const TileMatrix<T>&);                                             \
    template real_t<T> lanhe<T>(Norm, Uplo, const TileMatrix<T>&);                                             \
    template real_t<T> lantr<T>(Norm, Uplo, Diag, const TileMatrix<T>&);                                       \
    template real_t<T> lapack::lange<T>(char, int64_t, int64_t, const T*, int64_t, const Options&);            \
    template real_t<T> lapack::lansy<T>(char, char, int64_t, const T*, int64_t, const Options&);               \
    template real_t<T> lapack::lanhe<T>(char, char, int64_t, const T*, int64_t, const Options&);               \
    template real_t<T> lapack::lantr<T>(char, char, char, int64_t, int64_t, const T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

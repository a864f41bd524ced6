// Checked runs of one tile routine (potrf, getrf with partial pivoting, geqrf, gemm) on an n×n
// problem, shared by tessera-tune's --cpu sweep and its --calibrate passes. Internal to tools/tune.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tune {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

enum class Routine { potrf, getrf, geqrf, gemm };
constexpr Routine kRoutines[] = {Routine::potrf, Routine::getrf, Routine::geqrf, Routine::gemm};
inline const char* name(Routine r) {
    switch (r) {
    case Routine::potrf: return "potrf";
    case Routine::getrf: return "getrf";
    case Routine::geqrf: return "geqrf";
    default: return "gemm";
    }
}

/// Flops of the routine on n×n matrices over n³ (leading terms), real arithmetic.
inline double flop_coefficient(Routine r) {
    switch (r) {
    case Routine::potrf: return 1.0 / 3;
    case Routine::getrf: return 2.0 / 3;
    case Routine::geqrf: return 4.0 / 3;
    default: return 2.0;
    }
}

/// One timed and checked run.
struct Run {
    double seconds = 0, residual = 0;
};

/// The arrays one routine's runs start from and are checked against: a (n×n: SPD for potrf) and b
/// (gemm's n×n B, else the n×1 right-hand side of the solve that checks the factors).
template <class T>
struct Problem {
    int64_t n;
    std::vector<T> a, b;
};

template <class T>
Problem<T> make_problem(Routine r, int64_t n) {
    Problem<T> p{n, r == Routine::potrf ? check::random_spd<T>(n, n, 11) : check::random_matrix<T>(n, n, n, 11),
                 check::random_matrix<T>(n, r == Routine::gemm ? n : 1, n, 12)};
    return p;
}

/// x = A⁻¹·b through the factors in A (and ipiv or F), as an n-vector.
template <class T>
std::vector<T> solve_with(Routine r, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, const QRFactors<T>* F,
                          const std::vector<T>& b) {
    const int64_t n = A.n();
    TileMatrix<T> B(n, 1, A.nb());
    B.fill_from_lapack(b.data(), n);
    if (r == Routine::potrf) potrs(Uplo::Lower, A, B);
    else if (r == Routine::getrf) getrs(Trans::NoTrans, A, ipiv, B);
    else {
        unmqr(Side::Left, Trans::ConjTrans, A, *F, B);
        trsm(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A, B);
    }
    std::vector<T> x(static_cast<size_t>(n));
    B.to_lapack(x.data(), n);
    return x;
}

/// Time `reps` runs of the routine with (nb, ib), each checked; the runs' times, or an error message.
template <class T>
std::vector<Run> measure(Routine r, const Problem<T>& p, int64_t nb, int64_t ib, int reps, std::string* failure) {
    const int64_t n = p.n;
    std::vector<Run> runs;
    TileMatrix<T> A(n, n, nb);
    std::optional<TileMatrix<T>> B, C;
    std::optional<QRFactors<T>> F;
    if (r == Routine::gemm) {
        B.emplace(n, n, nb), C.emplace(n, n, nb);
        A.fill_from_lapack(p.a.data(), n), B->fill_from_lapack(p.b.data(), n);
    }
    if (r == Routine::geqrf) F.emplace(A, ib);
    std::vector<int64_t> ipiv;
    for (int rep = 0; rep < reps; ++rep) {
        if (r != Routine::gemm) A.fill_from_lapack(p.a.data(), n);
        Runtime::wait_all();
        const auto t0 = Clock::now();
        int64_t info = 0;
        switch (r) {
        case Routine::potrf: info = potrf(Uplo::Lower, A); break;
        case Routine::getrf: info = getrf(A, ipiv); break;
        case Routine::geqrf: {
            Sequence seq;
            geqrf_async(A, *F, seq);
            info = seq.wait();
            break;
        }
        case Routine::gemm: gemm(Trans::NoTrans, Trans::NoTrans, T(1), A, *B, T(0), *C); break;
        }
        Run run{since(t0), 0};
        if (info != 0) {
            *failure = "info = " + std::to_string(info);
            return {};
        }
        if (r == Routine::gemm) {  // columns of C = A·B: the first of every tile column and the last
            const check::LapackArray<T> c = check::lapack_copy(*C);
            std::vector<int64_t> cols;
            for (int64_t j = 0; j < n; j += nb) cols.push_back(j);
            if (cols.back() != n - 1) cols.push_back(n - 1);
            for (int64_t j : cols)
                run.residual = std::max(run.residual, check::solve_residual(Trans::NoTrans, n, n, 1, p.a.data(), n,
                                                                            p.b.data() + j * n, n, c.data() + j * n, n));
        } else {
            const std::vector<T> x = solve_with(r, A, ipiv, F ? &*F : nullptr, p.b);
            run.residual = check::solve_residual(Trans::NoTrans, n, n, 1, p.a.data(), n, x.data(), n, p.b.data(), n);
        }
        if (!check::passes(run.residual)) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "check failed: residual %.3g > %.0f", run.residual, check::kThreshold);
            *failure = buf;
            return {};
        }
        runs.push_back(run);
    }
    return runs;
}

}  // namespace tessera::tune

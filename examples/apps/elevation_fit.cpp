// elevation_fit: least-squares fit of point data (default: airport elevations) with real spherical
// harmonics, tile QR.
//
//   elevation_fit [--data FILE --lat COL --lon COL --value COL] [--holdout K] [--L 24] [--lambda 0.01]
//                 [--n N] [--nb NB] [--prec s|d] [--predict FILE --out FILE] [--check]
//
// Model: value ≈ Σ cₖ·Yₖ(lat, lon) over the (L + 1)² real spherical harmonics of degree ≤ L
// (4π-normalized, spherical_harmonics.hpp), the value in its column's unit (metres for the airports'
// altitude_ft; training rows at one location merged, point_data.hpp). Airports leave oceans and
// deserts empty, so the plain fit of degree 24 is ill-conditioned (κ ≈ 1e9) and wild between the data. The fit is therefore
// damped: below the m data rows, n rows √(λ·m)·wₖ·eₖᵀ with right-hand side 0, where
// wₖ = deg(deg+1)/(L(L+1)) (the surface Laplacian's eigenvalue, scaled to 1 at degree L), so that
// rough harmonics cost λ·m·wₖ²·cₖ² and the mean is free. --lambda 0 gives the plain least squares.
// The (m + n)×n system is generated tile by tile as StarPU tasks and solved with tile gels
// (Householder QR); the same system goes through LAPACKE_xgels in the same precision (before the
// StarPU workers start, so it has OpenBLAS's own threads) to compare coefficients.
// Reports: training RMS residual over the data rows and held-out RMSE, next to the baselines (none
// with --holdout 0); ‖c − c_ref‖₂/‖c_ref‖₂; the least-squares residual of docs/architecture.md#numerical-checks of our solution.
// --check passes when that residual is ≤ 60 and the coefficient difference is within the
// first-order perturbation bound 60·n·eps·κ·(1 + κ·‖r‖/(‖A‖·‖c‖)) (κ: LAPACK's estimate of κ₁(R));
// it checks the solve, not the held-out error, so it means the same with --holdout 0. Where
// κ·ε ≥ 1 the bound accepts any answer: the check prints INCONCLUSIVE (exit 1 with --check), never pass.
// --predict FILE --out FILE: the fit Σ cₖ·Yₖ at each location of FILE (predict_io.hpp; no standard
// deviation).
// Under mpirun (docs/distributed.md) every rank generates its tiles of the system and takes part in
// gels; the solution is gathered to rank 0, which alone evaluates, checks, writes and reports.
// Exit status (examples/common/tool_main.hpp): 0 success; 1 a prediction or RMSE that is not finite
// (with or without --check), an output file that cannot be written after the work, a rank-deficient fit (info > 0), a failed
// --check or a task failure; 2 refused: bad arguments, a malformed --data or --predict file, fewer
// training points than coefficients without damping, or more memory than is available.
#include <lapacke.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "examples/apps/app_common.hpp"
#include "examples/apps/spherical_harmonics.hpp"
#include "examples/solve/residuals.hpp"
#include "tessera/qr.hpp"

using namespace tessera;
using namespace tessera::apps;

namespace {

/// LAPACKE_xgels (trans 'N') on a column-major m×n a and m×1 b; returns info.
template <class T>
int lapacke_gels(int64_t m, int64_t n, T* a, T* b) {
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sgels(LAPACK_COL_MAJOR, 'N', int(m), int(n), 1, a, int(m), b, int(m));
    else return LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', int(m), int(n), 1, a, int(m), b, int(m));
}

/// LAPACK's estimate of the 1-norm condition number of the upper triangular n×n R (lda = ld).
template <class T>
double condition_of_r(int64_t n, const T* r, int64_t ld) {
    T rcond = 0;
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_strcon(LAPACK_COL_MAJOR, '1', 'U', 'N', int(n), r, int(ld), &rcond);
    else info = LAPACKE_dtrcon(LAPACK_COL_MAJOR, '1', 'U', 'N', int(n), r, int(ld), &rcond);
    return info == 0 && rcond > 0 ? 1.0 / double(rcond) : INFINITY;
}

/// Degree of the k-th harmonic, and its roughness weight n(n+1)/(L(L+1)) in [0, 1] (the surface
/// Laplacian's eigenvalue, scaled so that degree L weighs 1).
int64_t degree_of(int64_t k) { return int64_t(std::sqrt(double(k) + 0.5)); }
double degree_weight(int64_t k, int64_t L) {
    const double d = double(degree_of(k));
    return L == 0 ? 0.0 : d * (d + 1) / (double(L) * double(L + 1));
}

/// Σ cₖ·Yₖ at each position of `where` (Point or Location).
template <class Where>
std::vector<double> evaluate_fit(int64_t L, const std::vector<double>& c, const std::vector<Where>& where) {
    SphericalHarmonics sh(L);
    std::vector<double> y(size_t(sh.count())), out(where.size());
    for (size_t t = 0; t < where.size(); ++t) {
        sh.evaluate(where[t].lat_deg, where[t].lon_deg, y.data());
        double s = 0;
        for (size_t k = 0; k < y.size(); ++k) s += c[k] * y[k];
        out[t] = s;
    }
    return out;
}

template <class T>
int run(const CommonOptions& opt, int64_t L, double lambda, const PointData& data, const std::vector<Location>& where) {
    require_values_fit<T>(data);
    const int64_t m = int64_t(data.train.size()), n = sh_count(L);
    const int64_t rows_total = lambda > 0 ? m + n : m;
    const std::string noun = data.columns.noun(), unit = data.columns.unit();
    if (rows_total < n)
        throw Error(std::to_string(m) + " training " + noun + " for " + std::to_string(n) + " coefficients (degree " +
                    std::to_string(L) + "): need m >= n or --lambda > 0");
    // The system three times over: the LAPACK array, LAPACKE's copy of it, the tile matrix.
    require_dense_memory<T>("--L " + std::to_string(L) + " (a " + std::to_string(rows_total) + " x " + std::to_string(n) + " system)", rows_total, n, 3);
    // The system: m data rows, then n damping rows (zero right-hand side), as a LAPACK array for
    // the reference and the residuals; the tile matrix is generated from the same function.
    const double damping = std::sqrt(lambda * double(m));
    auto points = std::make_shared<const std::vector<Point>>(data.train);
    auto design_rows = [points, L, n, m, damping](int64_t i0, int64_t rows, int64_t j0, int64_t cols, T* out, int64_t ld) {
        SphericalHarmonics sh(L);
        std::vector<T> row(static_cast<size_t>(n));
        for (int64_t i = 0; i < rows; ++i) {
            const int64_t gi = i0 + i;
            if (gi < m) sh.evaluate((*points)[size_t(gi)].lat_deg, (*points)[size_t(gi)].lon_deg, row.data());
            for (int64_t j = 0; j < cols; ++j) {
                const int64_t k = j0 + j;
                out[i + j * ld] = gi < m ? row[size_t(k)] : gi - m == k ? T(damping * degree_weight(k, L)) : T(0);
            }
        }
    };
    std::vector<T> a(size_t(rows_total) * size_t(n)), b(static_cast<size_t>(rows_total), T(0));
    design_rows(0, rows_total, 0, n, a.data(), rows_total);
    for (int64_t i = 0; i < m; ++i) b[size_t(i)] = T(data.train[size_t(i)].value);
    // Reference first, while OpenBLAS still has its own threads.
    std::vector<T> a_ref = a, c_ref = b;
    Stopwatch clock;
    const int ref_info = lapacke_gels<T>(rows_total, n, a_ref.data(), c_ref.data());
    const double ref_s = clock.seconds();
    const double kappa = ref_info == 0 ? condition_of_r<T>(n, a_ref.data(), rows_total) : INFINITY;
    a_ref = {};

    Runtime rt(tool::runtime_config(opt.watch));
    print_setup(data, rt, opt);
    report("model      real spherical harmonics of degree <= %lld, damping lambda = %g: %lld x %lld least squares\n",
                (long long)L, lambda, (long long)rows_total, (long long)n);
    TileMatrix<T> A(rows_total, n, opt.nb), B(rows_total, 1, opt.nb);
    clock.restart();
    std::optional<tool::ProgressDisplay> progress;
    progress.emplace(rt, "fit generate + gels", opt.watch.quiet);
    A.generate([design_rows](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        design_rows(i0, rows, j0, cols, tile, ld);
    });
    B.fill_from_lapack(b.data(), rows_total);
    Runtime::wait_all();
    const double gen_s = clock.seconds();
    clock.restart();
    const int64_t info = gels(Trans::NoTrans, A, B, Options{.nb = opt.nb});
    const double gels_s = clock.seconds();
    progress.reset();
    if (info > 0) {
        // Undamped, harmonics that the points' positions cannot tell apart make A rank deficient;
        // damped, every column but the constant one has a damping row, so only a degree too high
        // for the precision is left.
        report("FAILED     tile gels: R(%lld,%lld) is exactly zero (info = %lld): the design matrix is rank "
                    "deficient; no result (%s)\n", (long long)info, (long long)info, (long long)info,
                    lambda > 0 ? "try a smaller --L" : "try --lambda > 0 to damp the fit, or a smaller --L");
        return tool::kFailed;
    }
    std::vector<T> bx(static_cast<size_t>(rows_total));
    B.to_lapack(bx.data(), rows_total);
    if (rt.rank() != 0) return tool::kOk;  // under mpirun the solution is gathered to rank 0, which alone reports
    std::vector<T> c(bx.begin(), bx.begin() + n);
    std::vector<double> cd(c.begin(), c.end());

    // Fit quality: training residual r = b − A·c and held-out error.
    const std::vector<double> fit = evaluate_fit(L, cd, data.train), pred = evaluate_fit(L, cd, data.test);
    double rss = 0, norm_r1 = 0;
    for (int64_t i = 0; i < m; ++i) {
        const double r = data.train[size_t(i)].value - fit[size_t(i)];
        rss += r * r;
        norm_r1 += std::abs(r);
    }
    const double train_rms = std::sqrt(rss / double(m)), test_rmse = rmse(pred, data.test);
    const Baselines base = baselines(data.train, data.test);
    const double orth = solve::ls_orthogonality<T>(rows_total, n, 1, a.data(), rows_total, c.data(), n, b.data(), rows_total);
    const double diff = ref_info == 0 ? solve::relative_difference(n, c.data(), c_ref.data()) : INFINITY;
    double norm_c1 = 0;
    for (T v : c) norm_c1 += std::abs(double(v));
    const double norm_a1 = check::lange('1', rows_total, n, a.data(), rows_total), eps = check::eps<T>();
    const double bound = check::kThreshold * double(n) * eps * kappa * (1.0 + kappa * norm_r1 / (norm_a1 * norm_c1));
    const double flops = 2.0 * double(rows_total) * double(n) * double(n) - 2.0 * double(n) * double(n) * double(n) / 3.0;

    const char* ref_name = std::is_same_v<T, float> ? "LAPACKE_sgels" : "LAPACKE_dgels";
    std::printf("\ntime       generate A %.3f s; tile gels %.3f s, %.2f GFLOP/s (2mn^2 - 2n^3/3 flops)\n", gen_s, gels_s,
                gflops(flops, gels_s));
    std::printf("reference  %s %.3f s, %.2f GFLOP/s (before StarPU started; info %d)\n", ref_name, ref_s,
                gflops(flops, ref_s), ref_info);
    std::printf("fit        training RMS residual %.4g %s over %lld %s\n", train_rms, unit.c_str(), (long long)m,
                noun.c_str());
    if (!where.empty()) {
        clock.restart();
        const int64_t predicted = tool::writing_output([&] {
            return predict_to_csv(where, opt.out, data.columns.value_name(), false,
                                  [&](const std::vector<Location>& chunk, std::vector<double>& mean, std::vector<double>&) {
                                      mean = evaluate_fit(L, cd, chunk);
                                  });
        });
        std::printf("predict    %lld locations of %s: fit written to %s in %.3f s\n", (long long)predicted,
                    opt.predict.c_str(), opt.out.c_str(), clock.seconds());
    }
    if (!opt.map.empty()) {
        clock.restart();
        const int64_t cells = tool::writing_output([&] {
            return draw_prediction_map(
                opt.map, true, data.train,
                [&](const std::vector<Location>& chunk, std::vector<double>& mean, std::vector<double>&) {
                    mean = evaluate_fit(L, cd, chunk);
                },
                false, data.columns.value_name(),
                "Spherical-harmonics fit of " + data.columns.value_name() + " (degree " + std::to_string(L) + ")");
        });
        std::printf("map        fit at %lld grid cells drawn to %s in %.3f s\n", (long long)cells, opt.map.c_str(),
                    clock.seconds());
    }
    if (!opt.watch.gantt.empty())
        std::printf("gantt      %ld tasks drawn to %s\n",
                    tool::writing_output([&] { return tool::draw_gantt_of_run(rt, opt.watch, "elevation_fit: tasks per worker"); }),
                    opt.watch.gantt.c_str());
    tool::finish_trace(rt);
    if (data.test.empty()) {
        std::printf("held-out   none (--holdout 0): no held-out RMSE\n");
    } else {
        std::printf("held-out RMSE over %zu %s (%s):\n", data.test.size(), noun.c_str(), unit.c_str());
        std::printf("  spherical harmonics, L = %-3lld      %8.4g\n", (long long)L, test_rmse);
        std::printf("  nearest training %-16s %8.4g\n", noun == "airports" ? "airport" : "point", base.nearest_rmse);
        std::printf("  training mean                     %8.4g\n", base.mean_rmse);
    }
    std::printf("accuracy   ||A^T (b - A c)|| / (||A|| ||b - A c|| n eps) = %.3g (threshold %g)\n", orth,
                check::kThreshold);
    std::printf("           ||c - c_ref|| / ||c_ref|| = %.3g vs %s; bound %.3g (kappa_1(R) ~ %.3g)\n", diff, ref_name,
                bound, kappa);
    AppCheck result;
    result.not_finite = !all_finite(c)                                                       ? "coefficients c are"
                        : !(all_finite(fit) && all_finite(pred) && std::isfinite(test_rmse)) ? "fitted values are"
                                                                                             : "";
    result.ok = check::passes(orth) && diff <= bound;
    // κ·ε ≥ 1: R is singular to working precision, the bound accepts any coefficients, and the
    // comparison with LAPACKE can tell nothing.
    result.conclusive = kappa * eps < 1;
    return result.report("elevation_fit", std::string("least-squares residual and agreement with ") + ref_name, opt.check,
                         "kappa_1(R)", kappa, bound,
                         std::string("the fit is singular to working precision (try a smaller --L or a larger --lambda") +
                             (opt.prec == "s" ? ", or --prec d" : "") + ")");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"elevation_fit: spherical-harmonic least-squares fit of point data (default: airport elevations) "
                 "with tile QR",
                 "elevation_fit"};
    CommonOptions opt;
    int64_t L = 24;
    double lambda = 1e-2;
    add_common_options(app, opt, "exit 1 unless the fit agrees with LAPACKE within the thresholds of docs/architecture.md");
    app.add_option("--L", L, "largest spherical-harmonic degree ((L+1)^2 coefficients)")->capture_default_str()
        ->check(CLI::Range(int64_t(0), int64_t(200)));
    app.add_option("--lambda", lambda, "damping: weight of the roughness penalty relative to the data rows")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    if (int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
    return guarded_app_main("elevation_fit", [&] {
        const PointData data = load_data(opt);
        const std::vector<Location> where = opt.predict.empty() ? std::vector<Location>{} : read_locations(opt.predict, opt.columns);
        return opt.prec == "s" ? run<float>(opt, L, lambda, data, where) : run<double>(opt, L, lambda, data, where);
    });
}

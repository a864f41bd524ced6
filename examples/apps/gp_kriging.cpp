// gp_kriging: Gaussian-process regression (simple kriging) of point data with tile Cholesky.
//
//   gp_kriging [--data FILE --lat COL --lon COL --value COL] [--holdout K] [--n N] [--nb NB]
//              [--prec s|d] [--ell 50,100,...] [--ratio 0.01,0.1] [--predict FILE --out FILE] [--check]
//
// Model: y = value − training mean, y ~ N(0, K) with K_ij = k(d_ij) + τ²·δ_ij, d the great-circle
// distance (haversine, km) and k the Matérn ν = 3/2 covariance
//   k(d) = σ²·(1 + √3·d/ℓ)·exp(−√3·d/ℓ),
// σ² the variance of the training values, ℓ the length scale (km), τ² the nugget. Values are in the
// value column's unit (metres for the airports' altitude_ft).
// For every (ℓ, τ²/σ²) of the grid, K is generated tile by tile as StarPU tasks, factored with
// tile potrf and solved with potrs, and the exact log-likelihood
//   log p(y) = −½·yᵀK⁻¹y − ½·log|K| − (n/2)·log 2π,  log|K| = 2·Σ log Lᵢᵢ
// is read off the factor's diagonal tiles. The grid, by default, is derived from the data
// (gp_grid.hpp): 4 length scales in geometric progression from the median nearest-neighbour distance
// to half the median distance between two points (a fixed-seed sample of 2000 pairs), times the
// ratios 0.01 and 0.1; then the ratio one decade beyond the best (at the best ℓ), and the two
// geometric midpoints next to the best ℓ (at the best ratio): 11 factorizations. With --ell or
// --ratio the grid is exactly the product given (the missing one: the derived length scales or the
// ratios 0.01, 0.1), not refined.
// The best grid point predicts every held-out point with the kriging mean k*ᵀ·K⁻¹·y + mean, compared
// with the training mean and the nearest training point.
// --predict FILE --out FILE: the kriging mean and the predictive standard deviation of a new
// observation, sd = √max(0, σ² + τ² − k*ᵀK⁻¹k*) (τ² included: the spread of a measurement there, not
// of the noise-free surface), at each location of FILE: with L the Cholesky factor of the best K,
// V = L⁻¹·K* by tile trsm on the n×P cross-covariances K*, sd² = σ² + τ² − Σᵢ Vᵢⱼ², in chunks of at
// most 4096 locations (predict_io.hpp). The best K is factored again first unless it was the last.
// Subnormal arithmetic is switched off (FTZ/DAZ, see main). Default: every training point.
// Under mpirun (docs/distributed.md) every rank runs the same grid search: K is distributed
// 2D block-cyclically and each tile generated on its owner, log|K| sums the diagonal tiles of every
// rank (Runtime::sum_over_ranks), y and K⁻¹y live on rank 0, which alone predicts held-out points,
// writes --out and reports; the --predict chunks are distributed like K.
// Exit status (examples/common/tool_main.hpp): 0 success; 1 a prediction or RMSE that is not finite
// (with or without --check), an output file that cannot be written after the work, a failed factorization (info > 0), a
// failed --check or a task failure; 2 refused: bad arguments, a malformed --data or --predict file,
// training values without variance (fewer than 2 points, or all values equal), --check with
// --holdout 0 (no held-out point to check), or more memory than is available.
#include <cmath>
#include <cstdio>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "examples/apps/app_common.hpp"
#include "examples/apps/gp_grid.hpp"

using namespace tessera;
using namespace tessera::apps;

namespace {

/// Matérn 3/2 correlation at distance d (km) for length scale ell (km): (1 + √3·d/ℓ)·exp(−√3·d/ℓ).
inline double matern32(double d_km, double ell_km) {
    const double s = std::sqrt(3.0) * d_km / ell_km;
    return (1.0 + s) * std::exp(-s);
}

/// Correlations below this are stored as exact zeros in the covariance matrix: eps²/4 of the working
/// precision (about 1e-32 in double, 4e-15 in single), far below the rounding of the diagonal, so the
/// matrix is unchanged to working accuracy; exact zeros keep most of the factor's far-away entries
/// out of the subnormal range (see the FTZ/DAZ setting in main for the rest).
template <class T>
constexpr double kCorrelationCutoff = double(std::numeric_limits<T>::epsilon()) * double(std::numeric_limits<T>::epsilon()) / 4;

/// Hyperparameters and outcome of one grid point.
struct GridPoint {
    double ell_km = 0, ratio = 0;  ///< length scale (km) and τ²/σ²
    double loglik = -std::numeric_limits<double>::infinity();
    double gen_s = 0, potrf_s = 0, potrs_s = 0;  ///< seconds: generation, factorization, solve
};

struct GpOptions {
    CommonOptions common;
    std::vector<double> ells;    ///< length scales, km (empty: derived from the data)
    std::vector<double> ratios;  ///< nugget ratios τ²/σ² (empty: derived_ratios())
};

/// σ²: the variance of the training values, the scale of the covariance.
double value_variance(const std::vector<Point>& train) {
    const double mean = mean_value(train);
    double var = 0;
    for (const Point& p : train) var += (p.value - mean) * (p.value - mean);
    return var / double(train.size());
}

/// Refuse training data the model cannot be fitted to: σ² is their variance, and both terms of K scale
/// with it (τ² = ratio·σ²), so with fewer than 2 points, or values all equal, K = 0 and no
/// factorization can succeed.
void require_model_data(const std::vector<Point>& train, bool n_given, const std::string& noun) {
    const std::string n = std::to_string(train.size());
    if (train.size() < 2)
        throw Error((n_given ? "--n " + n + ": " : "the data has " + n + " training " + noun + ": ") + "too few training " +
                    noun + " for the model: sigma^2 is the variance of their values, which needs at least 2 " + noun +
                    " with different values");
    if (!(value_variance(train) > 0))
        throw Error("the " + n + " training " + noun + " all have the same value (sigma^2 = 0): nothing for the model "
                    "to fit" + (n_given ? "; use more of them (--n)" : ""));
}

/// Why a factorization can fail in this run, and what to change: single precision loses positive
/// definiteness first; without a nugget, coinciding or very close points make K singular; a long
/// length scale makes far-apart points nearly collinear.
std::string factorization_hint(const GpOptions& opt, double ratio) {
    if (opt.common.prec == "s") return "try --prec d or a larger --ratio";
    if (ratio == 0) return "--ratio 0 adds no nugget, and with points close together or a long --ell K is singular "
                           "to working precision; try --ratio 0.01 or more";
    return "K is numerically singular even in double precision; try a larger --ratio or a shorter --ell";
}

/// A comma-separated list of values with 4 significant digits.
std::string joined(const std::vector<double>& v) {
    std::string s;
    char buf[32];
    for (double x : v) {
        std::snprintf(buf, sizeof buf, "%.4g", x);
        s += (s.empty() ? "" : ", ") + std::string(buf);
    }
    return s;
}

/// The fitted model: training positions, mean and σ², and the best grid point's K⁻¹y (rank 0's).
template <class T>
struct Fit {
    std::shared_ptr<std::vector<GeoPoint>> points;
    double mean = 0, var = 0;
    GridPoint best;
    std::vector<T> alpha;  ///< K⁻¹·y of the best grid point (rank 0)
};

/// Generate the lower triangle of K (n×n): σ²·k(d_ij) below the diagonal (exact zeros below the
/// cutoff), σ² + τ² on it, τ² = ratio·σ², ell in km; zeros in the strictly upper tiles.
template <class T>
void generate_covariance(TileMatrix<T>& K, const Fit<T>& fit, double ell, double ratio) {
    const double var = fit.var, tau2 = ratio * fit.var;
    // Lower triangle only (potrf Lower never reads the strictly upper tiles, which get zeros).
    K.generate([points = fit.points, ell, var, tau2](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        const std::vector<GeoPoint>& p = *points;
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) {
                const int64_t gi = i0 + i, gj = j0 + j;
                double v = 0;
                if (gi > gj) {
                    const double c = matern32(haversine_km(p[size_t(gi)], p[size_t(gj)]), ell);
                    v = c < kCorrelationCutoff<T> ? 0.0 : var * c;
                }
                else if (gi == gj) v = var + tau2;
                tile[i + j * ld] = T(v);
            }
    });
}

/// Kriging mean and predictive sd at `where` (one chunk) from the factor L in K (potrf Lower of the
/// best grid point) and alpha = K⁻¹y in the n×1 tile matrix A. Collective under MPI; mean and sd
/// are rank 0's.
template <class T>
void kriging_chunk(const TileMatrix<T>& K, const TileMatrix<T>& A, const Fit<T>& fit, const Runtime& rt,
                   const std::vector<Location>& where, std::vector<double>& mean, std::vector<double>& sd) {
    const int64_t n = K.m(), p = int64_t(where.size()), nb = K.nb();
    auto targets = std::make_shared<std::vector<GeoPoint>>();
    for (const Location& l : where) targets->emplace_back(l);
    TileMatrix<T> Ks(n, p, nb), M(p, 1, nb);
    const double ell = fit.best.ell_km, var = fit.var;
    Ks.generate([points = fit.points, targets, ell, var](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) {
                const double c = matern32(haversine_km((*points)[size_t(i0 + i)], (*targets)[size_t(j0 + j)]), ell);
                tile[i + j * ld] = T(c < kCorrelationCutoff<T> ? 0.0 : var * c);
            }
    });
    gemm(Trans::Trans, Trans::NoTrans, T(1), Ks, A, T(0), M);  // k*ᵀ·K⁻¹y
    std::vector<T> m(static_cast<size_t>(p));
    M.to_lapack(m.data(), p);
    trsm(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, T(1), K, Ks);  // V = L⁻¹·K*
    Ks.acquire_host();
    std::vector<double> ss(static_cast<size_t>(p), 0.0);  // Σᵢ Vᵢⱼ² over this rank's tiles
    for (int64_t ti = 0; ti < Ks.mt(); ++ti)
        for (int64_t tj = 0; tj < Ks.nt(); ++tj) {
            if (!Ks.is_local(ti, tj)) continue;
            const T* tile = Ks.tile_data(ti, tj);
            const int64_t rows = Ks.tile_rows(ti);
            for (int64_t j = 0; j < Ks.tile_cols(tj); ++j)
                for (int64_t i = 0; i < rows; ++i) ss[size_t(tj * nb + j)] += double(tile[i + j * rows]) * double(tile[i + j * rows]);
        }
    ss = rt.sum_over_ranks(ss);
    const double prior = fit.var * (1.0 + fit.best.ratio);  // σ² + τ²
    mean.resize(size_t(p));
    sd.resize(size_t(p));
    for (size_t k = 0; k < size_t(p); ++k) {
        mean[k] = fit.mean + double(m[k]);
        sd[k] = std::sqrt(std::max(0.0, prior - ss[k]));
    }
}

template <class T>
int run(const GpOptions& opt, const PointData& data, Runtime& rt, const std::vector<Location>& where) {
    const int64_t n = int64_t(data.train.size()), nb = opt.common.nb;
    const std::string noun = data.columns.noun(), unit = data.columns.unit();
    require_dense_memory<T>(std::to_string(n) + " training " + noun, n, n, 1);
    Fit<T> fit;
    fit.mean = mean_value(data.train);
    fit.var = value_variance(data.train);  // σ²
    std::vector<T> y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) y[size_t(i)] = T(data.train[size_t(i)].value - fit.mean);
    fit.points = std::make_shared<std::vector<GeoPoint>>();
    for (const Point& p : data.train) fit.points->emplace_back(p);

    const bool quiet = opt.common.watch.quiet || rt.rank() != 0;  // progress on stderr: rank 0's
    print_setup(data, rt, opt.common);
    report("model      Matern 3/2 on haversine distance, training mean %.4g %s, sigma^2 = %.4g %s^2 (sd %.4g %s)\n",
           fit.mean, unit.c_str(), fit.var, unit.c_str(), std::sqrt(fit.var), unit.c_str());
    // Neither --ell nor --ratio: the derived grid, refined; either one: exactly the grid given (the
    // length scales derived when only --ratio is given).
    const bool refine = opt.ells.empty() && opt.ratios.empty();
    std::vector<double> ells = opt.ells, ratios = opt.ratios.empty() ? derived_ratios() : opt.ratios;
    if (ells.empty()) {
        const double d_nn = great_circle_of_chord_km(median_nearest_chord_km(*fit.points));
        const double typical = median_pairwise_km(*fit.points);
        ells = derived_length_scales(d_nn, typical);
        report("search     ell_km %s derived from the data (median nearest-neighbour distance %.4g km, median "
               "distance between points %.4g km), tau2/s2 %s%s\n",
               joined(ells).c_str(), d_nn, typical, joined(ratios).c_str(),
               refine ? "; then refined around the best" : " (--ratio)");
    } else {
        report("search     ell_km %s (--ell), tau2/s2 %s%s\n", joined(ells).c_str(), joined(ratios).c_str(),
               opt.ratios.empty() ? "" : " (--ratio)");
    }
    report("\n%9s %8s %16s %9s %9s %9s %9s\n", "ell_km", "tau2/s2", "log-likelihood", "gen_s", "potrf_s", "GFLOP/s",
           "potrs_s");

    TileMatrix<T> K(n, n, nb), Y(n, 1, nb);
    std::vector<T> alpha(static_cast<size_t>(n));
    GridPoint last;  // the grid point whose factor K holds
    const double potrf_flops = double(n) * double(n) * double(n) / 3.0;
    // Generate, factor and solve at (ell, ratio); report the row. Returns tool::kOk or kFailed.
    auto evaluate = [&](double ell, double ratio, GridPoint& g) {
        g = GridPoint{ell, ratio};
        last = g;  // K holds its factor from here on (or the run stops)
        Stopwatch clock;
        generate_covariance(K, fit, ell, ratio);
        Y.fill_from_lapack(y.data(), n);
        Runtime::wait_all();
        g.gen_s = clock.seconds();

        clock.restart();
        const int64_t info = potrf(Uplo::Lower, K);
        g.potrf_s = clock.seconds();
        if (info > 0) {  // every rank has the same info
            report("%9.4g %8.3g  FACTORIZATION FAILED: info = %lld\n", ell, ratio, (long long)info);
            if (rt.rank() == 0)
                std::fprintf(stderr,
                             "gp_kriging: Cholesky factorization failed for ell = %g km, tau^2/sigma^2 = %g in %s "
                             "precision: the leading minor of order %lld is not positive definite (info = %lld). "
                             "No result; %s.\n",
                             ell, ratio, opt.common.prec == "s" ? "single" : "double", (long long)info,
                             (long long)info, factorization_hint(opt, ratio).c_str());
            return tool::kFailed;
        }
        clock.restart();
        potrs(Uplo::Lower, K, Y);
        Y.to_lapack(alpha.data(), n);
        g.potrs_s = clock.seconds();

        // log|K| = 2·Σ log L_ii from the diagonal tiles of the factor (each rank's own), yᵀK⁻¹y =
        // yᵀ·alpha (rank 0's, where alpha was gathered); summed so that every rank has log p(y).
        K.acquire_host();
        double logdet = 0, quad = 0;
        for (int64_t k = 0; k < K.mt(); ++k) {
            if (!K.is_local(k, k)) continue;
            const T* tile = K.tile_data(k, k);
            for (int64_t i = 0; i < K.tile_rows(k); ++i) logdet += 2.0 * std::log(double(tile[i + i * K.tile_rows(k)]));
        }
        if (rt.rank() == 0)
            for (int64_t i = 0; i < n; ++i) quad += double(y[size_t(i)]) * double(alpha[size_t(i)]);
        const std::vector<double> sums = rt.sum_over_ranks({logdet, quad});
        g.loglik = -0.5 * sums[1] - 0.5 * sums[0] - 0.5 * double(n) * std::log(2.0 * M_PI);
        report("%9.4g %8.3g %16.2f %9.3f %9.3f %9.2f %9.3f\n", ell, ratio, g.loglik, g.gen_s, g.potrf_s,
               gflops(potrf_flops, g.potrf_s), g.potrs_s);
        std::fflush(stdout);
        if (!std::isfinite(g.loglik)) {  // the same on every rank
            if (rt.rank() == 0)
                std::fprintf(stderr, "gp_kriging: log-likelihood is not finite for ell = %g km; no result\n", ell);
            return tool::kFailed;
        }
        if (g.loglik > fit.best.loglik) {
            fit.best = g;
            fit.alpha = alpha;
        }
        return tool::kOk;
    };

    GridPoint g;
    std::optional<tool::ProgressDisplay> search_progress;  // one stage: the whole grid search
    search_progress.emplace(rt, "gp search (generate, potrf, potrs per grid point)", quiet);
    for (double ell : ells)
        for (double ratio : ratios)
            if (int rc = evaluate(ell, ratio, g); rc != tool::kOk) return rc;
    if (refine) {  // refine: the ratio beyond the best edge, then the length scales next to the best
        if (const double r = extended_ratio(ratios, fit.best.ratio); r >= 0)
            if (int rc = evaluate(fit.best.ell_km, r, g); rc != tool::kOk) return rc;
        const double ratio = fit.best.ratio;
        for (double ell : refined_length_scales(ells, fit.best.ell_km))
            if (int rc = evaluate(ell, ratio, g); rc != tool::kOk) return rc;
    }
    search_progress.reset();

    if (!where.empty() || !opt.common.map.empty()) {  // the best factor in K, K⁻¹y as a tile matrix
        const bool refactor = last.ell_km != fit.best.ell_km || last.ratio != fit.best.ratio;
        if (refactor) {
            generate_covariance(K, fit, fit.best.ell_km, fit.best.ratio);
            if (const int64_t info = potrf(Uplo::Lower, K); info > 0)
                throw Error("the best grid point's factorization failed the second time (info " + std::to_string(info) + ")");
        }
        require_dense_memory<T>("--predict (n x " + std::to_string(kPredictChunk) + " cross-covariances)", n,
                                std::min<int64_t>(kPredictChunk, int64_t(std::max<size_t>(where.size(), 1))), 1);
        TileMatrix<T> A(n, 1, nb);
        A.fill_from_lapack(fit.alpha.data(), n);
        const ChunkPredictor kriging = [&](const std::vector<Location>& w, std::vector<double>& mean, std::vector<double>& sd) {
            kriging_chunk(K, A, fit, rt, w, mean, sd);
        };
        if (!where.empty()) {  // chunk by chunk into the --out file
            Stopwatch clock;
            tool::ProgressDisplay progress(rt, "gp predict", quiet);
            const int64_t predicted = tool::writing_output([&] {
                return predict_to_csv(where, rt.rank() == 0 ? opt.common.out : std::string(), data.columns.value_name(),
                                      true, kriging);
            });
            report("\npredict    %lld locations of %s: kriging mean and sd (tau^2 included) written to %s in %.3f s%s\n",
                   (long long)predicted, opt.common.predict.c_str(), opt.common.out.c_str(), clock.seconds(),
                   refactor ? " (best K factored again)" : "");
        }
        if (!opt.common.map.empty()) {
            Stopwatch clock;
            tool::ProgressDisplay progress(rt, "gp map", quiet);
            const int64_t cells = tool::writing_output([&] {
                return draw_prediction_map(opt.common.map, rt.rank() == 0, data.train, kriging, true,
                                           data.columns.value_name(),
                                           "Gaussian-process kriging of " + data.columns.value_name() + " (" +
                                               std::to_string(n) + " points, ell " + joined({fit.best.ell_km}) + " km)");
            });
            report("map        kriging mean and sd at %lld grid cells drawn to %s in %.3f s\n", (long long)cells,
                   opt.common.map.c_str(), clock.seconds());
        }
    }
    if (rt.rank() == 0 && !opt.common.watch.gantt.empty()) {
        const long drawn = tool::writing_output(
            [&] { return tool::draw_gantt_of_run(rt, opt.common.watch, "gp_kriging: tasks per worker"); });
        report("gantt      %ld tasks drawn to %s\n", drawn, opt.common.watch.gantt.c_str());
    }

    tool::finish_trace(rt);  // every rank its own file
    if (rt.rank() != 0) return tool::kOk;  // alpha and the report are rank 0's
    const GridPoint& best = fit.best;
    std::printf("\nbest       ell = %g km, tau^2/sigma^2 = %g (log-likelihood %.2f)\n", best.ell_km, best.ratio, best.loglik);
    std::printf("factor     n = %lld: potrf %.3f s, %.2f GFLOP/s (n^3/3 flops); potrs %.3f s\n", (long long)n,
                best.potrf_s, gflops(potrf_flops, best.potrf_s), best.potrs_s);
    if (data.test.empty()) {
        std::printf("held-out   none (--holdout 0): no held-out RMSE\n");
        return tool::kOk;
    }
    // Kriging mean at each held-out point: mean + Σ_i σ²·k(d(t, x_i))·alpha_i.
    std::vector<double> pred(data.test.size());
    for (size_t t = 0; t < data.test.size(); ++t) {
        const GeoPoint q(data.test[t]);
        double s = 0;
        for (int64_t i = 0; i < n; ++i)
            s += fit.var * matern32(haversine_km(q, (*fit.points)[size_t(i)]), best.ell_km) * double(fit.alpha[size_t(i)]);
        pred[t] = fit.mean + s;
    }
    const double gp_rmse = rmse(pred, data.test);
    const Baselines base = baselines(data.train, data.test);
    const std::string one = noun == "airports" ? "airport" : "point";
    std::printf("held-out RMSE over %zu %s (%s):\n", data.test.size(), noun.c_str(), unit.c_str());
    std::printf("  Gaussian process (kriging mean)   %8.4g\n", gp_rmse);
    std::printf("  nearest training %-16s %8.4g\n", one.c_str(), base.nearest_rmse);
    std::printf("  training mean                     %8.4g\n", base.mean_rmse);
    AppCheck result;
    result.not_finite = all_finite(pred) && std::isfinite(gp_rmse) ? "" : "held-out predictions are";
    result.ok = gp_rmse < base.nearest_rmse && gp_rmse < base.mean_rmse;
    return result.report("gp_kriging", "GP beats both baselines", opt.common.check);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"gp_kriging: Gaussian-process regression of point data (default: airport elevations) with tile "
                 "Cholesky", "gp_kriging"};
    GpOptions opt;  // default: every training airport (11 factorizations of order 6466, about 15 s on 2 cores)
    add_common_options(app, opt.common, "exit 1 unless the GP's held-out RMSE beats both baselines (refused with "
                                        "--holdout 0: nothing held out to check)");
    app.add_option("--ell", opt.ells, "length scales of the grid, km (default: derived from the data's spacing, "
                                      "then refined around the best)")
        ->delimiter(',')->check(CLI::PositiveNumber);
    app.add_option("--ratio", opt.ratios, "nugget ratios tau^2/sigma^2 of the grid (default: 0.01,0.1)")->delimiter(',')
        ->check(CLI::NonNegativeNumber);
    if (int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
    const bool n_given = app.count("--n") > 0;
#if defined(__SSE2__)
    // Flush subnormal results to zero and read subnormal inputs as zero (MXCSR FTZ | DAZ), before
    // StarPU creates its workers, which inherit the setting. A short ℓ makes the Cholesky factor's
    // entries between distant points decay below 1e-308; in subnormal arithmetic the
    // factorization runs 3 to 20 times slower, for values that are zero to working accuracy.
    _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
    return guarded_app_main("gp_kriging", [&] {
        if (opt.common.check && opt.common.holdout == 0)
            throw Error("--check compares the held-out RMSE with the baselines, and --holdout 0 holds nothing out: "
                        "nothing to check");
        const PointData data = load_data(opt.common);
        require_model_data(data.train, n_given, data.columns.noun());
        if (opt.common.prec == "s") require_values_fit<float>(data);
        else require_values_fit<double>(data);
        const std::vector<Location> where =
            opt.common.predict.empty() ? std::vector<Location>{} : read_locations(opt.common.predict, opt.common.columns);
        Runtime rt(tool::runtime_config(opt.common.watch));
        return tool::run_in_runtime("gp_kriging", [&] {
            return opt.common.prec == "s" ? run<float>(opt, data, rt, where) : run<double>(opt, data, rt, where);
        });
    });
}

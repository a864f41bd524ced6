// gp_kriging: Gaussian-process regression (simple kriging) of airport elevations with tile Cholesky.
//
//   gp_kriging [--n N] [--nb NB] [--prec s|d] [--ell 50,100,...] [--ratio 0.01,0.1] [--check]
//
// Model: y = elevation − training mean (metres), y ~ N(0, K) with K_ij = k(d_ij) + τ²·δ_ij, d the
// great-circle distance (haversine, km) and k the Matérn ν = 3/2 covariance
//   k(d) = σ²·(1 + √3·d/ℓ)·exp(−√3·d/ℓ),
// σ² the variance of the training elevations (m²), ℓ the length scale (km), τ² the nugget (m²).
// For every (ℓ, τ²/σ²) of the grid, K is generated tile by tile as StarPU tasks, factored with
// tile potrf and solved with potrs, and the exact log-likelihood
//   log p(y) = −½·yᵀK⁻¹y − ½·log|K| − (n/2)·log 2π,  log|K| = 2·Σ log Lᵢᵢ
// is read off the factor's diagonal tiles. The best grid point predicts every held-out airport with
// the kriging mean k*ᵀ·K⁻¹·y + mean, compared with the training mean and the nearest training airport.
// Subnormal arithmetic is switched off (FTZ/DAZ, see main). Default: every training airport.
// Under mpirun (docs/distributed.md) every rank runs the same grid search: K is distributed
// 2D block-cyclically and each tile generated on its owner, log|K| sums the diagonal tiles of every
// rank (Runtime::sum_over_ranks), y and K⁻¹y live on rank 0, which alone predicts and reports.
// Exit status (examples/common/tool_main.hpp): 0 success; 1 a failed factorization (info > 0), a
// failed --check or a task failure; 2 refused: bad arguments, a malformed --data file, training
// elevations without variance (fewer than 2 airports), or more memory than is available.
#include <cmath>
#include <cstdio>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif
#include <limits>
#include <memory>
#include <vector>

#include "examples/apps/app_common.hpp"

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
    std::vector<double> ells{50, 100, 200, 400};  ///< length scales, km
    std::vector<double> ratios{0.01, 0.1};        ///< nugget ratios τ²/σ²
};

/// σ²: the variance of the training elevations (m²), the scale of the covariance.
double elevation_variance(const std::vector<Airport>& train) {
    const double mean = mean_elevation(train);
    double var = 0;
    for (const Airport& a : train) var += (a.elev_m - mean) * (a.elev_m - mean);
    return var / double(train.size());
}

/// Refuse training data the model cannot be fitted to: σ² is their variance, and both terms of K scale
/// with it (τ² = ratio·σ²), so with fewer than 2 airports, or elevations all equal, K = 0 and no
/// factorization can succeed (the old message then blamed the precision).
void require_model_data(const std::vector<Airport>& train, bool n_given) {
    const std::string n = std::to_string(train.size());
    if (train.size() < 2)
        throw Error((n_given ? "--n " + n + ": " : "the data has " + n + " training airport(s): ") +
                    "too few training airports for the model: sigma^2 is the variance of their elevations, which "
                    "needs at least 2 airports with different elevations");
    if (!(elevation_variance(train) > 0))
        throw Error("the " + n + " training airports all have the same elevation (sigma^2 = 0): nothing for the model "
                    "to fit; use more airports (--n)");
}

/// Why a factorization can fail in this run, and what to change: single precision loses positive
/// definiteness first; without a nugget, coinciding or very close airports make K singular; a long
/// length scale makes far-apart airports nearly collinear.
std::string factorization_hint(const GpOptions& opt, double ratio) {
    if (opt.common.prec == "s") return "try --prec d or a larger --ratio";
    if (ratio == 0) return "--ratio 0 adds no nugget, and with airports close together or a long --ell K is singular "
                           "to working precision; try --ratio 0.01 or more";
    return "K is numerically singular even in double precision; try a larger --ratio or a shorter --ell";
}

template <class T>
int run(const GpOptions& opt, const AirportData& data, const Runtime& rt) {
    const int64_t n = int64_t(data.train.size()), nb = opt.common.nb;
    require_dense_memory<T>(std::to_string(n) + " training airports", n, n, 1);
    const double mean = mean_elevation(data.train);
    const double var = elevation_variance(data.train);  // σ², m²
    std::vector<T> y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) y[size_t(i)] = T(data.train[size_t(i)].elev_m - mean);
    auto points = std::make_shared<std::vector<GeoPoint>>();
    for (const Airport& a : data.train) points->emplace_back(a);

    print_setup(data, rt, opt.common);
    report("model      Matern 3/2 on haversine distance, training mean %.1f m, sigma^2 = %.4g m^2 (sd %.1f m)\n",
           mean, var, std::sqrt(var));
    report("\n%9s %8s %16s %9s %9s %9s %9s\n", "ell_km", "tau2/s2", "log-likelihood", "gen_s", "potrf_s", "GFLOP/s",
           "potrs_s");

    TileMatrix<T> K(n, n, nb), Y(n, 1, nb);
    std::vector<T> alpha(static_cast<size_t>(n)), best_alpha;
    GridPoint best;
    const double potrf_flops = double(n) * double(n) * double(n) / 3.0;
    for (double ell : opt.ells) {
        for (double ratio : opt.ratios) {
            GridPoint g{ell, ratio};
            Stopwatch clock;
            const double tau2 = ratio * var;
            // Lower triangle only (potrf Lower never reads the strictly upper tiles, which get zeros).
            K.generate([points, ell, var, tau2](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
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
            Y.fill_from_lapack(y.data(), n);
            Runtime::wait_all();
            g.gen_s = clock.seconds();

            clock.restart();
            const int64_t info = potrf(Uplo::Lower, K);
            g.potrf_s = clock.seconds();
            if (info > 0) {  // every rank has the same info
                report("%9.0f %8.3g  FACTORIZATION FAILED: info = %lld\n", ell, ratio, (long long)info);
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
            report("%9.0f %8.3g %16.2f %9.3f %9.3f %9.2f %9.3f\n", ell, ratio, g.loglik, g.gen_s, g.potrf_s,
                   gflops(potrf_flops, g.potrf_s), g.potrs_s);
            std::fflush(stdout);
            if (!std::isfinite(g.loglik)) {  // the same on every rank
                if (rt.rank() == 0)
                    std::fprintf(stderr, "gp_kriging: log-likelihood is not finite for ell = %g km; no result\n", ell);
                return tool::kFailed;
            }
            if (g.loglik > best.loglik) {
                best = g;
                best_alpha = alpha;
            }
        }
    }

    if (rt.rank() != 0) return tool::kOk;  // alpha and the report are rank 0's
    // Kriging mean at each held-out airport: mean + Σ_i σ²·k(d(t, x_i))·alpha_i.
    std::vector<double> pred(data.test.size());
    for (size_t t = 0; t < data.test.size(); ++t) {
        const GeoPoint q(data.test[t]);
        double s = 0;
        for (int64_t i = 0; i < n; ++i)
            s += var * matern32(haversine_km(q, (*points)[size_t(i)]), best.ell_km) * double(best_alpha[size_t(i)]);
        pred[t] = mean + s;
    }
    const double gp_rmse = rmse(pred, data.test);
    const Baselines base = baselines(data.train, data.test);

    std::printf("\nbest       ell = %g km, tau^2/sigma^2 = %g (log-likelihood %.2f)\n", best.ell_km, best.ratio, best.loglik);
    std::printf("factor     n = %lld: potrf %.3f s, %.2f GFLOP/s (n^3/3 flops); potrs %.3f s\n", (long long)n,
                best.potrf_s, gflops(potrf_flops, best.potrf_s), best.potrs_s);
    std::printf("held-out RMSE over %zu airports (m):\n", data.test.size());
    std::printf("  Gaussian process (kriging mean)   %8.1f\n", gp_rmse);
    std::printf("  nearest training airport          %8.1f\n", base.nearest_rmse_m);
    std::printf("  training mean                     %8.1f\n", base.mean_rmse_m);
    const bool ok = std::isfinite(gp_rmse) && gp_rmse < base.nearest_rmse_m && gp_rmse < base.mean_rmse_m;
    std::printf("check      GP beats both baselines: %s\n", verdict(ok));
    return opt.common.check && !ok ? tool::kFailed : tool::kOk;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"gp_kriging: Gaussian-process regression of airport elevations with tile Cholesky", "gp_kriging"};
    GpOptions opt;  // default: every training airport (8 factorizations of order 6466, about a minute on 2 cores)
    add_common_options(app, opt.common, "exit 1 unless the GP's held-out RMSE beats both baselines");
    app.add_option("--ell", opt.ells, "length scales of the grid, km")->delimiter(',')->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--ratio", opt.ratios, "nugget ratios tau^2/sigma^2 of the grid")->delimiter(',')
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    if (int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
    const bool n_given = app.count("--n") > 0;
#if defined(__SSE2__)
    // Flush subnormal results to zero and read subnormal inputs as zero (MXCSR FTZ | DAZ), before
    // StarPU creates its workers, which inherit the setting. A short ℓ makes the Cholesky factor's
    // entries between distant airports decay below 1e-308; in subnormal arithmetic the
    // factorization runs 3 to 20 times slower, for values that are zero to working accuracy.
    _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
    return guarded_app_main("gp_kriging", [&] {
        const AirportData data = load_airports(opt.common.data, opt.common.n);
        require_model_data(data.train, n_given);
        Runtime rt;
        return opt.common.prec == "s" ? run<float>(opt, data, rt) : run<double>(opt, data, rt);
    });
}

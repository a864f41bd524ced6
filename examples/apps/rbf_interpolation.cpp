// rbf_interpolation: multiquadric radial-basis-function interpolation of point data, tile LU.
//
//   rbf_interpolation [--data FILE --lat COL --lon COL --value COL] [--holdout K] [--n N] [--nb NB]
//                     [--prec s|d] [--c KM] [--predict FILE --out FILE] [--check]
//
// Model: s(x) = mean + Σⱼ wⱼ·φ(‖x − xⱼ‖) with the multiquadric φ(r) = √(r² + c²), r and c in km,
// interpolating the training values exactly: A·w = y, Aᵢⱼ = φ(‖xᵢ − xⱼ‖), y = value − mean (the value
// column's unit; metres for the airports' altitude_ft). Training rows at one location are merged
// (point_data.hpp), so the points are distinct.
// r is the straight-line (chord) distance between the points on a sphere of radius 6371 km: the
// multiquadric matrix of distinct points in Euclidean space is nonsingular with one positive and
// n − 1 negative eigenvalues (Micchelli 1986), a guarantee the great-circle distance lacks; below
// 1000 km the two distances differ by less than 0.11%. A is symmetric indefinite, so it is solved
// with partial-pivoting tile LU (gesv). The shape parameter c defaults to the median distance from a
// training point to its nearest neighbour, the typical spacing of the data (the mean is pulled up
// by remote points; a c well above the spacing makes the interpolant overshoot and A worse
// conditioned).
// A is generated tile by tile as StarPU tasks. The same system is solved with LAPACKE_xgesv in the
// same precision (before the StarPU workers start, so it has OpenBLAS's own threads).
// Reports: held-out RMSE next to the baselines (none with --holdout 0), the backward error
// ‖y − A·w‖/((‖A‖·‖w‖ + ‖y‖)·n·eps), and ‖w − w_ref‖₂/‖w_ref‖₂. --check passes when the backward error
// is ≤ 60 (docs/architecture.md#numerical-checks) and the weight difference is within 60·n·eps·κ₁(A) (LAPACK's estimate of κ₁);
// it checks the solve, not the held-out error, so it means the same with --holdout 0. Where
// κ·ε ≥ 1 the bound accepts any answer: the check prints INCONCLUSIVE (exit 1 with --check), never pass.
// --predict FILE --out FILE: s(x) at each location of FILE (predict_io.hpp; no standard deviation).
// Exit status (examples/common/tool_main.hpp): 0 success; 1 a prediction or RMSE that is not finite
// (with or without --check), an output file that cannot be written after the work, an exactly singular matrix (info > 0), a
// failed --check or a task failure; 2 refused: bad arguments, a malformed --data or --predict file,
// fewer than 2 training points, or more memory than is available. Under mpirun (docs/distributed.md)
// every rank generates its tiles of A and takes part in gesv; the weights are gathered to rank 0,
// which alone predicts, checks, writes and reports.
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "examples/apps/app_common.hpp"
#include "examples/solve/residuals.hpp"
#include "tessera/lu.hpp"

using namespace tessera;
using namespace tessera::apps;

namespace {

/// The multiquadric kernel matrix entries of one point set against another, in precision T.
struct Multiquadric {
    std::vector<GeoPoint> points;
    double c_km;
    double phi(const GeoPoint& p, const GeoPoint& q) const {
        const double r = chord_km(p, q);
        return std::sqrt(r * r + c_km * c_km);
    }
};

template <class T>
int lapacke_gesv(int64_t n, T* a, T* b, std::vector<int>& ipiv) {
    ipiv.resize(size_t(n));
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sgesv(LAPACK_COL_MAJOR, int(n), 1, a, int(n), ipiv.data(), b, int(n));
    else return LAPACKE_dgesv(LAPACK_COL_MAJOR, int(n), 1, a, int(n), ipiv.data(), b, int(n));
}

/// LAPACK's estimate of κ₁(A) from the LU factors of A and ‖A‖₁.
template <class T>
double condition_from_lu(int64_t n, const T* lu, double norm_a1) {
    T rcond = 0;
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_sgecon(LAPACK_COL_MAJOR, '1', int(n), lu, int(n), T(norm_a1), &rcond);
    else info = LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', int(n), lu, int(n), T(norm_a1), &rcond);
    return info == 0 && rcond > 0 ? 1.0 / double(rcond) : INFINITY;
}

template <class T>
int run(const CommonOptions& opt, double c_opt, const PointData& data, const std::vector<Location>& where) {
    require_values_fit<T>(data);
    const int64_t n = int64_t(data.train.size());
    const std::string noun = data.columns.noun(), unit = data.columns.unit();
    const double mean = mean_value(data.train);
    auto mq = std::make_shared<Multiquadric>();
    for (const Point& p : data.train) mq->points.emplace_back(p);
    // The median nearest-neighbour distance: the typical spacing, unaffected by the few remote
    // points whose nearest neighbour is far away (which pull the mean up by 2 to 3 times on airports).
    mq->c_km = c_opt > 0 ? c_opt : median_nearest_chord_km(mq->points);
    std::vector<T> y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) y[size_t(i)] = T(data.train[size_t(i)].value - mean);

    // A twice: the LAPACK array of the reference, then the tile matrix.
    require_dense_memory<T>(std::to_string(n) + " training " + noun, n, n, 2);
    // Reference first, while OpenBLAS still has its own threads: A as a LAPACK array (column j
    // holds φ(‖xᵢ − xⱼ‖) for every i), its 1-norm, LAPACKE_xgesv, LAPACK's condition estimate.
    double norm_a1 = 0;
    std::vector<T> w_ref = y;
    std::vector<int> ipiv_ref;
    double ref_s = 0, kappa = INFINITY;
    int ref_info = 0;
    {
        std::vector<T> a(size_t(n) * size_t(n));
        for (int64_t j = 0; j < n; ++j) {
            double col = 0;
            for (int64_t i = 0; i < n; ++i) {
                const T v = T(mq->phi(mq->points[size_t(i)], mq->points[size_t(j)]));
                a[size_t(i) + size_t(j) * size_t(n)] = v;
                col += std::abs(double(v));
            }
            norm_a1 = std::max(norm_a1, col);
        }
        Stopwatch clock;
        ref_info = lapacke_gesv<T>(n, a.data(), w_ref.data(), ipiv_ref);
        ref_s = clock.seconds();
        if (ref_info == 0) kappa = condition_from_lu<T>(n, a.data(), norm_a1);
    }

    Runtime rt(tool::runtime_config(opt.watch));
    print_setup(data, rt, opt);
    report("model      multiquadric sqrt(r^2 + c^2), r chord distance, c = %.2f km%s\n", mq->c_km,
                c_opt > 0 ? " (--c)" : " (median nearest-neighbour distance)");
    TileMatrix<T> A(n, n, opt.nb), B(n, 1, opt.nb);
    Stopwatch clock;
    std::optional<tool::ProgressDisplay> progress;
    progress.emplace(rt, "rbf generate + gesv", opt.watch.quiet);
    A.generate([mq](int64_t i0, int64_t j0, int64_t rows, int64_t cols, T* tile, int64_t ld) {
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i)
                tile[i + j * ld] = T(mq->phi(mq->points[size_t(i0 + i)], mq->points[size_t(j0 + j)]));
    });
    B.fill_from_lapack(y.data(), n);
    Runtime::wait_all();
    const double gen_s = clock.seconds();
    std::vector<int64_t> ipiv;
    clock.restart();
    const int64_t info = gesv(A, ipiv, B);
    const double gesv_s = clock.seconds();
    progress.reset();
    if (info > 0) {
        // Distinct points give a nonsingular matrix (Micchelli), and training rows at one location
        // are merged, so an exact zero pivot means rounding: single precision, or points so close
        // that their rows are equal to working precision.
        report("FAILED     tile gesv: U(%lld,%lld) is exactly zero (info = %lld): the matrix is singular in %s "
                    "precision; no result (%s)\n", (long long)info, (long long)info, (long long)info,
                    opt.prec == "s" ? "single" : "double",
                    opt.prec == "s" ? "try --prec d" : "points this close together give equal rows; try a larger --c");
        return tool::kFailed;
    }
    std::vector<T> w(static_cast<size_t>(n));
    B.to_lapack(w.data(), n);
    if (rt.rank() != 0) return tool::kOk;  // under mpirun the solution is gathered to rank 0, which alone reports

    // Backward error, with A's entries regenerated (in precision T) instead of stored twice.
    double norm_r1 = 0, norm_w1 = 0, norm_y1 = 0;
    for (int64_t i = 0; i < n; ++i) {
        double s = double(y[size_t(i)]);
        for (int64_t j = 0; j < n; ++j)
            s -= double(T(mq->phi(mq->points[size_t(i)], mq->points[size_t(j)]))) * double(w[size_t(j)]);
        norm_r1 += std::abs(s);
        norm_w1 += std::abs(double(w[size_t(i)]));
        norm_y1 += std::abs(double(y[size_t(i)]));
    }
    const double eps = check::eps<T>();
    const double berr = norm_r1 == 0 ? 0 : norm_r1 / ((norm_a1 * norm_w1 + norm_y1) * double(n) * eps);
    const double diff = ref_info == 0 ? solve::relative_difference(n, w.data(), w_ref.data()) : INFINITY;
    const double bound = check::kThreshold * double(n) * eps * kappa;

    // The interpolant at any position.
    auto interpolant = [&](const GeoPoint& q) {
        double s = mean;
        for (int64_t j = 0; j < n; ++j) s += mq->phi(q, mq->points[size_t(j)]) * double(w[size_t(j)]);
        return s;
    };
    std::vector<double> pred(data.test.size());
    for (size_t t = 0; t < data.test.size(); ++t) pred[t] = interpolant(GeoPoint(data.test[t]));
    const double test_rmse = rmse(pred, data.test);
    const Baselines base = baselines(data.train, data.test);
    int64_t predicted = 0;
    clock.restart();
    if (!where.empty())
        predicted = tool::writing_output([&] {
            return predict_to_csv(where, opt.out, data.columns.value_name(), false,
                                  [&](const std::vector<Location>& chunk, std::vector<double>& m, std::vector<double>&) {
                                      m.resize(chunk.size());
                                      for (size_t k = 0; k < chunk.size(); ++k) m[k] = interpolant(GeoPoint(chunk[k]));
                                  });
        });
    const double predict_s = clock.seconds();
    const ChunkPredictor rbf = [&](const std::vector<Location>& chunk, std::vector<double>& m, std::vector<double>&) {
        m.resize(chunk.size());
        for (size_t k = 0; k < chunk.size(); ++k) m[k] = interpolant(GeoPoint(chunk[k]));
    };
    if (!opt.map.empty()) {
        clock.restart();
        const int64_t cells = tool::writing_output([&] {
            return draw_prediction_map(opt.map, true, data.train, rbf, false, data.columns.value_name(),
                                       "Multiquadric RBF interpolation of " + data.columns.value_name() + " (" +
                                           std::to_string(n) + " points)");
        });
        std::printf("map        interpolant at %lld grid cells drawn to %s in %.3f s\n", (long long)cells, opt.map.c_str(),
                    clock.seconds());
    }
    if (!opt.watch.gantt.empty())
        std::printf("gantt      %ld tasks drawn to %s\n",
                    tool::writing_output([&] { return tool::draw_gantt_of_run(rt, opt.watch, "rbf_interpolation: tasks per worker"); }),
                    opt.watch.gantt.c_str());
    tool::finish_trace(rt);
    const double flops = 2.0 * double(n) * double(n) * double(n) / 3.0;
    const char* ref_name = std::is_same_v<T, float> ? "LAPACKE_sgesv" : "LAPACKE_dgesv";

    std::printf("\ntime       generate A %.3f s; tile gesv %.3f s, %.2f GFLOP/s (2n^3/3 flops)\n", gen_s, gesv_s,
                gflops(flops, gesv_s));
    std::printf("reference  %s %.3f s, %.2f GFLOP/s (before StarPU started; info %d)\n", ref_name, ref_s,
                gflops(flops, ref_s), ref_info);
    if (!where.empty())
        std::printf("predict    %lld locations of %s: interpolant written to %s in %.3f s\n", (long long)predicted,
                    opt.predict.c_str(), opt.out.c_str(), predict_s);
    if (data.test.empty()) {
        std::printf("held-out   none (--holdout 0): no held-out RMSE\n");
    } else {
        std::printf("held-out RMSE over %zu %s (%s):\n", data.test.size(), noun.c_str(), unit.c_str());
        std::printf("  multiquadric RBF interpolant      %8.4g\n", test_rmse);
        std::printf("  nearest training %-16s %8.4g\n", noun == "airports" ? "airport" : "point", base.nearest_rmse);
        std::printf("  training mean                     %8.4g\n", base.mean_rmse);
    }
    std::printf("accuracy   backward error ||y - A w|| / ((||A|| ||w|| + ||y||) n eps) = %.3g (threshold %g)\n", berr,
                check::kThreshold);
    std::printf("           ||w - w_ref|| / ||w_ref|| = %.3g vs %s; bound %.3g (kappa_1(A) ~ %.3g)\n", diff, ref_name,
                bound, kappa);
    AppCheck result;
    result.not_finite = !all_finite(w)                                     ? "weights w are"
                        : !(all_finite(pred) && std::isfinite(test_rmse)) ? "held-out predictions are"
                                                                           : "";
    result.ok = check::passes(berr) && diff <= bound;
    // κ·ε ≥ 1: the system is singular to working precision, the bound (≥ 60·n) accepts any weights,
    // and the comparison with LAPACKE can tell nothing.
    result.conclusive = kappa * eps < 1;
    return result.report("rbf_interpolation", std::string("backward error and agreement with ") + ref_name, opt.check,
                         "kappa_1(A)", kappa, bound,
                         std::string("the system is singular to working precision; points nearly at one place, or a --c "
                                     "well above their spacing, make A ill-conditioned (try a smaller --c") +
                             (opt.prec == "s" ? " or --prec d" : "") + ")");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"rbf_interpolation: multiquadric RBF interpolation of point data (default: airport elevations) "
                 "with tile LU",
                 "rbf_interpolation"};
    CommonOptions opt;
    double c_km = 0;
    add_common_options(app, opt, "exit 1 unless the solve agrees with LAPACKE within the thresholds of docs/architecture.md");
    app.add_option("--c", c_km, "multiquadric shape parameter, km (default: median nearest-neighbour distance)")
        ->check(CLI::PositiveNumber);
    if (int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
    return guarded_app_main("rbf_interpolation", [&] {
        const PointData data = load_data(opt);
        if (data.train.size() < 2)
            throw Error((app.count("--n") ? "--n " + std::to_string(data.train.size()) + ": " : "the data has " +
                         std::to_string(data.train.size()) + " training " + data.columns.noun() + ": ") +
                        "too few training points for the model: the interpolant needs at least 2");
        const std::vector<Location> where = opt.predict.empty() ? std::vector<Location>{} : read_locations(opt.predict, opt.columns);
        return opt.prec == "s" ? run<float>(opt, c_km, data, where) : run<double>(opt, c_km, data, where);
    });
}

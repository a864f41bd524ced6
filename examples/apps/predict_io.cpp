// Prediction locations and the prediction file (see predict_io.hpp).
#include "examples/apps/predict_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>

#include "examples/common/tool_main.hpp"
#include "tessera/types.hpp"

namespace tessera::apps {

namespace {

// Widen [lo, hi] by 5% of its extent on each side (0.5 where the extent is 0), clamped to [min, max].
void widen(double& lo, double& hi, double min, double max) {
    const double margin = hi > lo ? 0.05 * (hi - lo) : 0.5;
    lo = std::max(min, lo - margin);
    hi = std::min(max, hi + margin);
}

// The shortest longitude interval [lo, hi] holding every point's longitude: the circle minus the
// largest gap between neighbouring longitudes, so that data across the antimeridian (170°E to
// 170°W) spans 170..190 rather than -170..170. Its ends are in [-180, 360]; where no such
// interval fits there (data spanning more than 180° across the antimeridian), the plain min..max.
void longitude_span(const std::vector<Point>& points, double& lo, double& hi) {
    std::vector<double> l;
    l.reserve(points.size());
    for (const Point& p : points) {
        double x = std::fmod(p.lon_deg + 180.0, 360.0);
        l.push_back((x < 0 ? x + 360.0 : x) - 180.0);  // in [-180, 180)
    }
    std::sort(l.begin(), l.end());
    double gap = l.front() + 360.0 - l.back();  // the gap across the antimeridian
    lo = l.front();
    hi = l.back();
    for (size_t k = 0; k + 1 < l.size(); ++k)
        if (l[k + 1] - l[k] > gap) {
            gap = l[k + 1] - l[k];
            lo = l[k + 1];
            hi = l[k] + 360.0;
        }
    if (hi > 360.0) {
        lo = hi = points[0].lon_deg;
        for (const Point& p : points) {
            lo = std::min(lo, p.lon_deg);
            hi = std::max(hi, p.lon_deg);
        }
    }
}

}  // namespace

PredictionGrid prediction_grid(const std::vector<Point>& points, int64_t nx, int64_t ny) {
    if (points.empty()) throw Error("prediction_grid: no points to span");
    if (nx < 1 || ny < 1 || nx > (int64_t(1) << 26) / ny)
        throw Error("prediction_grid: " + std::to_string(nx) + " x " + std::to_string(ny) +
                    " cells: each must be at least 1 and their product at most 2^26");
    PredictionGrid g;
    g.nx = nx;
    g.ny = ny;
    longitude_span(points, g.lon_min, g.lon_max);
    g.lat_min = g.lat_max = points[0].lat_deg;
    for (const Point& p : points) {
        g.lat_min = std::min(g.lat_min, p.lat_deg);
        g.lat_max = std::max(g.lat_max, p.lat_deg);
    }
    widen(g.lon_min, g.lon_max, -180.0, 360.0);
    widen(g.lat_min, g.lat_max, -90.0, 90.0);
    const double dlon = (g.lon_max - g.lon_min) / double(nx), dlat = (g.lat_max - g.lat_min) / double(ny);
    g.where.reserve(size_t(nx * ny));
    for (int64_t iy = 0; iy < ny; ++iy)
        for (int64_t ix = 0; ix < nx; ++ix)
            g.where.push_back({g.lat_min + (double(iy) + 0.5) * dlat, g.lon_min + (double(ix) + 0.5) * dlon});
    return g;
}

PredictionWriter::PredictionWriter(const std::string& path, const std::string& value_name, bool with_sd)
    : path_(path), with_sd_(with_sd), file_(std::fopen(path.c_str(), "w")) {
    if (!file_) throw Error(path + ": cannot write the file: " + std::strerror(errno));
    std::fprintf(file_, "lat,lon,%s_pred%s%s%s\n", value_name.c_str(), with_sd ? "," : "",
                 with_sd ? value_name.c_str() : "", with_sd ? "_sd" : "");
}

PredictionWriter::~PredictionWriter() {
    if (file_) std::fclose(file_);
}

void PredictionWriter::write(const std::vector<Location>& where, const std::vector<double>& mean,
                             const std::vector<double>& sd) {
    if (!file_) throw Error(path_ + ": the prediction file is closed");
    if (mean.size() != where.size() || (with_sd_ && sd.size() != where.size()))
        throw Error(path_ + ": " + std::to_string(where.size()) + " locations but " + std::to_string(mean.size()) +
                    " predictions and " + std::to_string(sd.size()) + " standard deviations");
    for (size_t k = 0; k < where.size(); ++k) {
        std::fprintf(file_, "%.15g,%.15g,%.10g", where[k].lat_deg, where[k].lon_deg, mean[k]);
        if (with_sd_) std::fprintf(file_, ",%.10g", sd[k]);
        std::fputc('\n', file_);
    }
    if (std::ferror(file_)) throw Error(path_ + ": cannot write the file");
}

void PredictionWriter::close() {
    if (!file_) return;
    const bool bad = std::ferror(file_) != 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (bad || !closed) throw Error(path_ + ": cannot write the file (disk full?)");
}

void predict_in_chunks(const std::vector<Location>& where, bool with_sd, const ChunkPredictor& predict,
                       const std::function<void(size_t first, const std::vector<Location>& chunk,
                                                const std::vector<double>& mean, const std::vector<double>& sd)>& take) {
    std::vector<Location> chunk;
    std::vector<double> mean, sd;
    for (size_t k0 = 0; k0 < where.size(); k0 += size_t(kPredictChunk)) {
        const size_t k1 = std::min(where.size(), k0 + size_t(kPredictChunk));
        chunk.assign(where.begin() + std::ptrdiff_t(k0), where.begin() + std::ptrdiff_t(k1));
        mean.clear();
        sd.clear();
        predict(chunk, mean, sd);
        if (mean.size() != chunk.size() || (with_sd && sd.size() != chunk.size()))
            throw Error("the model returned " + std::to_string(mean.size()) + " predictions and " +
                        std::to_string(sd.size()) + " standard deviations for " + std::to_string(chunk.size()) +
                        " locations");
        for (size_t k = 0; k < chunk.size(); ++k)
            if (!std::isfinite(mean[k]) || (with_sd && !std::isfinite(sd[k]))) {
                char where_text[96];
                std::snprintf(where_text, sizeof where_text, "lat %.6g, lon %.6g", chunk[k].lat_deg, chunk[k].lon_deg);
                throw tool::WorkFailed(std::string("the model's prediction at ") + where_text + " is not finite (" +
                                       (std::isfinite(mean[k]) ? "standard deviation " : "mean ") +
                                       std::to_string(std::isfinite(mean[k]) ? sd[k] : mean[k]) +
                                       "): no valid result; the data or the model's parameters overflow the precision");
            }
        take(k0, chunk, mean, sd);
    }
}

int64_t predict_to_csv(const std::vector<Location>& where, const std::string& out_path, const std::string& value_name,
                       bool with_sd, const ChunkPredictor& predict) {
    if (where.empty()) throw Error(out_path + ": no location to predict at");
    std::unique_ptr<PredictionWriter> out;
    if (!out_path.empty()) out = std::make_unique<PredictionWriter>(out_path, value_name, with_sd);
    predict_in_chunks(where, with_sd, predict,
                      [&](size_t, const std::vector<Location>& chunk, const std::vector<double>& mean,
                          const std::vector<double>& sd) {
                          if (out) out->write(chunk, mean, sd);
                      });
    if (out) out->close();
    return int64_t(where.size());
}

std::vector<Location> read_locations(const std::string& path, const Columns& columns) {
    return parse_locations_csv(read_text_file(path), path, columns);
}

}  // namespace tessera::apps

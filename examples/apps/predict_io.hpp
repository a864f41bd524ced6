// Predictions of the example applications at locations other than the data's: the locations of a
// --predict CSV file, a regular lon/lat grid over the data (for maps), and the --out CSV file of the
// predictions, written chunk by chunk so that a model that needs memory per location (the kriging
// variance: an n×P matrix) stays bounded for any number of locations.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "examples/apps/point_data.hpp"

namespace tessera::apps {

/// Locations a model predicts at, at most this many at a time (the chunk of predict_csv).
constexpr int64_t kPredictChunk = 4096;

/// A regular grid of nx × ny cells over lon_min..lon_max × lat_min..lat_max (degrees); `where` holds
/// the cell centres in row-major order, row 0 the southernmost: where[iy·nx + ix] is at
/// lon = lon_min + (ix + ½)·(lon_max − lon_min)/nx, lat = lat_min + (iy + ½)·(lat_max − lat_min)/ny.
struct PredictionGrid {
    int64_t nx = 0, ny = 0;
    double lon_min = 0, lon_max = 0, lat_min = 0, lat_max = 0;
    std::vector<Location> where;
};

/// The grid of a map of the data: the bounding box of `points` widened by 5% of its extent on each
/// side (by 0.5° where the extent is 0: a single latitude or longitude), clamped to latitudes
/// [-90, 90] and longitudes [-180, 360], divided into nx × ny cells (default 160 × 100). In
/// longitude the box is the shortest interval holding the data's longitudes, however written: data
/// across the antimeridian (170°E..170°W, or 170..190) spans 170..190, and the grid's longitudes
/// then exceed 180 (the distances do not mind). Throws tessera::Error for no points, nx or ny < 1,
/// or nx·ny above 2^26.
PredictionGrid prediction_grid(const std::vector<Point>& points, int64_t nx = 160, int64_t ny = 100);

/// The prediction file: a header `lat,lon,<value_name>_pred[,<value_name>_sd]` and one row per
/// location, coordinates with 15 significant digits and predictions with 10.
class PredictionWriter {
public:
    /// Create (truncate) `path` and write the header; with_sd adds the standard-deviation column.
    /// Throws tessera::Error "path: cannot write the file".
    PredictionWriter(const std::string& path, const std::string& value_name, bool with_sd);
    ~PredictionWriter();
    PredictionWriter(const PredictionWriter&) = delete;
    PredictionWriter& operator=(const PredictionWriter&) = delete;
    /// One row per where[k]: mean[k] and (with_sd) sd[k]; mean and sd have where.size() entries.
    /// Throws tessera::Error on a write error or a size mismatch.
    void write(const std::vector<Location>& where, const std::vector<double>& mean, const std::vector<double>& sd);
    /// Flush and close; throws tessera::Error when the data did not reach the file (disk full).
    void close();

private:
    std::string path_;
    bool with_sd_;
    std::FILE* file_ = nullptr;
};

/// A model's predictions at `where` (at most kPredictChunk locations): mean[k] and, when the model
/// has one, sd[k] (left empty otherwise), each resized to where.size() by the callee.
using ChunkPredictor =
    std::function<void(const std::vector<Location>& where, std::vector<double>& mean, std::vector<double>& sd)>;

/// Predict at every location with `predict`, chunk by chunk (at most kPredictChunk locations, in
/// order), and hand each chunk to `take` with the index of its first location, the chunk, and the
/// predictions (sd empty unless with_sd). Throws tessera::Error when `predict` returns a number of
/// predictions (or, with_sd, of standard deviations) other than the chunk's, tool::WorkFailed (exit
/// 1) for a prediction or standard deviation that is not finite (before the chunk reaches `take`),
/// and what `predict` and `take` throw.
void predict_in_chunks(const std::vector<Location>& where, bool with_sd, const ChunkPredictor& predict,
                       const std::function<void(size_t first, const std::vector<Location>& chunk,
                                                const std::vector<double>& mean, const std::vector<double>& sd)>& take);

/// Predict at every location and write the prediction file `out_path` (see PredictionWriter), in
/// chunks of at most kPredictChunk locations in order; an empty `out_path` predicts and writes
/// nothing (an MPI rank other than 0 taking part in collective predictions). Returns the number of
/// locations. Throws
/// tessera::Error for an empty `where` or a file error, and what `predict` throws.
int64_t predict_to_csv(const std::vector<Location>& where, const std::string& out_path, const std::string& value_name,
                       bool with_sd, const ChunkPredictor& predict);

/// The locations of the --predict file `path`: its columns.lat and columns.lon (the same names as
/// the data's; other columns ignored), parsed and checked like the data (parse_locations_csv).
/// Throws DataError "path:LINE: what".
std::vector<Location> read_locations(const std::string& path, const Columns& columns);

}  // namespace tessera::apps

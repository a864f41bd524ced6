// Point data of the example applications: values measured at positions on the sphere, read from a
// CSV file whose latitude, longitude and value columns are named on the command line (by default
// the airports of examples/data/airports.csv and their elevations). CSV parsing, the hold-out
// split, the merging of training points at one location, great-circle and chord distances, the
// distance statistics the models derive their scales from, and the two baselines every application
// reports. Units: angles in degrees at the interface (radians inside GeoPoint), distances in km,
// values in the value column's unit (metres for the airports' altitude_ft, converted).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apps {

constexpr double kEarthRadiusKm = 6371.0;  ///< mean Earth radius of the haversine formula, km
constexpr double kFeetToMetres = 0.3048;   ///< altitude_ft × this = elevation in metres

/// A position: latitude in [-90, 90] and longitude in [-180, 360] degrees.
struct Location {
    double lat_deg = 0, lon_deg = 0;
};

/// One observation: a position in degrees and the value measured there.
struct Point {
    double lat_deg = 0, lon_deg = 0, value = 0;
};

/// A position with the trigonometric values the distance formulas need, computed once
/// (radians and their sines/cosines of half angles), so that a distance costs no sin/cos.
struct GeoPoint {
    double sin_half_lat, cos_half_lat, sin_half_lon, cos_half_lon, cos_lat;
    double x, y, z;  ///< unit vector of the position (for the chord distance)
    GeoPoint(double lat_deg, double lon_deg);
    explicit GeoPoint(const Point& p) : GeoPoint(p.lat_deg, p.lon_deg) {}
    explicit GeoPoint(const Location& l) : GeoPoint(l.lat_deg, l.lon_deg) {}
};

/// The form in which locations are compared (merging training rows at one place): the latitude
/// as given (in [-90, 90]) and the longitude reduced into [-180, 180) (190 → -170, 180 → -180,
/// 360 → 0), and longitude 0 at a pole (latitude ±90), where every longitude is the same place.
/// -0.0 becomes 0.0.
Location canonical_location(double lat_deg, double lon_deg);

/// Great-circle distance in km between two points (haversine formula, R = kEarthRadiusKm):
/// d = 2R·asin(√(sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2))).
double haversine_km(const GeoPoint& p, const GeoPoint& q);
/// Straight-line distance in km between two points through the sphere of radius kEarthRadiusKm.
double chord_km(const GeoPoint& p, const GeoPoint& q);
/// The great-circle distance (km) of two points whose chord distance is `chord` km: 2R·asin(c/2R).
double great_circle_of_chord_km(double chord);

/// The CSV columns to read, by header name, and the options that name them (for error messages).
/// The default is the airports file: a value column named altitude_ft is in feet and converted to
/// metres; any other value column is used as it is, in its own (unnamed) unit.
struct Columns {
    std::string lat = "latitude_deg", lon = "longitude_deg", value = "altitude_ft";
    /// Whether the value column is altitude_ft (feet, converted to metres).
    bool value_in_feet() const { return value == "altitude_ft"; }
    /// The name of the values as the applications hold them: "elevation_m" for altitude_ft (converted
    /// to metres), otherwise the column's name. Used for the prediction file's columns.
    std::string value_name() const { return value_in_feet() ? "elevation_m" : value; }
    /// The values' unit in report lines: "m" for altitude_ft, otherwise the column's name.
    std::string unit() const { return value_in_feet() ? "m" : value; }
    /// What the report calls the points: "airports" for the default columns, otherwise "points".
    std::string noun() const;
};

/// Thrown for an unreadable or malformed data file; what() is "FILE:LINE: what is wrong" (one line).
struct DataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The data rows of a CSV file that have a value, in file order.
struct CsvPoints {
    std::vector<Point> points;   ///< the rows with a value (altitude_ft converted to metres)
    std::vector<int64_t> row;    ///< 1-based data row number of each point, counting skipped rows
    std::vector<int64_t> line;   ///< line of the file where each point's record starts
    int64_t data_rows = 0;       ///< non-blank records after the header
    int64_t skipped = 0;         ///< rows whose value field is empty (or only spaces)
};

/// Parse CSV text with a header row naming at least columns.lat, columns.lon and columns.value (any
/// column order, other columns ignored; RFC 4180 quoting: fields in double quotes may hold commas and
/// line breaks, "" is a quote; LF or CRLF line ends; a UTF-8 byte order mark is skipped; blank lines
/// are ignored). A row whose value field is empty is skipped and counted. Throws DataError
/// "name:LINE: what" for: a missing column (naming the option that names it and listing the header's
/// columns), a record with another number of fields than the header, a latitude, longitude or value
/// that is not a finite number, a latitude outside [-90, 90], a longitude outside [-180, 360], an
/// unclosed quote, or no row with a value.
CsvPoints parse_points_csv(std::string_view text, const std::string& name, const Columns& columns);

/// Parse the positions of CSV text (columns.lat and columns.lon; columns.value is not read), with the
/// rules and errors of parse_points_csv. Returns one Location per data row, in file order; throws
/// DataError also when there is no data row.
std::vector<Location> parse_locations_csv(std::string_view text, const std::string& name, const Columns& columns);

/// The whole content of the file `path` (a regular file, a pipe or /dev/stdin), read through
/// tool::LineReader: throws DataError "path: is a directory, not a file", "path: cannot open the
/// file: REASON" or "path:LINE: line longer than 1048576 bytes ..." (tool::kMaxLineBytes).
std::string read_text_file(const std::string& path);

/// What load_points reads and how it splits the data.
struct DataOptions {
    std::string path;      ///< CSV file; empty: the embedded examples/data/airports.csv
    Columns columns;       ///< the columns to read
    int64_t holdout = 10;  ///< data row r is held out when r is a multiple of this; 0: none
    int64_t n_train = -1;  ///< keep the first n training points (< 0: all of them)
};

/// The split data set.
struct PointData {
    std::vector<Point> train;  ///< training points, distinct locations, first occurrence order
    std::vector<Point> test;   ///< held-out points (not merged), file order
    std::string source;        ///< "embedded airports.csv" or the file name given with --data
    Columns columns;           ///< the columns read
    int64_t holdout = 10;      ///< the hold-out period K (0: none held out)
    int64_t rows = 0;          ///< data rows in the file (with or without a value)
    int64_t skipped = 0;       ///< rows without a value, skipped
    int64_t merged = 0;        ///< training rows merged into an earlier one at the same location
    int64_t train_available = 0;  ///< distinct training locations in the file (before --n)
};

/// Load and split the data set: data row r (1-based, file order, counting the rows skipped for an
/// empty value, so that the split does not depend on the value column) is held out when
/// opt.holdout > 0 and r is a multiple of opt.holdout; every other row with a value is a training
/// row. Training rows at exactly the same place (equal canonical_location: -170 and 190, 180 and -180,
/// any longitude at a pole) are merged into one point,
/// at the first one's place, whose value is their mean; then the first opt.n_train training points
/// are kept (all when n_train < 0 or beyond their number). Throws DataError for an unreadable or
/// malformed file (see parse_points_csv), for no training point (--holdout 1) and, when
/// opt.holdout > 0, for no held-out point.
PointData load_points(const DataOptions& opt);

/// Root mean square of (prediction − test value), in the values' unit. `pred` has one entry per test
/// point; 0 for no test point.
double rmse(const std::vector<double>& pred, const std::vector<Point>& test);

/// Held-out RMSE (values' unit) of the two reference predictors: the training mean, and the value of
/// the nearest training point (great-circle distance).
struct Baselines {
    double mean_rmse = 0, nearest_rmse = 0;
};
Baselines baselines(const std::vector<Point>& train, const std::vector<Point>& test);

/// Mean of the values (0 for none).
double mean_value(const std::vector<Point>& points);

/// Median over the points of the chord distance (km) to the nearest other point: the typical spacing
/// of the data, unaffected by a few remote points (whose nearest neighbour is far away). O(n²)
/// distances. Returns 1 for fewer than 2 points. Convert with great_circle_of_chord_km.
double median_nearest_chord_km(const std::vector<GeoPoint>& points);

/// Median great-circle distance (km) between two distinct points over at most `max_pairs` pairs:
/// every pair when there are that few, else pairs drawn with a fixed-seed std::mt19937_64, so that
/// the result is the same on every run and every MPI rank. Returns 1 for fewer than 2 points.
double median_pairwise_km(const std::vector<GeoPoint>& points, int64_t max_pairs = 2000);

/// The embedded copy of examples/data/airports.csv (generated at build time by embed_data.cmake).
std::string_view embedded_airports_csv();

}  // namespace tessera::apps

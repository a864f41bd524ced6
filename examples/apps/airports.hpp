// The airports data set of the example applications (examples/data/README.md): CSV parsing, the
// hold-out split, great-circle distances and the two baselines every application reports.
// Units: angles in degrees at the interface (radians inside GeoPoint), distances in km,
// elevations in metres.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apps {

constexpr double kEarthRadiusKm = 6371.0;  ///< mean Earth radius of the haversine formula, km
constexpr double kFeetToMetres = 0.3048;   ///< altitude_ft × this = elevation in metres

/// One airport: position in degrees, elevation in metres.
struct Airport {
    double lat_deg = 0, lon_deg = 0, elev_m = 0;
};

/// A position with the trigonometric values the distance formulas need, computed once
/// (radians and their sines/cosines of half angles), so that a distance costs no sin/cos.
struct GeoPoint {
    double sin_half_lat, cos_half_lat, sin_half_lon, cos_half_lon, cos_lat;
    double x, y, z;  ///< unit vector of the position (for the chord distance)
    explicit GeoPoint(const Airport& a);
};

/// Great-circle distance in km between two points (haversine formula, R = kEarthRadiusKm):
/// d = 2R·asin(√(sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2))).
double haversine_km(const GeoPoint& p, const GeoPoint& q);
/// Straight-line distance in km between two points through the sphere of radius kEarthRadiusKm.
double chord_km(const GeoPoint& p, const GeoPoint& q);

/// The split data set: `train` holds the first n training airports, `test` every held-out one.
struct AirportData {
    std::vector<Airport> train, test;
    std::string source;  ///< "embedded airports.csv" or the file name given with --data
    int64_t rows = 0;    ///< data rows in the file
    int64_t train_available = 0;  ///< training airports in the file (before --n)
};

/// Thrown for an unreadable or malformed data file; what() is "FILE:LINE: what is wrong".
struct DataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Parse CSV text with a header row naming at least latitude_deg, longitude_deg and altitude_ft
/// (any column order; RFC 4180 quoting: fields in double quotes may hold commas, "" is a quote;
/// LF or CRLF line ends). Returns the rows in file order; throws DataError naming `name` and the line.
std::vector<Airport> parse_airports_csv(std::string_view text, const std::string& name);

/// Load the data set (the embedded copy of examples/data/airports.csv when `path` is empty) and split
/// it: data row r (1-based, file order) is a test airport when r is a multiple of 10, otherwise a
/// training airport. Keeps the first `n_train` training airports (all when n_train < 0, or when
/// n_train exceeds their number). Throws DataError.
AirportData load_airports(const std::string& path, int64_t n_train);

/// Root mean square of (prediction − test elevation), metres. `pred` has one entry per test airport.
double rmse(const std::vector<double>& pred, const std::vector<Airport>& test);

/// Held-out RMSE (metres) of the two reference predictors: the training mean, and the elevation of
/// the nearest training airport (great-circle distance).
struct Baselines {
    double mean_rmse_m = 0, nearest_rmse_m = 0;
};
Baselines baselines(const std::vector<Airport>& train, const std::vector<Airport>& test);

/// Mean of the training elevations, metres.
double mean_elevation(const std::vector<Airport>& train);

/// The embedded copy of examples/data/airports.csv (generated at build time by embed_data.cmake).
std::string_view embedded_airports_csv();

}  // namespace tessera::apps

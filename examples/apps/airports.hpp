// Transitional: the airports reader's old interface, kept only for tests/fuzz/fuzz_airports_csv.cpp
// (whose CMake entry compiles examples/apps/airports.cpp) until the fuzz target moves to
// point_data.hpp (parse_points_csv). The applications use point_data.hpp. Delete this file and
// airports.cpp with that move.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "examples/apps/point_data.hpp"

namespace tessera::apps {

/// One airport: position in degrees, elevation in metres.
struct Airport {
    double lat_deg = 0, lon_deg = 0, elev_m = 0;
    operator Location() const { return {lat_deg, lon_deg}; }  // for GeoPoint(airport)
};

/// The old reader's contract on top of parse_points_csv with the default (airports) columns:
/// longitudes beyond 180 (accepted up to 360 by parse_points_csv) are refused as before; rows with an
/// empty altitude are skipped (the old reader refused them). Throws DataError "name:LINE: what".
inline std::vector<Airport> parse_airports_csv(std::string_view text, const std::string& name) {
    const CsvPoints csv = parse_points_csv(text, name, Columns{});
    std::vector<Airport> rows;
    for (size_t k = 0; k < csv.points.size(); ++k) {
        const Point& p = csv.points[k];
        if (p.lon_deg > 180)
            throw DataError(name + ":" + std::to_string(csv.line[k]) + ": longitude_deg " + std::to_string(p.lon_deg) +
                            " outside [-180, 180]");
        rows.push_back({p.lat_deg, p.lon_deg, p.value});
    }
    return rows;
}

}  // namespace tessera::apps

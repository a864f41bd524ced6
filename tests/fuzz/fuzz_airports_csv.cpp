// Fuzz target of the point-data CSV reader (examples/apps/point_data.cpp, parse_points_csv with the
// airports' columns), for
// libFuzzer (clang -fsanitize=fuzzer) or standalone_main.cpp. Any input must either parse into rows
// that keep the reader's promises or raise one DataError line "fuzz.csv:LINE: ..."; anything else
// (a crash, a sanitizer report, another exception, a broken promise) is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "examples/apps/point_data.hpp"
#include "tests/fuzz/fuzz_promises.hpp"

using namespace tessera;
using namespace tessera::apps;

// point_data.cpp's load_points refers to the embedded copy of airports.csv, a generated source of
// examples/apps; the target parses only the fuzzer's bytes, so an empty copy stands in for it.
std::string_view tessera::apps::embedded_airports_csv() { return {}; }

namespace {

[[noreturn]] void broken(const char* promise) { fuzz::broken("fuzz_airports_csv", promise); }

void check_rows(const std::vector<Point>& rows) {
    if (rows.empty()) broken("at least one data row");
    for (const Point& a : rows) {
        if (!std::isfinite(a.value)) broken("a finite value");
        if (!(std::abs(a.lat_deg) <= 90) || !(a.lon_deg >= -180 && a.lon_deg <= 360)) broken("a position on the sphere");
        const GeoPoint p(a);  // the distances the applications compute from every row
        if (!(haversine_km(p, p) >= 0) || !(chord_km(p, GeoPoint(rows.front())) >= 0)) broken("finite distances");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        check_rows(parse_points_csv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv", Columns{}).points);
    } catch (const DataError& e) {
        fuzz::check_error_line("fuzz_airports_csv", "fuzz.csv", e.what());
    }
    return 0;
}

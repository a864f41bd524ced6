// Fuzz target of the airports CSV reader (examples/apps/airports.cpp, parse_airports_csv), for
// libFuzzer (clang -fsanitize=fuzzer) or standalone_main.cpp. Any input must either parse into rows
// that keep the reader's promises or raise one DataError line "fuzz.csv:LINE: ..."; anything else
// (a crash, a sanitizer report, another exception, a broken promise) is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "examples/apps/airports.hpp"

using namespace tessera::apps;

// airports.cpp's load_airports refers to the embedded copy of airports.csv, a generated source of
// examples/apps; the target parses only the fuzzer's bytes, so an empty copy stands in for it.
std::string_view tessera::apps::embedded_airports_csv() { return {}; }

namespace {

[[noreturn]] void broken(const char* promise) {
    std::fprintf(stderr, "fuzz_airports_csv: broken promise: %s\n", promise);
    std::abort();
}

void check_rows(const std::vector<Airport>& rows) {
    if (rows.empty()) broken("at least one data row");
    for (const Airport& a : rows) {
        if (!std::isfinite(a.elev_m)) broken("a finite elevation");
        if (!(std::abs(a.lat_deg) <= 90) || !(std::abs(a.lon_deg) <= 180)) broken("a position on the sphere");
        const GeoPoint p(a);  // the distances the applications compute from every row
        if (!(haversine_km(p, p) >= 0) || !(chord_km(p, GeoPoint(rows.front())) >= 0)) broken("finite distances");
    }
}

void check_error(const std::string& what) {
    const std::string prefix = "fuzz.csv:";
    if (what.compare(0, prefix.size(), prefix) != 0) broken("the error starts with FILE:");
    size_t p = prefix.size();
    while (p < what.size() && what[p] >= '0' && what[p] <= '9') ++p;
    if (p == prefix.size() || what.compare(p, 2, ": ") != 0) broken("the error is FILE:LINE: what");
    if (what.find('\n') != std::string::npos) broken("the error is one line");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        check_rows(parse_airports_csv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv"));
    } catch (const DataError& e) {
        check_error(e.what());
    }
    return 0;
}

// Airports data set: CSV parsing, hold-out split, distances and baselines (see airports.hpp).
#include "examples/apps/airports.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace tessera::apps {

namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

[[noreturn]] void fail(const std::string& name, int64_t line, const std::string& what) {
    throw DataError(name + ":" + std::to_string(line) + ": " + what);
}

// Split one CSV record starting at `pos` into fields; advances `pos` past the record's line end and
// counts the physical lines it spans (a quoted field may contain a line break).
std::vector<std::string> read_record(std::string_view text, size_t& pos, int64_t& line, const std::string& name) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    const int64_t first_line = line;
    while (pos < text.size()) {
        const char c = text[pos++];
        if (quoted) {
            if (c == '"') {
                if (pos < text.size() && text[pos] == '"') { fields.back() += '"'; ++pos; }
                else quoted = false;
            } else {
                if (c == '\n') ++line;
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c == '\n') {
            ++line;
            break;
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) fail(name, first_line, "quoted field not closed before the end of the file");
    return fields;
}

// A field as an error message shows it: a quoted field may hold line breaks and other control
// bytes, and the message must stay one line ("FILE:LINE: what is wrong").
std::string printable(const std::string& field) {
    std::string out;
    for (const unsigned char c : field) {
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += char(c);
        }
    }
    return out;
}

double parse_number(const std::string& field, const char* column, const std::string& name, int64_t line) {
    const char* begin = field.c_str();
    const char* const last = begin + field.size();  // not the first NUL: "1\0x" is no number
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    while (end < last && *end == ' ') ++end;
    if (field.empty() || end == begin || end != last || errno == ERANGE || !std::isfinite(v))
        fail(name, line, std::string("column ") + column + ": '" + printable(field) + "' is not a finite number");
    return v;
}

}  // namespace

GeoPoint::GeoPoint(const Airport& a) {
    const double lat = a.lat_deg * kDegToRad, lon = a.lon_deg * kDegToRad;
    sin_half_lat = std::sin(lat / 2);
    cos_half_lat = std::cos(lat / 2);
    sin_half_lon = std::sin(lon / 2);
    cos_half_lon = std::cos(lon / 2);
    cos_lat = std::cos(lat);
    x = cos_lat * std::cos(lon);
    y = cos_lat * std::sin(lon);
    z = std::sin(lat);
}

double haversine_km(const GeoPoint& p, const GeoPoint& q) {
    // sin(Δ/2) from the half-angle sines and cosines: sin(a/2 − b/2) = sin·cos − cos·sin.
    const double s_lat = p.sin_half_lat * q.cos_half_lat - p.cos_half_lat * q.sin_half_lat;
    const double s_lon = p.sin_half_lon * q.cos_half_lon - p.cos_half_lon * q.sin_half_lon;
    const double h = std::min(1.0, s_lat * s_lat + p.cos_lat * q.cos_lat * s_lon * s_lon);
    return 2.0 * kEarthRadiusKm * std::asin(std::sqrt(h));
}

double chord_km(const GeoPoint& p, const GeoPoint& q) {
    const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    return kEarthRadiusKm * std::sqrt(dx * dx + dy * dy + dz * dz);
}

std::vector<Airport> parse_airports_csv(std::string_view text, const std::string& name) {
    size_t pos = 0;
    int64_t line = 1;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // UTF-8 byte order mark
    const std::vector<std::string> header = read_record(text, pos, line, name);
    auto column = [&](const char* wanted) {
        auto it = std::find(header.begin(), header.end(), wanted);
        if (it == header.end()) fail(name, 1, std::string("header has no column '") + wanted + "'");
        return size_t(it - header.begin());
    };
    const size_t c_lat = column("latitude_deg"), c_lon = column("longitude_deg"), c_alt = column("altitude_ft");
    std::vector<Airport> rows;
    while (pos < text.size()) {
        const int64_t record_line = line;
        std::vector<std::string> f = read_record(text, pos, line, name);
        if (f.size() == 1 && f[0].empty()) continue;  // blank line
        if (f.size() != header.size())
            fail(name, record_line, std::to_string(f.size()) + " fields, the header has " + std::to_string(header.size()));
        Airport a;
        a.lat_deg = parse_number(f[c_lat], "latitude_deg", name, record_line);
        a.lon_deg = parse_number(f[c_lon], "longitude_deg", name, record_line);
        a.elev_m = parse_number(f[c_alt], "altitude_ft", name, record_line) * kFeetToMetres;
        if (std::abs(a.lat_deg) > 90) fail(name, record_line, "latitude_deg " + printable(f[c_lat]) + " outside [-90, 90]");
        if (std::abs(a.lon_deg) > 180) fail(name, record_line, "longitude_deg " + printable(f[c_lon]) + " outside [-180, 180]");
        rows.push_back(a);
    }
    if (rows.empty()) fail(name, line, "no data rows");
    return rows;
}

AirportData load_airports(const std::string& path, int64_t n_train) {
    AirportData d;
    std::vector<Airport> rows;
    if (path.empty()) {
        d.source = "embedded airports.csv";
        rows = parse_airports_csv(embedded_airports_csv(), "airports.csv");
    } else {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw DataError(path + ": cannot open the file");
        std::ostringstream text;
        text << in.rdbuf();
        d.source = path;
        rows = parse_airports_csv(text.str(), path);
    }
    d.rows = int64_t(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) ((r + 1) % 10 == 0 ? d.test : d.train).push_back(rows[r]);
    d.train_available = int64_t(d.train.size());
    if (d.test.empty()) throw DataError(d.source + ": fewer than 10 data rows, so no test airport");
    if (n_train >= 0 && n_train < d.train_available) d.train.resize(size_t(n_train));
    return d;
}

double rmse(const std::vector<double>& pred, const std::vector<Airport>& test) {
    double s = 0;
    for (size_t t = 0; t < test.size(); ++t) s += (pred[t] - test[t].elev_m) * (pred[t] - test[t].elev_m);
    return test.empty() ? 0.0 : std::sqrt(s / double(test.size()));
}

double mean_elevation(const std::vector<Airport>& train) {
    double s = 0;
    for (const Airport& a : train) s += a.elev_m;
    return train.empty() ? 0.0 : s / double(train.size());
}

Baselines baselines(const std::vector<Airport>& train, const std::vector<Airport>& test) {
    Baselines b;
    const double mean = mean_elevation(train);
    std::vector<double> pred_mean(test.size(), mean), pred_nearest(test.size(), mean);
    std::vector<GeoPoint> g;
    g.reserve(train.size());
    for (const Airport& a : train) g.emplace_back(a);
    for (size_t t = 0; t < test.size(); ++t) {
        const GeoPoint p(test[t]);
        double best = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < train.size(); ++i) {
            const double d = haversine_km(p, g[i]);
            if (d < best) { best = d; pred_nearest[t] = train[i].elev_m; }
        }
    }
    b.mean_rmse_m = rmse(pred_mean, test);
    b.nearest_rmse_m = rmse(pred_nearest, test);
    return b;
}

}  // namespace tessera::apps

// Point data: CSV parsing, hold-out split, merging of duplicate locations, distances and baselines
// (see point_data.hpp).
#include "examples/apps/point_data.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <utility>

#include "examples/common/line_reader.hpp"

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
// bytes, and the message must stay one line ("FILE:LINE: what is wrong"); a long field is cut after
// 40 characters (tool::excerpt), so that a 1 GB field is not echoed whole.
std::string printable(const std::string& field) { return tool::excerpt(field); }

double parse_number(const std::string& field, const std::string& column, const std::string& name, int64_t line) {
    const char* begin = field.c_str();
    const char* const last = begin + field.size();  // not the first NUL: "1\0x" is no number
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    while (end < last && *end == ' ') ++end;
    if (field.empty() || end == begin || end != last || errno == ERANGE || !std::isfinite(v))
        fail(name, line, "column " + printable(column) + ": '" + printable(field) + "' is not a finite number");
    return v;
}

bool blank(const std::string& field) { return field.find_first_not_of(' ') == std::string::npos; }

// The header's column names.
struct Header {
    std::vector<std::string> names;
    // Index of column `wanted`, named by `option`; throws naming both and listing the header.
    size_t column(const std::string& wanted, const char* option, const std::string& file) const {
        auto it = std::find(names.begin(), names.end(), wanted);
        if (it != names.end()) return size_t(it - names.begin());
        std::string list;
        constexpr size_t kListed = 20;  // a header of a million columns is not listed whole
        for (size_t k = 0; k < names.size() && k < kListed; ++k) list += (list.empty() ? "'" : ", '") + printable(names[k]) + "'";
        if (names.size() > kListed) list += ", ... (" + std::to_string(names.size()) + " columns)";
        fail(file, 1, "header has no column '" + printable(wanted) + "' (named by " + option + "); its columns are: " + list);
    }
};

// The parser shared by points and locations: reads the header, calls after_header(), then
// row(fields, record_line, r) for every data record r = 1, 2, ... (blank lines skipped) after checking
// its field count; returns the number of data records.
template <class AfterHeader, class Row>
int64_t for_each_record(std::string_view text, const std::string& name, Header& header, AfterHeader&& after_header,
                        Row&& row) {
    size_t pos = 0;
    int64_t line = 1;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // UTF-8 byte order mark
    header.names = read_record(text, pos, line, name);
    after_header();
    int64_t records = 0;
    while (pos < text.size()) {
        const int64_t record_line = line;
        std::vector<std::string> f = read_record(text, pos, line, name);
        if (f.size() == 1 && f[0].empty()) continue;  // blank line
        if (f.size() != header.names.size())
            fail(name, record_line, std::to_string(f.size()) + " fields, the header has " + std::to_string(header.names.size()));
        row(f, record_line, ++records);
    }
    return records;
}

// Latitude and longitude of one record, range-checked; the longitude as written (see
// canonical_location for the form locations are compared in).
Location parse_location(const std::vector<std::string>& f, size_t c_lat, size_t c_lon, const Columns& columns,
                        const std::string& name, int64_t line) {
    Location l;
    l.lat_deg = parse_number(f[c_lat], columns.lat, name, line);
    l.lon_deg = parse_number(f[c_lon], columns.lon, name, line);
    if (std::abs(l.lat_deg) > 90)
        fail(name, line, printable(columns.lat) + " " + printable(f[c_lat]) + " outside [-90, 90]");
    if (l.lon_deg < -180 || l.lon_deg > 360)
        fail(name, line, printable(columns.lon) + " " + printable(f[c_lon]) + " outside [-180, 360]");
    return l;
}

}  // namespace

Location canonical_location(double lat_deg, double lon_deg) {
    if (std::abs(lat_deg) == 90) return {lat_deg, 0.0};  // a pole: every longitude is the same place
    double lon = std::fmod(lon_deg + 180.0, 360.0);       // exact: fmod does not round
    if (lon < 0) lon += 360.0;
    lon -= 180.0;
    if (lon >= 180.0) lon -= 360.0;  // (-180 - tiny) + 360 rounded up to 180
    return {lat_deg + 0.0, lon + 0.0};  // + 0.0: -0.0 becomes 0.0
}

GeoPoint::GeoPoint(double lat_deg, double lon_deg) {
    const double lat = lat_deg * kDegToRad, lon = lon_deg * kDegToRad;
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

double great_circle_of_chord_km(double chord) {
    return 2.0 * kEarthRadiusKm * std::asin(std::min(1.0, chord / (2.0 * kEarthRadiusKm)));
}

std::string Columns::noun() const {
    const Columns airports;
    return lat == airports.lat && lon == airports.lon && value == airports.value ? "airports" : "points";
}

CsvPoints parse_points_csv(std::string_view text, const std::string& name, const Columns& columns) {
    CsvPoints out;
    Header header;
    size_t c_lat = 0, c_lon = 0, c_val = 0;
    const double scale = columns.value_in_feet() ? kFeetToMetres : 1.0;
    out.data_rows = for_each_record(
        text, name, header,
        [&] {
            c_lat = header.column(columns.lat, "--lat", name);
            c_lon = header.column(columns.lon, "--lon", name);
            c_val = header.column(columns.value, "--value", name);
        },
        [&](const std::vector<std::string>& f, int64_t line, int64_t row) {
            const Location l = parse_location(f, c_lat, c_lon, columns, name, line);
            if (blank(f[c_val])) {
                ++out.skipped;
                return;
            }
            const double v = parse_number(f[c_val], columns.value, name, line) * scale;
            out.points.push_back({l.lat_deg, l.lon_deg, v});
            out.row.push_back(row);
            out.line.push_back(line);
        });
    if (out.points.empty())
        fail(name, 1, "no data row with a value in column " + printable(columns.value) + " (" +
                          std::to_string(out.data_rows) + " data rows, " + std::to_string(out.skipped) +
                          " with an empty value)");
    return out;
}

std::vector<Location> parse_locations_csv(std::string_view text, const std::string& name, const Columns& columns) {
    std::vector<Location> out;
    Header header;
    size_t c_lat = 0, c_lon = 0;
    for_each_record(
        text, name, header,
        [&] {
            c_lat = header.column(columns.lat, "--lat", name);
            c_lon = header.column(columns.lon, "--lon", name);
        },
        [&](const std::vector<std::string>& f, int64_t line, int64_t) {
            out.push_back(parse_location(f, c_lat, c_lon, columns, name, line));
        });
    if (out.empty()) fail(name, 1, "no data rows");
    return out;
}

std::string read_text_file(const std::string& path) {
    try {
        return tool::read_bounded_text(path);
    } catch (const tool::InputError& e) {
        throw DataError(e.what());
    }
}

PointData load_points(const DataOptions& opt) {
    PointData d;
    d.columns = opt.columns;
    d.holdout = opt.holdout;
    CsvPoints csv;
    if (opt.path.empty()) {
        d.source = "embedded airports.csv";
        csv = parse_points_csv(embedded_airports_csv(), "airports.csv", opt.columns);
    } else {
        d.source = opt.path;
        csv = parse_points_csv(read_text_file(opt.path), opt.path, opt.columns);
    }
    d.rows = csv.data_rows;
    d.skipped = csv.skipped;
    // Training rows merged by location, compared in canonical form (longitude in [-180, 180), 0 at a
    // pole, so that -170 and 190 or 180 and -180 are one place): the first occurrence keeps its place
    // (as written), the value is the mean of every row there (summed here, divided below).
    std::map<std::pair<double, double>, size_t> first;  // (lat, lon) → index in d.train
    std::vector<int64_t> count;
    for (size_t k = 0; k < csv.points.size(); ++k) {
        const Point& p = csv.points[k];
        if (opt.holdout > 0 && csv.row[k] % opt.holdout == 0) {
            d.test.push_back(p);
            continue;
        }
        const Location c = canonical_location(p.lat_deg, p.lon_deg);
        const auto key = std::make_pair(c.lat_deg, c.lon_deg);
        const auto [it, inserted] = first.emplace(key, d.train.size());
        if (inserted) {
            d.train.push_back(p);
            count.push_back(1);
        } else {
            d.train[it->second].value += p.value;
            ++count[it->second];
            ++d.merged;
        }
    }
    for (size_t i = 0; i < d.train.size(); ++i)
        if (count[i] > 1) d.train[i].value /= double(count[i]);
    d.train_available = int64_t(d.train.size());
    if (d.train.empty())
        throw DataError(d.source + ": no training point: --holdout " + std::to_string(opt.holdout) +
                        " holds out every data row with a value");
    if (opt.holdout > 0 && d.test.empty())
        throw DataError(d.source + ": no held-out point: no data row with a value is a multiple of --holdout " +
                        std::to_string(opt.holdout) + " (" + std::to_string(d.rows) + " data rows)");
    if (opt.n_train >= 0 && opt.n_train < d.train_available) d.train.resize(size_t(opt.n_train));
    return d;
}

double rmse(const std::vector<double>& pred, const std::vector<Point>& test) {
    double s = 0;
    for (size_t t = 0; t < test.size(); ++t) s += (pred[t] - test[t].value) * (pred[t] - test[t].value);
    return test.empty() ? 0.0 : std::sqrt(s / double(test.size()));
}

double mean_value(const std::vector<Point>& points) {
    double s = 0;
    for (const Point& p : points) s += p.value;
    return points.empty() ? 0.0 : s / double(points.size());
}

Baselines baselines(const std::vector<Point>& train, const std::vector<Point>& test) {
    Baselines b;
    const double mean = mean_value(train);
    std::vector<double> pred_mean(test.size(), mean), pred_nearest(test.size(), mean);
    std::vector<GeoPoint> g;
    g.reserve(train.size());
    for (const Point& p : train) g.emplace_back(p);
    for (size_t t = 0; t < test.size(); ++t) {
        const GeoPoint p(test[t]);
        double best = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < train.size(); ++i) {
            const double d = haversine_km(p, g[i]);
            if (d < best) { best = d; pred_nearest[t] = train[i].value; }
        }
    }
    b.mean_rmse = rmse(pred_mean, test);
    b.nearest_rmse = rmse(pred_nearest, test);
    return b;
}

double median_nearest_chord_km(const std::vector<GeoPoint>& p) {
    if (p.size() < 2) return 1.0;
    std::vector<double> nearest(p.size(), std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j) {
            const double d = chord_km(p[i], p[j]);
            nearest[i] = std::min(nearest[i], d);
            nearest[j] = std::min(nearest[j], d);
        }
    std::nth_element(nearest.begin(), nearest.begin() + nearest.size() / 2, nearest.end());
    return nearest[nearest.size() / 2];
}

double median_pairwise_km(const std::vector<GeoPoint>& p, int64_t max_pairs) {
    const uint64_t n = p.size();
    if (n < 2) return 1.0;
    std::vector<double> d;
    if (n * (n - 1) / 2 <= uint64_t(std::max<int64_t>(max_pairs, 1))) {
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n; ++j) d.push_back(haversine_km(p[i], p[j]));
    } else {
        std::mt19937_64 rng(20170);  // fixed seed: the same pairs on every run and rank
        while (int64_t(d.size()) < max_pairs) {
            // Modulo of the generator's fully specified output (uniform_int_distribution is not
            // specified across standard libraries); its bias is below n/2^64.
            const size_t i = size_t(rng() % n), j = size_t(rng() % n);
            if (i != j) d.push_back(haversine_km(p[i], p[j]));
        }
    }
    std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
    return d[d.size() / 2];
}

}  // namespace tessera::apps

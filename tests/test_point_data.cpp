// The point-data layer of the applications, without StarPU: the CSV reader (columns by name,
// quoting, CRLF, errors as FILE:LINE), the hold-out split, merging of duplicate locations, the
// distance statistics, gp_kriging's hyperparameter grid, the prediction grid and the prediction file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "examples/apps/gp_grid.hpp"
#include "examples/apps/point_data.hpp"
#include "examples/apps/predict_io.hpp"
#include "examples/common/line_reader.hpp"
#include "examples/common/tool_main.hpp"
#include "tessera/types.hpp"

using namespace tessera;
using namespace tessera::apps;

namespace {

Columns named(const std::string& lat, const std::string& lon, const std::string& value) {
    Columns c;
    c.lat = lat;
    c.lon = lon;
    c.value = value;
    return c;
}

// The DataError message of parsing `text` with `columns` ("" when it parses).
std::string parse_error(const std::string& text, const Columns& columns = {}) {
    try {
        parse_points_csv(text, "t.csv", columns);
    } catch (const DataError& e) {
        return e.what();
    }
    return "";
}

// A file under the test's own temporary folder, removed with it.
class TempDir {
public:
    TempDir() : path_(std::filesystem::temp_directory_path() / ("tessera_point_data_" + std::to_string(::getpid()))) {
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    std::string file(const std::string& name, const std::string& content = "") const {
        const std::string p = (path_ / name).string();
        if (!content.empty()) std::ofstream(p, std::ios::binary) << content;
        return p;
    }

private:
    std::filesystem::path path_;
};

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST(PointCsv, DefaultColumnsConvertFeetToMetres) {
    const CsvPoints c = parse_points_csv("id,latitude_deg,longitude_deg,altitude_ft\n1,10.5,20.25,100\n", "t.csv", Columns{});
    ASSERT_EQ(c.points.size(), 1u);
    EXPECT_DOUBLE_EQ(c.points[0].lat_deg, 10.5);
    EXPECT_DOUBLE_EQ(c.points[0].lon_deg, 20.25);
    EXPECT_DOUBLE_EQ(c.points[0].value, 100 * kFeetToMetres);
    EXPECT_EQ(Columns{}.noun(), "airports");
    EXPECT_EQ(Columns{}.unit(), "m");
    EXPECT_EQ(Columns{}.value_name(), "elevation_m");
}

TEST(PointCsv, ColumnsByNameInAnyOrderQuotedCrlfAndBom) {
    const std::string text =
        "\xEF\xBB\xBF" "depth_km,\"site, name\",y,x\r\n"
        "12.5,\"Tonga, \"\"deep\"\"\",-20.5,185.25\r\n"
        "\r\n"
        "7,\"two\nlines\",-21,-175\r\n";
    const Columns c = named("y", "x", "depth_km");
    const CsvPoints p = parse_points_csv(text, "t.csv", c);
    ASSERT_EQ(p.points.size(), 2u);
    EXPECT_DOUBLE_EQ(p.points[0].value, 12.5);  // no conversion for another column
    EXPECT_DOUBLE_EQ(p.points[0].lon_deg, 185.25);  // longitudes up to 360 accepted as they are
    EXPECT_DOUBLE_EQ(p.points[1].lat_deg, -21);
    EXPECT_EQ(p.line[1], 4);  // the blank line is no row, but counted as a line
    EXPECT_EQ(p.row[1], 2);
    EXPECT_EQ(p.data_rows, 2);
    EXPECT_EQ(c.noun(), "points");
    EXPECT_EQ(c.unit(), "depth_km");
    EXPECT_EQ(c.value_name(), "depth_km");
}

TEST(PointCsv, MissingColumnNamesTheOptionAndTheHeader) {
    const Columns c = named("lat", "lon", "depth");
    EXPECT_EQ(parse_error("lat,\"lo, n\",z\n1,2,3\n", c),
              "t.csv:1: header has no column 'lon' (named by --lon); its columns are: 'lat', 'lo, n', 'z'");
    EXPECT_EQ(parse_error("lat,lon,z\n1,2,3\n", c),
              "t.csv:1: header has no column 'depth' (named by --value); its columns are: 'lat', 'lon', 'z'");
}

TEST(PointCsv, MalformedValuesAreFileLineErrors) {
    const Columns c = named("lat", "lon", "v");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2,3\n1,2,abc\n", c), "t.csv:3: column v: 'abc' is not a finite number");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2,inf\n", c), "t.csv:2: column v: 'inf' is not a finite number");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2,nan\n", c), "t.csv:2: column v: 'nan' is not a finite number");
    EXPECT_EQ(parse_error("lat,lon,v\n,2,3\n", c), "t.csv:2: column lat: '' is not a finite number");
    EXPECT_EQ(parse_error("lat,lon,v\n90.5,2,3\n", c), "t.csv:2: lat 90.5 outside [-90, 90]");
    EXPECT_EQ(parse_error("lat,lon,v\n1,360.5,3\n", c), "t.csv:2: lon 360.5 outside [-180, 360]");
    EXPECT_EQ(parse_error("lat,lon,v\n1,-180.5,3\n", c), "t.csv:2: lon -180.5 outside [-180, 360]");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2\n", c), "t.csv:2: 2 fields, the header has 3");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2,\"3\n", c), "t.csv:2: quoted field not closed before the end of the file");
    EXPECT_EQ(parse_error("lat,lon,v\n1,2,\n1,3, \n", c),
              "t.csv:1: no data row with a value in column v (2 data rows, 2 with an empty value)");
}

TEST(PointCsv, EmptyValuesAreSkippedAndCounted) {
    const CsvPoints p = parse_points_csv("lat,lon,v\n1,1,1\n2,2,\n3,3,3\n4,4,  \n5,5,5\n", "t.csv", named("lat", "lon", "v"));
    EXPECT_EQ(p.data_rows, 5);
    EXPECT_EQ(p.skipped, 2);
    ASSERT_EQ(p.points.size(), 3u);
    EXPECT_EQ(p.row, (std::vector<int64_t>{1, 3, 5}));  // rows keep their number in the file
}

TEST(PointCsv, LocationsIgnoreTheValueColumn) {
    const std::vector<Location> l = parse_locations_csv("x,lat,lon\nq,1.5,-2\n", "p.csv", named("lat", "lon", "missing"));
    ASSERT_EQ(l.size(), 1u);
    EXPECT_DOUBLE_EQ(l[0].lat_deg, 1.5);
    EXPECT_DOUBLE_EQ(l[0].lon_deg, -2);
    EXPECT_THROW(parse_locations_csv("lat,lon\n", "p.csv", named("lat", "lon", "v")), DataError);
}

TEST(LoadPoints, HoldoutCountsSkippedRowsAndDuplicatesAreMerged) {
    TempDir dir;
    // Rows 1..12; row 4 has no value (skipped, still row 4); rows 5 and 7 repeat row 1's location;
    // rows 3, 6, 9 and 12 are held out with --holdout 3.
    const std::string path = dir.file("d.csv",
                                      "lat,lon,v\n"
                                      "10,20,1\n11,21,2\n12,22,3\n13,23,\n10,20,5\n14,24,6\n"
                                      "10,20,9\n15,25,8\n16,26,9\n17,27,10\n18,28,11\n19,29,12\n");
    DataOptions o;
    o.path = path;
    o.columns = named("lat", "lon", "v");
    o.holdout = 3;
    const PointData d = load_points(o);
    EXPECT_EQ(d.rows, 12);
    EXPECT_EQ(d.skipped, 1);
    ASSERT_EQ(d.test.size(), 4u);
    EXPECT_DOUBLE_EQ(d.test[0].value, 3);
    EXPECT_DOUBLE_EQ(d.test[3].value, 12);
    EXPECT_EQ(d.merged, 2);
    EXPECT_EQ(d.train_available, 5);  // rows 1 (+5, 7), 2, 8, 10, 11
    ASSERT_EQ(d.train.size(), 5u);
    EXPECT_DOUBLE_EQ(d.train[0].value, 5);  // (1 + 5 + 9) / 3, at the first one's place
    EXPECT_DOUBLE_EQ(d.train[1].value, 2);
    EXPECT_DOUBLE_EQ(d.train[2].value, 8);

    o.n_train = 2;  // --n after merging
    EXPECT_EQ(load_points(o).train.size(), 2u);
    o.n_train = -1;
    o.holdout = 0;  // nothing held out
    const PointData all = load_points(o);
    EXPECT_TRUE(all.test.empty());
    EXPECT_EQ(all.train_available, 9);
    o.holdout = 1;  // everything held out: no training point
    EXPECT_THROW(load_points(o), DataError);
    o.holdout = 13;  // no row is a multiple of 13
    EXPECT_THROW(load_points(o), DataError);
}

TEST(LoadPoints, EmbeddedAirportsKeepTheirSplit) {
    const PointData d = load_points(DataOptions{});
    EXPECT_EQ(d.rows, 7184);
    EXPECT_EQ(d.test.size(), 718u);
    EXPECT_EQ(d.train.size(), 6466u);
    EXPECT_EQ(d.merged, 0);
    EXPECT_EQ(d.skipped, 0);
    EXPECT_DOUBLE_EQ(d.train[0].value, 5282 * kFeetToMetres);  // Goroka
}

TEST(Distances, MediansOfSmallSets) {
    // Three points on the equator 1° apart and one far away.
    const std::vector<GeoPoint> p{GeoPoint(0, 0), GeoPoint(0, 1), GeoPoint(0, 2), GeoPoint(0, 90)};
    const double degree_km = kEarthRadiusKm * M_PI / 180;
    EXPECT_NEAR(great_circle_of_chord_km(median_nearest_chord_km(p)), degree_km, 1e-6);
    // Six pairs: 1, 1, 2, 88, 89, 90 degrees; median: the 4th smallest.
    EXPECT_NEAR(median_pairwise_km(p), 88 * degree_km, 1e-6);
    // Sampled pairs: the same result on every call.
    EXPECT_EQ(median_pairwise_km(p, 3), median_pairwise_km(p, 3));
    EXPECT_EQ(median_pairwise_km({GeoPoint(0, 0)}), 1.0);
}

TEST(GpGrid, DerivedRefinedAndExtended) {
    const std::vector<double> ells = derived_length_scales(10, 2000);  // 10 .. 1000 km
    ASSERT_EQ(ells.size(), 4u);
    EXPECT_NEAR(ells[0], 10, 1e-9);
    EXPECT_NEAR(ells[1], 10 * std::cbrt(100.0), 1e-9);
    EXPECT_NEAR(ells[3], 1000, 1e-9);
    const std::vector<double> inside = refined_length_scales(ells, ells[1]);
    EXPECT_NEAR(inside[0], std::sqrt(ells[0] * ells[1]), 1e-9);
    EXPECT_NEAR(inside[1], std::sqrt(ells[1] * ells[2]), 1e-9);
    const std::vector<double> top = refined_length_scales(ells, ells[3]);
    EXPECT_NEAR(top[0], std::sqrt(ells[2] * ells[3]), 1e-9);
    EXPECT_NEAR(top[1], ells[3] * std::sqrt(ells[3] / ells[2]), 1e-9);
    const std::vector<double> bottom = refined_length_scales(ells, ells[0]);
    EXPECT_NEAR(bottom[0], ells[0] / std::sqrt(ells[1] / ells[0]), 1e-9);
    // Data too compact for a range: the longest scale is raised to twice the shortest.
    EXPECT_NEAR(derived_length_scales(10, 5).back(), 20, 1e-9);
    EXPECT_DOUBLE_EQ(extended_ratio({0.01, 0.1}, 0.1), 1.0);
    EXPECT_DOUBLE_EQ(extended_ratio({0.01, 0.1}, 0.01), 0.001);
    EXPECT_LT(extended_ratio({0.01, 0.05, 0.1}, 0.05), 0);
}

TEST(PredictionGrid, SpansTheDataWithAMarginSouthFirst) {
    const std::vector<Point> pts{{10, 100, 0}, {20, 140, 0}, {15, 120, 0}};
    const PredictionGrid g = prediction_grid(pts, 4, 3);
    EXPECT_EQ(g.nx, 4);
    EXPECT_EQ(g.ny, 3);
    EXPECT_DOUBLE_EQ(g.lon_min, 98);  // 5% of 40° on each side
    EXPECT_DOUBLE_EQ(g.lon_max, 142);
    EXPECT_DOUBLE_EQ(g.lat_min, 9.5);
    EXPECT_DOUBLE_EQ(g.lat_max, 20.5);
    ASSERT_EQ(g.where.size(), 12u);
    EXPECT_DOUBLE_EQ(g.where[0].lon_deg, 98 + 0.5 * 11);  // cell centres; row 0 southernmost
    EXPECT_DOUBLE_EQ(g.where[0].lat_deg, 9.5 + 0.5 * 11.0 / 3);
    EXPECT_DOUBLE_EQ(g.where[3].lon_deg, 142 - 0.5 * 11);
    EXPECT_LT(g.where[0].lat_deg, g.where[4].lat_deg);  // row 1 north of row 0
    EXPECT_EQ(prediction_grid(pts).where.size(), 16000u);  // default 160 × 100

    // Across the antimeridian, in either convention: the short way round, 178..185 (+5%).
    for (const double west : {-175.0, 185.0}) {
        const PredictionGrid t = prediction_grid({{-15, 178, 0}, {-20, west, 0}, {-18, 179.5, 0}}, 2, 2);
        EXPECT_DOUBLE_EQ(t.lon_min, 178 - 0.35);
        EXPECT_DOUBLE_EQ(t.lon_max, 185 + 0.35);
    }
    // Data written in 0..360 around Greenwich (350 and 10): the short way, -10..10 (+5%).
    const PredictionGrid greenwich = prediction_grid({{0, 350, 0}, {1, 10, 0}}, 2, 2);
    EXPECT_DOUBLE_EQ(greenwich.lon_min, -11);
    EXPECT_DOUBLE_EQ(greenwich.lon_max, 11);
    // The short way, 170..370, leaves [-180, 360]: the plain -100..170 (+5%) instead.
    const PredictionGrid wide = prediction_grid({{0, -100, 0}, {0, 10, 0}, {0, 170, 0}}, 2, 2);
    EXPECT_DOUBLE_EQ(wide.lon_min, -113.5);
    EXPECT_DOUBLE_EQ(wide.lon_max, 183.5);

    // One point: a 1°-wide box around it; near a pole the box is clamped.
    const PredictionGrid one = prediction_grid({{89.9, 0, 0}}, 2, 2);
    EXPECT_DOUBLE_EQ(one.lon_min, -0.5);
    EXPECT_DOUBLE_EQ(one.lat_max, 90);
    EXPECT_THROW(prediction_grid({}, 2, 2), Error);
    EXPECT_THROW(prediction_grid(pts, 0, 2), Error);
}

TEST(PredictionFile, WrittenInChunksAndReadBack) {
    TempDir dir;
    std::vector<Location> where;
    for (int k = 0; k < 5000; ++k) where.push_back({-45 + k * 0.01, 170 + k * 0.002});
    std::vector<size_t> chunks;
    const std::string out = dir.file("out.csv");
    const int64_t n = predict_to_csv(where, out, "depth", true,
                                     [&](const std::vector<Location>& w, std::vector<double>& mean, std::vector<double>& sd) {
                                         chunks.push_back(w.size());
                                         for (const Location& l : w) {
                                             mean.push_back(l.lat_deg * 2);
                                             sd.push_back(0.25);
                                         }
                                     });
    EXPECT_EQ(n, 5000);
    EXPECT_EQ(chunks, (std::vector<size_t>{4096, 904}));
    const std::string text = read_all(out);
    EXPECT_EQ(text.substr(0, text.find('\n')), "lat,lon,depth_pred,depth_sd");
    EXPECT_NE(text.find("\n-45,170,-90,0.25\n"), std::string::npos);
    // The file reads back as locations with the header's names.
    const std::vector<Location> back = read_locations(out, named("lat", "lon", "unused"));
    ASSERT_EQ(back.size(), where.size());
    for (size_t k = 0; k < where.size(); k += 499) {
        EXPECT_NEAR(back[k].lat_deg, where[k].lat_deg, 1e-12);
        EXPECT_NEAR(back[k].lon_deg, where[k].lon_deg, 1e-12);
    }
    // Without sd: three columns.
    const std::string out2 = dir.file("mean.csv");
    predict_to_csv({{1, 2}}, out2, "elevation_m", false,
                   [](const std::vector<Location>& w, std::vector<double>& mean, std::vector<double>&) {
                       mean.assign(w.size(), 3.5);
                   });
    EXPECT_EQ(read_all(out2), "lat,lon,elevation_m_pred\n1,2,3.5\n");
    // A predictor that returns the wrong number of values is caught.
    EXPECT_THROW(predict_to_csv({{1, 2}}, out2, "v", false,
                                [](const std::vector<Location>&, std::vector<double>&, std::vector<double>&) {}),
                 Error);
    EXPECT_THROW(PredictionWriter(dir.file("no/such/folder.csv"), "v", false), Error);
    EXPECT_THROW(read_locations(dir.file("absent.csv"), Columns{}), DataError);
}

// Issue 38: one place written two ways is one training point: longitude -170 and 190, 180 and -180,
// 0 and 360, and any longitude at a pole (the RBF system of unmerged copies was singular, κ ≈ 2e31).
TEST(LoadPoints, OnePlaceWrittenTwoWaysIsMerged) {
    EXPECT_EQ(canonical_location(10, 190).lon_deg, -170.0);
    EXPECT_EQ(canonical_location(10, 180).lon_deg, -180.0);
    EXPECT_EQ(canonical_location(10, 360).lon_deg, 0.0);
    EXPECT_EQ(canonical_location(10, -180).lon_deg, -180.0);
    EXPECT_EQ(canonical_location(-90, 123).lon_deg, 0.0);
    EXPECT_FALSE(std::signbit(canonical_location(-0.0, -0.0).lat_deg));
    TempDir dir;
    DataOptions o;
    o.path = dir.file("twice.csv", "lat,lon,v\n"
                                   "10,-170,1\n10,190,3\n20,180,5\n20,-180,7\n30,0,1\n30,360,2\n"
                                   "90,10,4\n90,-50,6\n-90,0,1\n-90,100,1\n40,50,9\n");
    o.columns = named("lat", "lon", "v");
    o.holdout = 0;
    const PointData d = load_points(o);
    EXPECT_EQ(d.merged, 5);
    ASSERT_EQ(d.train.size(), 6u);
    EXPECT_DOUBLE_EQ(d.train[0].value, 2);      // (1 + 3) / 2
    EXPECT_EQ(d.train[0].lon_deg, -170.0);      // the first one's place, as written
    EXPECT_DOUBLE_EQ(d.train[3].value, 5);      // the north pole: (4 + 6) / 2
}

// Issue 38: a line longer than tool::kMaxLineBytes is refused as FILE:LINE (a file without line
// ends, /dev/zero, used to be read until memory ran out); a field is quoted in a message cut after
// 40 characters.
TEST(PointCsv, LongLinesAreRefusedAndLongFieldsCut) {
    TempDir dir;
    const std::string big(tool::kMaxLineBytes + 1, '7');
    const std::string path = dir.file("long.csv", "lat,lon,v\n1,2,3\n1,2," + big + "\n");
    try {
        read_text_file(path);
        ADD_FAILURE() << "no error for a line of " << big.size() + 4 << " bytes";
    } catch (const DataError& e) {
        EXPECT_EQ(std::string(e.what()), path + ":3: line longer than 1048576 bytes (the limit of an input line)");
    }
    // At the limit: read whole.
    const std::string at_limit = dir.file("limit.csv", std::string(tool::kMaxLineBytes, 'x') + "\n");
    EXPECT_EQ(read_text_file(at_limit).size(), tool::kMaxLineBytes + 1);
    // A 100 000-character field is quoted as its first 40 characters and "...".
    const std::string wide(100000, 'a');
    try {
        parse_points_csv("lat,lon,v\n" + wide + ",2,3\n", "wide.csv", named("lat", "lon", "v"));
        ADD_FAILURE() << "no error for a latitude of 100000 a's";
    } catch (const DataError& e) {
        EXPECT_EQ(std::string(e.what()), "wide.csv:2: column lat: '" + std::string(40, 'a') + "...' is not a finite number");
    }
    EXPECT_THROW(read_text_file(dir.file("")), DataError);  // a directory
}

// Issue 38: a prediction that is not finite fails the run (tool::WorkFailed: exit 1), before it
// reaches the prediction file.
TEST(PredictionFile, NonFinitePredictionsFailTheRun) {
    const std::vector<Location> where{{1, 2}, {3, 4}};
    int taken = 0;
    auto take = [&](size_t, const std::vector<Location>&, const std::vector<double>&, const std::vector<double>&) { ++taken; };
    EXPECT_THROW(predict_in_chunks(where, false,
                                   [](const std::vector<Location>& w, std::vector<double>& m, std::vector<double>&) {
                                       m.assign(w.size(), 1.0);
                                       m[1] = NAN;
                                   },
                                   take),
                 tool::WorkFailed);
    EXPECT_THROW(predict_in_chunks(where, true,
                                   [](const std::vector<Location>& w, std::vector<double>& m, std::vector<double>& sd) {
                                       m.assign(w.size(), 1.0);
                                       sd.assign(w.size(), INFINITY);
                                   },
                                   take),
                 tool::WorkFailed);
    EXPECT_EQ(taken, 0);
}

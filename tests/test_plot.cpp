// The pictures of examples/common/plot.hpp: maps and Gantt charts written as PNG (read back through
// Cairo: signature, size, the colours where the field is low and high) and SVG (header, size in
// px), the awkward inputs (a constant field, a grid across the antimeridian, thousands of bars), and
// each refused input's message. StarPU-free.
#include <cairo.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "examples/common/plot.hpp"
#include "tessera/types.hpp"

namespace tessera::plot {
namespace {

namespace fs = std::filesystem;

/// A directory of its own under the test's temporary directory, removed at the end.
class Plot : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::path(::testing::TempDir()) / ("tessera_plot_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string file(const std::string& name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

/// A world grid of nx × ny cells whose value is the column index: low in the west, high in the east.
Grid world(int nx = 72, int ny = 36) {
    Grid g{-180, 180, -90, 90, nx, ny, {}};
    for (int r = 0; r < ny; ++r)
        for (int c = 0; c < nx; ++c) g.values.push_back(c);
    return g;
}

std::vector<Point> some_points() {
    std::vector<Point> p;
    for (int i = 0; i < 500; ++i) p.push_back({-170.0 + 0.68 * i, 60 * std::sin(i * 0.1), double(i % 72)});
    return p;
}

std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The PNG at `path` read back through Cairo (the caller destroys it); checks signature and size.
cairo_surface_t* read_png(const std::string& path, int width, int height) {
    std::string bytes = contents(path);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << path;
    cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
    EXPECT_EQ(cairo_surface_status(s), CAIRO_STATUS_SUCCESS) << path;
    EXPECT_EQ(cairo_image_surface_get_width(s), width);
    EXPECT_EQ(cairo_image_surface_get_height(s), height);
    return s;
}

/// Pixel (x, y) of an image surface as 0xRRGGBB.
uint32_t pixel(cairo_surface_t* s, int x, int y) {
    const unsigned char* row = cairo_image_surface_get_data(s) + size_t(y) * cairo_image_surface_get_stride(s);
    return reinterpret_cast<const uint32_t*>(row)[x] & 0xffffffu;
}

/// The first x on row y whose colour is `rgb` (0xRRGGBB), or -1.
int find_on_row(cairo_surface_t* s, int y, uint32_t rgb) {
    for (int x = 0; x < cairo_image_surface_get_width(s); ++x)
        if (pixel(s, x, y) == rgb) return x;
    return -1;
}

/// Whether the SVG at `path` starts with <?xml and its <svg element says width="Wpx" height="Hpx".
void expect_svg(const std::string& path, int width, int height) {
    std::string text = contents(path);
    EXPECT_EQ(text.rfind("<?xml", 0), 0u) << path;
    auto open = text.find("<svg");
    ASSERT_NE(open, std::string::npos) << path;
    std::string tag = text.substr(open, text.find('>', open) - open);
    EXPECT_NE(tag.find("width=\"" + std::to_string(width) + "px\""), std::string::npos) << tag;
    EXPECT_NE(tag.find("height=\"" + std::to_string(height) + "px\""), std::string::npos) << tag;
    EXPECT_NE(text.find("</svg>"), std::string::npos) << path;
}

/// what() of the tessera::Error that f throws, or "" when it throws none.
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

std::vector<GanttBar> some_bars(int lanes, int count) {
    const char* names[] = {"dgemm", "dsyrk", "dtrsm", "dpotrf", "dlacpy"};
    std::vector<GanttBar> bars;
    for (int i = 0; i < count; ++i) {
        int lane = i % lanes;
        double start = 0.01 * (i / lanes);
        bars.push_back({lane, start, start + 0.004 + 0.005 * (i % 3), names[(i / 7) % 5]});
    }
    return bars;
}

TEST_F(Plot, MapPngHasItsSizeAndTheFieldsColours) {
    std::string path = file("map.png");
    draw_map(path, 800, 500, {{"field", "value", world(), false}}, {}, "one panel");
    cairo_surface_t* s = read_png(path, 800, 500);
    // On a row through the panel (away from the graticule's lines): viridis' low end (#440154) in
    // the west, its high end (#fde725) east of it.
    int y = 200, low = -1, high = -1;
    for (; y < 300 && (low < 0 || high < 0); ++y) low = find_on_row(s, y, 0x440154), high = find_on_row(s, y, 0xfde725);
    EXPECT_GE(low, 0);
    EXPECT_GT(high, low);
    EXPECT_NE(pixel(s, low, y - 1), pixel(s, high, y - 1));
    cairo_surface_destroy(s);
}

TEST_F(Plot, MapWithTwoPanelsAndPointsInBothFormats) {
    Grid sd = world();
    for (double& v : sd.values) v = 100 + v;
    std::vector<MapPanel> panels = {{"prediction", "elevation (m)", world(), true},
                                    {"standard deviation", "sd (m)", sd, false}};
    draw_map(file("map2.png"), 1200, 700, panels, some_points(), "two panels");
    cairo_surface_destroy(read_png(file("map2.png"), 1200, 700));
    draw_map(file("map2.SVG"), 1200, 700, panels, some_points(), "two panels");
    expect_svg(file("map2.SVG"), 1200, 700);
}

TEST_F(Plot, MapOfAConstantFieldAndAcrossTheAntimeridian) {
    Grid flat = world(4, 2);
    for (double& v : flat.values) v = 5;
    draw_map(file("flat.png"), 300, 200, {{"flat", "m", flat, true}}, some_points(), "");
    cairo_surface_destroy(read_png(file("flat.png"), 300, 200));

    Grid pacific{170, -170, -20, 20, 40, 8, std::vector<double>(320, 1.0)};
    pacific.values[0] = 0;
    EXPECT_DOUBLE_EQ(pacific.lon_span(), 20.0);
    EXPECT_DOUBLE_EQ(pacific.cell_lon(39), 189.75);
    draw_map(file("pacific.svg"), 400, 300, {{"pacific", "m", pacific, true}}, {{-175, 0, 1}, {175, 5, 0}}, "x");
    expect_svg(file("pacific.svg"), 400, 300);
}

TEST_F(Plot, GanttInBothFormats) {
    std::vector<std::string> lanes = {"CPU 0", "CPU 1", "CPU 2", "OpenCL 0 (NVIDIA H100)"};
    auto bars = some_bars(4, 400);
    draw_gantt(file("gantt.png"), 1000, 400, lanes, bars, "potrf, n = 4000");
    cairo_surface_t* s = read_png(file("gantt.png"), 1000, 400);
    // The label with the most busy time takes the palette's first colour (Tableau blue, #4e79a7).
    bool found = false;
    for (int y = 0; y < 400 && !found; ++y) found = find_on_row(s, y, 0x4e79a7) >= 0;
    EXPECT_TRUE(found);
    cairo_surface_destroy(s);
    draw_gantt(file("gantt.svg"), 1000, 400, lanes, bars, "potrf, n = 4000");
    expect_svg(file("gantt.svg"), 1000, 400);
}

TEST_F(Plot, GanttOfManyBarsManyLanesAndNone) {
    std::vector<std::string> lanes;
    for (int i = 0; i < 64; ++i) lanes.push_back("CPU " + std::to_string(i));
    draw_gantt(file("many.png"), 1400, 600, lanes, some_bars(64, 20000), "20000 bars");
    cairo_surface_destroy(read_png(file("many.png"), 1400, 600));
    draw_gantt(file("empty.svg"), 200, 100, {"CPU 0"}, {}, "");
    expect_svg(file("empty.svg"), 200, 100);
}

TEST_F(Plot, RefusedInputsSayWhatIsWrong) {
    std::vector<MapPanel> one = {{"field", "value", world(), true}};
    EXPECT_NE(error_of([&] { draw_map(file("map.jpg"), 800, 500, one, {}, ""); })
                  .find("extension must be .png or .svg"),
              std::string::npos);
    EXPECT_NE(error_of([&] { draw_gantt(file("gantt"), 800, 500, {"CPU 0"}, {}, ""); })
                  .find("extension must be .png or .svg"),
              std::string::npos);

    for (std::string ext : {".png", ".svg"}) {
        std::string bad = file("no_such_dir/map" + ext);
        std::string what = error_of([&] { draw_map(bad, 800, 500, one, {}, ""); });
        EXPECT_NE(what.find("cannot write '" + bad + "': error while writing to output stream"), std::string::npos)
            << what;
        EXPECT_FALSE(fs::exists(bad));
    }

    EXPECT_NE(error_of([&] { draw_map(file("m.png"), 10, 500, one, {}, ""); })
                  .find("size 10 x 500 pixels is outside [64, 16384]"),
              std::string::npos);
    EXPECT_NE(error_of([&] { draw_gantt(file("g.png"), 800, 20000, {"CPU 0"}, {}, ""); })
                  .find("size 800 x 20000 pixels is outside [64, 16384]"),
              std::string::npos);

    Grid nan = world(3, 2);
    for (double& v : nan.values) v = NAN;
    EXPECT_EQ(error_of([&] { draw_map(file("m.png"), 800, 500, {{"empty", "m", nan, true}}, {}, ""); }),
              "tessera::plot::draw_map: panel 1 ('empty'): grid has no finite value (NaN everywhere)");
    Grid short_grid = world(3, 2);
    short_grid.values.pop_back();
    EXPECT_NE(error_of([&] { draw_map(file("m.png"), 800, 500, {{"a", "m", short_grid, true}}, {}, ""); })
                  .find("grid has 5 values for 3 x 2 cells"),
              std::string::npos);
    Grid flipped = world(3, 2);
    std::swap(flipped.lat_min, flipped.lat_max);
    EXPECT_NE(error_of([&] { draw_map(file("m.png"), 800, 500, {{"a", "m", flipped, true}}, {}, ""); })
                  .find("lat_min < lat_max"),
              std::string::npos);
    EXPECT_NE(error_of([&] { draw_map(file("m.png"), 800, 500, {one[0], one[0], one[0]}, {}, ""); })
                  .find("draws 1 or 2 panels, got 3"),
              std::string::npos);

    std::vector<std::string> lanes = {"CPU 0", "CPU 1", "CPU 2", "CPU 3"};
    EXPECT_EQ(error_of([&] { draw_gantt(file("g.png"), 800, 500, lanes, {{4, 0, 1, "dgemm"}}, ""); }),
              "tessera::plot::draw_gantt: bar 0 ('dgemm'): lane 4 is out of range [0, 4)");
    EXPECT_NE(error_of([&] { draw_gantt(file("g.png"), 800, 500, lanes, {{0, 2, 1, "dgemm"}}, ""); })
                  .find("ends (1 s) before it starts (2 s)"),
              std::string::npos);
    EXPECT_NE(error_of([&] { draw_gantt(file("g.png"), 800, 500, {}, {}, ""); }).find("no lanes"), std::string::npos);
    EXPECT_FALSE(fs::exists(file("m.png")));
    EXPECT_FALSE(fs::exists(file("g.png")));
}

}  // namespace
}  // namespace tessera::plot

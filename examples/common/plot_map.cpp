// draw_map: 1 or 2 equirectangular lon/lat panels, each a gridded field in viridis with its colour
// bar and, optionally, the observations as dots on the same colour scale.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "examples/common/plot.hpp"
#include "examples/common/plot_canvas.hpp"

namespace tessera::plot {

namespace {

using namespace detail;
constexpr const char* kFunc = "tessera::plot::draw_map";
constexpr double kBarGap = 0.8, kBarWidth = 0.9;  // colour bar: gap from the plot, width (font sizes)

// The finite range of a checked panel's grid.
struct Range {
    double lo, hi;
};

// Check panel k's grid and return its finite range; throws tessera::Error naming the panel.
Range check_panel(const MapPanel& p, size_t k) {
    std::string name = "panel " + std::to_string(k + 1) + " ('" + p.title + "')";
    const Grid& g = p.grid;
    if (g.nx < 1 || g.ny < 1)
        fail(kFunc, name + ": grid of " + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " cells is empty");
    if (g.values.size() != size_t(g.nx) * size_t(g.ny))
        fail(kFunc, name + ": grid has " + std::to_string(g.values.size()) + " values for " + std::to_string(g.nx) +
                        " x " + std::to_string(g.ny) + " cells");
    if (!std::isfinite(g.lon_min) || !std::isfinite(g.lon_max) || !std::isfinite(g.lat_min) ||
        !std::isfinite(g.lat_max))
        fail(kFunc, name + ": grid extent is not finite");
    if (!(g.lat_min < g.lat_max)) fail(kFunc, name + ": grid needs lat_min < lat_max");
    if (g.lon_min == g.lon_max) fail(kFunc, name + ": grid has lon_min == lon_max");
    if (g.lon_span() > 360.0) fail(kFunc, name + ": grid spans more than 360 degrees of longitude");
    Range r{INFINITY, -INFINITY};
    for (double v : g.values)
        if (std::isfinite(v)) r.lo = std::min(r.lo, v), r.hi = std::max(r.hi, v);
    if (!(r.lo <= r.hi)) fail(kFunc, name + ": grid has no finite value (NaN everywhere)");
    return r;
}

// Position of a value on the colour scale, in [0, 1] (0.5 for a constant field).
double scale_of(double v, Range r) { return r.hi > r.lo ? std::clamp((v - r.lo) / (r.hi - r.lo), 0.0, 1.0) : 0.5; }

std::string degrees_label(double v, bool longitude) {
    if (longitude) {  // wrapped to [-180, 180)
        v = std::fmod(v + 180.0, 360.0);
        if (v < 0) v += 360.0;
        v -= 180.0;
    }
    double a = std::fabs(v);
    std::string s = format_number(a) + "\u00b0";
    if (a == 0 || (longitude && a == 180)) return s;
    return s + (longitude ? (v > 0 ? "E" : "W") : (v > 0 ? "N" : "S"));
}

// The plot area of one panel, in whole pixels, and degrees → pixels.
struct Frame {
    int x, y, w, h;
    double sx, sy;  // pixels per degree of longitude and latitude (equal but for rounding to pixels)
    const Grid* g;
    double px_of_lon_offset(double d) const { return x + d * sx; }  // d: degrees east of lon_min
    double py_of_lat(double lat) const { return y + (g->lat_max - lat) * sy; }
};

// The field as an image of the plot area's pixels: each pixel takes the cell under its centre;
// cells without a value are transparent.
void draw_field(const Canvas& c, const Frame& f, Range r) {
    const Grid& g = *f.g;
    cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, f.w, f.h);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        fail(kFunc, "cannot allocate the field's image");
    }
    std::vector<uint32_t> lut(1024);
    for (size_t i = 0; i < lut.size(); ++i) {
        Rgb rgb = viridis(i / double(lut.size() - 1));
        lut[i] = 0xff000000u | uint32_t(std::lround(rgb.r * 255)) << 16 | uint32_t(std::lround(rgb.g * 255)) << 8 |
                 uint32_t(std::lround(rgb.b * 255));
    }
    std::vector<int> col(f.w), row(f.h);
    for (int i = 0; i < f.w; ++i) col[i] = std::min(int((i + 0.5) / f.w * g.nx), g.nx - 1);
    for (int j = 0; j < f.h; ++j) row[j] = g.ny - 1 - std::min(int((j + 0.5) / f.h * g.ny), g.ny - 1);
    cairo_surface_flush(img);
    unsigned char* data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int j = 0; j < f.h; ++j) {
        auto* line = reinterpret_cast<uint32_t*>(data + size_t(j) * stride);
        const double* values = g.values.data() + size_t(row[j]) * g.nx;
        for (int i = 0; i < f.w; ++i) {
            double v = values[col[i]];
            line[i] = std::isfinite(v) ? lut[size_t(std::lround(scale_of(v, r) * (lut.size() - 1)))] : 0u;
        }
    }
    cairo_surface_mark_dirty(img);
    cairo_set_source_surface(c.cr(), img, f.x, f.y);
    cairo_paint(c.cr());
    cairo_surface_destroy(img);
}

// Graticule, frame, ticks and their labels in degrees.
void draw_axes(const Canvas& c, const Frame& f, double tfs) {
    cairo_t* cr = c.cr();
    const Grid& g = *f.g;
    double span = g.lon_span();
    auto lon_ticks = ticks(g.lon_min, g.lon_min + span, std::max(2, int(f.w / (5.0 * tfs))), true);
    auto lat_ticks = ticks(g.lat_min, g.lat_max, std::max(2, int(f.h / (2.5 * tfs))), true);
    cairo_set_line_width(cr, 0.6);
    c.set_colour({1, 1, 1}, 0.45);
    for (double t : lon_ticks) {
        double x = std::round(f.px_of_lon_offset(t - g.lon_min)) + 0.5;
        cairo_move_to(cr, x, f.y), cairo_line_to(cr, x, f.y + f.h);
    }
    for (double t : lat_ticks) {
        double y = std::round(f.py_of_lat(t)) + 0.5;
        cairo_move_to(cr, f.x, y), cairo_line_to(cr, f.x + f.w, y);
    }
    cairo_stroke(cr);

    c.set_colour({0.2, 0.2, 0.2});
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, f.x - 0.5, f.y - 0.5, f.w + 1, f.h + 1);
    cairo_stroke(cr);
    const double tick = 4;
    for (double t : lon_ticks) {
        double x = std::round(f.px_of_lon_offset(t - g.lon_min)) + 0.5;
        cairo_move_to(cr, x, f.y + f.h), cairo_line_to(cr, x, f.y + f.h + tick);
        cairo_stroke(cr);
        c.text(degrees_label(t, true), x, f.y + f.h + tick + 2, tfs, HAlign::Centre, VAlign::Top);
    }
    for (double t : lat_ticks) {
        double y = std::round(f.py_of_lat(t)) + 0.5;
        cairo_move_to(cr, f.x - tick, y), cairo_line_to(cr, f.x, y);
        cairo_stroke(cr);
        c.text(degrees_label(t, false), f.x - tick - 3, y, tfs, HAlign::Right, VAlign::Middle);
    }
}

// The observations as dots: a dark disk under each (the outline), then the coloured disks, one path
// per colour level so that thousands draw as a few fills.
void draw_points(const Canvas& c, const Frame& f, Range r, const std::vector<Point>& points) {
    cairo_t* cr = c.cr();
    const Grid& g = *f.g;
    double span = g.lon_span(), radius = std::clamp(std::min(f.w, f.h) / 150.0, 1.5, 3.5);
    constexpr int kLevels = 64;
    std::vector<std::vector<std::pair<double, double>>> by_level(kLevels);
    for (const Point& p : points) {
        if (!std::isfinite(p.lon_deg) || !std::isfinite(p.lat_deg) || !std::isfinite(p.value)) continue;
        double d = std::fmod(p.lon_deg - g.lon_min, 360.0);
        if (d < 0) d += 360.0;
        if (d > span || p.lat_deg < g.lat_min || p.lat_deg > g.lat_max) continue;
        int level = std::min(int(scale_of(p.value, r) * kLevels), kLevels - 1);
        by_level[level].emplace_back(f.px_of_lon_offset(d), f.py_of_lat(p.lat_deg));
    }
    cairo_save(cr);
    cairo_rectangle(cr, f.x, f.y, f.w, f.h);
    cairo_clip(cr);
    for (auto& level : by_level)
        for (auto [x, y] : level) cairo_new_sub_path(cr), cairo_arc(cr, x, y, radius + 0.6, 0, 2 * M_PI);
    c.set_colour({0.1, 0.1, 0.1}, 0.8);
    cairo_fill(cr);
    for (int l = 0; l < kLevels; ++l) {
        if (by_level[l].empty()) continue;
        for (auto [x, y] : by_level[l]) cairo_new_sub_path(cr), cairo_arc(cr, x, y, radius, 0, 2 * M_PI);
        c.set_colour(viridis((l + 0.5) / kLevels));
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

// The plot area of panel p inside the cell (cx, cy, cw, ch) of the picture, leaving room for the
// latitude labels left, the longitude labels below, the panel's title above, and the colour bar with
// its value labels and turned label right.
Frame place(const Canvas& c, const MapPanel& p, Range r, double cx, double cy, double cw, double ch) {
    const double fs = c.font_size(), tfs = 0.85 * fs;
    const Grid& g = p.grid;
    double left = c.text_width(degrees_label(-88.5, false), tfs) + 10;
    double bottom = 4 + 2 + 1.3 * tfs + 0.5 * fs;
    double above = p.title.empty() ? 0.5 * fs : 1.8 * fs;
    double labels = std::max(c.text_width(format_number(r.lo), tfs), c.text_width(format_number(r.hi), tfs));
    double right = kBarGap * fs + kBarWidth * fs + 6 + labels + 0.5 * tfs + 1.3 * tfs + 0.6 * fs;
    double aw = std::max(1.0, cw - left - right), ah = std::max(1.0, ch - above - bottom);
    double scale = std::min(aw / g.lon_span(), ah / (g.lat_max - g.lat_min));
    Frame f;
    f.g = &g;
    f.w = std::max(1, int(std::lround(scale * g.lon_span())));
    f.h = std::max(1, int(std::lround(scale * (g.lat_max - g.lat_min))));
    f.sx = f.w / g.lon_span();  // from the whole-pixel sizes, so that the last cell ends on the frame
    f.sy = f.h / (g.lat_max - g.lat_min);
    f.x = int(std::lround(cx + left + (aw - f.w) / 2));
    f.y = int(std::lround(cy + above + (ah - f.h) / 2));
    return f;
}

}  // namespace

void draw_map(const std::string& path, int width, int height, const std::vector<MapPanel>& panels,
              const std::vector<Point>& points, const std::string& title) {
    if (panels.empty() || panels.size() > 2)
        fail(kFunc, "draws 1 or 2 panels, got " + std::to_string(panels.size()));
    std::vector<Range> ranges;
    for (size_t k = 0; k < panels.size(); ++k) ranges.push_back(check_panel(panels[k], k));

    Canvas c(kFunc, path, width, height);
    const double fs = c.font_size();
    double top = 0.5 * fs;
    if (!title.empty()) {
        c.set_colour({0, 0, 0});
        c.text(title, width / 2.0, 0.6 * fs, 1.3 * fs, HAlign::Centre, VAlign::Top, 0, true);
        top = 2.4 * fs;
    }
    // Two panels side by side, or one above the other where that draws them larger (wide maps in
    // a wide picture: a world map at 1200 x 700).
    const size_t n = panels.size();
    std::vector<Frame> frames;
    double smallest = 0;
    for (bool stacked : {false, true}) {
        if (stacked && n == 1) break;
        std::vector<Frame> fr;
        double cw = stacked ? width : double(width) / n, ch = stacked ? (height - top) / n : height - top;
        for (size_t k = 0; k < n; ++k)
            fr.push_back(place(c, panels[k], ranges[k], stacked ? 0 : k * cw, top + (stacked ? k * ch : 0), cw, ch));
        double s = std::min(fr[0].sx, fr[n - 1].sx);
        if (frames.empty() || s > 1.05 * smallest) frames = fr, smallest = s;
    }
    for (size_t k = 0; k < n; ++k) {
        const MapPanel& p = panels[k];
        const Frame& f = frames[k];
        cairo_rectangle(c.cr(), f.x, f.y, f.w, f.h);
        c.set_colour({0.93, 0.93, 0.93});
        cairo_fill(c.cr());
        draw_field(c, f, ranges[k]);
        if (p.show_points) draw_points(c, f, ranges[k], points);
        draw_axes(c, f, 0.85 * fs);
        c.set_colour({0, 0, 0});
        c.text(p.title, f.x + f.w / 2.0, f.y - 0.55 * fs, 1.05 * fs, HAlign::Centre, VAlign::Baseline);
        c.colour_bar(f.x + f.w + kBarGap * fs, f.y, kBarWidth * fs, f.h, ranges[k].lo, ranges[k].hi, p.colour_label);
    }
    c.finish();
}

}  // namespace tessera::plot

// The output surface, colour maps, text and ticks shared by draw_map and draw_gantt.
#include "examples/common/plot_canvas.hpp"

#include <cairo-svg.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "tessera/types.hpp"

namespace tessera::plot::detail {

namespace {

constexpr int kMinSize = 64, kMaxSize = 16384;

// R's viridis(10): equally spaced samples of matplotlib's viridis, 0 to 1.
constexpr unsigned char kViridis[10][3] = {
    {68, 1, 84},    {72, 40, 120},  {62, 74, 137},  {49, 104, 142}, {38, 130, 142},
    {31, 158, 137}, {53, 183, 121}, {109, 205, 89}, {180, 222, 44}, {253, 231, 37}};

// Tableau 10.
constexpr unsigned char kTableau[10][3] = {
    {78, 121, 167}, {242, 142, 43}, {225, 87, 89},   {118, 183, 178}, {89, 161, 79},
    {237, 201, 72}, {176, 122, 161}, {255, 157, 167}, {156, 117, 95},  {186, 176, 172}};

Rgb from_bytes(const unsigned char c[3]) { return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0}; }

Rgb from_hsv(double h_deg, double s, double v) {
    double c = v * s, hp = h_deg / 60.0, x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1)), m = v - c;
    double r = 0, g = 0, b = 0;
    if (hp < 1) r = c, g = x;
    else if (hp < 2) r = x, g = c;
    else if (hp < 3) g = c, b = x;
    else if (hp < 4) g = x, b = c;
    else if (hp < 5) r = x, b = c;
    else r = c, b = x;
    return {r + m, g + m, b + m};
}

// ".png" or ".svg" (lower case), or "" when the path ends otherwise.
std::string extension_of(const std::string& path) {
    auto dot = path.find_last_of('.');
    auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    for (char& c : ext) c = char(std::tolower((unsigned char)c));
    return ext == ".png" || ext == ".svg" ? ext : "";
}

}  // namespace

void fail(const char* func, const std::string& what) { throw Error(std::string(func) + ": " + what); }

Rgb viridis(double t) {
    if (std::isnan(t)) t = 0.5;
    t = std::clamp(t, 0.0, 1.0) * 9.0;
    int i = std::min(int(t), 8);
    double f = t - i;
    Rgb a = from_bytes(kViridis[i]), b = from_bytes(kViridis[i + 1]);
    return {a.r + f * (b.r - a.r), a.g + f * (b.g - a.g), a.b + f * (b.b - a.b)};
}

void add_viridis_stops(cairo_pattern_t* gradient) {
    for (int i = 0; i < 10; ++i) {
        Rgb c = from_bytes(kViridis[i]);
        cairo_pattern_add_color_stop_rgb(gradient, i / 9.0, c.r, c.g, c.b);
    }
}

Rgb categorical(int i) {
    if (i < 10) return from_bytes(kTableau[i]);
    return from_hsv(std::fmod(i * 137.508, 360.0), 0.55, i % 2 ? 0.62 : 0.86);
}

std::vector<double> ticks(double lo, double hi, int max_ticks, bool degrees) {
    std::vector<double> out;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
    double raw = (hi - lo) / std::max(max_ticks, 1), step = 0;
    if (degrees && raw > 0.5) {
        for (double s : {1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 45.0, 60.0, 90.0, 180.0}) {
            step = s;
            if (s >= raw) break;
        }
    } else {
        double mag = std::pow(10.0, std::floor(std::log10(raw))), f = raw / mag;
        step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step && out.size() < 1000; k += 1)
        out.push_back(k * step + 0.0);  // + 0.0: no -0
    return out;
}

std::string format_number(double v) {
    char buf[32];
    double a = std::fabs(v);
    if (a >= 1e6 || (a < 1e-3 && a != 0)) std::snprintf(buf, sizeof buf, "%.3g", v);
    else if (a >= 1000) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

Canvas::Canvas(const char* func, const std::string& path, int width, int height)
    : func_(func), path_(path), width_(width), height_(height) {
    std::string ext = extension_of(path);
    if (ext.empty()) fail(func, "cannot tell the picture's format from '" + path + "': the extension must be .png or .svg");
    if (width < kMinSize || width > kMaxSize || height < kMinSize || height > kMaxSize)
        fail(func, "size " + std::to_string(width) + " x " + std::to_string(height) + " pixels is outside [" +
                       std::to_string(kMinSize) + ", " + std::to_string(kMaxSize) + "]");
    svg_ = ext == ".svg";
    font_size_ = std::clamp(std::sqrt(double(width) * height) / 65.0, 9.0, 18.0);
    surface_ = svg_ ? cairo_svg_surface_create(path.c_str(), width, height)
                    : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_status_t s = cairo_surface_status(surface_); s != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface_);
        fail(func, "cannot " + std::string(svg_ ? "write '" : "draw '") + path + "': " + cairo_status_to_string(s));
    }
    if (svg_) cairo_svg_surface_set_document_unit(surface_, CAIRO_SVG_UNIT_PX);
    cr_ = cairo_create(surface_);
    cairo_set_source_rgb(cr_, 1, 1, 1);
    cairo_paint(cr_);
}

Canvas::~Canvas() {
    cairo_destroy(cr_);
    cairo_surface_destroy(surface_);
    // An SVG file was opened by the constructor; a PNG one only by a failed finish(). unlink, not
    // remove: a directory of that name is left alone.
    if (!finished_ && (svg_ || png_attempted_)) ::unlink(path_.c_str());
}

void Canvas::finish() {
    cairo_status_t s = cairo_status(cr_);
    if (s == CAIRO_STATUS_SUCCESS) {
        if (svg_) {
            cairo_surface_finish(surface_);
            s = cairo_surface_status(surface_);
        } else {
            cairo_surface_flush(surface_);
            png_attempted_ = true;
            s = cairo_surface_write_to_png(surface_, path_.c_str());
        }
    }
    if (s != CAIRO_STATUS_SUCCESS) fail(func_, "cannot write '" + path_ + "': " + cairo_status_to_string(s));
    finished_ = true;
}

void Canvas::set_colour(Rgb c, double alpha) const { cairo_set_source_rgba(cr_, c.r, c.g, c.b, alpha); }

double Canvas::text_width(const std::string& s, double size) const {
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr_, s.c_str(), &e);
    return e.x_advance;
}

void Canvas::text(const std::string& s, double x, double y, double size, HAlign h, VAlign v, double angle,
                  bool bold) const {
    if (s.empty()) return;
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr_, s.c_str(), &e);
    cairo_font_extents_t f;
    cairo_font_extents(cr_, &f);
    double dx = h == HAlign::Left ? 0 : h == HAlign::Centre ? -e.x_advance / 2 : -e.x_advance;
    double dy = v == VAlign::Top ? f.ascent : v == VAlign::Middle ? 0.36 * size : 0;
    cairo_save(cr_);
    cairo_translate(cr_, x, y);
    cairo_rotate(cr_, angle);
    cairo_move_to(cr_, dx, dy);
    cairo_show_text(cr_, s.c_str());
    cairo_restore(cr_);
}

void Canvas::colour_bar(double x, double y, double w, double h, double lo, double hi, const std::string& label) const {
    const double fs = font_size_ * 0.85, tick = 4;
    cairo_rectangle(cr_, x, y, w, h);
    if (hi > lo) {
        cairo_pattern_t* g = cairo_pattern_create_linear(0, y + h, 0, y);
        add_viridis_stops(g);
        cairo_set_source(cr_, g);
        cairo_fill(cr_);
        cairo_pattern_destroy(g);
    } else {
        set_colour(viridis(0.5));
        cairo_fill(cr_);
    }
    set_colour({0.2, 0.2, 0.2});
    cairo_set_line_width(cr_, 1.0);
    cairo_rectangle(cr_, x + 0.5, y + 0.5, w - 1, h - 1);
    cairo_stroke(cr_);

    std::vector<std::pair<double, std::string>> marks;  // y, label
    if (hi > lo) marks = {{y + h, format_number(lo)}, {y, format_number(hi)}};
    else marks = {{y + h / 2, format_number(lo)}};
    double widest = 0;
    for (auto& [my, s] : marks) {
        cairo_move_to(cr_, x + w, std::round(my) + 0.5);
        cairo_line_to(cr_, x + w + tick, std::round(my) + 0.5);
        cairo_stroke(cr_);
        text(s, x + w + tick + 2, my, fs, HAlign::Left, VAlign::Middle);
        widest = std::max(widest, text_width(s, fs));
    }
    text(label, x + w + tick + 2 + widest + 0.5 * fs, y + h / 2, fs, HAlign::Centre, VAlign::Top, -M_PI / 2);
}

}  // namespace tessera::plot::detail

// What draw_map and draw_gantt share (internal to tessera_plot): the output surface chosen by the
// path's extension, checked sizes, the colour maps, text placement, tick positions, a colour bar.
// Coordinates are pixels from the picture's top-left corner, y down.
#pragma once

#include <cairo.h>

#include <string>
#include <vector>

namespace tessera::plot::detail {

/// Throw tessera::Error("<func>: <what>").
[[noreturn]] void fail(const char* func, const std::string& what);

/// An sRGB colour, components in [0, 1].
struct Rgb {
    double r = 0, g = 0, b = 0;
};

/// The viridis colour map at t in [0, 1] (clamped; NaN gives the middle): its 10 control points
/// (R's viridis(10)) interpolated linearly.
Rgb viridis(double t);
/// Add viridis' control points as colour stops (offsets 0 to 1) to a linear gradient.
void add_viridis_stops(cairo_pattern_t* gradient);
/// The i-th colour of a categorical palette (i >= 0): Tableau 10 for i < 10, then hues spaced by
/// the golden angle at two lightnesses.
Rgb categorical(int i);

/// Tick positions in [lo, hi] (lo < hi), at most about max_ticks of them, on a 1-2-5 step; with
/// degrees, on a step among 1, 2, 5, 10, 15, 30, 45, 60, 90 degrees (1-2-5 below one degree).
std::vector<double> ticks(double lo, double hi, int max_ticks, bool degrees);
/// A value for a label: 4 significant digits (%.4g), whole numbers from 1000 to 1e6, %.3g beyond.
std::string format_number(double v);

/// Horizontal anchor of a text: its left end, centre or right end at x.
enum class HAlign { Left, Centre, Right };
/// Vertical anchor of a text: the top of the font's ascent, the middle of the capital letters, or
/// the baseline at y.
enum class VAlign { Top, Middle, Baseline };

/// A white width × height picture being drawn into `path`, PNG or SVG by the path's extension
/// (case-insensitive). The constructor checks the extension and size before opening anything and
/// throws tessera::Error (naming `func`) for an unknown extension, a size outside [64, 16384], or a
/// surface Cairo cannot create (an SVG file that cannot be opened). finish() writes the file and
/// throws on a Cairo failure (the message names the path and cairo_status_to_string); a Canvas
/// destroyed without a successful finish() removes the file it may have started.
class Canvas {
public:
    Canvas(const char* func, const std::string& path, int width, int height);
    ~Canvas();
    Canvas(const Canvas&) = delete;
    Canvas& operator=(const Canvas&) = delete;

    cairo_t* cr() const { return cr_; }
    int width() const { return width_; }
    int height() const { return height_; }
    /// Base font size in pixels for this picture's size: sqrt(width · height) / 65, within 9 to 18.
    double font_size() const { return font_size_; }

    void set_colour(Rgb c, double alpha = 1.0) const;
    /// Width in pixels of `s` at `size` pixels.
    double text_width(const std::string& s, double size) const;
    /// Draw `s` at `size` pixels, anchored at (x, y), turned by angle radians (counter-clockwise
    /// turns are negative, -pi/2 reads bottom to top) around the anchor, in the current colour.
    void text(const std::string& s, double x, double y, double size, HAlign h, VAlign v,
              double angle = 0.0, bool bold = false) const;
    /// A vertical colour bar in the rectangle (x, y, w, h): viridis from lo (bottom) to hi (top),
    /// framed, with ticks and labels at lo and hi on its right (one tick in the middle when
    /// lo == hi, the bar in the middle colour) and `label` turned to read upwards beyond them.
    void colour_bar(double x, double y, double w, double h, double lo, double hi, const std::string& label) const;

    /// Write the file (PNG: Cairo's PNG writer; SVG: finish the surface). Throws tessera::Error.
    void finish();

private:
    const char* func_;
    std::string path_;
    bool svg_ = false, finished_ = false, png_attempted_ = false;
    int width_, height_;
    double font_size_;
    cairo_surface_t* surface_ = nullptr;
    cairo_t* cr_ = nullptr;
};

}  // namespace tessera::plot::detail

// draw_gantt: one lane per worker, the task bars coloured by codelet, a time axis in seconds and a
// legend of the codelets.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "examples/common/plot.hpp"
#include "examples/common/plot_canvas.hpp"

namespace tessera::plot {

namespace {

using namespace detail;
constexpr const char* kFunc = "tessera::plot::draw_gantt";

void check_bars(const std::vector<std::string>& lanes, const std::vector<GanttBar>& bars) {
    if (lanes.empty()) fail(kFunc, "no lanes to draw");
    for (size_t i = 0; i < bars.size(); ++i) {
        const GanttBar& b = bars[i];
        std::string name = "bar " + std::to_string(i) + " ('" + b.label + "')";
        if (b.lane < 0 || size_t(b.lane) >= lanes.size())
            fail(kFunc, name + ": lane " + std::to_string(b.lane) + " is out of range [0, " +
                            std::to_string(lanes.size()) + ")");
        if (!std::isfinite(b.start_s) || !std::isfinite(b.end_s)) fail(kFunc, name + ": time is not finite");
        if (b.end_s < b.start_s)
            fail(kFunc, name + ": ends (" + format_number(b.end_s) + " s) before it starts (" +
                            format_number(b.start_s) + " s)");
    }
}

// The labels, largest total time first (ties by name), and each bar's index into them.
struct Legend {
    std::vector<std::string> labels;
    std::vector<int> of_bar;
};

Legend legend_of(const std::vector<GanttBar>& bars) {
    std::map<std::string, double> busy;
    for (const GanttBar& b : bars) busy[b.label] += b.end_s - b.start_s;
    std::vector<std::pair<std::string, double>> order(busy.begin(), busy.end());
    std::stable_sort(order.begin(), order.end(), [](auto& a, auto& b) { return a.second > b.second; });
    Legend l;
    std::map<std::string, int> index;
    for (auto& [label, t] : order) index[label] = int(l.labels.size()), l.labels.push_back(label);
    for (const GanttBar& b : bars) l.of_bar.push_back(index[b.label]);
    return l;
}

// `s` shortened with "..." to at most `width` pixels at `size`.
std::string fit(const Canvas& c, std::string s, double width, double size) {
    if (c.text_width(s, size) <= width) return s;
    while (!s.empty() && c.text_width(s + "...", size) > width) s.pop_back();
    return s + "...";
}

// One legend entry laid out: its text, colour index and top-left corner.
struct Entry {
    std::string text;
    int colour;
    double x, y;
};

// Flow the legend's entries into rows of `width` pixels from (x0, y0), at most max_rows rows (the
// last entry then says how many are left out). Returns the entries; *height gets the rows' height.
std::vector<Entry> layout_legend(const Canvas& c, const Legend& l, double x0, double y0, double width, int max_rows,
                                 double fs, double* height) {
    const double swatch = 0.9 * fs, gap = 0.4 * fs, spacing = 1.2 * fs, row_h = 1.5 * fs;
    std::vector<Entry> out;
    double x = x0;
    int row = 0;
    for (size_t i = 0; i < l.labels.size(); ++i) {
        std::string text = fit(c, l.labels[i], width - swatch - gap, fs);
        double w = swatch + gap + c.text_width(text, fs);
        if (x > x0 && x + w > x0 + width) {
            if (row + 1 == max_rows) {  // no room: the last entry counts the rest
                double mx = x0;  // in place of this row's last entry
                if (!out.empty()) mx = out.back().x, out.pop_back();
                std::string more(1, '+');  // not "+" + to_string(): gcc 12's false -Wrestrict
                more += std::to_string(l.labels.size() - out.size()) + " more";
                out.push_back({more, -1, mx, y0 + row * row_h});
                break;
            }
            ++row, x = x0;
        }
        out.push_back({text, int(i), x, y0 + row * row_h});
        x += w + spacing;
    }
    *height = l.labels.empty() ? 0 : (row + 1) * row_h;
    return out;
}

}  // namespace

void draw_gantt(const std::string& path, int width, int height, const std::vector<std::string>& lanes,
                const std::vector<GanttBar>& bars, const std::string& title) {
    check_bars(lanes, bars);
    Legend legend = legend_of(bars);
    Canvas c(kFunc, path, width, height);
    cairo_t* cr = c.cr();
    const double fs = c.font_size(), tfs = 0.85 * fs;

    double top = 0.8 * fs;
    if (!title.empty()) {
        c.set_colour({0, 0, 0});
        c.text(title, width / 2.0, 0.6 * fs, 1.3 * fs, HAlign::Centre, VAlign::Top, 0, true);
        top = 2.6 * fs;
    }
    double label_w = 0;
    for (const std::string& s : lanes) label_w = std::max(label_w, c.text_width(s, tfs));
    label_w = std::min(label_w, 0.25 * width);
    const double px = std::round(label_w + 12 + 0.5 * fs), pr = width - std::round(1.5 * fs);
    const double pw = std::max(1.0, pr - px);
    double legend_h = 0;
    int max_rows = std::max(1, int(0.25 * height / (1.5 * tfs)));
    double axis_h = 4 + 2 + 1.3 * tfs + 1.6 * tfs;  // ticks, their labels, "time (s)"
    layout_legend(c, legend, px, 0, pw, max_rows, tfs, &legend_h);
    const double py = std::round(top), pb = std::round(height - 0.6 * fs - legend_h - axis_h - 0.4 * fs);
    const double ph = std::max(1.0, pb - py);

    // Time range and x of a time.
    double t0 = 0, t1 = 0;
    for (const GanttBar& b : bars) t0 = std::min(t0, b.start_s), t1 = std::max(t1, b.end_s);
    if (!(t1 > t0)) t1 = t0 + 1;
    auto x_of = [&](double t) { return px + (t - t0) / (t1 - t0) * pw; };
    const double lane_h = ph / lanes.size();

    // Lanes' background, alternating.
    for (size_t i = 0; i < lanes.size(); i += 2) cairo_rectangle(cr, px, py + i * lane_h, pw, lane_h);
    c.set_colour({0.95, 0.95, 0.95});
    cairo_fill(cr);
    cairo_rectangle(cr, px, py, pw, ph);
    cairo_set_line_width(cr, 1.0);
    auto time_ticks = ticks(t0, t1, std::max(2, int(pw / (6.0 * tfs))), false);
    for (double t : time_ticks) {
        double x = std::round(x_of(t)) + 0.5;
        cairo_move_to(cr, x, py), cairo_line_to(cr, x, py + ph);
    }
    c.set_colour({0.8, 0.8, 0.8});
    cairo_stroke(cr);

    // Bars: one path per label.
    const double bar_h = lane_h >= 3 ? 0.8 * lane_h : lane_h;
    std::vector<std::vector<size_t>> by_label(legend.labels.size());
    for (size_t i = 0; i < bars.size(); ++i) by_label[legend.of_bar[i]].push_back(i);
    for (size_t l = 0; l < by_label.size(); ++l) {
        for (size_t i : by_label[l]) {
            const GanttBar& b = bars[i];
            double x = x_of(b.start_s), w = std::max(1.0, x_of(b.end_s) - x);
            cairo_rectangle(cr, x, py + b.lane * lane_h + (lane_h - bar_h) / 2, w, bar_h);
        }
        c.set_colour(categorical(int(l)));
        cairo_fill(cr);
    }

    // Frame, time axis, lane names (every stride-th lane when they are too thin for text).
    c.set_colour({0.2, 0.2, 0.2});
    cairo_rectangle(cr, px - 0.5, py - 0.5, pw + 1, ph + 1);
    cairo_stroke(cr);
    for (double t : time_ticks) {
        double x = std::round(x_of(t)) + 0.5;
        cairo_move_to(cr, x, py + ph), cairo_line_to(cr, x, py + ph + 4);
        cairo_stroke(cr);
        c.text(format_number(t), x, py + ph + 6, tfs, HAlign::Centre, VAlign::Top);
    }
    c.text("time (s)", px + pw / 2, py + ph + 6 + 1.3 * tfs, tfs, HAlign::Centre, VAlign::Top);
    size_t stride = size_t(std::ceil(7.0 / lane_h));
    double lfs = std::min(tfs, std::max(6.0, 0.85 * lane_h * stride));
    for (size_t i = 0; i < lanes.size(); i += stride)
        c.text(fit(c, lanes[i], label_w, lfs), px - 8, py + (i + 0.5) * lane_h, lfs, HAlign::Right, VAlign::Middle);

    // Legend below the axis.
    double ly = py + ph + axis_h + 0.4 * fs;
    for (const Entry& e : layout_legend(c, legend, px, ly, pw, max_rows, tfs, &legend_h)) {
        double tx = e.x;
        if (e.colour >= 0) {
            cairo_rectangle(cr, e.x, e.y + 0.3 * tfs, 0.9 * tfs, 0.9 * tfs);
            c.set_colour(categorical(e.colour));
            cairo_fill(cr);
            tx += 1.3 * tfs;
        }
        c.set_colour({0, 0, 0});
        c.text(e.text, tx, e.y + 0.75 * tfs, tfs, HAlign::Left, VAlign::Middle);
    }
    c.finish();
}

}  // namespace tessera::plot

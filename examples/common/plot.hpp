// Pictures of the applications and tools, drawn with Cairo: a map of observations and a gridded
// field (draw_map: the applications' --map) and a per-worker Gantt chart of a run (draw_gantt: the
// tools' --gantt). StarPU-free; library tessera_plot (examples/CMakeLists.txt).
//
// Output: PNG (Cairo's PNG writer) or SVG (Cairo's SVG surface, document unit px), chosen by the
// path's extension, case-insensitive: ".png" or ".svg". Sizes are in pixels, in [64, 16384] each.
// Every input is checked before the file is opened; a failure while writing (a directory that does
// not exist, a full disk) throws tessera::Error naming the path and Cairo's status, and leaves no
// partial file behind.
#pragma once

#include <string>
#include <vector>

namespace tessera::plot {

/// Values on a regular lon/lat grid: nx columns from lon_min to lon_max (degrees), ny rows from
/// lat_min (row 0) to lat_max (degrees); values[row * nx + col] in the data's unit; NaN (or any
/// non-finite value) = no value (not drawn). Cell (row, col) covers longitudes
/// [lon_min + col·Δlon, lon_min + (col+1)·Δlon], Δlon = (lon_max − lon_min)/nx, and latitudes
/// [lat_min + row·Δlat, lat_min + (row+1)·Δlat], Δlat = (lat_max − lat_min)/ny; its value is the
/// field at the cell's centre (cell_lon(col), cell_lat(row)).
///
/// A grid across the antimeridian has lon_max < lon_min (e.g. 170 to −170: 20° eastwards through
/// 180°): it is drawn as lon_min to lon_max + 360, ticks labelled in [−180°, 180°], and points are
/// placed by their longitude modulo 360. lat_min < lat_max is required, lon_min == lon_max is not
/// allowed, and a span of more than 360° of longitude is refused.
struct Grid {
    double lon_min = 0, lon_max = 0, lat_min = 0, lat_max = 0;  ///< degrees
    int nx = 0, ny = 0;                                          ///< columns (longitude), rows (latitude)
    std::vector<double> values;                                  ///< ny × nx, row-major, row 0 at lat_min

    /// Longitude of column col's centre (degrees; beyond 180 for a grid across the antimeridian).
    double cell_lon(int col) const { return lon_min + (col + 0.5) * lon_span() / nx; }
    /// Latitude of row row's centre (degrees).
    double cell_lat(int row) const { return lat_min + (row + 0.5) * (lat_max - lat_min) / ny; }
    /// Eastward span of the columns in degrees: lon_max − lon_min, + 360 across the antimeridian.
    double lon_span() const { return lon_max >= lon_min ? lon_max - lon_min : lon_max + 360.0 - lon_min; }
};

/// An observation: position in degrees (longitude east, latitude north) and its value (the data's
/// unit). A point with a non-finite coordinate or value is not drawn.
struct Point {
    double lon_deg = 0, lat_deg = 0, value = 0;
};

/// One map panel: a gridded field with its own colour scale and colour bar. The colour scale runs
/// from the field's smallest to its largest finite value; points are coloured on that scale,
/// clamped to its ends. A constant field (min == max) is drawn in the colour map's middle colour
/// with one tick on its bar. colour_label names the quantity and unit, e.g. "elevation (m)".
struct MapPanel {
    std::string title;         ///< above the panel
    std::string colour_label;  ///< beside the colour bar
    Grid grid;
    bool show_points = true;   ///< draw the observations on this panel
};

/// Draw 1 or 2 panels into `path` (.png or .svg), width × height pixels, `title` above them: two
/// panels side by side, or one above the other when that draws them over 5% larger (wide maps in a
/// wide picture, e.g. two world maps at 1200 × 700). Each panel is an equirectangular lon/lat plot (one degree of longitude as wide as one
/// of latitude is tall) with axes ticked in degrees, the field as filled cells in a perceptually
/// uniform colour map (viridis), a colour bar with its label and min/max ticks, and, when
/// show_points, the observations as small dots coloured on the same scale with a thin dark outline
/// (points outside the grid's extent are clipped).
/// Throws tessera::Error for: an unknown extension; a size outside [64, 16384]; no panel or more
/// than 2; an empty or inconsistent grid (nx or ny < 1, values.size() != nx·ny, non-finite or empty
/// extent); a grid with no finite value; a Cairo failure (the message names the path and
/// cairo_status_to_string).
void draw_map(const std::string& path, int width, int height, const std::vector<MapPanel>& panels,
              const std::vector<Point>& points, const std::string& title);

/// A task bar on a lane (a worker): start and end in seconds from the run's start; label = the
/// codelet name (bars with the same label share a colour; a legend lists the labels).
struct GanttBar {
    int lane = 0;  ///< index into draw_gantt's lanes
    double start_s = 0, end_s = 0;
    std::string label;
};

/// Draw a Gantt chart into `path` (.png or .svg), width × height pixels: one horizontal lane per
/// entry of `lanes` (worker names, top to bottom), the bars, a time axis in seconds from
/// min(0, earliest start) to the latest end, a legend of the labels (ordered by total busy time,
/// largest first; the 10 largest in distinct colours), `title` above. Bars are drawn one path per
/// label, with no per-bar text, so tens of thousands draw in milliseconds; a bar shorter than a pixel
/// is drawn one pixel wide so that it shows. `bars` may be empty.
/// Throws tessera::Error for: an unknown extension; a size outside [64, 16384]; no lanes; a bar on
/// a lane out of range, with a non-finite time or with end < start; a Cairo failure (the message
/// names the path and cairo_status_to_string).
void draw_gantt(const std::string& path, int width, int height, const std::vector<std::string>& lanes,
                const std::vector<GanttBar>& bars, const std::string& title);

}  // namespace tessera::plot

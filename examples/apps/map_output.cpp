// The applications' --map (map_output.hpp).
#include "examples/apps/map_output.hpp"

#include <algorithm>

#include "examples/common/plot.hpp"

namespace tessera::apps {

namespace {

/// The plot's grid of `g` with `values`: longitudes beyond 180 (data across the antimeridian, see
/// prediction_grid) become the plot's lon_max < lon_min form.
plot::Grid plot_grid(const PredictionGrid& g, std::vector<double> values) {
    plot::Grid p;
    p.lon_min = g.lon_min > 180 ? g.lon_min - 360 : g.lon_min;
    p.lon_max = g.lon_max > 180 ? g.lon_max - 360 : g.lon_max;
    p.lat_min = g.lat_min, p.lat_max = g.lat_max;
    p.nx = int(g.nx), p.ny = int(g.ny);
    p.values = std::move(values);
    return p;
}

}  // namespace

int64_t draw_prediction_map(const std::string& path, bool draw, const std::vector<Point>& train,
                            const ChunkPredictor& predict, bool with_sd, const std::string& value_label,
                            const std::string& title) {
    const PredictionGrid grid = prediction_grid(train);
    const size_t cells = grid.where.size();
    std::vector<double> mean(cells), sd(with_sd ? cells : 0);
    predict_in_chunks(grid.where, with_sd, predict,
                      [&](size_t first, const std::vector<Location>&, const std::vector<double>& m,
                          const std::vector<double>& s) {
                          std::copy(m.begin(), m.end(), mean.begin() + std::ptrdiff_t(first));
                          if (with_sd) std::copy(s.begin(), s.end(), sd.begin() + std::ptrdiff_t(first));
                      });
    if (!draw) return int64_t(cells);
    std::vector<plot::MapPanel> panels;
    panels.push_back({"prediction", value_label, plot_grid(grid, std::move(mean)), true});
    if (with_sd) panels.push_back({"predictive standard deviation", value_label, plot_grid(grid, std::move(sd)), false});
    std::vector<plot::Point> points;
    points.reserve(train.size());
    for (const Point& p : train) points.push_back({p.lon_deg, p.lat_deg, p.value});
    plot::draw_map(path, kMapWidth, kMapHeight, panels, points, title);
    return int64_t(cells);
}

}  // namespace tessera::apps

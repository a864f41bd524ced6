// The applications' --map FILE.png|svg: the model's prediction (and, for kriging, its standard
// deviation) on a regular lon/lat grid over the data, with the training points on top.
#pragma once

#include <cstdint>
#include <string>

#include "examples/apps/predict_io.hpp"

namespace tessera::apps {

/// Size of the map picture, pixels.
constexpr int kMapWidth = 1200, kMapHeight = 700;

/// Predict with `predict` at the cells of prediction_grid(train) (160 × 100 cells over the data's
/// bounding box plus 5%, in chunks of at most kPredictChunk locations) and, when `draw`, draw
/// them into `path` (.png or .svg, kMapWidth × kMapHeight pixels): one panel of the prediction in
/// `value_label`'s unit with the training points coloured on its scale, and, when `with_sd`, a
/// second panel of the standard deviation. Every MPI rank calls it when `predict` is collective;
/// only the rank with `draw` writes. Returns the number of grid cells predicted. Throws
/// tessera::Error for a bad extension or an unwritable file, and what `predict` throws.
int64_t draw_prediction_map(const std::string& path, bool draw, const std::vector<Point>& train,
                            const ChunkPredictor& predict, bool with_sd, const std::string& value_label,
                            const std::string& title);

}  // namespace tessera::apps

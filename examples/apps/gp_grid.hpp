// The hyperparameter grid of gp_kriging: the length scales (km) and nugget ratios τ²/σ² whose
// log-likelihood it compares. Derived from the data's spacing unless given on the command line, then
// refined around the best point. Header-only, StarPU-free (unit-tested in tests/test_point_data.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::apps {

/// `count` length scales (km) in geometric progression from `shortest` to `longest` (both > 0);
/// `longest` is raised to 2·shortest when it is not above that (data too compact to span a range).
inline std::vector<double> geometric_length_scales(double shortest, double longest, int count = 4) {
    longest = std::max(longest, 2.0 * shortest);
    std::vector<double> ells;
    for (int k = 0; k < count; ++k)
        ells.push_back(count == 1 ? shortest : shortest * std::pow(longest / shortest, double(k) / double(count - 1)));
    return ells;
}

/// The default grid's length scales from the data's spacing: 4 in geometric progression from the
/// median nearest-neighbour distance d_nn to half the typical distance D between two points (km),
/// the range over which a covariance can tell the points apart.
inline std::vector<double> derived_length_scales(double d_nn_km, double typical_km) {
    return geometric_length_scales(d_nn_km, typical_km / 2, 4);
}

/// The default grid's nugget ratios τ²/σ².
inline std::vector<double> derived_ratios() { return {0.01, 0.1}; }

/// The two length scales that refine the search around `best` of the sorted geometric grid `ells`:
/// the geometric midpoints between `best` and its neighbours; at an end of the grid, the midpoint
/// inside and one half step (in the logarithm) beyond the end. A one-point grid gives best/2, best·2.
inline std::vector<double> refined_length_scales(const std::vector<double>& ells, double best) {
    const auto it = std::find(ells.begin(), ells.end(), best);
    const size_t i = size_t(it - ells.begin());
    if (ells.size() < 2 || it == ells.end()) return {best / 2, best * 2};
    const double half_step = std::sqrt(i + 1 < ells.size() ? ells[i + 1] / best : best / ells[i - 1]);
    const double below = i > 0 ? std::sqrt(ells[i - 1] * best) : best / half_step;
    const double above = i + 1 < ells.size() ? std::sqrt(best * ells[i + 1]) : best * half_step;
    return {below, above};
}

/// The nugget ratio one decade beyond `best` when it is the largest or the smallest of `ratios`
/// (best·10, or best/10), or a negative value when there is nothing to extend: `best` inside the
/// grid, or the smallest and 0. A grid of one ratio extends upward (0 to 0.001).
inline double extended_ratio(const std::vector<double>& ratios, double best) {
    const double lo = *std::min_element(ratios.begin(), ratios.end());
    const double hi = *std::max_element(ratios.begin(), ratios.end());
    if (best == hi) return best > 0 ? best * 10 : 0.001;
    if (best == lo) return best > 0 ? best / 10 : -1.0;
    return -1.0;
}

}  // namespace tessera::apps

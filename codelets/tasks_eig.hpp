// Typed task insertion for the eigensolvers (tessera/eig.hpp). Each function submits one StarPU task.
#pragma once

#include <memory>
#include <vector>

#include "codelets/tasks.hpp"
#include "kernels/cpu/band_tridiag.hpp"

namespace tessera::tasks {

/// Z = Q2·Z on one tile column of Z (its tiles top to bottom, RW; n rows in all), Q2 the reflectors
/// of the band-to-tridiagonal stage (cpu::BandReflectors::apply_left; CPU only). The task holds q2
/// until it has run.
template <class T>
void apply_band_reflectors(std::shared_ptr<const cpu::BandReflectors<T>> q2, const std::vector<TileHandle>& column,
                           int prio = 0);

}  // namespace tessera::tasks

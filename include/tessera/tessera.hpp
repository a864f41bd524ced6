// Tessera: dense linear algebra as StarPU task graphs. Include this header to get the whole API.
#pragma once

#include "tessera/types.hpp"
#include "tessera/runtime.hpp"
#include "tessera/trace.hpp"
#include "tessera/tile_matrix.hpp"
#include "tessera/tuning.hpp"
#include "tessera/algorithms.hpp"

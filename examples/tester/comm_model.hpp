// Model communication volume of the distributed tile algorithms on a P×Q block-cyclic grid, for
// tessera-tester --comm: what owner-computes with StarPU-MPI's cache must send, so that measured
// traffic above it is visible.
#pragma once

#include <optional>
#include <string>

#include "examples/tester/tester.hpp"

namespace tessera::tester {

/// Bytes all ranks together must send for operation `op` with parameters `p` on grid `grid`
/// (elements of `elem_bytes` bytes): every tile an algorithm step reads is sent once to each other
/// rank that owns a tile it updates (e.g. Cholesky: a panel tile to the owners of its row and
/// column of the trailing matrix). Nothing when the model does not cover `op`.
std::optional<double> model_bytes_sent(const std::string& op, const Params& p, Distribution grid, size_t elem_bytes);

}  // namespace tessera::tester

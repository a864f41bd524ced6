// Rank devices: which OpenCL devices an MPI rank drives when several ranks share a node. Each rank
// takes its share of the node's devices by its node-local rank, so that users need not script
// STARPU_WORKERS_OPENCLID per rank. Internal: not installed.
#pragma once

#include <starpu.h>

#include <string>
#include <vector>

namespace tessera::detail {

/// This process's rank among the ranks of its node and their number, from the launcher's
/// environment: OpenMPI's OMPI_COMM_WORLD_LOCAL_RANK / OMPI_COMM_WORLD_LOCAL_SIZE, else MPICH's
/// MPI_LOCALRANKID / MPI_LOCALNRANKS; {-1, 0} when neither is set.
struct LocalRank {
    int rank = -1, size = 0;
};
LocalRank local_rank_from_environment();

/// The device ids (StarPU's OpenCL device numbering) of node-local rank r among s ranks on a node
/// with g devices: g >= s: the contiguous share [r·g/s, (r+1)·g/s) (every device used, shares
/// differ by one at most); g < s: device r mod g (ranks share devices). Empty for g = 0 or r < 0.
std::vector<int> rank_devices(int r, int s, int g);

/// Called by the Runtime before starpu_init: when it will run distributed, two or more ranks share
/// the node (local_rank_from_environment), the node has OpenCL devices (`devices`, as StarPU will
/// number them), and neither STARPU_NOPENCL nor STARPU_WORKERS_OPENCLID is set nor
/// TESSERA_RANK_DEVICES=0, sets `conf` so that this rank drives rank_devices() only. Returns the
/// line --describe shows ("local rank 1 of 2: OpenCL devices 1", or why nothing was set). Throws
/// tessera::Error naming TESSERA_RANK_DEVICES for a value other than 0 or 1.
std::string assign_rank_devices(starpu_conf& conf, bool distributed, int devices);

}  // namespace tessera::detail

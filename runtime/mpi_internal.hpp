// Distributed memory through StarPU-MPI: start and stop, rank and grid, data registration, tags,
// and the agreements a collective wait needs. Internal: not installed. In one process every
// function here is a no-op or answers for rank 0 of 1, so callers need no branches of their own.
#pragma once

#include <starpu.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/runtime.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// Whether `mode` asks for a distributed runtime in this process (MpiMode::Auto: launched by an
/// MPI launcher, or MPI already initialized).
bool mpi_wanted(MpiMode mode);
/// Start StarPU with `conf`: through starpu_mpi_init_conf when `distributed` (initializing MPI
/// with MPI_THREAD_MULTIPLE first if nobody has), else starpu_init. Resolves the runtime's grid
/// from `grid` (RuntimeConfig::grid). Throws Error naming the problem (StarPU's return code, a
/// grid that does not match the ranks, MPI without thread support); StarPU is then not running.
void start_starpu(starpu_conf& conf, bool distributed, Distribution grid);
/// Wait for every task and, when distributed, every communication of every rank (collective).
void wait_for_all() noexcept;
/// Called by a Runtime that is being destroyed by an exception: distributed over several ranks,
/// the others may be waiting for this one's tiles, and nothing can reach them any more; print why
/// and end every rank (MPI_Abort, exit code 1) instead of leaving them hanging. Otherwise nothing.
void abort_other_ranks_on_exception() noexcept;
/// Stop what start_starpu started (starpu_mpi_shutdown, then starpu_shutdown).
void stop_starpu() noexcept;

bool distributed();   ///< StarPU-MPI is running
int rank();           ///< MPI rank (0 in one process)
int ranks();          ///< number of ranks (1 in one process)
Distribution grid();  ///< the runtime's grid (1×1 in one process)
/// `dist` with p = q = 0 replaced by the runtime's grid; throws Error naming `func` when its P·Q is
/// not the number of ranks.
Distribution resolve(Distribution dist, const char* func);

/// Throw Error naming `func` when the runtime is distributed: for the operations not distributed
/// yet (LU with partial pivoting and its solves), which must never give a wrong answer.
void require_one_process(const char* func);

/// Register `h` with StarPU-MPI as owned by rank `owner`, under a new tag; in one process nothing.
/// Every rank registers the same handles in the same order (tags are counted, not exchanged).
void mpi_register(TileHandle h, int owner);
/// Forget the copies of `h` other ranks received (starpu_mpi_cache_flush): the memory goes once
/// the tasks submitted on them have run. Collective; in one process nothing.
void mpi_flush(TileHandle h);

/// starpu_mpi_task_build / starpu_mpi_task_post_build of a task of `cl` on `data` with priority
/// `priority` (also the priority of its transfers): build posts the transfers of the inputs and
/// returns the task on the executing rank only (nullptr elsewhere); post_build, called next on
/// every rank with the same arguments, posts the transfers of results to their owners and updates
/// StarPU-MPI's cache.
starpu_task* mpi_task_build(starpu_codelet& cl, std::vector<starpu_data_descr>& data, int priority);
void mpi_task_post_build(starpu_codelet& cl, std::vector<starpu_data_descr>& data, int priority) noexcept;

/// Agree on a wait's outcome: every rank passes its own failure message ("" when none) and info;
/// every rank gets the message of the lowest failing rank, prefixed with that rank when it is not
/// this one, and the smallest positive info of all (0 when none). Collective; in one process it
/// returns its arguments.
std::pair<std::string, int64_t> mpi_agree(const std::string& failure, int64_t info);

/// The largest `value` of all ranks (collective; `value` in one process).
int max_over_ranks(int value);

/// The element-wise sums of `values` over all ranks (collective; `values` in one process).
std::vector<double> sum_over_ranks(std::vector<double> values);

/// Bytes each rank has sent so far, indexed by rank (StarPU-MPI's statistics; zeros without
/// STARPU_COMM_STATS=1). Collective.
std::vector<size_t> mpi_bytes_sent();

}  // namespace tessera::detail

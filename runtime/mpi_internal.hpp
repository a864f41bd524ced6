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
/// yet (gesv_async), which must never give a wrong answer.
void require_one_process(const char* func);

/// Register `h` with StarPU-MPI as owned by rank `owner`, under a new tag; in one process nothing.
/// Every rank registers the same handles in the same order (tags are counted, not exchanged).
void mpi_register(TileHandle h, int owner);
/// Send `h` from its owner to every other rank (starpu_mpi_get_data_on_all_nodes_detached), once
/// the tasks submitted on it before have run: each rank's copy (its home memory, for a handle
/// registered over memory) then holds the owner's value, and the calling thread's sequence waits
/// for it (Sequence::wait returns once it is there). Collective; in one process nothing.
void mpi_copy_to_every_rank(TileHandle h);
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

/// Start MPI (MPI_THREAD_MULTIPLE, finalized at exit) when this process was launched as an MPI
/// rank (mpi_wanted(MpiMode::Auto)), before any Runtime, so that the ranks can compare their
/// requests (compare_with_rank0) before they decide whether to start one. Returns whether MPI is
/// up. Throws Error when MPI lacks thread support (as a Runtime would).
bool start_mpi_if_launched();
/// This process's rank in MPI_COMM_WORLD and their number, with or without a Runtime, once MPI is
/// up (0 and 1 without MPI).
int world_rank();
int world_size();

/// How the ranks' texts differ from rank 0's: `rank` -1 when every rank has rank 0's text; else
/// the lowest rank that differs, how many ranks differ, and the first `shown` bytes of that rank's
/// text and of rank 0's.
struct RankDifference {
    int rank = -1, ranks = 0;
    std::string text, root_text;
};
/// Compare `text` (a command line, a resolved parameter) with rank 0's by a 64-bit digest
/// broadcast from rank 0. Collective over every rank (the Runtime's communicator when one runs,
/// else MPI_COMM_WORLD); without MPI, or on one rank, every rank agrees.
RankDifference compare_with_rank0(const std::string& text, size_t shown = 200);
/// Agree on a failure before the work: every rank passes its own message ("" when none) and gets
/// the lowest failing rank and its message, or {-1, ""} when no rank failed. Collective like
/// compare_with_rank0; without MPI it returns {0, failure} or {-1, ""}.
std::pair<int, std::string> lowest_failure(const std::string& failure);
/// Rank 0's `value` on every rank (collective like compare_with_rank0; `value` without MPI).
int broadcast_from_rank0(int value);
/// End every rank with exit code `code` (MPI_Abort when MPI is up, else _Exit), after flushing
/// stdout and stderr. For an exception that leaves one rank's work while the others may wait
/// for its tiles.
[[noreturn]] void abort_ranks(int code) noexcept;

/// The largest `value` of all ranks (collective; `value` in one process).
int max_over_ranks(int value);

/// The element-wise sums of `values` over all ranks (collective; `values` in one process).
std::vector<double> sum_over_ranks(std::vector<double> values);

/// Every rank's `text`, in rank order, on rank 0 (MPI_Gather of the lengths, then MPI_Gatherv, on
/// the runtime's communicator); the other ranks get an empty vector. For reports each rank makes of
/// itself that rank 0 alone prints (tessera-tester --profile). Each text is cut to INT_MAX / ranks
/// bytes (MPI counts are ints). Collective; {text} in one process.
std::vector<std::string> gather_to_rank0(const std::string& text);

/// Bytes each rank has sent so far, indexed by rank (StarPU-MPI's statistics; zeros without
/// STARPU_COMM_STATS=1). Collective.
std::vector<size_t> mpi_bytes_sent();

}  // namespace tessera::detail

// Distributed memory through StarPU-MPI: the runtime's start and stop, its ranks and process grid,
// the tags under which every rank registers the same handles, and the collective agreements of a
// wait. Everything that talks to MPI is here; in one process none of it touches MPI.
#include "runtime/mpi_internal.hpp"

#include <mpi.h>
#include <starpu_mpi.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>

#include "runtime/sequence_internal.hpp"

namespace tessera::detail {

namespace {

struct MpiState {
    bool on = false;
    int rank = 0, size = 1;
    Distribution grid{1, 1};
    MPI_Comm comm = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD for Tessera's own collectives
    int64_t next_tag = 1;           // the same sequence on every rank (SPMD registration order)
};
MpiState g_mpi;

bool env_set(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}

void finalize_at_exit() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

// MPI with the thread support StarPU-MPI's progress thread and our waits need together.
void init_mpi() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = 0;
    if (!initialized) {
        if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            throw Error("tessera::Runtime: MPI_Init_thread failed");
        std::atexit(finalize_at_exit);  // after the last Runtime: MPI cannot start twice in a process
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_MULTIPLE)
        throw Error("tessera::Runtime: MPI provides thread level " + std::to_string(provided) +
                    ", a distributed runtime needs MPI_THREAD_MULTIPLE (StarPU-MPI's thread and the "
                    "application's waits both call MPI)");
}

// The P×Q grid for `ranks`: P·Q = ranks, P ≤ Q, P as large as possible.
Distribution default_grid(int ranks) {
    int p = 1;
    for (int d = 1; d * d <= ranks; ++d)
        if (ranks % d == 0) p = d;
    return {p, ranks / p};
}

}  // namespace

bool mpi_wanted(MpiMode mode) {
    if (mode != MpiMode::Auto) return mode == MpiMode::On;
    // The environment mpirun (OpenMPI), mpiexec.hydra (MPICH) and srun/PMIx give every rank.
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (env_set(v)) return true;
    int initialized = 0;
    MPI_Initialized(&initialized);
    return initialized != 0;
}

// Why starpu_init returned `ret` (a negative errno), as the end of a one-line message.
static std::string init_failure(int ret) {
    if (ret == -ENODEV)
        return " (-ENODEV): no worker to run tasks (STARPU_NCPU=0 and no OpenCL device? see STARPU_NCPU, "
               "STARPU_NOPENCL, STARPU_WORKERS_CPUID)";
    return " (" + std::to_string(ret) + (ret < 0 ? std::string(": ") + std::strerror(-ret) : std::string()) + ")";
}

void start_starpu(starpu_conf& conf, bool distributed, Distribution grid) {
    if (!distributed) {
        if (grid.ranks() > 1)
            throw Error("tessera::Runtime: grid " + std::to_string(grid.p) + "x" + std::to_string(grid.q) +
                        " needs " + std::to_string(grid.ranks()) + " MPI ranks; this runtime is not distributed "
                        "(launch with mpirun, or RuntimeConfig::mpi = MpiMode::On)");
        const int ret = starpu_init(&conf);
        if (ret != 0) throw Error("tessera::Runtime: starpu_init failed" + init_failure(ret));
        g_mpi = MpiState{};
        return;
    }
    init_mpi();
    MpiState s;
    s.on = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.size);
    s.grid = grid.p == 0 && grid.q == 0 ? default_grid(s.size) : grid;
    if (s.grid.p < 1 || s.grid.q < 1 || s.grid.ranks() != s.size)
        throw Error("tessera::Runtime: grid " + std::to_string(grid.p) + "x" + std::to_string(grid.q) +
                    " does not match the " + std::to_string(s.size) + " MPI ranks (P·Q must equal the ranks)");
    const int ret = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, &conf);
    if (ret != 0) throw Error("tessera::Runtime: starpu_mpi_init_conf failed" + init_failure(ret));
    MPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
    g_mpi = s;
}

void wait_for_all() noexcept {
    if (g_mpi.on) starpu_mpi_wait_for_all(MPI_COMM_WORLD);
    else starpu_task_wait_for_all();
}

void abort_other_ranks_on_exception() noexcept {
    if (!g_mpi.on || g_mpi.size == 1) return;
    std::fprintf(stderr,
                 "tessera: MPI rank %d leaves its Runtime by an exception while the other ranks may be waiting for "
                 "its tiles: aborting all %d ranks (MPI_Abort)\n",
                 g_mpi.rank, g_mpi.size);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

void stop_starpu() noexcept {
    if (g_mpi.on) {
        MPI_Comm_free(&g_mpi.comm);
        starpu_mpi_shutdown();  // also shuts StarPU down: starpu_mpi_init_conf started it
    } else {
        starpu_shutdown();
    }
    g_mpi = MpiState{};
}

bool distributed() { return g_mpi.on; }
int rank() { return g_mpi.rank; }
int ranks() { return g_mpi.size; }
Distribution grid() { return g_mpi.grid; }

Distribution resolve(Distribution dist, const char* func) {
    if (dist.p == 0 && dist.q == 0) return g_mpi.grid;
    check_arg(dist.p >= 1, func, "p", dist.p, "must be >= 1 (the process grid's rows)");
    check_arg(dist.q >= 1, func, "q", dist.q, "must be >= 1 (the process grid's columns)");
    if (dist.ranks() != g_mpi.size)
        throw Error(std::string("tessera::") + func + ": grid " + std::to_string(dist.p) + "x" +
                    std::to_string(dist.q) + " needs " + std::to_string(dist.ranks()) + " MPI ranks, the runtime has " +
                    std::to_string(g_mpi.size));
    return dist;
}

void require_one_process(const char* func) {
    if (g_mpi.on)
        throw Error(std::string("tessera::") + func + ": not available on a distributed runtime yet (" +
                    std::to_string(g_mpi.size) + " MPI ranks); distributed are gemm, trsm, trmm, syrk, potrf, potrs, "
                    "posv, getrf, getrs, gesv, getrf_nopiv, getrf_incpiv and their solves, geqrf, unmqr, ungqr and gels "
                    "(docs/distributed.md)");
}

void mpi_register(TileHandle h, int owner) {
    if (!g_mpi.on) return;
    starpu_mpi_data_register(h, g_mpi.next_tag++, owner);
}

namespace {
// A copy's arrival on this rank, counted as one of its sequence's tasks.
struct Arrival {
    TileHandle h;
    std::shared_ptr<TaskGroup> group;
};
void arrived(void* arg) {
    std::unique_ptr<Arrival> a(static_cast<Arrival*>(arg));
    starpu_data_release(a->h);
    a->group->task_finished();
}
}  // namespace

void mpi_copy_to_every_rank(TileHandle h) {
    if (!g_mpi.on) return;
    starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, h);
    // The submitting sequence's wait also waits for the copy to reach this rank: an acquire of h
    // follows the detached receive (StarPU orders accesses to a handle) and counts as a task of the
    // sequence until it is granted. Without it a rank could leave getrf's wait with some pivots
    // still in flight.
    auto a = std::make_unique<Arrival>(Arrival{h, current_group()});
    a->group->task_submitted();
    Arrival* raw = a.release();
    if (starpu_data_acquire_cb(h, STARPU_R, arrived, raw) != 0) {
        raw->group->task_finished();
        delete raw;
        throw Error("tessera: starpu_data_acquire_cb refused a copy to every rank");
    }
}

void mpi_flush(TileHandle h) {
    if (g_mpi.on) starpu_mpi_cache_flush(MPI_COMM_WORLD, h);
}

starpu_task* mpi_task_build(starpu_codelet& cl, std::vector<starpu_data_descr>& data, int priority) {
    return starpu_mpi_task_build(MPI_COMM_WORLD, &cl, STARPU_DATA_MODE_ARRAY, data.data(), int(data.size()),
                                 STARPU_PRIORITY, priority, 0);
}

void mpi_task_post_build(starpu_codelet& cl, std::vector<starpu_data_descr>& data, int priority) noexcept {
    starpu_mpi_task_post_build(MPI_COMM_WORLD, &cl, STARPU_DATA_MODE_ARRAY, data.data(), int(data.size()),
                               STARPU_PRIORITY, priority, 0);
}

namespace {

// The communicator of Tessera's own collectives: the running runtime's duplicate, else (before a
// Runtime, MPI started by start_mpi_if_launched) MPI_COMM_WORLD; MPI_COMM_NULL without MPI.
MPI_Comm agreement_comm() {
    if (g_mpi.on) return g_mpi.comm;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized ? MPI_COMM_WORLD : MPI_COMM_NULL;
}

// The lowest rank of `comm` whose `mine` is true (INT_MAX when none), and how many are. Collective.
std::pair<int, int> lowest_rank_where(bool mine, MPI_Comm comm, int rank) {
    int lowest = mine ? rank : INT_MAX, count = mine ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_SUM, comm);
    return {lowest, count};
}

// `text` of rank `root`, on every rank (at most `limit` bytes of it). Collective.
std::string broadcast_text(const std::string& text, int root, MPI_Comm comm, int rank, size_t limit) {
    int length = rank == root ? int(std::min(text.size(), limit)) : 0;
    MPI_Bcast(&length, 1, MPI_INT, root, comm);
    std::string out = rank == root ? text.substr(0, size_t(length)) : std::string(size_t(length), '\0');
    MPI_Bcast(out.data(), length, MPI_CHAR, root, comm);
    return out;
}

// FNV-1a, 64 bits: the digest ranks compare instead of whole texts.
uint64_t digest(const std::string& text) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h ^ text.size();
}

}  // namespace

std::pair<std::string, int64_t> mpi_agree(const std::string& failure, int64_t info) {
    if (!g_mpi.on) return {failure, info};
    int64_t first_info = info > 0 ? info : std::numeric_limits<int64_t>::max();
    MPI_Allreduce(MPI_IN_PLACE, &first_info, 1, MPI_INT64_T, MPI_MIN, g_mpi.comm);
    const int failing = lowest_rank_where(!failure.empty(), g_mpi.comm, g_mpi.rank).first;
    std::string message;
    if (failing != INT_MAX) {
        message = broadcast_text(failure, failing, g_mpi.comm, g_mpi.rank, std::numeric_limits<int>::max());
        if (failing != g_mpi.rank) message = "tessera: on MPI rank " + std::to_string(failing) + ": " + message;
    }
    return {message, first_info == std::numeric_limits<int64_t>::max() ? 0 : first_info};
}

bool start_mpi_if_launched() {
    if (!mpi_wanted(MpiMode::Auto)) return false;
    init_mpi();
    return true;
}

int world_rank() {
    const MPI_Comm comm = agreement_comm();
    int rank = 0;
    if (comm != MPI_COMM_NULL) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int world_size() {
    const MPI_Comm comm = agreement_comm();
    int size = 1;
    if (comm != MPI_COMM_NULL) MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

RankDifference compare_with_rank0(const std::string& text, size_t shown) {
    RankDifference d;
    const MPI_Comm comm = agreement_comm();
    if (comm == MPI_COMM_NULL) return d;
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1) return d;
    unsigned long long root_digest = digest(text);
    MPI_Bcast(&root_digest, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
    const auto [lowest, count] = lowest_rank_where(root_digest != digest(text), comm, rank);
    if (count == 0) return d;
    d.rank = lowest;
    d.ranks = count;
    d.text = broadcast_text(text, lowest, comm, rank, shown);
    d.root_text = broadcast_text(text, 0, comm, rank, shown);
    return d;
}

std::pair<int, std::string> lowest_failure(const std::string& failure) {
    const MPI_Comm comm = agreement_comm();
    if (comm == MPI_COMM_NULL) return {failure.empty() ? -1 : 0, failure};
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const int failing = lowest_rank_where(!failure.empty(), comm, rank).first;
    if (failing == INT_MAX) return {-1, ""};
    return {failing, broadcast_text(failure, failing, comm, rank, std::numeric_limits<int>::max())};
}

int broadcast_from_rank0(int value) {
    const MPI_Comm comm = agreement_comm();
    if (comm != MPI_COMM_NULL) MPI_Bcast(&value, 1, MPI_INT, 0, comm);
    return value;
}

void abort_ranks(int code) noexcept {
    std::fflush(stdout);
    std::fflush(stderr);
    if (agreement_comm() != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

int max_over_ranks(int value) {
    if (g_mpi.on) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, g_mpi.comm);
    return value;
}

std::vector<double> sum_over_ranks(std::vector<double> values) {
    if (g_mpi.on) MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_SUM, g_mpi.comm);
    return values;
}

std::vector<std::string> gather_to_rank0(const std::string& text) {
    if (!g_mpi.on) return {text};
    const bool root = g_mpi.rank == 0;
    int length = int(std::min(text.size(), size_t(std::numeric_limits<int>::max() / g_mpi.size)));
    std::vector<int> lengths(root ? size_t(g_mpi.size) : 0), offsets(lengths.size(), 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, g_mpi.comm);
    for (size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
    std::string all(root ? size_t(offsets.back() + lengths.back()) : 0, '\0');
    MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, g_mpi.comm);
    std::vector<std::string> texts;
    for (size_t r = 0; r < lengths.size(); ++r) texts.push_back(all.substr(size_t(offsets[r]), size_t(lengths[r])));
    return texts;
}

std::vector<size_t> mpi_bytes_sent() {
    if (!g_mpi.on) return {0};
    std::vector<unsigned long long> by_rank(size_t(g_mpi.size), 0);
    std::vector<size_t> to(size_t(g_mpi.size), 0);
    starpu_mpi_comm_amounts_retrieve(to.data());
    unsigned long long mine = 0;
    for (size_t b : to) mine += b;
    MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, by_rank.data(), 1, MPI_UNSIGNED_LONG_LONG, g_mpi.comm);
    return {by_rank.begin(), by_rank.end()};
}

}  // namespace tessera::detail

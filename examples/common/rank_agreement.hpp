// Under mpirun every rank runs the same command (SPMD, docs/distributed.md): the ranks of a tool
// compare their command lines, and the values each resolves for itself, with rank 0's before any
// work, and refuse together (exit 2 on every rank, one line from rank 0) when they differ, instead
// of hanging in or aborting out of mismatched collectives. Shared by every tool that may run
// distributed (tessera-tester, tessera-solve, the applications). Header-only.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "examples/common/tool_main.hpp"
#include "runtime/mpi_internal.hpp"
#include "tessera/types.hpp"

namespace tessera::tool {

/// Whether this process is MPI rank 0 (or not an MPI rank), with or without a Runtime.
inline bool root_rank() { return detail::world_rank() == 0; }

/// printf on MPI rank 0 only (a process without MPI is rank 0), with or without a Runtime.
__attribute__((format(printf, 1, 2))) inline void print_root(const char* format, ...) {
    if (!root_rank()) return;
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
}

/// `words` joined by spaces, each in single quotes when empty or holding a space or a quote.
inline std::string shell_words(int argc, char** argv) {
    std::string text;
    for (int i = 1; i < argc; ++i) {
        const std::string w = argv[i];
        if (i > 1) text += ' ';
        text += w.empty() || w.find_first_of(" \t'\"") != std::string::npos ? "'" + w + "'" : w;
    }
    return text;
}

/// Compare `text` with rank 0's; when some rank differs, rank 0 prints "prog: the MPI ranks
/// <disagree>: rank R <what> 'its text', rank 0 'rank 0's text' (N of M ranks differ; <hint>)"
/// and every rank gets kRefused. Collective; nothing without MPI or on one rank.
inline std::optional<int> refuse_unless_ranks_agree(const char* prog, const std::string& text, const char* disagree,
                                                    const char* what, const char* hint) {
    const detail::RankDifference d = detail::compare_with_rank0(text);
    if (d.rank < 0) return std::nullopt;
    if (root_rank())
        std::fprintf(stderr, "%s: the MPI ranks %s: rank %d %s '%s', rank 0 '%s' (%d of %d ranks differ; %s)\n", prog,
                     disagree, d.rank, what, d.text.c_str(), d.root_text.c_str(), d.ranks, detail::world_size(), hint);
    return kRefused;
}

/// First thing in a tool's main under mpirun: start MPI and refuse, on every rank with kRefused
/// (one line from rank 0), unless every rank got rank 0's command line (program and arguments,
/// compared by digest) — before the command is parsed, so that ranks that would parse it into
/// different requests, or refuse it on some ranks only, or start a Runtime on some ranks only,
/// never get that far. Nothing (std::nullopt) outside mpirun. Never throws: a failure to start
/// MPI is one line and kRefused.
inline std::optional<int> agree_on_command(const char* prog, int argc, char** argv) noexcept {
    try {
        if (!detail::start_mpi_if_launched()) return std::nullopt;
        return refuse_unless_ranks_agree(prog, std::string(prog) + " " + shell_words(argc, argv),
                                         "run different commands", "runs",
                                         "every rank must run the same command line");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", prog, e.what());
        return kRefused;
    }
}

/// After the Runtime started, before the work: agree on the refusals of the ranks' preparation
/// (each rank passes its tessera::Error message, "" when none; per-rank ones, e.g. the host memory
/// of its node, included). When any rank refused, rank 0 prints "prog: message" (naming the rank
/// when it is another) and every rank gets kRefused, so that the Runtime ends normally everywhere.
inline std::optional<int> refuse_together(const char* prog, const std::string& failure) {
    const auto [rank, message] = detail::lowest_failure(failure);
    if (rank < 0) return std::nullopt;
    if (root_rank()) {
        if (rank == 0) std::fprintf(stderr, "%s: %s\n", prog, message.c_str());
        else std::fprintf(stderr, "%s: on MPI rank %d: %s\n", prog, rank, message.c_str());
    }
    return kRefused;
}

/// Run prepare() on every rank, catching the tessera::Error (a refusal) it throws, then
/// refuse_together.
template <class Prepare>
std::optional<int> prepare_together(const char* prog, Prepare&& prepare) {
    std::string failure;
    try {
        prepare();
    } catch (const TaskError&) {
        throw;
    } catch (const Error& e) {
        failure = e.what();
    } catch (const std::bad_alloc&) {
        failure = "out of memory: the request needs more memory than could be allocated";
    }
    return refuse_together(prog, failure);
}

/// Run body() (returning an exit code) in a Runtime's scope. Distributed over several ranks, an
/// exception that leaves body() on one rank cannot be waited for by the others: print
/// "prog: MPI rank R: message" and end every rank with guarded_main's exit code for it (kRefused
/// for tessera::Error and std::bad_alloc, kFailed for a TaskError or anything else) through
/// MPI_Abort, before the Runtime's destructor would (always with 1). In one process exceptions
/// pass through to guarded_main.
template <class Body>
int run_in_runtime(const char* prog, Body&& body) {
    try {
        return body();
    } catch (...) {
        if (detail::world_size() <= 1 || !detail::distributed()) throw;
        int code = kFailed;
        std::string what = "unknown exception";
        try {
            throw;
        } catch (const TaskError& e) {
            what = e.what();
        } catch (const Error& e) {
            what = e.what(), code = kRefused;
        } catch (const std::bad_alloc&) {
            what = "out of memory: the request needs more memory than could be allocated", code = kRefused;
        } catch (const std::exception& e) {
            what = std::string("internal error: ") + e.what();
        } catch (...) {
        }
        std::fprintf(stderr, "%s: MPI rank %d: %s (ending all %d ranks)\n", prog, detail::world_rank(), what.c_str(),
                     detail::world_size());
        detail::abort_ranks(code);
    }
}

}  // namespace tessera::tool

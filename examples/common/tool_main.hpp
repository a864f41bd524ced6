// One error discipline for the main() of every Tessera executable (docs/errors.md): no exception
// leaves main, every failure is one line on stderr, and the exit code says what kind of failure.
#pragma once

#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "tessera/types.hpp"

namespace tessera::tool {

/// Exit codes shared by the tools and applications.
enum ExitCode : int {
    kOk = 0,       ///< the work was done and checked (where the tool checks)
    kFailed = 1,   ///< the work failed: a check, LAPACK info > 0, a task or a device failed
    kRefused = 2,  ///< the request was refused before the work: invalid argument or option,
                   ///< malformed input file, more memory than the machine has
};

/// The work was done but its result could not be delivered or is not valid: an output file (--out,
/// --map, --gantt, --trace) that cannot be written after the work, a prediction that is not finite.
/// Not a refusal: guarded_main exits kFailed with "prog: message".
struct WorkFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Run `write` (which writes an output file after the work) and turn a tessera::Error it throws (the
/// writers' "PATH: cannot write the file") into WorkFailed: the work is done, so it is no refusal.
template <class Write>
decltype(auto) writing_output(Write&& write) {
    try {
        return std::forward<Write>(write)();
    } catch (const TaskError&) {
        throw;
    } catch (const Error& e) {
        throw WorkFailed(e.what());
    }
}

/// Run body() (returning an exit code) and turn any exception into "prog: message" on stderr and an
/// exit code: tessera::TaskError, WorkFailed and any other std::exception → kFailed; tessera::Error
/// (invalid argument, refused request) and std::bad_alloc → kRefused.
template <class Body>
int guarded_main(const char* prog, Body&& body) noexcept {
    try {
        return body();
    } catch (const TaskError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, e.what());
        return kFailed;
    } catch (const WorkFailed& e) {
        std::fprintf(stderr, "%s: %s\n", prog, e.what());
        return kFailed;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s: %s\n", prog, e.what());
        return kRefused;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: out of memory: the request needs more memory than could be allocated\n", prog);
        return kRefused;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", prog, e.what());
        return kFailed;
    } catch (...) {
        std::fprintf(stderr, "%s: internal error: unknown exception\n", prog);
        return kFailed;
    }
}

}  // namespace tessera::tool

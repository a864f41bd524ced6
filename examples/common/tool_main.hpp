// One error discipline for the main() of every Tessera executable (docs/errors.md): no exception
// leaves main, every failure is one line on stderr, and the exit code says what kind of failure.
#pragma once

#include <cstdio>
#include <exception>
#include <new>

#include "tessera/types.hpp"

namespace tessera::tool {

/// Exit codes shared by the tools and applications.
enum ExitCode : int {
    kOk = 0,       ///< the work was done and checked (where the tool checks)
    kFailed = 1,   ///< the work failed: a check, LAPACK info > 0, a task or a device failed
    kRefused = 2,  ///< the request was refused before the work: invalid argument or option,
                   ///< malformed input file, more memory than the machine has
};

/// Run body() (returning an exit code) and turn any exception into "prog: message" on stderr and an
/// exit code: tessera::TaskError and any other std::exception → kFailed; tessera::Error (invalid
/// argument, refused request) and std::bad_alloc → kRefused.
template <class Body>
int guarded_main(const char* prog, Body&& body) noexcept {
    try {
        return body();
    } catch (const TaskError& e) {
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

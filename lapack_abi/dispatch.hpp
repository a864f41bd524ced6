// libtessera_lapack's dispatcher: which calls of LAPACK's Fortran ABI go to Tessera, the next
// LAPACK/BLAS in the link order for the others, the process-wide Runtime, and the verbose line.
//
// A call of order n runs on Tessera when n >= its routine's threshold (kDefaultMinN in
// dispatch.cpp; TESSERA_LAPACK_MIN_N overrides every routine, TESSERA_LAPACK_MIN_N_DGESV one routine,
// the latter winning), and otherwise on the next library's symbol of the same name
// (dlsym(RTLD_NEXT, "dgesv_"), resolved once). Calls made while Tessera runs (a StarPU worker's
// tile kernel calling LAPACK, or the calling thread inside a Tessera algorithm or a fallthrough)
// always go to the next library, so that the interposer never re-enters itself.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

namespace tessera_lapack {

/// The next library's symbol `name` (e.g. "dgesv_"), resolved once per name (thread-safe); aborts with one line
/// on stderr if no library after this one defines it (LAPACK would not have linked either).
void* next_symbol(const char* name);

/// Whether a call of routine `name` (lower case, e.g. "dgesv") and order n goes to Tessera.
bool use_tessera(const char* name, int64_t n);

/// TESSERA_LAPACK_VERBOSE=1: whether to print one line per intercepted call.
bool verbose();
/// "tessera_lapack: dgesv n=600 tessera 0.153 s info=0" (where: "tessera", "next", "next (fallback)").
void report(const char* name, int64_t n, const char* where, double seconds, int info);

/// Runs f (a call into Tessera's lapack:: forms) with the process-wide Runtime started (once, on the
/// first call; destroyed at exit), one Tessera call at a time. Between calls the Runtime's workers
/// are paused and the caller's BLAS threads restored (tessera::CallerBlasThreads), so a program's
/// own BLAS calls keep their speed. Exceptions from f propagate (the wrapper falls back).
void run_on_tessera(void (*f)(void*), void* ctx);

/// Whether the process-wide Runtime has been started (and not yet shut down).
bool runtime_started();

/// Marks the calling thread as inside the interposer (Tessera or a fallthrough) while it lives.
class Reentry {
public:
    Reentry();
    ~Reentry();
    Reentry(const Reentry&) = delete;
    Reentry& operator=(const Reentry&) = delete;
    /// Whether this thread is already inside, or is one of StarPU's workers.
    static bool inside();
};

/// Calls the next library's `name` (a function of type Fn) with args, the thread marked inside.
/// Between Tessera calls the Runtime's workers are paused (run_on_tessera), so this runs at the
/// next library's own speed.
template <class Fn, class... Args>
void call_next(const char* name, Args... args) {
    const Fn fn = reinterpret_cast<Fn>(next_symbol(name));
    Reentry mark;
    fn(args...);
}

/// LAPACK's xerbla: the process's xerbla_ (the program's own, else the first library's) is told
/// that argument -info of `routine` (upper case, as LAPACK names it) is invalid.
void xerbla(const char* routine, int info);

/// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace tessera_lapack

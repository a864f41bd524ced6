// The process-wide Runtime of libtessera_lapack: started lazily by the first call that goes to
// Tessera, reused by every later one, shut down at exit; calls from several threads take turns.
//
// Between calls the Runtime is parked: a tessera::CallerBlasThreads pauses StarPU's workers (idle,
// they would spin on the cores) and gives the next library's BLAS back the caller's thread count,
// so that the program's own BLAS and small LAPACK calls run as fast as without the interposer.
//
// Shutdown: an atexit handler registered just after the Runtime has started. Handlers run in the
// reverse order of registration, so ours runs before those StarPU and its libraries registered while
// starting (and before static destructors of libraries loaded earlier, libtessera's included): the
// Runtime is destroyed while everything it uses is still alive. A program that never makes a large
// call never starts StarPU.
#include <atomic>
#include <memory>
#include <optional>

#include "lapack_abi/dispatch.hpp"
#include "tessera/runtime.hpp"

namespace tessera_lapack {

namespace {

std::mutex g_mutex;  // one Tessera call at a time; guards everything below
std::once_flag g_once;
tessera::Runtime* g_runtime = nullptr;  // deliberately leaked if the atexit handler never runs
std::optional<tessera::CallerBlasThreads> g_parked;
std::atomic<bool> g_started{false};
std::atomic<bool> g_shut_down{false};

void shutdown_at_exit() {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_parked.reset();  // workers resumed: the destructor waits for (no) tasks and stops them
    g_started = false;
    g_shut_down = true;
    try {
        delete g_runtime;
    } catch (...) {
    }
    g_runtime = nullptr;
}

void start() {
    tessera::RuntimeConfig config;
    config.profiling = false;
    g_runtime = new tessera::Runtime(config);  // throws tessera::Error if StarPU cannot start
    g_started = true;
    std::atexit(shutdown_at_exit);
}

}  // namespace

bool runtime_started() { return g_started.load(std::memory_order_acquire); }

void run_on_tessera(void (*f)(void*), void* ctx) {
    Reentry mark;  // LAPACK called on this thread inside Tessera goes to the next library
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_shut_down) throw std::runtime_error("the Runtime has already been shut down (exit in progress)");
    std::call_once(g_once, start);  // a failed start throws and is tried again by the next call
    g_parked.reset();
    struct Park {
        ~Park() { g_parked.emplace(); }
    } park;
    f(ctx);
}

}  // namespace tessera_lapack

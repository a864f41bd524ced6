// The dispatcher of libtessera_lapack: thresholds, the next library's symbols, the verbose line,
// re-entry marks and xerbla (see dispatch.hpp).
#include "lapack_abi/dispatch.hpp"

#include <dlfcn.h>
#include <starpu.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>

namespace tessera_lapack {

namespace {

// Default thresholds (order n from which a routine runs on Tessera). Below them one tile or a few
// would be the whole matrix, and the next library's multithreaded LAPACK is faster than a task graph
// (StarPU's start and per-task overheads). Routines are named without their precision letter.
struct Threshold {
    const char* routine;
    int64_t min_n;
};
constexpr Threshold kDefaultMinN[] = {
    {"potrf", 2048}, {"potrs", 4096}, {"posv", 2048},  {"getrf", 2048},
    {"getrs", 4096}, {"gesv", 2048},
    // QR: geqrf and gels by min(m, n), ormqr/unmqr by min(m, n, k), orgqr/ungqr by k
    {"geqrf", 2048}, {"ormqr", 2048}, {"unmqr", 2048}, {"orgqr", 2048}, {"ungqr", 2048}, {"gels", 2048},
    // LQ as QR: gelqf by min(m, n), ormlq/unmlq by min(m, n, k), orglq/unglq by k
    {"gelqf", 2048}, {"ormlq", 2048}, {"unmlq", 2048}, {"orglq", 2048}, {"unglq", 2048},
    // inverses (trtri, lauum, potri, getri) as the factorizations; condition estimates (gecon,
    // pocon, trcon: one or two triangular solves per estimator step) as the solves potrs / getrs
    {"trtri", 2048}, {"lauum", 2048}, {"potri", 2048}, {"getri", 2048},
    {"gecon", 4096}, {"pocon", 4096}, {"trcon", 4096},
    // xSYEVD / xHEEVD are left out (they stay on the next library unless TESSERA_LAPACK_MIN_N or
    // TESSERA_LAPACK_MIN_N_DSYEVD opts in): the two-stage heevd was slower than LAPACKE_dsyevd in
    // every measurement so far (bench/eig_vs_lapack.sh: 0.75× values only, 0.59× with vectors at
    // n = 4096 on 2 cores; 0.37–0.52× on an H200 host against its 16 cores).
    // BLAS 3, by the smallest dimension (gemm min(m, n, k), trsm/trmm/symm/hemm min(m, n),
    // syrk/herk/syr2k/her2k min(n, k))
    {"gemm", 4096},  {"trsm", 4096},  {"syrk", 4096},  {"herk", 4096},
    {"trmm", 4096},  {"symm", 4096},  {"hemm", 4096},  {"syr2k", 4096}, {"her2k", 4096},
};

int64_t parse_env(const char* var, int64_t fallback) {
    const char* v = std::getenv(var);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const long long x = std::strtoll(v, &end, 10);
    if (*end != '\0' || x < 0) {
        std::fprintf(stderr, "tessera_lapack: ignoring %s=%s (not a non-negative integer)\n", var, v);
        return fallback;
    }
    return x;
}

int64_t threshold(const char* name) {
    int64_t t = INT64_MAX;  // a routine missing from the table stays on the next library
    for (const Threshold& d : kDefaultMinN)
        if (std::strcmp(name + 1, d.routine) == 0) t = d.min_n;
    t = parse_env("TESSERA_LAPACK_MIN_N", t);
    std::string var = "TESSERA_LAPACK_MIN_N_";
    for (const char* c = name; *c; ++c) var += char(std::toupper(static_cast<unsigned char>(*c)));
    return parse_env(var.c_str(), t);
}

thread_local int t_inside = 0;

}  // namespace

void* next_symbol(const char* name) {
    static std::mutex m;
    static std::map<std::string, void*> cache;
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    void* p = dlsym(RTLD_NEXT, name);
    if (!p) {
        std::fprintf(stderr, "tessera_lapack: no library after libtessera_lapack defines %s (link a LAPACK after it)\n",
                     name);
        std::abort();
    }
    cache.emplace(name, p);
    return p;
}

bool use_tessera(const char* name, int64_t n) {
    if (Reentry::inside()) return false;
    static std::mutex m;
    static std::map<std::string, int64_t> cache;  // environment read once per routine
    int64_t t;
    {
        std::lock_guard<std::mutex> lock(m);
        auto it = cache.find(name);
        if (it == cache.end()) it = cache.emplace(name, threshold(name)).first;
        t = it->second;
    }
    return n >= t;
}

bool verbose() {
    static const bool v = [] {
        const char* e = std::getenv("TESSERA_LAPACK_VERBOSE");
        return e && *e && std::strcmp(e, "0") != 0;
    }();
    return v;
}

void report(const char* name, int64_t n, const char* where, double seconds, int info) {
    if (!verbose()) return;
    std::fprintf(stderr, "tessera_lapack: %s n=%lld %s %.3f s info=%d\n", name, static_cast<long long>(n), where,
                 seconds, info);
}

Reentry::Reentry() { ++t_inside; }
Reentry::~Reentry() { --t_inside; }
// StarPU's worker key exists only once StarPU has started: before, no thread is a worker.
bool Reentry::inside() { return t_inside > 0 || (runtime_started() && starpu_worker_get_id() >= 0); }

void xerbla(const char* routine, int info) {
    using Xerbla = void (*)(const char*, const int*, size_t);
    static const auto fn = reinterpret_cast<Xerbla>(dlsym(RTLD_DEFAULT, "xerbla_"));
    const int arg = -info;
    if (fn)
        fn(routine, &arg, std::strlen(routine));
    else
        std::fprintf(stderr, " ** On entry to %s parameter number %d had an illegal value\n", routine, arg);
}

}  // namespace tessera_lapack

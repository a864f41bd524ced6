// What every wrapper of libtessera_lapack does. Below the routine's threshold (use_tessera) the call
// goes to the next library untouched, invalid arguments included. Above it the wrapper checks the
// arguments as LAPACK does (negative info, xerbla), and a valid call runs Tessera's lapack:: form on
// the process-wide Runtime, on tile copies of the arrays (on_copies()): the caller's arrays are
// written only once Tessera's call has succeeded, so that if Tessera fails in any way (StarPU cannot
// start, a task fails, memory runs out) they are unchanged (the few written directly, e.g. xGEQRF's
// tau, are saved first and restored) and the call goes to the next library after all (with a
// verbose note). No exception ever leaves a wrapper.
#pragma once

#include <algorithm>
#include <cctype>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "lapack_abi/dispatch.hpp"
#include "tessera/types.hpp"

/// The library exports only LAPACK's symbols (built with hidden visibility).
#define TESSERA_LAPACK_API extern "C" __attribute__((visibility("default")))

namespace tessera_lapack {

/// "dgesv" for T = double and routine "gesv"; upper = true: "DGESV" (LAPACK's name for xerbla).
template <class T>
std::string routine_name(const char* routine, bool upper = false) {
    std::string s(1, tessera::prec_letter<T>());
    s += routine;
    if (upper)
        for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

/// The character argument *c in upper case (what the lapack:: forms take).
inline char upper(const char* c) { return char(std::toupper(static_cast<unsigned char>(*c))); }

/// LAPACK's LSAME: c equals the upper-case letter u, ignoring case.
inline bool lsame(const char* c, char u) { return upper(c) == u; }

/// The Options of every Tessera call a wrapper makes: the arrays are copied into tiles and back
/// (LapackLayout::TileCopy), so they are written only when the call has succeeded. In place, a
/// failure would need a backup of every array the call overwrites, and that fresh allocation's page
/// faults cost more than the copies: dpotrf n = 8192 on the 2-core CI machine took 2.6 s in place
/// with a backup (5.0 s on the process's first call) against 2.2 s on copies.
inline tessera::Options on_copies() {
    tessera::Options o;
    o.layout = tessera::LapackLayout::TileCopy;
    return o;
}

/// An array the Tessera call writes directly, not through a tile copy: an m×n column-major block with leading dimension ld
/// (saved and restored column by column), or a plain vector (ld = m, n = 1).
template <class T>
struct Saved {
    T* p;
    int64_t m, n, ld;
};

template <class T>
class Backup {
public:
    explicit Backup(std::initializer_list<Saved<T>> arrays) : arrays_(arrays) {
        for (const Saved<T>& a : arrays_) {
            std::vector<T> copy(size_t(a.m) * size_t(a.n));
            for (int64_t j = 0; j < a.n; ++j) std::memcpy(copy.data() + j * a.m, a.p + j * a.ld, size_t(a.m) * sizeof(T));
            copies_.push_back(std::move(copy));
        }
    }
    void restore() const {
        for (size_t i = 0; i < arrays_.size(); ++i) {
            const Saved<T>& a = arrays_[i];
            for (int64_t j = 0; j < a.n; ++j)
                std::memcpy(a.p + j * a.ld, copies_[i].data() + j * a.m, size_t(a.m) * sizeof(T));
        }
    }

private:
    std::vector<Saved<T>> arrays_;
    std::vector<std::vector<T>> copies_;
};

/// Runs a call below the threshold on the next library, with its verbose line (not for calls made
/// from inside Tessera: those are Tessera's, not the program's). info: null for BLAS (no INFO).
template <class Next>
void pass_through(const std::string& name, int64_t n, const int* info, Next&& next) {
    if (!verbose() || Reentry::inside()) return next();
    const auto start = std::chrono::steady_clock::now();
    next();
    report(name.c_str(), n, "next", seconds_since(start), info ? *info : 0);
}

/// Runs a valid call above the threshold: tess() (returning Tessera's info, stored into *info), or
/// next() (the next library's routine) if tess() failed. saved lists the arrays tess() writes
/// directly (not through on_copies()'s tile copies); they are restored before next() runs.
template <class T, class Next, class Tess>
void intercept(const std::string& name, int64_t n, int* info, std::initializer_list<Saved<T>> saved, Next&& next,
               Tess&& tess) {
    const auto start = std::chrono::steady_clock::now();
    std::string failure;
    try {
        const Backup<T> backup(saved);
        try {
            struct Ctx {
                Tess* tess;
                int64_t info;
            } ctx{&tess, 0};
            run_on_tessera([](void* p) { auto* c = static_cast<Ctx*>(p); c->info = (*c->tess)(); }, &ctx);
            *info = int(ctx.info);
            report(name.c_str(), n, "tessera", seconds_since(start), *info);
            return;
        } catch (const std::exception& e) {
            failure = e.what();
        } catch (...) {
            failure = "unknown exception";
        }
        backup.restore();
    } catch (const std::exception& e) {  // the backup could not be allocated
        failure = std::string("no memory for the arrays' backup: ") + e.what();
    }
    if (verbose()) std::fprintf(stderr, "tessera_lapack: %s: Tessera failed (%s); the next LAPACK runs it\n",
                                name.c_str(), failure.c_str());
    const auto again = std::chrono::steady_clock::now();
    next();
    report(name.c_str(), n, "next (fallback)", seconds_since(again), *info);
}

/// Tessera's 1-based int64 pivots to the caller's 32-bit INTEGER array (LAPACK's, values ≤ n).
inline void copy_pivots(const std::vector<int64_t>& from, int* to) {
    std::transform(from.begin(), from.end(), to, [](int64_t p) { return int(p); });
}

}  // namespace tessera_lapack

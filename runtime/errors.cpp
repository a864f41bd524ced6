// Argument checking (LAPACK's xerbla role) and parsing of LAPACK flag characters.
#include <cctype>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "runtime/warnings.hpp"
#include "tessera/types.hpp"

namespace tessera {

void check_arg(bool ok, const char* func, const char* arg, long long value, const char* requirement) {
    if (ok) return;
    throw Error(std::string("tessera::") + func + ": argument '" + arg + "' = " + std::to_string(value) + " " +
                requirement);
}

void check_char_arg(bool ok, const char* func, const char* arg, char value, const char* requirement) {
    if (ok) return;
    throw Error(std::string("tessera::") + func + ": argument '" + arg + "' = '" + value + "' " + requirement);
}

[[noreturn]] static void bad_char(const char* arg, char c, const char* allowed) {
    throw Error(std::string("tessera: argument '") + arg + "' = '" + c + "' must be one of " + allowed);
}

Uplo uplo_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'L': return Uplo::Lower;
        case 'U': return Uplo::Upper;
        case 'G': return Uplo::General;
    }
    bad_char(arg, c, "L, U, G");
}

Trans trans_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N': return Trans::NoTrans;
        case 'T': return Trans::Trans;
        case 'C': return Trans::ConjTrans;
    }
    bad_char(arg, c, "N, T, C");
}

Side side_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'L': return Side::Left;
        case 'R': return Side::Right;
    }
    bad_char(arg, c, "L, R");
}

Diag diag_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N': return Diag::NonUnit;
        case 'U': return Diag::Unit;
    }
    bad_char(arg, c, "N, U");
}

Norm norm_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'M': return Norm::Max;
        case 'O': case '1': return Norm::One;
        case 'I': return Norm::Inf;
        case 'F': case 'E': return Norm::Fro;
    }
    bad_char(arg, c, "M, O, 1, I, F, E");
}

Job job_from_char(char c, const char* arg) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N': return Job::NoVec;
        case 'V': return Job::Vec;
    }
    bad_char(arg, c, "N, V");
}

namespace detail {

void warn_once(const std::string& msg) {
    static std::mutex mu;
    static std::set<std::string> said;
    std::lock_guard<std::mutex> lock(mu);
    if (said.insert(msg).second) std::fprintf(stderr, "tessera: warning: %s\n", msg.c_str());
}

}  // namespace detail

}  // namespace tessera

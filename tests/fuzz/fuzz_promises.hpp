// What every fuzz target checks beyond "no crash": a broken promise aborts (a libFuzzer finding),
// and a reader's error is one line "FILE:LINE: what".
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tessera::fuzz {

/// Report the broken promise and abort, so that libFuzzer keeps the input.
[[noreturn]] inline void broken(const char* target, const char* promise) {
    std::fprintf(stderr, "%s: broken promise: %s\n", target, promise);
    std::abort();
}

/// The reader's error message must be one line "<file>:LINE: what".
inline void check_error_line(const char* target, const std::string& file, const std::string& what) {
    const std::string prefix = file + ":";
    if (what.compare(0, prefix.size(), prefix) != 0) broken(target, "the error starts with FILE:");
    size_t p = prefix.size();
    while (p < what.size() && what[p] >= '0' && what[p] <= '9') ++p;
    if (p == prefix.size() || what.compare(p, 2, ": ") != 0) broken(target, "the error is FILE:LINE: what");
    if (what.find('\n') != std::string::npos) broken(target, "the error is one line");
}

}  // namespace tessera::fuzz

// Fuzz target of the Matrix Market reader (examples/solve/matrix_market.cpp), for libFuzzer
// (clang -fsanitize=fuzzer) or standalone_main.cpp. Any input must either parse into a matrix that
// keeps the reader's promises or raise one MMError line "fuzz.mtx:LINE: ..."; anything else (a
// crash, a sanitizer report, another exception, a broken promise) is a finding.
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "examples/solve/matrix_market.hpp"
#include "tests/fuzz/fuzz_promises.hpp"

using namespace tessera;
using namespace tessera::solve;

namespace {

// The fuzzer explores size lines freely; with the tool's 2^28-entry bound a header like
// "16384 16384 0" would allocate 2 GiB for a 20-byte input, beyond libFuzzer's memory limit.
// The bound's logic is the same at any value.
constexpr int64_t kFuzzMaxEntries = int64_t(1) << 16;

[[noreturn]] void broken(const char* promise) { fuzz::broken("fuzz_matrix_market", promise); }

void check_matrix(const MMMatrix& M) {
    if (M.m < 0 || M.n < 0 || M.m > kFuzzMaxEntries || M.n > kFuzzMaxEntries) broken("0 <= m, n <= the bound");
    if (M.a.size() != size_t(M.m * M.n)) broken("a holds m*n entries");
    if (M.im.size() != (M.is_complex() ? M.a.size() : 0)) broken("im holds m*n entries for a complex file, none otherwise");
    for (double v : M.a)
        if (!std::isfinite(v)) broken("every entry is finite");
    for (double v : M.im)
        if (!std::isfinite(v)) broken("every imaginary part is finite");
    if (M.symmetry == MMSymmetry::General) return;
    if (M.m != M.n) broken("a symmetric, skew-symmetric or hermitian matrix is square");
    if (M.symmetry == MMSymmetry::Hermitian && !M.is_complex()) broken("a hermitian matrix is complex");
    for (int64_t j = 0; j < M.n; ++j)
        for (int64_t i = 0; i < M.n; ++i) {
            const std::complex<double> v = M.value(i, j), w = M.value(j, i);
            const std::complex<double> mirror = M.symmetry == MMSymmetry::Symmetric       ? v
                                                : M.symmetry == MMSymmetry::SkewSymmetric ? -v
                                                                                          : std::conj(v);
            if (w != mirror) broken("both triangles are filled, mirrored");
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        check_matrix(parse_matrix_market(in, "fuzz.mtx", kFuzzMaxEntries));
    } catch (const MMError& e) {
        fuzz::check_error_line("fuzz_matrix_market", "fuzz.mtx", e.what());
    }
    return 0;
}

// uniform(gen, lo, hi): the tests' random reals, drawn from a std::mt19937_64.
#pragma once

#include <random>

namespace tessera::testutil {

/// Uniform in [lo, hi) from the generator's top 53 bits: the distribution of
/// std::uniform_real_distribution<double>(lo, hi), without the logl that libstdc++'s
/// generate_canonical evaluates on every draw when the compiler does not fold it (clang, the
/// sanitized build: a quarter of test_opencl_triangular's time there).
inline double uniform(std::mt19937_64& gen, double lo, double hi) {
    return lo + (hi - lo) * (double(gen() >> 11) * 0x1.0p-53);
}

}  // namespace tessera::testutil

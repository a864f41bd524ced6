// uniform(gen, lo, hi) and uniform_scalar<T>(gen): the tests' random reals and scalars, drawn from a
// std::mt19937_64.
#pragma once

#include <random>

#include "tessera/types.hpp"

namespace tessera::testutil {

/// Uniform in [lo, hi) from the generator's top 53 bits: the distribution of
/// std::uniform_real_distribution<double>(lo, hi), without the logl that libstdc++'s
/// generate_canonical evaluates on every draw when the compiler does not fold it (clang, the
/// sanitized build: a quarter of test_opencl_triangular's time there).
inline double uniform(std::mt19937_64& gen, double lo, double hi) {
    return lo + (hi - lo) * (double(gen() >> 11) * 0x1.0p-53);
}

/// Uniform in [-1, 1); for complex T, the real part and then the imaginary part each.
template <class T>
T uniform_scalar(std::mt19937_64& gen) {
    if constexpr (is_complex_v<T>) {
        const real_t<T> re = real_t<T>(uniform(gen, -1, 1));
        return T(re, real_t<T>(uniform(gen, -1, 1)));
    } else {
        return T(uniform(gen, -1, 1));
    }
}

}  // namespace tessera::testutil

// Helpers shared by the OpenCL launchers (launch*.cpp). Internal; StarPU-free.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/opencl/device.hpp"

namespace tessera::ocl {

/// Throw std::invalid_argument unless dk was built for T's precision.
template <class T>
void check_prec(const DeviceKernels& dk, const char* func) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "real precisions only");
    const char want = std::is_same_v<T, float> ? 's' : 'd';
    if (dk.prec() != want)
        throw std::invalid_argument(std::string("tessera::ocl::") + func + ": kernels built for precision '" +
                                    dk.prec() + "', called with '" + want + "'");
}

/// Set the kernel's arguments in order; each must be a trivially copyable value (cl_mem included).
template <class... Args>
void set_args(cl_kernel kernel, const char* what, const Args&... args) {
    cl_uint index = 0;
    ((check(clSetKernelArg(kernel, index++, sizeof(Args), &args), what)), ...);
}

/// x rounded up to a multiple of `to` (global work sizes).
inline size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

}  // namespace tessera::ocl

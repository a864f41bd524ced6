// The OpenCL sources of kernels/opencl, embedded into the library at build time by
// cmake/EmbedOpenCL.cmake (prelude first, then every *.cl in alphabetical order).
#pragma once

#include <vector>

namespace tessera::ocl {

struct EmbeddedSource {
    const char* name;  ///< file name, e.g. "gemm.cl"
    const char* text;  ///< file contents
};
const std::vector<EmbeddedSource>& embedded_sources();

}  // namespace tessera::ocl

// tessera-devinfo --dump-binary: build Tessera's own OpenCL program (the library's embedded
// kernels with its per-device build options) and write the compiled binary so the generated code
// can be read (PTX on NVIDIA, PoCL's binary bundle on PoCL).
#pragma once

#include <filesystem>
#include <iosfwd>

#include "tools/devinfo/device_props.hpp"

namespace tessera::devinfo {

/// For each precision the device supports ('s', and 'd' with fp64) write into `dir`:
///   <stem>_<prec>.ptx (NVIDIA) or <stem>_<prec>.bin (others): CL_PROGRAM_BINARIES,
///   <stem>_<prec>.log: the build options and the build log,
/// and once tessera_kernels.cl, the source that was built. <stem> is "dev<P>.<D>_<device name>".
/// One line per written file goes to `os`. Returns the number of precisions that failed to build.
int dump_binaries(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, const std::filesystem::path& dir);

}  // namespace tessera::devinfo

// Writes Tessera's compiled OpenCL program per device and precision (see dump_binary.hpp).
#include "tools/devinfo/dump_binary.hpp"

#include <cctype>
#include <exception>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/opencl/device.hpp"

namespace tessera::devinfo {

namespace fs = std::filesystem;

static std::string sanitize(const std::string& name) {
    std::string s;
    for (unsigned char c : name) {
        const char out = std::isalnum(c) || c == '-' || c == '.' ? char(c) : '_';
        if (out == '_' && !s.empty() && s.back() == '_') continue;
        s += out;
    }
    while (!s.empty() && s.back() == '_') s.pop_back();
    return s;
}

static void write_file(const fs::path& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path.string());
}

static std::string program_binary(cl_program program) {
    size_t size = 0;
    check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
    std::string bin(size, '\0');
    unsigned char* ptr = reinterpret_cast<unsigned char*>(bin.data());
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARIES)");
    return bin;
}

int dump_binaries(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, const fs::path& dir) {
    fs::create_directories(dir);
    const std::string& source = tessera::ocl::program_source();
    write_file(dir / "tessera_kernels.cl", source);
    const tessera::ocl::DeviceInfo info = tessera::ocl::query_device(ref.device);
    const std::string stem = "dev" + ref.label() + "_" + sanitize(p.name);
    Session session(ref.device);
    int failures = 0;
    for (char prec : {'s', 'd'}) {
        if (prec == 'd' && !info.fp64) continue;
        const std::string options = tessera::ocl::build_options(info, prec);
        const fs::path base = dir / (stem + "_" + prec);
        std::string log = "build options: " + options + "\n";
        try {
            cl_program program = session.build(source, options);
            log += build_log(program, ref.device);
            std::string bin;
            try {
                bin = program_binary(program);
            } catch (...) {
                clReleaseProgram(program);
                throw;
            }
            clReleaseProgram(program);
            const fs::path out = base.string() + (p.is_nvidia() ? ".ptx" : ".bin");
            write_file(out, bin);
            os << "  wrote " << out.string() << " (" << bin.size() << " bytes)\n";
        } catch (const std::exception& e) {
            log += std::string("BUILD FAILED: ") + e.what() + "\n";
            os << "  device " << ref.label() << " precision " << prec << ": build failed, see " << base.string()
               << ".log\n";
            ++failures;
        }
        write_file(base.string() + ".log", log);
    }
    return failures;
}

}  // namespace tessera::devinfo

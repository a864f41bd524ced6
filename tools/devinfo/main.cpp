// tessera-devinfo: list every OpenCL platform and device with its properties; with --bench measure
// FMA rate, memory and transfer bandwidth and launch latency on each; with --dump-binary DIR write
// the compiled program of Tessera's own kernels per device and precision.
//
// Exit status (examples/common/tool_main.hpp): 0 success; 1 no OpenCL device, or a benchmark / build /
// output failure; 2 bad arguments (one CLI11 error line), or --device/--type matching no device.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "tools/devinfo/bench.hpp"
#include "tools/devinfo/device_props.hpp"
#include "tools/devinfo/dump_binary.hpp"
#include "tools/devinfo/peak.hpp"
#include "tools/devinfo/report.hpp"

using namespace tessera::devinfo;

namespace {

/// Writes everything to two stream buffers: the console and, optionally, a copy file.
class TeeBuf : public std::streambuf {
public:
    TeeBuf(std::streambuf* a, std::streambuf* b) : a_(a), b_(b) {}

protected:
    int overflow(int c) override {
        if (c == traits_type::eof()) return traits_type::not_eof(c);
        if (b_) b_->sputc(char(c));
        return a_->sputc(char(c));
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (b_) b_->sputn(s, n);
        return a_->sputn(s, n);
    }
    int sync() override {
        if (b_) b_->pubsync();
        return a_->pubsync();
    }

private:
    std::streambuf* a_;
    std::streambuf* b_;
};

struct Args {
    bool bench = false, quick = false, all_extensions = false;
    std::string dump_dir, output, type = "all";
    std::vector<std::string> devices;
};

bool selected(const Args& args, const DeviceRef& ref, const DeviceProps& p) {
    if (!args.devices.empty() && std::find(args.devices.begin(), args.devices.end(), ref.label()) == args.devices.end())
        return false;
    if (args.type == "gpu") return p.is_gpu();
    if (args.type == "cpu") return p.is_cpu();
    if (args.type == "accelerator") return (p.type & CL_DEVICE_TYPE_ACCELERATOR) != 0;
    return true;
}

int devinfo_main(int argc, char** argv) {
    CLI::App app{"tessera-devinfo: OpenCL platforms and devices, microbenchmarks, and Tessera's compiled kernels"};
    Args args;
    app.add_flag("--bench", args.bench, "measure FMA rate, memory copy and host<->device bandwidth, launch latency");
    app.add_flag("--quick", args.quick, "with --bench: short sizes (seconds on a CPU device)");
    app.add_option("--dump-binary", args.dump_dir, "write Tessera's compiled kernels (PTX on NVIDIA) into DIR")
        ->type_name("DIR");
    app.add_option("-d,--device", args.devices, "restrict --bench/--dump-binary to devices P.D (as listed)")
        ->type_name("P.D");
    app.add_option("--type", args.type, "restrict --bench/--dump-binary to a device type")
        ->check(CLI::IsMember({"all", "gpu", "cpu", "accelerator"}));
    app.add_flag("--extensions", args.all_extensions, "list every extension instead of a summary");
    app.add_option("-o,--output", args.output, "also write the output to FILE (default when $OUT is set: "
                                               "$OUT/tessera-devinfo{,-bench,-dump}.txt)")
        ->type_name("FILE");
    if (auto rc = tessera::tool::parse_cli(app, argc, argv, "tessera-devinfo")) return *rc;

    // One file name per mode, so that a listing, a benchmark and a dump in one $OUT do not overwrite each other.
    if (args.output.empty())
        if (const char* out_dir = std::getenv("OUT"); out_dir && *out_dir)
            args.output = std::string(out_dir) + (args.bench               ? "/tessera-devinfo-bench.txt"
                                                  : !args.dump_dir.empty() ? "/tessera-devinfo-dump.txt"
                                                                           : "/tessera-devinfo.txt");
    std::ofstream copy;
    if (!args.output.empty()) {
        copy.open(args.output);
        if (!copy) {
            std::cerr << "tessera-devinfo: cannot write " << args.output << "\n";
            return tessera::tool::kFailed;
        }
    }
    TeeBuf tee(std::cout.rdbuf(), copy.is_open() ? copy.rdbuf() : nullptr);
    std::ostream out(&tee);

    std::vector<cl_platform_id> platforms;
    const std::vector<DeviceRef> devices = enumerate_devices(platforms);
    if (devices.empty()) {
        std::cerr << "tessera-devinfo: no OpenCL device found (" << platforms.size()
                  << " platform(s); is an ICD registered in /etc/OpenCL/vendors or OCL_ICD_VENDORS?)\n";
        out << "no OpenCL device found\n";
        return tessera::tool::kFailed;
    }
    std::vector<DeviceProps> props;
    for (const DeviceRef& ref : devices) props.push_back(query_props(ref));
    for (size_t i = 0; i < platforms.size(); ++i) {
        print_platform(out, int(i), platforms[i]);
        for (size_t d = 0; d < devices.size(); ++d)
            if (devices[d].platform_index == int(i)) print_props(out, devices[d], props[d], args.all_extensions);
    }
    out << std::flush;

    int failures = 0, chosen = 0;
    for (size_t d = 0; d < devices.size(); ++d) {
        if (!selected(args, devices[d], props[d])) continue;
        ++chosen;
        if (args.bench) {
            try {
                const BenchResults r = run_bench(devices[d], props[d], args.quick);
                failures += print_bench_table(out, devices[d], props[d], estimate_peaks(props[d]), r, args.quick);
            } catch (const std::exception& e) {
                out << "\nBenchmark of device " << devices[d].label() << " failed: " << e.what() << "\n";
                ++failures;
            }
            out << std::flush;
        }
        if (!args.dump_dir.empty()) {
            out << "\nTessera kernels for device " << devices[d].label() << " -> " << args.dump_dir << "\n";
            try {
                failures += dump_binaries(out, devices[d], props[d], args.dump_dir);
            } catch (const std::exception& e) {
                out << "  failed: " << e.what() << "\n";
                ++failures;
            }
            out << std::flush;
        }
    }
    if ((args.bench || !args.dump_dir.empty()) && chosen == 0) {
        std::cerr << "tessera-devinfo: no device matches --device/--type\n";
        return tessera::tool::kRefused;
    }
    if (failures) std::cerr << "tessera-devinfo: " << failures << " failure(s), see above\n";
    if (copy.is_open() && !copy.flush()) {
        std::cerr << "tessera-devinfo: writing " << args.output << " failed\n";
        return tessera::tool::kFailed;
    }
    return failures ? tessera::tool::kFailed : tessera::tool::kOk;
}

}  // namespace

int main(int argc, char** argv) {
    return tessera::tool::guarded_main("tessera-devinfo", [&] { return devinfo_main(argc, argv); });
}

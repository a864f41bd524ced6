// Per-device kernel parameters: the TESSERA_* macros of the OpenCL sources (work-group and register
// tiles, k slab, pipeline depth, mma shape), looked up in a parameter table keyed by device (vendor,
// name, compute capability) and precision. The table ships with the library (kernels/opencl/params/
// *.txt, embedded at build time); `tessera-tune` (tools/tune) measures the present device and writes
// an entry; $TESSERA_KERNEL_PARAMS names a table file whose entries take precedence.
//
// Table format, version 1 (one item per line, '#' starts a comment):
//
//   tessera-kernel-params 1          first line: magic word and format version
//   [entry]                          one block per device (and precision)
//   vendor = NVIDIA                  substring of CL_DEVICE_VENDOR, case-insensitive (optional)
//   name = NVIDIA H100*              glob (* ?) over CL_DEVICE_NAME, case-insensitive (optional)
//   cc = 9.0                         NVIDIA compute capability, or * (optional)
//   precision = d                    s, d or * (optional)
//   TESSERA_NVD_STAGES = 2           parameters: known names, integer values in range
//   end                              last line: guards against a truncated file
//
// The most specific matching entry wins (each of vendor, name, cc, precision given counts; a name
// without wildcards counts twice); among equals the later one. A file that breaks any rule is
// rejected as a whole, with a warning naming the file, the line and the reason.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/opencl/device.hpp"

namespace tessera::ocl {

/// The tunable parameters: every TESSERA_* macro with its built-in default and the values it may
/// take, in kParamTable's order (param_table.hpp, where they are defined).
constexpr std::span<const ParamDef> param_specs() { return kParamTable; }
/// The parameter named `name` (e.g. "TESSERA_GEMM_MB"), or nullptr.
const ParamDef* find_param_spec(std::string_view name);

/// Which devices (and precision) a table entry applies to; empty / -1 / 0 mean any.
struct DeviceMatch {
    std::string vendor, name;
    int cc_major = -1, cc_minor = -1;
    char prec = 0;
};

struct ParamEntry {
    DeviceMatch match;
    std::map<std::string, int> values;
    int line = 0;  ///< where the entry starts in its file (1-based; 0 when built in code)
};

struct ParamTable {
    std::string origin;  ///< file name or "built-in table", for messages
    std::vector<ParamEntry> entries;
};

/// Every parameter of param_specs() → its value.
using KernelParams = std::map<std::string, int>;
KernelParams default_params();

/// Parse a table. On any error returns nullopt and sets *error to "<origin>:<line>: <reason>".
std::optional<ParamTable> parse_param_table(std::string_view text, const std::string& origin, std::string* error);
/// Read and parse a table file (nullopt + *error when missing, unreadable or invalid).
std::optional<ParamTable> load_param_file(const std::string& path, std::string* error);
/// The text of a version-1 table holding `entries` (as tessera-tune writes it).
std::string format_param_table(const std::vector<ParamEntry>& entries, const std::string& comment = {});

/// Does `m` match the device and precision, and how specifically (0 = no match, else ≥ 1)?
int match_score(const DeviceMatch& m, const DeviceInfo& info, char prec);
/// Cross-parameter rules (e.g. TESSERA_GEMM_MB a multiple of TESSERA_GEMM_TM, local memory
/// within the device's); empty when the set is valid, else the reason.
std::string check_params(const KernelParams& p, const DeviceInfo* info = nullptr);
/// Defaults overridden by the best entry of `table` for (info, prec); *used points at it (or null).
/// An entry whose result breaks check_params() is skipped with a warning.
KernelParams resolve_params(const ParamTable& table, const DeviceInfo& info, char prec,
                            const ParamEntry** used = nullptr,
                            const std::function<void(const std::string&)>& warn = {});

/// The tables the library ships (kernels/opencl/params/*.txt, embedded at build time).
struct EmbeddedParamTable {
    const char* name;
    const char* text;
};
const std::vector<EmbeddedParamTable>& shipped_param_tables();

/// What the library uses for (info, prec): defaults, then the best shipped entry, then the best entry
/// of the file $TESSERA_KERNEL_PARAMS if set. A corrupt shipped table or file, or a file with no
/// entry for this device, is reported through `warn` (default: one line on stderr per distinct
/// message) and ignored.
KernelParams kernel_params(const DeviceInfo& info, char prec, const std::function<void(const std::string&)>& warn = {});

/// " -DNAME=value" for each parameter whose value differs from its default (for clBuildProgram).
std::string params_build_options(const KernelParams& p);
/// Shrink the local-memory tiles of the portable kernels (TESSERA_TRSM_BS, then TESSERA_GEMM_KB,
/// halving each) until they fit the device's local memory with scalars of `scalar_bytes` bytes
/// (16 for complex double; check_params() counts 8). 0 or ≤ 8 changes nothing.
void fit_local_memory(KernelParams& p, const DeviceInfo& info, size_t scalar_bytes);

}  // namespace tessera::ocl

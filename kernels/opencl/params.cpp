// Per-device kernel parameter tables: schema, parser, matcher, loader. See params.hpp.
#include "kernels/opencl/params.hpp"
#include "kernels/opencl/nv_shapes.hpp"

#include "runtime/text_table.hpp"
#include "runtime/warnings.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace tessera::ocl {

const ParamDef* find_param_spec(std::string_view name) {
    for (const ParamDef& s : param_specs())
        if (s.name == name) return &s;
    return nullptr;
}

KernelParams default_params() {
    KernelParams p;
    for (const ParamDef& s : param_specs()) p[std::string(s.name)] = s.def;
    return p;
}

namespace {

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace((unsigned char)s[b])) ++b;
    while (e > b && std::isspace((unsigned char)s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

bool glob_match(const char* p, const char* s) {  // '*' and '?', case-insensitive
    for (; *p; ++p, ++s) {
        if (*p == '*') {
            while (p[1] == '*') ++p;
            for (const char* t = s;; ++t) {
                if (glob_match(p + 1, t)) return true;
                if (!*t) return false;
            }
        }
        if (!*s || (*p != '?' && std::tolower((unsigned char)*p) != std::tolower((unsigned char)*s))) return false;
    }
    return !*s;
}

bool parse_int(const std::string& s, int* v) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(s.c_str(), &end, 10);
    if (*end || errno || x < -1000000000L || x > 1000000000L) return false;
    *v = int(x);
    return true;
}

std::string describe_allowed(const ParamValues& a) {
    std::string r;
    if (a.count == 0) return std::to_string(a.lo) + ".." + std::to_string(a.hi);
    for (int i = 0; i < a.count; ++i) r += (r.empty() ? "" : ", ") + std::to_string(a.list[size_t(i)]);
    return "one of " + r;
}

// Device limits assumed when no DeviceInfo, or one without them, is given (tessera-tune's checks
// before a device is queried): NVIDIA's 48 KiB of local memory per work-group (the most without
// the opt-in to more) and 1024 work-items per work-group.
constexpr size_t kDefaultLocalMemBytes = 48 * 1024;
constexpr size_t kDefaultMaxWorkGroup = 1024;

// potrf.cl: a leaf's rows are spread over POTRF_PX = 32 work-items (the rest of TESSERA_POTRF_WG
// along its columns), and one work-item holds at most 32 elements of the leaf in registers.
constexpr size_t kPotrfRowItems = 32;
constexpr size_t kPotrfMaxElementsPerItem = 32;

constexpr const char* kMagic = "tessera-kernel-params";
constexpr int kVersion = 1;

/// Scalars of local memory trsm.cl's largest kernel takes: tessera_trtri_blocks' block and merge
/// buffer, BS·(BS + 1) + BS²/4, tessera_trsm_leaf's block and columns, BS·(BS + 1) + BS·NV·NG, or
/// tessera_trsm_chain's partial sums, NG·BS·kTrsmChainColumns.
size_t trsm_local_scalars(size_t bs, size_t nv, size_t ng) {
    return std::max(bs * (bs + 1 + std::max(bs / 4, nv * ng)), ng * bs * size_t(kTrsmChainColumns));
}

}  // namespace

std::optional<ParamTable> parse_param_table(std::string_view text, const std::string& origin, std::string* error) {
    ParamTable table;
    table.origin = origin;
    ParamEntry* cur = nullptr;
    std::set<std::string> seen;  // keys of the current entry
    detail::TableLines lines;
    lines.content = [&](const std::string& line, int lineno) -> std::string {
        if (line == "[entry]") {
            table.entries.push_back({});
            cur = &table.entries.back();
            cur->line = lineno;
            seen.clear();
            return {};
        }
        if (line.front() == '[') return "unknown section '" + line + "' (expected '[entry]')";
        const size_t eq = line.find('=');
        if (eq == std::string::npos) return "expected 'key = value', got '" + line + "'";
        if (!cur) return "'" + line + "' outside an [entry]";
        const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        if (key.empty()) return "empty key";
        if (!seen.insert(key).second) return "duplicate key '" + key + "' in the entry";
        if (key == "vendor") {
            cur->match.vendor = value;
        } else if (key == "name") {
            cur->match.name = value;
        } else if (key == "cc") {
            if (value != "*") {
                const size_t dot = value.find('.');
                int ma = -1, mi = -1;
                if (dot == std::string::npos || !parse_int(value.substr(0, dot), &ma) ||
                    !parse_int(value.substr(dot + 1), &mi) || ma < 1 || mi < 0)
                    return "cc must look like 9.0 (or be *), got '" + value + "'";
                cur->match.cc_major = ma, cur->match.cc_minor = mi;
            }
        } else if (key == "precision") {
            if (value == "s" || value == "d") cur->match.prec = value[0];
            else if (value != "*") return "precision must be s, d or *, got '" + value + "'";
        } else if (const ParamDef* spec = find_param_spec(key)) {
            int v = 0;
            if (!parse_int(value, &v)) return "value of " + key + " is not an integer: '" + value + "'";
            if (!spec->values.allows(v))
                return key + " = " + std::to_string(v) + " out of range (" + describe_allowed(spec->values) + ")";
            cur->values[key] = v;
        } else {
            return "unknown parameter '" + key + "' (table written for another version of Tessera?)";
        }
        return {};
    };
    std::string why = detail::read_table_lines(text, origin, "kernel parameter table", kMagic, kVersion, lines);
    if (!why.empty()) {
        if (error) *error = std::move(why);
        return std::nullopt;
    }
    return table;
}

std::optional<ParamTable> load_param_file(const std::string& path, std::string* error) {
    const std::optional<std::string> text = detail::read_text_file(path, error);
    if (!text) return std::nullopt;
    return parse_param_table(*text, path, error);
}

std::string format_param_table(const std::vector<ParamEntry>& entries, const std::string& comment) {
    std::ostringstream os;
    os << kMagic << " " << kVersion << "\n";
    if (!comment.empty()) {
        std::istringstream is(comment);
        for (std::string l; std::getline(is, l);) os << "# " << l << "\n";
    }
    for (const ParamEntry& e : entries) {
        os << "\n[entry]\n";
        if (!e.match.vendor.empty()) os << "vendor = " << e.match.vendor << "\n";
        if (!e.match.name.empty()) os << "name = " << e.match.name << "\n";
        if (e.match.cc_major >= 0) os << "cc = " << e.match.cc_major << "." << e.match.cc_minor << "\n";
        if (e.match.prec) os << "precision = " << e.match.prec << "\n";
        for (const auto& [k, v] : e.values) os << k << " = " << v << "\n";
    }
    os << "\nend\n";
    return os.str();
}

int match_score(const DeviceMatch& m, const DeviceInfo& info, char prec) {
    int score = 1;
    if (!m.vendor.empty()) {
        if (lower(info.vendor).find(lower(m.vendor)) == std::string::npos) return 0;
        score += 1;
    }
    if (!m.name.empty()) {
        if (!glob_match(m.name.c_str(), info.name.c_str())) return 0;
        score += m.name.find_first_of("*?") == std::string::npos ? 2 : 1;
    }
    if (m.cc_major >= 0) {
        if (m.cc_major != info.cc_major || m.cc_minor != info.cc_minor) return 0;
        score += 1;
    }
    if (m.prec) {
        if (m.prec != prec) return 0;
        score += 1;
    }
    return score;
}

std::string check_params(const KernelParams& p, const DeviceInfo* info) {
    auto v = [&](const char* name) {
        auto it = p.find(name);
        if (it != p.end()) return it->second;
        const ParamDef* s = find_param_spec(name);
        return s ? s->def : 0;
    };
    const size_t lmem = info && info->local_mem_bytes ? info->local_mem_bytes : kDefaultLocalMemBytes;
    const size_t maxwg = info && info->max_work_group ? info->max_work_group : kDefaultMaxWorkGroup;
    const int mb = v("TESSERA_GEMM_MB"), nb = v("TESSERA_GEMM_NB"), kb = v("TESSERA_GEMM_KB");
    const int tm = v("TESSERA_GEMM_TM"), tn = v("TESSERA_GEMM_TN");
    if (mb % tm || nb % tn) return "TESSERA_GEMM_MB (NB) must be a multiple of TESSERA_GEMM_TM (TN)";
    if (size_t(mb / tm) * size_t(nb / tn) > maxwg) return "gemm.cl work-group (MB/TM)·(NB/TN) larger than the device allows";
    if (size_t(kb) * (mb + 1 + nb + 1) * sizeof(double) > lmem) return "gemm.cl local memory KB·(MB+NB+2)·8 bytes exceeds the device's";
    const size_t pbs = size_t(v("TESSERA_POTRF_BS")), pwg = size_t(v("TESSERA_POTRF_WG")), tbs = size_t(v("TESSERA_TRSM_BS"));
    if (pwg > maxwg) return "potrf.cl work-group TESSERA_POTRF_WG larger than the device allows";
    const size_t pcols = pwg / kPotrfRowItems;  // work-items along a leaf's columns
    if (((pbs + kPotrfRowItems - 1) / kPotrfRowItems) * ((pbs + pcols - 1) / pcols) > kPotrfMaxElementsPerItem)
        return "potrf.cl: more than 32 elements of a leaf per work-item (raise TESSERA_POTRF_WG or lower TESSERA_POTRF_BS)";
    // Complex double (16 bytes) bounds every precision: the column and row groups, double-buffered,
    // and the two pivot arrays.
    if ((4 * size_t(v("TESSERA_POTRF_COLS")) * pbs * 16 + 2 * pbs * sizeof(double)) > lmem)
        return "potrf.cl local memory 4·POTRF_COLS·POTRF_BS·16 + 2·POTRF_BS·8 bytes exceeds the device's";
    const size_t tng = size_t(v("TESSERA_TRSM_NG"));
    if (trsm_local_scalars(tbs, size_t(v("TESSERA_TRSM_NV")), tng) * sizeof(double) > lmem)
        return "trsm.cl local memory max(TRSM_BS·(TRSM_BS + 1 + max(TRSM_BS/4, TRSM_NV·TRSM_NG)), TRSM_NG·TRSM_BS·8)·8 "
               "bytes exceeds the device's";
    if (tbs % tng || tbs * tng > maxwg)
        return "trsm.cl work-group TRSM_BS·TRSM_NG: TRSM_NG must divide TRSM_BS, within the device's limit";
    const size_t nl = size_t(v("TESSERA_NORM_LINES")), nc = size_t(v("TESSERA_NORM_CHUNK"));
    const size_t nwg = size_t(v("TESSERA_NORM_WG"));
    if (nwg > maxwg || nl > nwg || (nl * nc) % nwg)
        return "norms.cl work-group: NORM_LINES at most NORM_WG, LINES·CHUNK a multiple of NORM_WG, NORM_WG within "
               "the device's limit";
    if (2 * nl * (nc + 1) * sizeof(double) > lmem)  // two stages of LINES lines of CHUNK + 1 doubles
        return "norms.cl local memory 2·NORM_LINES·(NORM_CHUNK + 1)·8 bytes exceeds the device's";
    const int wm = v("TESSERA_NVD_WM"), wn = v("TESSERA_NVD_WN"), st = v("TESSERA_NVD_STAGES");
    const int nw = wm * wn;
    const size_t slab_rows = size_t(nv::kDoubleRowsPerWarp * wm + nv::kDoubleColumnsPerWarp * wn);  // A's and B's
    if (size_t(st) * slab_rows * nv::kDoubleSlabRowBytes > lmem)
        return "gemm_nv_d.cl local memory STAGES·(64·WM + 32·WN)·64 bytes exceeds the device's";
    if (nv::kWarp * size_t(nw) > maxwg) return "gemm_nv_d.cl work-group 32·WM·WN larger than the device allows";
    // Float: the slab buffers of A and of B (2 matrices), and B's staging (a float4 is 4 floats).
    const size_t bk = size_t(v("TESSERA_NVS_BK"));
    const size_t slab_floats = nv::kFloatSlabBuffers * 2 * bk * nv::kFloatSlabRowFloats;
    const size_t staging_floats = bk / nv::kFloatStagingK * nv::kFloatWorkItems * 4;
    if ((slab_floats + staging_floats) * sizeof(float) > lmem)
        return "gemm_nv_s.cl float slabs and staging exceed local memory";
    if (info && info->cc_major >= 0 && info->cc_major < nv::kMma1688MinCc && v("TESSERA_NVD_MMA") != nv::kMmaM8N8K4)
        return "TESSERA_NVD_MMA 1688 needs compute capability 9.0";
    return {};
}

KernelParams resolve_params(const ParamTable& table, const DeviceInfo& info, char prec, const ParamEntry** used,
                            const std::function<void(const std::string&)>& warn) {
    KernelParams p = default_params();
    if (used) *used = nullptr;
    // Candidates best first (score, then later entries first).
    std::vector<std::pair<int, size_t>> order;
    for (size_t i = 0; i < table.entries.size(); ++i)
        if (int s = match_score(table.entries[i].match, info, prec)) order.push_back({s, i});
    std::sort(order.begin(), order.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second > b.second; });
    for (const auto& [score, i] : order) {
        KernelParams q = p;
        for (const auto& [k, v] : table.entries[i].values) q[k] = v;
        const std::string why = check_params(q, &info);
        if (why.empty()) {
            if (used) *used = &table.entries[i];
            return q;
        }
        if (warn)
            warn(table.origin + ":" + std::to_string(table.entries[i].line) + ": entry skipped for " + info.name + ": " + why);
    }
    return p;
}

KernelParams kernel_params(const DeviceInfo& info, char prec, const std::function<void(const std::string&)>& warn_in) {
    const std::function<void(const std::string&)> warn = warn_in ? warn_in : detail::warn_once;
    KernelParams p = default_params();
    for (const EmbeddedParamTable& t : shipped_param_tables()) {
        std::string err;
        auto table = parse_param_table(t.text, std::string("built-in ") + t.name, &err);
        if (!table) {
            warn(err + "; using defaults");
            continue;
        }
        const ParamEntry* used = nullptr;
        (void)resolve_params(*table, info, prec, &used, warn);
        if (used)
            for (const auto& [k, v] : used->values) p[k] = v;
    }
    if (const char* path = std::getenv("TESSERA_KERNEL_PARAMS"); path && *path) {
        std::string err;
        auto table = load_param_file(path, &err);
        if (!table) {
            warn("rejected kernel parameter file: " + err + "; using the built-in parameters");
        } else {
            const ParamEntry* used = nullptr;
            KernelParams q = p;
            (void)resolve_params(*table, info, prec, &used, warn);
            if (!used) {
                warn(std::string("kernel parameter file ") + path + " has no usable entry for " + info.name + " (" +
                     info.vendor + (info.cc_major >= 0 ? ", cc " + std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor) : "") +
                     ", precision " + prec + "); using the built-in parameters");
            } else {
                for (const auto& [k, v] : used->values) q[k] = v;
                const std::string why = check_params(q, &info);
                if (why.empty()) p = q;
                else warn(std::string(path) + ": entry not usable with the built-in parameters: " + why);
            }
        }
    }
    return p;
}

std::string params_build_options(const KernelParams& p) {
    std::string s;
    for (const auto& [k, v] : p) {
        const ParamDef* spec = find_param_spec(k);
        if (!spec || spec->def != v) s += " -D" + k + "=" + std::to_string(v);
    }
    return s;
}

void fit_local_memory(KernelParams& p, const DeviceInfo& info, size_t scalar_bytes) {
    if (scalar_bytes <= 8) return;
    const size_t lmem = info.local_mem_bytes ? info.local_mem_bytes : kDefaultLocalMemBytes;
    int& tbs = p["TESSERA_TRSM_BS"];
    const size_t nv = size_t(p["TESSERA_TRSM_NV"]), ng = size_t(p["TESSERA_TRSM_NG"]);
    while (tbs > 16 && trsm_local_scalars(size_t(tbs), nv, ng) * scalar_bytes > lmem) tbs /= 2;
    int& kb = p["TESSERA_GEMM_KB"];
    const size_t mb = size_t(p["TESSERA_GEMM_MB"]), nb = size_t(p["TESSERA_GEMM_NB"]);
    while (kb > 4 && size_t(kb) * (mb + nb + 2) * scalar_bytes > lmem) kb /= 2;
}

}  // namespace tessera::ocl

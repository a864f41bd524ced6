// Per-machine CPU tile sizes: table parser and formatter, matching, the cache rule, hwloc's view of
// the CPU, and tessera::tuned_tile. See runtime/cpu_tiles.hpp for the format.
#include "runtime/cpu_tiles.hpp"

#include <fnmatch.h>
#include <hwloc.h>
#include <starpu.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/text_table.hpp"
#include "runtime/warnings.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {

namespace {

constexpr const char* kMagic = "tessera-cpu-tiles";
constexpr int kVersion = 1;
constexpr int kMaxCores = 1 << 20;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// s without leading and trailing blanks, inner runs of blanks as one space.
std::string collapse_blanks(std::string_view s) {
    std::string r;
    for (char c : s) {
        if (is_blank(c)) {
            if (!r.empty() && r.back() != ' ') r += ' ';
        } else {
            r += c;
        }
    }
    if (!r.empty() && r.back() == ' ') r.pop_back();
    return r;
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

/// An integer token in [lo, hi]; false when it is not one.
bool parse_integer(std::string_view s, int64_t lo, int64_t hi, int64_t* v) {
    const char* end = s.data() + s.size();
    const auto [stop, ec] = std::from_chars(s.data(), end, *v);
    return ec == std::errc() && stop == end && !s.empty() && *v >= lo && *v <= hi;
}

bool valid_routine(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
}

/// Whether the glob has an unescaped * ? or [.
bool has_wildcards(std::string_view glob) {
    for (size_t i = 0; i < glob.size(); ++i) {
        if (glob[i] == '\\') ++i;
        else if (glob[i] == '*' || glob[i] == '?' || glob[i] == '[') return true;
    }
    return false;
}

/// The next blank-separated token of `line` from `pos` (advanced past it); empty at the end.
std::string_view next_token(std::string_view line, size_t& pos) {
    while (pos < line.size() && line[pos] == ' ') ++pos;
    const size_t start = pos;
    while (pos < line.size() && line[pos] != ' ') ++pos;
    return line.substr(start, pos - start);
}

}  // namespace

std::optional<CpuTileTable> parse_cpu_tiles(std::string_view text, const std::string& origin, std::string* error) {
    CpuTileTable table;
    table.origin = origin;
    std::string pending_comment;  // comment lines directly above the next entry
    TableLines lines;
    lines.blank = [&] { pending_comment.clear(); };  // a blank line detaches comments
    lines.comment = [&](std::string_view c) {        // as written, less "# " and trailing blanks
        if (!c.empty() && c.front() == ' ') c.remove_prefix(1);
        while (!c.empty() && is_blank(c.back())) c.remove_suffix(1);
        if (!pending_comment.empty()) pending_comment += '\n';
        pending_comment.append(c);
    };
    lines.content = [&](const std::string& raw, int lineno) -> std::string {
        const std::string line = collapse_blanks(raw);
        size_t p = 0;
        const std::string_view routine = next_token(line, p), cores = next_token(line, p), nb = next_token(line, p),
                               ib = next_token(line, p);
        const std::string model = collapse_blanks(std::string_view(line).substr(std::min(p, line.size())));
        if (model.empty()) return "expected 'routine cores nb ib cpu-model', got '" + line + "'";
        CpuTileEntry e;
        if (!valid_routine(routine)) return "routine '" + std::string(routine) + "' is not a name (letters, digits, _)";
        e.routine = lower(std::string(routine));
        int64_t v = 0;
        if (cores != "*") {
            if (!parse_integer(cores, 1, kMaxCores, &v))
                return "cores must be an integer from 1 to " + std::to_string(kMaxCores) + " or *, got '" + std::string(cores) + "'";
            e.cores = int(v);
        }
        if (!parse_integer(nb, 1, kMaxTile, &e.nb))
            return "nb must be an integer from 1 to " + std::to_string(kMaxTile) + ", got '" + std::string(nb) + "'";
        if (!parse_integer(ib, 0, kMaxTile, &e.ib)) return "ib must be an integer >= 0, got '" + std::string(ib) + "'";
        if (e.ib > e.nb) return "ib " + std::to_string(e.ib) + " larger than nb " + std::to_string(e.nb);
        e.model = model;
        e.line = lineno;
        e.comment = std::move(pending_comment);
        pending_comment.clear();
        table.entries.push_back(std::move(e));
        return {};
    };
    std::string why = read_table_lines(text, origin, "CPU tile table", kMagic, kVersion, lines);
    if (!why.empty()) {
        if (error) *error = std::move(why);
        return std::nullopt;
    }
    return table;
}

std::optional<CpuTileTable> load_cpu_tiles_file(const std::string& path, std::string* error) {
    const std::optional<std::string> text = read_text_file(path, error);
    if (!text) return std::nullopt;
    return parse_cpu_tiles(*text, path, error);
}

std::string escape_model_glob(const std::string& model) {
    std::string r;
    for (char c : model) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') r += '\\';
        r += c;
    }
    return r;
}

std::string format_cpu_tiles(const std::vector<CpuTileEntry>& entries, const std::string& comment) {
    std::ostringstream os;
    os << kMagic << " " << kVersion << "\n";
    std::istringstream is(comment);
    for (std::string l; std::getline(is, l);) os << "# " << l << "\n";
    os << "# routine  cores  nb  ib  cpu model (glob, rest of line, case-insensitive)\n";
    for (const CpuTileEntry& e : entries) {
        os << "\n";
        std::istringstream cs(e.comment);
        for (std::string l; std::getline(cs, l);) os << "# " << l << "\n";
        os << std::left << std::setw(10) << e.routine << " " << std::setw(6) << (e.cores ? std::to_string(e.cores) : "*")
           << " " << std::setw(5) << e.nb << " " << std::setw(4) << e.ib << " " << e.model << "\n";
    }
    os << "\nend\n";
    return os.str();
}

int match_score(const CpuTileEntry& entry, const std::string& routine, int cores, const std::string& cpu_model) {
    if (entry.routine != lower(routine)) return 0;
    if (entry.cores != 0 && entry.cores != cores) return 0;
    if (fnmatch(entry.model.c_str(), collapse_blanks(cpu_model).c_str(), FNM_CASEFOLD) != 0) return 0;
    return 1 + (entry.cores != 0 ? 2 : 0) + (has_wildcards(entry.model) ? 0 : 1);
}

const CpuTileEntry* match(const CpuTileTable& table, const std::string& routine, int cores, const std::string& cpu_model) {
    const CpuTileEntry* best = nullptr;
    int best_score = 0;
    for (const CpuTileEntry& e : table.entries)
        if (const int s = match_score(e, routine, cores, cpu_model); s > 0 && s >= best_score) best = &e, best_score = s;
    return best;
}

size_t routine_elem_size(const std::string& routine) {
    switch (routine.empty() ? 0 : std::tolower((unsigned char)routine[0])) {
    case 's': return 4;
    case 'd': return 8;
    case 'c': return 8;
    case 'z': return 16;
    default: return 0;
    }
}

TileChoice cache_rule_tile(const std::string& routine, uint64_t l2_bytes_per_core, size_t elem_size) {
    if (elem_size == 0)
        throw Error("tessera::tuned_tile: routine '" + routine +
                    "' has no table entry and does not start with a precision letter (s, d, c, z)");
    const CacheRule& r = kCacheRule;
    TileChoice c;
    if (l2_bytes_per_core == 0) {
        c.nb = r.unknown_nb, c.ib = r.unknown_ib, c.source = "cache rule: L2 unknown";
        return c;
    }
    const double side = std::sqrt(double(l2_bytes_per_core) / double(elem_size)) / r.shrink;
    c.nb = std::clamp(int64_t(std::llround(side / double(r.nb_multiple))) * r.nb_multiple, r.nb_min, r.nb_max);
    c.ib = std::max(int64_t(std::llround(double(c.nb) / double(r.ib_divisor) / double(r.ib_multiple))) * r.ib_multiple, r.ib_min);
    c.source = "cache rule: L2 " + std::to_string(l2_bytes_per_core / 1024) + " KiB/core";
    return c;
}

int64_t order_rule_tile(const std::string& family, int64_t n, int workers) {
    const OrderRule& r = kOrderRule;
    if (n < 1 || workers < 1) return 0;
    if (family == "gemm") {  // T tile columns with T² ≥ 2·workers, nb = ⌈n / T⌉ rounded up to a multiple of 64
        const int64_t columns = int64_t(std::ceil(std::sqrt(double(r.gemm_tiles_per_worker) * double(workers))));
        const int64_t nb = (n + columns - 1) / columns;
        return std::min((nb + r.nb_multiple - 1) / r.nb_multiple * r.nb_multiple, r.nb_max);
    }
    if (family != "potrf" && family != "getrf" && family != "geqrf") return 0;
    const double columns = r.columns_per_sqrt_worker * std::sqrt(double(workers));
    const int64_t nb = std::llround(double(n) / columns / double(r.nb_multiple)) * r.nb_multiple;
    return std::min(nb, family == "geqrf" ? r.geqrf_nb_max : r.nb_max);
}

const MachineCpu& machine_cpu() {
    static const MachineCpu cpu = [] {
        MachineCpu m{"unknown CPU", 0};
        hwloc_topology_t topo;
        if (hwloc_topology_init(&topo) != 0) return m;
        if (hwloc_topology_load(topo) == 0) {
            if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0))
                if (const char* name = hwloc_obj_get_info_by_name(pkg, "CPUModel"))
                    if (std::string s = collapse_blanks(name); !s.empty()) m.model = s;
            if (hwloc_obj_t l2 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L2CACHE, 0); l2 && l2->attr) {
                const int cores = l2->cpuset ? hwloc_get_nbobjs_inside_cpuset_by_type(topo, l2->cpuset, HWLOC_OBJ_CORE) : 1;
                m.l2_bytes_per_core = l2->attr->cache.size / uint64_t(std::max(cores, 1));
            }
        }
        hwloc_topology_destroy(topo);
        return m;
    }();
    return cpu;
}

std::string user_tessera_file(const char* name) {
    if (const char* h = std::getenv("STARPU_HOME"); h && *h) return std::string(h) + "/.tessera/" + name;
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.tessera/" + name;
    return {};
}

std::string user_cpu_tiles_path() {
    if (const char* p = std::getenv("TESSERA_CPU_TILES"); p && *p) return p;
    return user_tessera_file("cpu_tiles.txt");
}

TileChoice resolve_tile(const std::string& routine, int cores, const MachineCpu& cpu, const CpuTileTable* user,
                        const std::vector<CpuTileTable>& shipped) {
    const CpuTileEntry* best = nullptr;
    const CpuTileTable* from = nullptr;
    if (user) best = match(*user, routine, cores, cpu.model), from = user;
    if (!best) {
        int best_score = 0;
        for (const CpuTileTable& t : shipped)
            for (const CpuTileEntry& e : t.entries)
                if (const int s = match_score(e, routine, cores, cpu.model); s > 0 && s >= best_score)
                    best = &e, best_score = s, from = &t;
    }
    const size_t elem = routine_elem_size(routine);
    if (!best) return cache_rule_tile(routine, cpu.l2_bytes_per_core, elem);
    TileChoice c{best->nb, best->ib, from->origin + ":" + std::to_string(best->line)};
    if (c.ib == 0 && elem != 0) {
        c.ib = std::min(cache_rule_tile(routine, cpu.l2_bytes_per_core, elem).ib, c.nb);
        c.source += " (ib: cache rule)";
    }
    return c;
}

namespace {

/// The shipped tables, parsed once (a table that does not parse is warned about and left out).
const std::vector<CpuTileTable>& shipped_tables() {
    static const std::vector<CpuTileTable> tables = [] {
        std::vector<CpuTileTable> ts;
        for (const EmbeddedCpuTileTable& t : shipped_cpu_tile_tables()) {
            std::string err;
            if (auto table = parse_cpu_tiles(t.text, std::string("shipped cpu_tiles/") + t.name, &err))
                ts.push_back(std::move(*table));
            else warn_once(err + "; table ignored");
        }
        return ts;
    }();
    return tables;
}

/// The user's table at `path`, re-read when its size or modification time changes; nullopt when
/// the file does not exist or does not parse (warned about once per message).
std::optional<CpuTileTable> user_table(const std::string& path) {
    struct Cached {
        std::filesystem::file_time_type mtime;
        uintmax_t size = 0;
        std::optional<CpuTileTable> table;
    };
    static std::mutex mu;
    static std::map<std::string, Cached> cache;
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return std::nullopt;
    const auto mtime = std::filesystem::last_write_time(path, ec);
    const uintmax_t size = ec ? 0 : std::filesystem::file_size(path, ec);
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(path);
    if (ec || it == cache.end() || it->second.mtime != mtime || it->second.size != size) {
        std::string err;
        Cached c{mtime, size, load_cpu_tiles_file(path, &err)};
        if (!c.table) warn_once("rejected CPU tile table " + err + "; using the shipped tables and the cache rule");
        it = cache.insert_or_assign(path, std::move(c)).first;
    }
    return it->second.table;
}

}  // namespace

TileChoice local_tuned_tile(const std::string& routine) {
    require_runtime("tuned_tile");
    // A table named by TESSERA_CPU_TILES must be there: the user asked for it, and ignoring it would
    // tune silently by another table (the default paths under STARPU_HOME and HOME may be missing).
    if (const char* p = std::getenv("TESSERA_CPU_TILES"); p && *p) {
        std::error_code ec;
        const auto st = std::filesystem::status(p, ec);
        if (!std::filesystem::exists(st))
            throw Error(std::string("tessera::tuned_tile: TESSERA_CPU_TILES=") + p +
                        ": no such file (write it with tessera-tune --cpu, or unset TESSERA_CPU_TILES)");
        if (!std::filesystem::is_regular_file(st))
            throw Error(std::string("tessera::tuned_tile: TESSERA_CPU_TILES=") + p + ": not a regular file");
    }
    const int cores = int(starpu_cpu_worker_get_count());
    const std::optional<CpuTileTable> user = user_table(user_cpu_tiles_path());
    return resolve_tile(routine, cores, machine_cpu(), user ? &*user : nullptr, shipped_tables());
}

TileChoice rank0_tile_choice(TileChoice choice) {
    if (!distributed()) return choice;
    // Every rank must tile alike: rank 0's choice (its machine's table and devices).
    const bool root = rank() == 0;
    const std::vector<double> agreed = sum_over_ranks({root ? double(choice.nb) : 0.0, root ? double(choice.ib) : 0.0});
    if (!root) choice = {int64_t(agreed[0]), int64_t(agreed[1]), "MPI rank 0's choice"};
    return choice;
}

}  // namespace tessera::detail

namespace tessera {

TileChoice tuned_tile(const std::string& routine) { return detail::rank0_tile_choice(detail::local_tuned_tile(routine)); }

}  // namespace tessera

// Per-machine CPU tile sizes (tessera::tuned_tile): the table format, its parser and formatter, the
// matching of an entry to a machine, the cache-size rule used when no table has an entry, and the
// machine's CPU model and L2 size from hwloc. Internal: not installed; tools/tune/cpu_tune.cpp and
// tests/test_cpu_tiles.cpp use it.
//
// Table format, version 1 (text; '#' starts a comment; blank lines ignored):
//
//   tessera-cpu-tiles 1                  first line: magic word and format version
//   # routine  cores  nb   ib   cpu model (glob, rest of line, case-insensitive)
//   dpotrf     2      384  0    AMD EPYC
//   dgeqrf     *      256  64   Intel(R) Xeon(R) Platinum 8481C*
//   end                                  last line: guards against a truncated file
//
// routine: letters, digits and '_' (compared case-insensitively); cores: the number of CPU workers,
// an integer ≥ 1, or * for any; nb: 1..kMaxTile; ib: 0..nb (0: the routine has no inner block, the
// cache rule's ib is used when one is asked for); cpu model: the rest of the line, a glob (fnmatch
// with FNM_CASEFOLD: * ? [..], \ escapes) over hwloc's CPUModel, runs of blanks counting as one
// space. Anything else rejects the whole file with "FILE:LINE: reason". Comment lines directly
// above an entry (no blank line between) are kept with it, so that merging a table keeps them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/tuning.hpp"

namespace tessera::detail {

/// Largest nb a table may hold (a tile of 65536² doubles is 32 GiB).
constexpr int64_t kMaxTile = 65536;

/// One line of a CPU tile table.
struct CpuTileEntry {
    std::string routine;  ///< lower case, e.g. "dpotrf"
    int cores = 0;        ///< number of CPU workers; 0 stands for '*' (any)
    int64_t nb = 0;       ///< tile size, 1..kMaxTile
    int64_t ib = 0;       ///< inner block, 0..nb (0: none)
    std::string model;    ///< glob over the CPU model, blanks collapsed to single spaces
    int line = 0;         ///< 1-based line in its file (0 when built in code)
    std::string comment;  ///< comment lines directly above it, without "# ", joined by '\n'
};

/// A parsed table and where it came from (a path or "shipped cpu_tiles/NAME", for messages).
struct CpuTileTable {
    std::string origin;
    std::vector<CpuTileEntry> entries;
};

/// Parse a version-1 table. On any error returns nullopt and sets *error (when error is not null)
/// to "<origin>:<line>: <reason>"; never throws for malformed text.
std::optional<CpuTileTable> parse_cpu_tiles(std::string_view text, const std::string& origin, std::string* error);
/// Read and parse the table file at `path` (origin = path). nullopt + *error ("<path>: cannot
/// open", or the parser's message) when it cannot be read or does not parse.
std::optional<CpuTileTable> load_cpu_tiles_file(const std::string& path, std::string* error);
/// The text of a version-1 table: header, `comment` (each line as "# ..."), a column legend, then
/// each entry under its own comment lines, then "end". parse_cpu_tiles reads it back entry for
/// entry (models are written as given: pass them through escape_model_glob when they are names).
std::string format_cpu_tiles(const std::vector<CpuTileEntry>& entries, const std::string& comment = {});
/// A CPU model name as a glob matching exactly that name (\ before * ? [ ] \).
std::string escape_model_glob(const std::string& model);

/// Whether `entry` applies to (routine, cores, cpu_model), and how specifically: 0 no; else 1 +
/// 2 for exact cores + 1 for a model without wildcards.
int match_score(const CpuTileEntry& entry, const std::string& routine, int cores, const std::string& cpu_model);
/// The best entry of `table` for (routine, cores, cpu_model): the highest match_score, among
/// equals the later line; nullptr when none matches. `routine` is compared case-insensitively.
const CpuTileEntry* match(const CpuTileTable& table, const std::string& routine, int cores, const std::string& cpu_model);

/// Bytes of one scalar of the routine's precision, from its first letter: s 4, d 8, c 8, z 16;
/// 0 when the name starts with no precision letter.
size_t routine_elem_size(const std::string& routine);

/// The constants of the cache rule, in one place (see cache_rule_tile). Checked against the 2-core
/// development VM (1 MiB L2/core): its pick, 320/64 in double, ran within 1.3% (dpotrf), 0% (dgetrf)
/// and 5% (dgemm, dgeqrf) of the best nb tessera-tune --cpu measured there (runtime/cpu_tiles/tuned.txt).
struct CacheRule {
    double shrink = 1.1;            ///< nb ≈ sqrt(L2 / elem) / shrink
    int64_t nb_multiple = 32;       ///< nb is rounded to the nearest multiple of this
    int64_t nb_min = 128, nb_max = 512;
    int64_t ib_divisor = 5;         ///< ib ≈ nb / ib_divisor
    int64_t ib_multiple = 8, ib_min = 16;
    int64_t unknown_nb = 320, unknown_ib = 48;  ///< when the L2 size is unknown (0)
};
constexpr CacheRule kCacheRule{};

/// The fallback tile size when no table has an entry. Derivation: a tile kernel streams its three
/// nb×nb operands through the cache; the tile that is reused (the gemm update's C tile, the panel
/// tile) should stay in the core's L2, so nb² · elem_size ≲ L2, i.e. nb ≈ sqrt(L2 / elem_size),
/// shrunk by kCacheRule.shrink to leave room for the streamed operands, rounded to the nearest
/// multiple of 32 (the BLAS kernels' register blocking) and clamped to [128, 512] (below, task
/// overheads dominate; above, too few tiles to keep the workers busy). ib = nb / 5 rounded to the
/// nearest multiple of 8, at least 16 (geqrf's compact-WY block; the same for every routine).
/// l2_bytes_per_core = 0 (unknown): nb 320, ib 48. Throws tessera::Error when elem_size is 0.
/// source: "cache rule: L2 1024 KiB/core" or "cache rule: L2 unknown". `routine` names the routine
/// in the error message only.
TileChoice cache_rule_tile(const std::string& routine, uint64_t l2_bytes_per_core, size_t elem_size);

/// The constants of the order rule (order_rule_tile), in one place.
struct OrderRule {
    double columns_per_sqrt_worker = 7.5;  ///< tile columns ≈ this · √(CPU workers)
    int64_t nb_multiple = 64, nb_max = 2048;
    int64_t geqrf_nb_max = 768;  ///< tile QR's kernels (tpqrt, tpmqrt at ib ≈ 48) slow down beyond
    int64_t gemm_tiles_per_worker = 2;  ///< BLAS 3 (family gemm): at least this many C tiles per worker
};
constexpr OrderRule kOrderRule{};

/// nb for a tile factorization (`family` "potrf", "getrf" or "geqrf") of order n on `workers` CPU
/// workers: enough tile columns T to keep the workers busy and no more, T ≈ 7.5·√workers, i.e.
/// nb = n / T rounded to a multiple of 64, at most 2048 (geqrf: 768); 0 for other families (and n
/// or workers below 1). Derivation: the factorization's critical path is about 3T tile kernels
/// against T³/3 of work, so p workers idle about 9p/T² of the time, while its tasks (T³/3) each
/// cost StarPU's overhead and a smaller kernel. The tables' nb is measured at n = 4096 (tessera-tune --cpu), where
/// both costs are small; at larger n it leaves T growing with n. tuned_tile(routine, n) takes the
/// larger of the two. Measured on a 2-core VM (AMD EPYC, 1 MiB L2 per core, where the cache rule
/// gives 320), tessera-tester, GFLOP/s at nb 320 / 512 / 768 / 1024: dpotrf n = 8192 87.0 / 89.4 /
/// 95.0 / 94.9, dgetrf 87.1 / 86.5 / 91.1 / 86.1, dgeqrf 80.3 / 81.7 / 85.3 / 76.7; dpotrf n = 16384 at
/// 320 / 768 / 1024 / 1536: 88.9 / 97.7 / 100.5 / 102.3 (the rule: 768 at 8192, 1536 at 16384),
/// dgetrf at 768 / 1536: 96.2 / 97.0, dgeqrf 85.0 / 74.1–78.0 (hence its cap).
/// For the BLAS 3 and the other operations of family "gemm" (symm, syr2k, trsm, trmm, the norms:
/// tessera-tester's families), whose C tiles are independent chains of kernels, T tile columns with
/// T² ≥ 2·workers C tiles, nb = ⌈n / T⌉ rounded up to a multiple of 64, at most 2048: each worker
/// gets at least two tiles and each kernel is as large as that allows (OpenBLAS's packing per
/// call amortized). On 2 workers T = 2: nb 2048 at n = 4096. The same 2-core VM, n = 4096, GFLOP/s at
/// nb 320 (its cache rule) / 1024 / 2048: dgemm 95.0 / 106.4 / 107.3, dtrsm 86.8 / – / 95.0; and
/// against OpenBLAS on both cores (bench/lapack_surface_vs_lapack.sh): dsymm 0.90 / 0.96 / 0.98×,
/// dsyr2k 0.88 / – / 1.00×.
int64_t order_rule_tile(const std::string& family, int64_t n, int workers);

/// This machine's CPU as the tables know it.
struct MachineCpu {
    std::string model;               ///< hwloc's CPUModel of the first package, blanks trimmed and
                                     ///< collapsed; "unknown CPU" when hwloc has none
    uint64_t l2_bytes_per_core = 0;  ///< size of the first L2 cache / cores under it; 0 unknown
};
/// MachineCpu from hwloc (hwloc_topology_init/load), queried once per process. Never throws: a
/// topology hwloc cannot load gives {"unknown CPU", 0}.
const MachineCpu& machine_cpu();

/// A per-user Tessera file: $STARPU_HOME/.tessera/<name> when STARPU_HOME is set, else
/// $HOME/.tessera/<name> ("" when neither is set). The CPU tile table and the worker rates live there.
std::string user_tessera_file(const char* name);

/// Rule (1) of tuned_tile: $TESSERA_CPU_TILES if set and not empty, else
/// $STARPU_HOME/.tessera/cpu_tiles.txt, else $HOME/.tessera/cpu_tiles.txt ("" when none is set).
std::string user_cpu_tiles_path();

/// The tables shipped with the library (runtime/cpu_tiles/*.txt, embedded at build time by
/// cmake/EmbedTables.cmake), in file-name order.
struct EmbeddedCpuTileTable {
    const char* name;  ///< file name, e.g. "tuned.txt"
    const char* text;
};
const std::vector<EmbeddedCpuTileTable>& shipped_cpu_tile_tables();

/// The lookup of tuned_tile without the Runtime and the files: the best entry of `user` (when
/// given), else of the shipped tables together (a later table's entry winning among equals), else
/// cache_rule_tile. An entry's ib 0 becomes the rule's ib. Throws as cache_rule_tile when the rule
/// is needed and the routine has no precision letter.
TileChoice resolve_tile(const std::string& routine, int cores, const MachineCpu& cpu, const CpuTileTable* user,
                        const std::vector<CpuTileTable>& shipped);

/// tuned_tile's lookup on this process alone (the user's table, the shipped ones, the cache rule),
/// with the Runtime's CPU worker count. Throws as tuned_tile.
TileChoice local_tuned_tile(const std::string& routine);

/// `choice` as MPI rank 0 made it (collective when distributed; `choice` itself otherwise).
TileChoice rank0_tile_choice(TileChoice choice);

}  // namespace tessera::detail

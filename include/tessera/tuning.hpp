// Per-machine tile sizes: the nb and ib a routine uses when Options leaves them at 0.
// Looked up in a table keyed by routine, CPU model and number of CPU workers: the user's own
// (written by `tessera-tune --cpu`), then the tables shipped with the library, then a rule derived
// from the L2 cache size. docs/tuning.md explains how to measure and install a table.
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

/// A tile size and inner block for one routine, and where they came from.
struct TileChoice {
    int64_t nb = 0;      ///< tile size
    int64_t ib = 0;      ///< inner block size (tile QR, incremental-pivoting LU)
    std::string source;  ///< e.g. "/root/.starpu/.tessera/cpu_tiles.txt:7", "shipped cpu_tiles/amd.txt:12",
                         ///< "cache rule: L2 1024 KiB/core"
};

/// The nb and ib Tessera uses for `routine` (LAPACK name with its precision letter: "dpotrf",
/// "sgetrf", "zgeqrf", "cgemm", ...; case-insensitive) on this machine: its CPU model (hwloc's
/// CPUModel of the first package) and the running Runtime's number of CPU workers. Looked up,
/// first match wins:
///  1. the user's table (tessera-tune --cpu writes it): $TESSERA_CPU_TILES if set, else
///     $STARPU_HOME/.tessera/cpu_tiles.txt when STARPU_HOME is set, else $HOME/.tessera/cpu_tiles.txt
///     (a missing file at the two default paths is no error; a TESSERA_CPU_TILES naming a missing
///     file or a directory is: tessera::Error naming the variable and the path); re-read when the
///     file changes;
///  2. the tables shipped with the library (runtime/cpu_tiles/*.txt, embedded at build time);
///  3. the cache rule (L2 bytes per core and the precision's element size; runtime/cpu_tiles.hpp).
/// Within a table the most specific matching entry wins: exact cores over `*`, then a model without
/// wildcards over a glob, then the later line. An entry whose ib is 0 (no inner block measured)
/// takes the cache rule's ib. A user table that does not parse is ignored with one warning line on
/// stderr ("tessera: warning: FILE:LINE: reason; ..."), once per process and message.
/// Distributed: collective; every rank gets rank 0's choice (a matrix's tiles must be alike on all).
/// Throws tessera::Error when no Runtime runs, or when `routine` does not start with a precision
/// letter (s, d, c, z) and no table has an entry for it.
TileChoice tuned_tile(const std::string& routine);

/// The nb and ib for `routine` on a problem of order `n` (the largest of its dimensions) with the
/// running Runtime's devices: when it drives an OpenCL GPU (a device of type GPU or accelerator;
/// PoCL's CPU devices are not) and n is at least 8192, nb by the GPU rule measured on H100s
/// (docs/tuning.md: gemm 2048 from n = 8192 and 4096 from 16384; potrf and getrf 1024 from 8192,
/// 2048 from 16384, 4096 from 32768; geqrf 512), ib tuned_tile's clamped to nb, and source
/// "GPU rule: ..."; without OpenCL GPUs and MPI, for potrf, getrf and geqrf, the larger of
/// tuned_tile(routine)'s nb (measured at n = 4096) and the order rule's n / (7.5·√workers) rounded
/// to a multiple of 64, at most 2048 (geqrf 768; docs/tuning.md: enough tile columns for the CPU
/// workers, no more; dpotrf n = 16384 on 2 workers 102 GFLOP/s at its 1536 against 89 at the cache
/// rule's 320), source "order rule: ..."; otherwise tuned_tile(routine). The lapack:: forms, tessera-tester and
/// tessera-solve take it when nb is not given. Distributed: collective, rank 0's choice. Throws as
/// tuned_tile(routine).
TileChoice tuned_tile(const std::string& routine, int64_t n);

}  // namespace tessera

// tessera-tune --cpu: measure the tile size (and geqrf's inner block) of potrf, getrf, geqrf and gemm
// on the present CPU and write them as entries of a CPU tile table (runtime/cpu_tiles.hpp), which
// tessera::tuned_tile reads (include/tessera/tuning.hpp).
#pragma once

namespace tessera::tune {

/// The CPU mode of tessera-tune, argv as main received it (the "--cpu" among the arguments):
///
///   tessera-tune --cpu [--prec d[,s,c,z]] [--size N] [--budget SECONDS] [--reps R] [--quick] [--out FILE]
///
/// Sets STARPU_NOPENCL=0 (no OpenCL device: a CPU table) unless the user set it, starts a Runtime,
/// and for each precision and routine (potrf, getrf with partial pivoting, geqrf, gemm) on N×N
/// matrices (default 4096) times nb ∈ {192, 256, 320, 384, 448, 512} (gemm also 768 and 1024;
/// --quick: {192, 256, 384}; nb > N left out), then nb ± 32 around the best (not with --quick), and for geqrf ib ∈ {32, 48, 64, 96}
/// (--quick: {32, 64}) ≤ nb at the best nb (its nb sweep runs ib 48). Each candidate runs R times
/// (default 3; --quick: 1 unless --reps is given), its GFLOP/s the median (flops n³/3, 2n³/3,
/// 4n³/3, 2n³; ×4 for complex); each sweep starts with one untimed run on a small problem, so that
/// the first candidate is not charged StarPU's first tasks; every run is checked (a solve with the factors, or columns of the product,
/// by check::solve_residual ≤ 60 and info 0); a failing candidate is reported and skipped. The
/// --budget (seconds, default 300) is shared among the routines by their expected cost; a routine
/// whose share runs out keeps its best so far and says so. The choices are merged into FILE
/// (default: tuned_tile's user table, rule (1); its directory created), replacing the entries of the
/// same routine, cores and model, keeping the others; each entry has the exact CPU model, the number
/// of CPU workers and, in a comment above it, the median GFLOP/s of every candidate.
/// Returns the exit code (examples/common/tool_main.hpp): 0 written; 1 a routine with no passing
/// candidate, nothing measured, or FILE exists but does not parse (left alone) or cannot be
/// written. Throws tessera::Error (exit 2, refused) for an invalid argument, OpenCL workers present,
/// or a --size whose matrices do not fit in host memory.
int cpu_tune_main(int argc, char** argv);

}  // namespace tessera::tune

// tessera-tune --calibrate: fill StarPU's performance models of this machine, so that the first run
// of an application is placed from history rather than calibrating (docs/tuning.md).
#pragma once

namespace tessera::tune {

/// The calibration mode of tessera-tune, argv as main received it (the "--calibrate" among them):
///
///   tessera-tune --calibrate [--prec d[,s,c,z]] [--nb LIST] [--tiles T] [--max-runs R]
///
/// For each precision, routine (potrf, getrf with partial pivoting, geqrf, gemm) and tile size
/// (--nb, a comma-separated list; default: the nb tuned_tile picks for that routine; geqrf's ib
/// tuned_tile's, at most nb, as tessera-tester's default), runs the
/// routine on a (T·nb)×(T·nb) problem (T default 4), each run checked (check::solve_residual ≤ 60,
/// info 0), until a run has no task that a performance-model scheduler placed to calibrate, or
/// three runs in a row without fewer such tasks (settled: those footprints recur too rarely or time
/// too unevenly to calibrate here, and the placement prior places them; the line names them), at
/// most R runs (default 20), printing one progress line per run. It does so on every kind of
/// worker in turn, with STARPU_CALIBRATE=1 and the dmdas scheduler unless the user set
/// STARPU_CALIBRATE or STARPU_SCHED:
///  1. with OpenCL workers present, a Runtime whose codelets run on OpenCL wherever they can
///     (Placement::OpenCLOnly; CPU-only codelets such as the LU and QR panels on the CPUs);
///  2. a Runtime as an application's (Placement::Any): the placement prior (runtime/
///     placement_prior.hpp) keeps off the CPUs the tasks it rules out, and the scheduler calibrates
///     the CPUs for the others, which a user's first runs would otherwise do.
/// The footprints of a (T·nb)-sized problem are calibrated: codelets whose buffers depend on the
/// matrix (the LU panel and row interchanges over a whole tile column) calibrate again at other
/// sizes; the prior places them meanwhile.
/// Identical OpenCL devices share one calibration (STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL, set by the
/// Runtime). The models are StarPU's, in $STARPU_HOME/.starpu/sampling.
/// Returns the exit code (examples/common/tool_main.hpp): 0 every pass ended calibrated or settled;
/// 1 a run failed its check or a task failed, or a pass was still progressing after R runs.
/// Throws tessera::Error (exit 2, refused) for an invalid argument.
int calibrate_main(int argc, char** argv);

}  // namespace tessera::tune

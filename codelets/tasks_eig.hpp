// Typed task insertion for the eigensolvers (tessera/eig.hpp). Each function submits one StarPU task.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "codelets/tasks.hpp"
#include "kernels/cpu/band_tridiag.hpp"
#include "kernels/opencl/launch.hpp"

namespace tessera::tasks {

/// Z = Q2·Z on one tile column of Z (its tiles top to bottom, RW; n rows in all), Q2 the reflectors
/// of the band-to-tridiagonal stage (cpu::BandReflectors::apply_left; CPU only). The task holds q2
/// until it has run.
template <class T>
void apply_band_reflectors(std::shared_ptr<const cpu::BandReflectors<T>> q2, const std::vector<TileHandle>& column,
                           int prio = 0);

/// Z = Q2·Z on an OpenCL device, in one task: `blocks` (cpu::BandReflectors::windows, in its order),
/// their T factors formed first from V and their τs (ocl::larft_blocks) into Tf, then applied by
/// ocl::apply_block_reflectors to Z (RW; rows of the reduction's order n, ncols columns). V the
/// windows (R, one column), taus the blocks' τs (R, one column: BandReflectors::block_taus), Tf (at
/// least the T factors' size) and W (at least 2·kmax·ncols elements) STARPU_SCRATCH. OpenCL only. The
/// task holds `blocks` until it has run.
template <class T>
void apply_band_reflectors_device(std::shared_ptr<const std::vector<ocl::BlockReflector>> blocks, int64_t ncols,
                                  TileHandle Z, TileHandle V, TileHandle taus, TileHandle Tf, TileHandle W,
                                  int prio = 0);

/// The QR of the width columns col0 … col0+width−1 of a tile column from row row0 of its first tile
/// down (the band reduction's panel, narrower than the tile; LAPACK xGEQRT with one block): R and the
/// Householder vectors overwrite that block as xGEQRF leaves them, Tt (width²) receives the upper
/// triangular T of the min(rows, width) reflectors (zeros elsewhere), and v's tiles (one per tile
/// of `column`, of its rows × width) the dense V: unit diagonal, the vectors below it, zeros above
/// it and in the first tile's rows above row0, so that Q = I − V·Tt·Vᴴ multiplies whole tiles
/// (RW column, W v, W Tt; CPU and OpenCL, a variable number of buffers). The panel's diagonal block
/// (min(rows, width) rows from row0) must lie in the first tile, else the task fails.
template <class T>
void band_panel(const std::vector<TileHandle>& column, int64_t row0, int64_t col0, int64_t width,
                const std::vector<TileHandle>& v, TileHandle Tt, int prio = 0);

/// hw's n reals = the eigenvalues of the n×n real symmetric tridiagonal with diagonal d (handle hd,
/// n reals) and off-diagonal e (he, max(1, n−1) reals) in ascending order, n ≥ 1: on a CPU worker by
/// LAPACK's xSTERF (*info its info), on an OpenCL device by bisection on Sturm counts (xSTEBZ's
/// method, ocl::tridiag_bisect; *info 0), wherever StarPU places it (R hd, R he, W hw; R float or
/// double). d and e are the handles' host memory, read here for the bisection's starting interval
/// (Gershgorin's) and pivmin; info must stay valid until the task has run.
template <class R>
void tridiag_values(int64_t n, const R* d, const R* e, TileHandle hd, TileHandle he, TileHandle hw, int* info,
                    int prio = 0);

/// One merge of the tridiagonal divide and conquer after LAPACK's xLAED2 (m: xLAED3's shape, k ≥ 1):
/// vec (3k reals: DLAMDA, W, INDXC − 1), q2 (xLAED2's Q2, n1·n12 + n2·n23 reals, one column) read;
/// lam (k) and q ((n1 + n2)×k) written with xLAED3's eigenvalues and updated eigenvectors; scratch
/// (k×(2k + 1), STARPU_SCRATCH). On a CPU worker LAPACK's xLAED3 (*info its info: > 0 when xLAED4
/// failed), on an OpenCL device ocl::secular_merge (*info 0), wherever StarPU places it. R: float or
/// double; info must stay valid until the task has run.
template <class R>
void secular_merge(const ocl::SecularMerge& m, TileHandle vec, TileHandle lam, TileHandle q2, TileHandle q,
                   TileHandle scratch, int* info, int prio = 0);

/// Every step of `chase` (its whole reduction) on an OpenCL device, in one task (ocl::band_chase):
/// band, v and tau are handles over chase.band() ((2·kd+1)×n, ld band_ld()), chase.reflectors() and
/// chase.taus() (each one column), all RW (v and tau only written when chase.keeps_reflectors());
/// chase.finish() may follow once the task has run and the handles are home. OpenCL only; kd at
/// most ocl::kBandChaseMaxKd. chase must stay alive until then.
template <class T>
void band_chase_device(cpu::BandTridiagChase<T>& chase, TileHandle band, TileHandle v, TileHandle tau, int prio = 0);

/// The indices of at most two earlier tasks of run_host_tasks that a task waits for (−1: none).
using HostDeps = std::array<int64_t, 2>;

/// Run run(0) … run(count − 1) as StarPU CPU tasks without data handles and wait for them: task i
/// after the earlier tasks deps[i] names (deps may be shorter than count, or empty), at the highest
/// priority. Without CPU workers the calling thread runs them in order. Throws Error naming `what`
/// when StarPU refuses a task or a run throws (the first failure's message; once one has failed the
/// remaining tasks skip their work).
void run_host_tasks(const char* what, int64_t count, const std::function<void(int64_t)>& run,
                    const std::vector<HostDeps>& deps = {});

/// Run the steps of a bulge-chasing reduction (cpu::hb2st's or cpu::gb2bd's) as StarPU CPU tasks
/// and wait for them: sweep s (0 … sweeps−1) has steps(s) steps, each costing about step_flops
/// flops, and run(s, t0, t1) runs its steps t0 … t1−1. One task runs consecutive steps of one sweep
/// worth about 2¹⁸ flops (a few hundred microseconds; fewer steps when the first sweep has fewer
/// than four tasks' worth per CPU worker, so that the sweeps still pipeline over the workers),
/// after the sweep's previous task and after the task of sweep s−1 holding its step
/// min(last + lag, steps(s−1) − 1). Without CPU workers the calling thread runs every step in order.
/// steps(s) must not increase with s. Throws Error when StarPU refuses a task or run throws (the
/// first failure's message; the remaining steps are skipped).
void run_chase(int64_t sweeps, const std::function<int64_t(int64_t)>& steps, int64_t lag, double step_flops,
               const std::function<void(int64_t, int64_t, int64_t)>& run);

}  // namespace tessera::tasks

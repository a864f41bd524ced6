#!/usr/bin/env bash
# eig_vs_lapack.sh — Tessera's dsyevd (the two-stage tile eigensolver, tessera/eig.hpp) next to
# LAPACKE_dsyevd (OpenBLAS on every core) on the same matrix in one run, values only (jobz N) and with
# eigenvectors (jobz V), then Tessera's dgesdd (the two-stage SVD, tessera/svd.hpp) next to
# LAPACKE_dgesdd on the same square matrix, values only (jobz N) and with thin vectors (jobz S), every
# run checked:
#   ours     tessera-tester syevd --jobz N|V end to end (tiles in host memory before and after), with
#            --check up to n = 4096 (LAPACK's ratios: residual, orthogonality, eigenvalues against
#            LAPACKE's) and --check-random above (O(n²): A·X against Z·Λ·Zᵀ·X, and Σw against the trace);
#            dgesdd: tessera-tester gesdd --jobz N|S, --check up to n = 2048 (residual, orthogonality, σ
#            against LAPACKE's; every repetition is checked) and --check-random above (A·X against
#            U·Σ·Vᵀ·X, Σσ² against ‖A‖_F², sampled orthogonality);
#   LAPACKE  bench/eig_lapack (LAPACKE_dsyevd on the tester's seeded matrix, its lower triangle; with
#            --op gesdd LAPACKE_dgesdd on the whole matrix), its last call checked (residual and
#            orthogonality up to n = 4096, else the randomized residual; the trace, or Σσ², in both);
#   cuSOLVER with PEER=torch (on the GPU machine): torch.linalg.eigvalsh / eigh and svdvals / svd
#            (full_matrices=False) on cuda in float64, device-resident, each checked by the trace (Σσ²
#            against ‖A‖_F²) and, with vectors, the randomized residual.
# Prints one table: median seconds of REPS runs (after WARMUP untimed runs of ours, which also
# calibrate StarPU's perfmodels), GFLOP/s at LAPACK's nominal counts (dsyevd 4n³/3 values only, 4n³
# with vectors; dgesdd 8n³/3 values only, 20n³/3 with thin vectors, LAWN 41), the ratio LAPACKE's median / the row's (> 1: faster than LAPACKE), and the check.
# On a shared machine compare the ratios of one run, not times across runs.
#
# On this machine (CPU workers; the build in build/, or BUILD_DIR):
#   bash bench/eig_vs_lapack.sh [BUILD_DIR]
# On the GPU machine, from the repository root with .gpu-kit and .gpu-build carried (tessera-tester,
# libtessera.so.0 and bench's eig_lapack copied flat into .gpu-build; ../shared/device/README.md):
#   PEER=torch bash bench/eig_vs_lapack.sh .gpu-build
# Environment: N (4096), REPS (3), WARMUP (1), NB (the tester's tuned geqrf tile size), OPS (the
# solvers to run: "syevd gesdd"), SYEVD_JOBZ ("N V"), GESDD_JOBZ ("N S"), THREADS
# (OpenBLAS threads of the LAPACKE peer; default the BLAS library's own, every core), PEER (lapack;
# torch adds cuSOLVER), NO_LAPACKE (set: skip the LAPACKE peer, e.g. at n = 16384 on the GPU machine,
# where it takes a minute a run; its rows and ratios then read "-"), EXTRA (more tester arguments), TIMEOUT (seconds per process, 1800),
# OUTDIR ($OUT or /tmp/eig_vs_lapack).
set -uo pipefail
n=${N:-4096} reps=${REPS:-3} warmup=${WARMUP:-1} peer=${PEER:-lapack}
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-}
if [ -z "$build" ]; then  # the build tree next to the sources, else the GPU machine's flat copy
    for c in "$here/../build" "$here/../.gpu-build"; do
        if [ -d "$c" ]; then build=$c; break; fi
    done
fi
build=$(cd "${build:-.}" && pwd)
tester="" lapack_peer=""
for c in "$build/examples/tester/tessera-tester" "$build/tessera-tester"; do [ -x "$c" ] && { tester=$c; break; }; done
for c in "$build/bench/eig_lapack" "$build/eig_lapack"; do [ -x "$c" ] && { lapack_peer=$c; break; }; done
[ -n "$tester" ] || { echo "eig_vs_lapack.sh: no tessera-tester under $build (pass BUILD_DIR)" >&2; exit 2; }
[ -n "$lapack_peer" ] || { echo "eig_vs_lapack.sh: no eig_lapack under $build (build the target eig_lapack)" >&2; exit 2; }
if [ "$peer" = torch ]; then
    default_outdir=/tmp/eig_vs_lapack
    source "$here/gpu_env.sh"  # cd to the repository root, the GPU kit, hermetic StarPU and kernel caches
    export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv 2>/dev/null | tee "$outdir/gpu.txt"
else
    outdir=${OUTDIR:-${OUT:-/tmp/eig_vs_lapack}}
    mkdir -p "$outdir"
    export STARPU_SILENT=1 STARPU_HOME=${STARPU_HOME:-$build/bench-home}
fi
check=--check
[ "$n" -gt 4096 ] && check=--check-random
nb_arg=()
[ -n "${NB:-}" ] && nb_arg=(--nb "$NB")

# flops of jobz $1 (N, V: dsyevd; n, S: dgesdd values only, thin vectors)
flops() { awk -v j="$1" -v n="$n" 'BEGIN {print (j == "V" ? 4 : j == "N" ? 4 / 3 : j == "S" ? 20 / 3 : 8 / 3) * n * n * n}'; }
# median seconds of the csv rows of op $2 in file $1, and the check: pass when every checked row
# passed and at least one was checked ("unchecked" rows are the peer's earlier calls)
summary() {
    local med st
    med=$(awk -F, -v op="$2" '$1 == op {print $7}' "$1" | sort -g |
        awk '{t[NR] = $1} END {if (NR) print (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2)}')
    st=$(awk -F, -v op="$2" '$1 == op {if ($10 ~ /^pass/) p = 1; else if ($10 != "unchecked") bad = 1}
                            END {print (p && !bad ? "pass" : "FAILED")}' "$1")
    echo "${med:--} $st"
}
gflops() { awk -v f="$(flops "$1")" -v t="$2" 'BEGIN {print (t > 0 ? sprintf("%.2f", f / t * 1e-9) : "-")}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print (a > 0 && b > 0 ? sprintf("%.2f", a / b) : "-")}'; }
fmt='%-50s %10s %9s %13s  %s\n'
printf "$fmt" case median_s GFLOP/s LAPACKE/this check | tee "$outdir/table.txt"
row() { printf "$fmt" "$@" | tee -a "$outdir/table.txt"; }
echo "n = $n, $reps runs (median), ours: $check, $(nproc) cores, tester $tester" | tee -a "$outdir/table.txt"

declare -A lapacke_median
status=0
ops=${OPS:-syevd gesdd}
for jobz in ${SYEVD_JOBZ:-N V}; do
    [[ " $ops " == *" syevd "* ]] || break
    # LAPACKE first, then ours: the same matrix (seed 42, lower triangle)
    log="$outdir/lapacke_$jobz" ref="" st=skipped
    if [ -z "${NO_LAPACKE:-}" ]; then
        timeout "${TIMEOUT:-1800}" "$lapack_peer" --n "$n" --jobz "$jobz" --repeat "$reps" ${THREADS:+--threads "$THREADS"} \
            >"$log.csv" 2>"$log.err" || status=1
        read -r ref st < <(summary "$log.csv" lapacke_syevd)
    fi
    lapacke_median[$jobz]=$ref
    row "dsyevd jobz=$jobz: LAPACKE_dsyevd (OpenBLAS)" "$ref" "$(gflops "$jobz" "$ref")" "$(ratio "$ref" "$ref")" "$st"
    log="$outdir/tessera_$jobz"
    timeout "${TIMEOUT:-1800}" "$tester" syevd --n "$n" --jobz "$jobz" "${nb_arg[@]}" --warmup "$warmup" \
        --repeat "$reps" --csv $check ${EXTRA:-} >"$log.csv" 2>"$log.err" || status=1
    read -r t st < <(summary "$log.csv" syevd)
    nb_used=$(awk -F, '$1 == "syevd" {print $6; exit}' "$log.csv")
    row "dsyevd jobz=$jobz: Tessera (nb ${nb_used:-?})" "$t" "$(gflops "$jobz" "$t")" "$(ratio "$ref" "$t")" "$st"
    [ "$st" = pass ] || { status=1; sed 's/^/    /' "$log.err" | tail -n 5; }
done

svd_check=--check
[ "$n" -gt 2048 ] && svd_check=--check-random
for jobz in ${GESDD_JOBZ:-N S}; do
    [[ " $ops " == *" gesdd "* ]] || break
    key=$([ "$jobz" = N ] && echo n || echo S)  # flops()'s key: n is dgesdd's values only
    log="$outdir/lapacke_gesdd_$jobz" ref="" st=skipped
    if [ -z "${NO_LAPACKE:-}" ]; then
        timeout "${TIMEOUT:-1800}" "$lapack_peer" --op gesdd --n "$n" --jobz "$jobz" --repeat "$reps" \
            ${THREADS:+--threads "$THREADS"} >"$log.csv" 2>"$log.err" || status=1
        read -r ref st < <(summary "$log.csv" lapacke_gesdd)
    fi
    lapacke_median[svd$jobz]=$ref
    row "dgesdd jobz=$jobz: LAPACKE_dgesdd (OpenBLAS)" "$ref" "$(gflops "$key" "$ref")" "$(ratio "$ref" "$ref")" "$st"
    log="$outdir/tessera_gesdd_$jobz"
    timeout "${TIMEOUT:-1800}" "$tester" gesdd --n "$n" --jobz "$jobz" "${nb_arg[@]}" --warmup "$warmup" \
        --repeat "$reps" --csv $svd_check ${EXTRA:-} >"$log.csv" 2>"$log.err" || status=1
    read -r t st < <(summary "$log.csv" gesdd)
    nb_used=$(awk -F, '$1 == "gesdd" {print $6; exit}' "$log.csv")
    row "dgesdd jobz=$jobz: Tessera (nb ${nb_used:-?})" "$t" "$(gflops "$key" "$t")" "$(ratio "$ref" "$t")" "$st"
    [ "$st" = pass ] || { status=1; sed 's/^/    /' "$log.err" | tail -n 5; }
done

if [ "$peer" = torch ]; then
    N="$n" REPS="$reps" OPS="$ops" SYEVD_JOBZ="${SYEVD_JOBZ:-N V}" GESDD_JOBZ="${GESDD_JOBZ:-N S}" \
        REF_N="${lapacke_median[N]:-}" REF_V="${lapacke_median[V]:-}" \
        REF_SVDN="${lapacke_median[svdN]:-}" REF_SVDS="${lapacke_median[svdS]:-}" PYTHONUNBUFFERED=1 python3 - <<'PY' \
        2>&1 | tee -a "$outdir/table.txt"
import os, time, torch
n, reps = int(os.environ["N"]), int(os.environ["REPS"])
ops = os.environ["OPS"].split()
ref = {k: float(os.environ.get("REF_" + k) or 0) for k in ("N", "V", "SVDN", "SVDS")}
torch.backends.cuda.matmul.allow_tf32 = False
dev = "cuda"
g = torch.Generator(device=dev).manual_seed(1)
r = torch.rand(n, n, dtype=torch.float64, device=dev, generator=g) - 0.5
a = torch.tril(r) + torch.tril(r, -1).T  # symmetric, entries in [-0.5, 0.5) as the tester's
eps = torch.finfo(torch.float64).eps / 2
norm1 = a.abs().sum(0).max().item()  # = the infinity norm (symmetric)
x = torch.rand(n, 4, dtype=torch.float64, device=dev, generator=g) + 0.5
ax = a @ x
def median(f):
    f()  # warm-up: cuSOLVER's handles and workspaces
    ts = []
    for _ in range(reps):
        torch.cuda.synchronize(); t = time.perf_counter(); out = f(); torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2], out
for jobz in (os.environ["SYEVD_JOBZ"].split() if "syevd" in ops else ()):
    t, out = median((lambda: torch.linalg.eigvalsh(a)) if jobz == "N" else (lambda: torch.linalg.eigh(a)))
    w, z = (out, None) if jobz == "N" else out
    err = (w.sum() - a.diagonal().sum()).abs().item() / (n * norm1 * eps)
    if z is not None:
        res = (ax - z @ (w[:, None] * (z.T @ x))).abs().sum(1).max().item()
        err = max(err, res / (norm1 * x.abs().sum(1).max().item() * n * eps))
    flops = (4 if jobz == "V" else 4 / 3) * n ** 3
    label = f"dsyevd jobz={jobz}: torch.linalg.{'eigvalsh' if jobz == 'N' else 'eigh'} (cuSOLVER)"
    rat = f"{ref[jobz] / t:.2f}" if ref[jobz] > 0 else "-"
    print(f"{label:50s} {t:10.4f} {flops / t * 1e-9:9.2f} {rat:>13s}  {'pass' if err <= 60 else 'FAILED'} ({err:.2g})")
# dgesdd on the general r: Σσ² against ‖A‖_F² and, with thin vectors, A·X against U·(Σ·(Vᵀ·X))
del a, ax
frob2 = (r * r).sum().item()
rx = r @ x
norm_inf = r.abs().sum(1).max().item()
for jobz in (os.environ["GESDD_JOBZ"].split() if "gesdd" in ops else ()):
    t, out = median((lambda: torch.linalg.svdvals(r)) if jobz == "N" else (lambda: torch.linalg.svd(r, full_matrices=False)))
    u, s, vh = (None, out, None) if jobz == "N" else out
    ordered = bool((s[:-1] >= s[1:]).all().item()) and bool((s >= 0).all().item())
    err = abs((s * s).sum().item() - frob2) / (frob2 * n * eps) if ordered else float("inf")
    if u is not None:
        res = (rx - u @ (s[:, None] * (vh @ x))).abs().sum(1).max().item()
        err = max(err, res / (norm_inf * x.abs().sum(1).max().item() * n * eps))
    flops = (20 / 3 if jobz == "S" else 8 / 3) * n ** 3
    label = f"dgesdd jobz={jobz}: torch.linalg.{'svdvals' if jobz == 'N' else 'svd'} (cuSOLVER)"
    r0 = ref["SVD" + jobz]
    rat = f"{r0 / t:.2f}" if r0 > 0 else "-"
    print(f"{label:50s} {t:10.4f} {flops / t * 1e-9:9.2f} {rat:>13s}  {'pass' if err <= 60 else 'FAILED'} ({err:.2g})")
PY
fi
exit $status

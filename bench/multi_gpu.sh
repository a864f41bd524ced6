#!/usr/bin/env bash
# multi_gpu.sh — Tessera on several GPUs of one host (issue 40), in one run, every run checked:
#   1. scaling: one process driving 1, 2, ... OpenCL GPUs (STARPU_NOPENCL=g), dpotrf and dgemm (and
#      dgetrf, dgeqrf: OPS="getrf geqrf", with NB=2048 for geqrf) end to end (tiles in host memory
#      before and after), --check-random; from the profile of the last run, the time each GPU's
#      worker spends per task beyond the kernels (ms/task);
#   2. overhead (OVERHEAD=1): dgemm n=16384 on each GPU count under StarPU settings that change what
#      a worker does between kernels (binding, pipeline, CPU workers, scheduler), with the ms/task;
#   3. capped memory (CAP_RATIO, e.g. 1.3): dpotrf on 1 GPU whose memory is capped by
#      STARPU_LIMIT_OPENCL_MEM so that the triangle it factors is CAP_RATIO times the memory, against
#      the same size uncapped (part 1's 1-GPU row: keep 1 in GPUS);
#   4. distributed (MPI=1): each op on RANKS MPI ranks ("1 2"; "1 2 4" on nvidia-h100-x4) with
#      GPR GPUs each (1; GPR=2 RANKS="1 2" for 2 ranks x 2 GPUs), on a 1xR process grid, each rank
#      driving GPUs [local rank * GPR, + GPR), --check-random, with the bytes each rank sent;
#   5. the reference, for the ops in OPS: cuSOLVER dpotrf, dgetrf, dgeqrf at each size and cuBLAS
#      dgemm (at most n = 32768, which fits one GPU), device-resident, torch, each checked by a
#      randomized residual.
# Prints one table: TFLOP/s (median of REPS runs, the mean of the middle two for an even count,
# after one warm-up run that also calibrates the perfmodels), speed-up over one GPU of the same
# run, ms/task beyond the kernel, check.
#
# Run on the GPU machine from the repository root with .gpu-kit and .gpu-build carried
# (tessera-tester, libtessera.so.0, and for MPI=1 bench's mpi_bandwidth; ../shared/device/README.md):
# bash bench/multi_gpu.sh
# Environment: GPUS ("1 2"; "1 2 4" on nvidia-h100-x4), SIZES ("32768 65536"), OPS ("potrf gemm"),
# NB (4096), REPS (3), GRIDS (device grids to compare on several GPUs, e.g. "1x4 2x2"; default: the
# map's own, 1xN), OVERHEAD (0), CAP_RATIO (0), MPI (0), RANKS ("1 2"), GPR (1), PEER (1),
# OUTDIR ($OUT or /tmp/multi_gpu).
default_outdir=/tmp/multi_gpu
source "$(dirname "$0")/gpu_env.sh"
gpus=${GPUS:-1 2} sizes=${SIZES:-32768 65536} ops=${OPS:-potrf gemm} nb=${NB:-4096} reps=${REPS:-3}
tester=.gpu-build/tessera-tester
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv 2>/dev/null | tee "$outdir/gpu.txt"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# flop counts (square): gemm 2n³, potrf n³/3, getrf 2n³/3, geqrf 4n³/3
flops() {
    awk -v op="$1" -v n="$2" 'BEGIN {c = op == "gemm" ? 2 : op == "getrf" ? 2 / 3 : op == "geqrf" ? 4 / 3 : 1 / 3; print c * n * n * n}'
}
# median TFLOP/s and check status of the tester's csv rows in file $1 (op $2, order $3)
summary() {
    local med st
    med=$(awk -F, -v op="$2" '$1 == op {print $7}' "$1" | sort -g |
        awk '{t[NR] = $1} END {if (NR) print (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2)}')
    st=$(awk -F, -v op="$2" '$1 == op {k++; if ($10 != "pass") bad = 1} END {print (k && !bad ? "pass" : "FAILED")}' "$1")
    if [ -z "$med" ]; then echo "- FAILED"; else awk -v f="$(flops "$2" "$3")" -v m="$med" -v s="$st" 'BEGIN {printf "%.2f %s\n", f / m * 1e-12, s}'; fi
}
# ms per task beyond the kernels over the OpenCL workers of the last profile in file $1
overhead() {
    awk '/^profile/ {n = 0; t = 0; e = 0; k = 0}
         /^  OpenCL [0-9]+ \(/ && NF >= 7 {t += $(NF-4); e += $(NF-3); k += $(NF-2)}
         END {print (t > 0 ? sprintf("%.2f", (e - k) / t * 1e3) : "-")}' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print (b > 0 && a > 0 ? sprintf("%.2f", a / b) : "-")}'; }
printf '%-52s %9s %8s %8s %s\n' case TFLOP/s speedup ms/task check | tee "$outdir/table.txt"
row() { printf '%-52s %9s %8s %8s %s\n' "$@" | tee -a "$outdir/table.txt"; }
# run LOG OP N [tester options...]: one tester process (environment from the caller)
run() {
    local log=$1 op=$2 n=$3
    shift 3
    timeout 590 "$tester" "$op" --n "$n" --nb "$nb" --warmup 1 --repeat "$reps" --csv --check-random --profile "$@" \
        >"$log.csv" 2>"$log.err"
}

for n in $sizes; do
    for op in $ops; do
        one=""
        for g in $gpus; do
            # the device grids to compare (GRIDS="1x2 2x1"), on g GPUs only where P*Q = g
            grids=""
            for pq in ${GRIDS:-}; do [ $((${pq%x*} * ${pq#*x})) = "$g" ] && grids="$grids $pq"; done
            for grid in ${grids:-default}; do
                log="$outdir/${op}_${n}_${g}gpu$([ "$grid" = default ] || echo "_$grid")"
                STARPU_NOPENCL=$g TESSERA_DEVICE_GRID=$([ "$grid" = default ] || echo "$grid") run "$log" "$op" "$n"
                read -r tf st < <(summary "$log.csv" "$op" "$n")
                [ "$g" = 1 ] && one=$tf
                row "d$op n=$n nb=$nb, 1 process, $g GPU$([ "$grid" = default ] || echo ", grid $grid")" "$tf" \
                    "$(ratio "$tf" "$one")" "$(overhead "$log.err")" "$st"
            done
        done
    done
done

if [ "${OVERHEAD:-0}" = 1 ]; then
    # dgemm at n = 16384 (64 tasks of nb = 4096, a few seconds of set-up) on each GPU count
    for g in $gpus; do
        for v in default STARPU_WORKERS_NOBIND=1 STARPU_OPENCL_PIPELINE=1 STARPU_NCPU=1 STARPU_SCHED=dmda; do
            log="$outdir/overhead_${g}gpu_${v//=/_}"
            ([ "$v" = default ] || export "${v?}"; STARPU_NOPENCL=$g reps=2 run "$log" gemm 16384)
            read -r tf st < <(summary "$log.csv" gemm 16384)
            row "dgemm n=16384, $g GPU, $v" "$tf" "" "$(overhead "$log.err")" "$st"
        done
    done
fi

if [ "${CAP_RATIO:-0}" != 0 ]; then
    # One GPU whose memory is capped (STARPU_LIMIT_OPENCL_MEM) so that the tiles dpotrf touches
    # (its triangle) are CAP_RATIO times the memory, at each size, against the same size uncapped.
    for n in $sizes; do
        cap=$(awk -v n="$n" -v b="$nb" -v r="$CAP_RATIO" 'BEGIN {t = int((n + b - 1) / b); printf "%d", t * (t + 1) / 2 * b * b * 8 / 1048576 / r}')
        log="$outdir/potrf_${n}_cap${cap}"
        STARPU_NOPENCL=1 STARPU_LIMIT_OPENCL_MEM=$cap run "$log" potrf "$n"
        read -r tf st < <(summary "$log.csv" potrf "$n")
        one=$(awk -v n="$n" '$1 == "dpotrf" && $2 == "n=" n && / 1 GPU / {print $(NF-3)}' "$outdir/table.txt" | head -n 1)
        row "dpotrf n=$n nb=$nb, 1 GPU capped at $cap MiB (triangle ${CAP_RATIO}x)" "$tf" "$(ratio "$tf" "$one")" \
            "$(overhead "$log.err")" "$st"
        grep -E '^  transfer' "$log.err" | tail -n 2 | sed 's/^/    /' | tee -a "$outdir/table.txt"
    done
fi

if [ "${MPI:-0}" = 1 ]; then
    # R ranks with GPR GPUs each: node-local rank l drives OpenCL devices l*GPR .. l*GPR+GPR-1
    # (STARPU_WORKERS_OPENCLID), and keeps its own StarPU home (bus calibration per device set).
    gpr=${GPR:-1}
    cat >"$outdir/one_home_per_rank.sh" <<SH
#!/usr/bin/env bash
export STARPU_HOME=\$STARPU_HOME/rank\$OMPI_COMM_WORLD_RANK STARPU_NOPENCL=$gpr
export STARPU_WORKERS_OPENCLID=\$(seq -s ' ' \$((OMPI_COMM_WORLD_LOCAL_RANK * $gpr)) \$((OMPI_COMM_WORLD_LOCAL_RANK * $gpr + $gpr - 1)))
mkdir -p "\$STARPU_HOME/.starpu" && cp -rn "\$(dirname "\$STARPU_HOME")/.starpu/." "\$STARPU_HOME/.starpu/" 2>/dev/null
exec "\$@"
SH
    chmod +x "$outdir/one_home_per_rank.sh"
    # what MPI itself moves between two ranks of this host (bench/mpi_bandwidth.cpp)
    [ -x .gpu-build/mpi_bandwidth ] && timeout 60 mpirun -np 2 --oversubscribe --bind-to none .gpu-build/mpi_bandwidth 2>&1 |
        sed 's/^/    /' | tee -a "$outdir/table.txt"
    for n in $sizes; do
        for op in $ops; do
            one=""
            for r in ${RANKS:-1 2}; do
                log="$outdir/${op}_${n}_${r}rank_${gpr}gpu"
                timeout 300 mpirun -np "$r" --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT \
                    -x STARPU_HOSTNAME -x TESSERA_CACHE_DIR "$outdir/one_home_per_rank.sh" "$tester" "$op" --n "$n" --nb "$nb" \
                    --grid "1x$r" --warmup 1 --repeat "$reps" --csv --check-random --comm --describe >"$log.csv" 2>"$log.err"
                read -r tf st < <(summary "$log.csv" "$op" "$n")
                [ -z "$one" ] && one=$tf
                row "d$op n=$n nb=$nb, $r rank(s) x $gpr GPU" "$tf" "$(ratio "$tf" "$one")" "" "$st"
                grep '^comm' "$log.err" | tail -n 3 | sed 's/^/    /' | tee -a "$outdir/table.txt"
            done
        done
    done
fi

[ "${PEER:-1}" = 1 ] && OPS="$ops" PYTHONUNBUFFERED=1 python3 - $sizes <<'PY' 2>&1 | tee -a "$outdir/table.txt"
import os, sys, time, torch
torch.backends.cuda.matmul.allow_tf32 = False
def median(f, reps=3):
    ts = []
    for _ in range(reps + 1):
        torch.cuda.synchronize(); t = time.perf_counter(); f(); torch.cuda.synchronize(); ts.append(time.perf_counter() - t)
    ts = sorted(ts[1:]); return ts[len(ts) // 2]
def symv_lower(a, x, bs=8192):  # y = A·x with A symmetric, stored in its lower triangle (no n×n temporary)
    n = a.shape[0]; y = torch.zeros_like(x)
    for i in range(0, n, bs):
        for j in range(0, i + bs, bs):
            blk = a[i:i + bs, j:j + bs]
            if i == j: y[i:i + bs] += (torch.tril(blk) + torch.tril(blk, -1).T) @ x[j:j + bs]
            elif j < i: y[i:i + bs] += blk @ x[j:j + bs]; y[j:j + bs] += blk.T @ x[i:i + bs]
    return y
ops = os.environ.get("OPS", "potrf gemm").split()
def tri_mv(f, x, part, bs=8192):  # U·x, strictly-lower L·x, or Uᵀ·x of the factors f, by row blocks
    n = f.shape[0]; y = torch.zeros_like(x)
    for i in range(0, n, bs):
        if part == "U": y[i:i + bs] = torch.triu(f[i:i + bs], i) @ x
        elif part == "L": y[i:i + bs] = torch.tril(f[i:i + bs], i - 1) @ x
        else: y += torch.triu(f[i:i + bs], i).T @ x[i:i + bs]
    return y
done_gemm = set()
for n in map(int, sys.argv[1:]):
    g = min(n, 32768)
    if "gemm" in ops and g not in done_gemm:
        done_gemm.add(g)
        a = torch.rand(g, g, dtype=torch.float64, device="cuda"); b = torch.rand(g, g, dtype=torch.float64, device="cuda")
        t = median(lambda: a @ b)
        print(f"{'cuBLAS dgemm n=%d (1 GPU, resident)' % g:52s} {2 * g**3 / t * 1e-12:9.2f}", flush=True)
        del a, b
    if "potrf" in ops:
        # lower triangle random in [0, 1), diagonal + n: symmetric diagonally dominant, so SPD
        s = torch.rand(n, n, dtype=torch.float64, device="cuda"); s.diagonal().add_(n)
        l = torch.linalg.cholesky(s)
        t = median(lambda: torch.linalg.cholesky(s, out=l))
        x = torch.rand(n, 1, dtype=torch.float64, device="cuda")
        ax = symv_lower(s, x)
        res = (ax - l @ (l.T @ x)).norm() / (n * ax.norm() * 2.2e-16)
        print(f"{'cuSOLVER dpotrf n=%d (1 GPU, resident)' % n:52s} {n**3 / 3 / t * 1e-12:9.2f}          residual {res.item():.2g}", flush=True)
        del s, l, x
    for op in ("getrf", "geqrf"):
        if op not in ops:
            continue
        a = torch.rand(n, n, dtype=torch.float64, device="cuda") * 2 - 1
        f = (lambda: torch.linalg.lu_factor(a)) if op == "getrf" else (lambda: torch.geqrf(a))
        t = median(f)
        out = f()
        # randomized residual ||A x - F x|| / (n ||A x|| eps), F applying the factors (P L U, or
        # R^T R for A^T A), triangles taken by row blocks (no second n×n matrix)
        x = torch.rand(n, 1, dtype=torch.float64, device="cuda") + 0.5
        ax = a @ x
        if op == "getrf":
            lu, piv = out
            perm = list(range(n))
            for i, j in enumerate((piv.cpu() - 1).tolist()):
                perm[i], perm[j] = perm[j], perm[i]
            y = tri_mv(lu, x, "U")
            y = tri_mv(lu, y, "L") + y
            res = (ax[torch.tensor(perm, device="cuda")] - y).norm() / (n * ax.norm() * 2.2e-16)
        else:
            aax = a.T @ ax
            y = tri_mv(out[0], tri_mv(out[0], x, "U"), "UT")
            res = (aax - y).norm() / (n * aax.norm() * 2.2e-16)
        c = 2 / 3 if op == "getrf" else 4 / 3
        print(f"{'cuSOLVER d%s n=%d (1 GPU, resident)' % (op, n):52s} {c * n**3 / t * 1e-12:9.2f}          residual {res.item():.2g}", flush=True)
        del a, out, x, ax, y
        torch.cuda.empty_cache()
    torch.cuda.empty_cache()
PY
tar czf "$outdir/models.tgz" -C "$STARPU_HOME/.starpu" sampling 2>/dev/null
# the OpenCL program cache, to carry as .gpu-cl (tar xzf cl.tgz -C .gpu-cl)
tar czf "$outdir/cl.tgz" -C "$(dirname "$TESSERA_CACHE_DIR")" "$(basename "$TESSERA_CACHE_DIR")" 2>/dev/null

#!/usr/bin/env bash
# multi_gpu.sh — Tessera on two GPUs of one host (issue: two GPUs), in one run, checked:
#   1. one process driving 1 and then 2 OpenCL GPUs (STARPU_NOPENCL), dgemm and dpotrf end to end
#      (tiles in host memory before and after), --check-random, with the profile of the 2-GPU runs;
#   2. dpotrf on 2 MPI ranks with one GPU each (StarPU-MPI, grid 1x2, STARPU_WORKERS_OPENCLID set per
#      rank), --check (the O(n^3) residual on rank 0) and --comm, next to 1 rank with 1 GPU;
#   3. the reference: cuSOLVER dpotrf and cuBLAS dgemm on one GPU (torch), device-resident, same sizes.
# Prints one table: TFLOP/s (medians of REPS runs after a warm-up that also calibrates the
# perfmodels), the speed-up over one GPU of the same run, and the check.
#
# Run on the GPU machine from the repository root with .gpu-kit and .gpu-build carried
# (tessera-tester, libtessera.so.0; ../shared/device/README.md): bash bench/multi_gpu.sh
# Environment: N (32768), NB (4096), REPS (3), OUTDIR ($OUT or /tmp/multi_gpu).
# Status: run here on CPUs only (N=1000: the table, the per-rank wrapper and the checks work); not
# yet run on nvidia-h200-x2.
default_outdir=/tmp/multi_gpu
source "$(dirname "$0")/gpu_env.sh"
n=${N:-32768} nb=${NB:-4096} reps=${REPS:-3}
tester=.gpu-build/tessera-tester
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv 2>/dev/null | tee "$outdir/gpu.txt"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
flops() { awk -v op="$1" -v n="$n" 'BEGIN {print (op == "gemm" ? 2 * n * n * n : n * n * n / 3)}'; }
# median TFLOP/s and check status of the tester's csv rows in file $1 (op $2)
summary() {
    local med st
    med=$(awk -F, -v op="$2" '$1 == op {print $7}' "$1" | sort -g | awk '{t[NR] = $1} END {if (NR) print t[int((NR + 1) / 2)]}')
    st=$(awk -F, -v op="$2" '$1 == op {k++; if ($10 != "pass") bad = 1} END {print (k && !bad ? "pass" : "FAILED")}' "$1")
    if [ -z "$med" ]; then echo "- FAILED"; else awk -v f="$(flops "$2")" -v m="$med" -v s="$st" 'BEGIN {printf "%.2f %s\n", f / m * 1e-12, s}'; fi
}
printf '%-34s %9s %8s %s\n' case TFLOP/s speedup check | tee "$outdir/table.txt"
row() { printf '%-34s %9s %8s %s\n' "$1" "$2" "$3" "$4" | tee -a "$outdir/table.txt"; }
for op in potrf gemm; do
    one=""
    for g in 1 2; do
        log="$outdir/${op}_${g}gpu"
        STARPU_NOPENCL=$g timeout 400 "$tester" "$op" --n "$n" --nb "$nb" --warmup 1 --repeat "$reps" --csv \
            --check-random $([ "$g" = 2 ] && echo --profile) >"$log.csv" 2>"$log.err"
        read -r tf st < <(summary "$log.csv" "$op")
        [ "$g" = 1 ] && one=$tf
        row "d$op n=$n nb=$nb, 1 process, $g GPU" "$tf" "$(awk -v a="$tf" -v b="$one" 'BEGIN {print (b > 0 ? sprintf("%.2f", a / b) : "-")}')" "$st"
    done
done
# Two ranks, one GPU each: every rank sees both GPUs and keeps the one of its rank.
cat >"$outdir/one_gpu_per_rank.sh" <<'SH'
#!/usr/bin/env bash
export STARPU_NOPENCL=1 STARPU_WORKERS_OPENCLID=${OMPI_COMM_WORLD_RANK:-0}
export STARPU_HOME=$STARPU_HOME/rank$OMPI_COMM_WORLD_RANK
mkdir -p "$STARPU_HOME/.starpu" && cp -rn "$(dirname "$STARPU_HOME")/.starpu/." "$STARPU_HOME/.starpu/" 2>/dev/null
exec "$@"
SH
chmod +x "$outdir/one_gpu_per_rank.sh"
one=""
for r in 1 2; do
    log="$outdir/potrf_${r}rank"
    grid=$([ "$r" = 1 ] && echo 1x1 || echo 1x2)
    timeout 500 mpirun -np "$r" --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT \
        -x STARPU_HOSTNAME -x TESSERA_CACHE_DIR "$outdir/one_gpu_per_rank.sh" "$tester" potrf --n "$n" --nb "$nb" \
        --grid "$grid" --warmup 1 --repeat "$reps" --csv --comm >"$log.csv" 2>"$log.err"
    timeout 500 mpirun -np "$r" --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT \
        -x STARPU_HOSTNAME -x TESSERA_CACHE_DIR "$outdir/one_gpu_per_rank.sh" "$tester" potrf --n "$n" --nb "$nb" \
        --grid "$grid" --check --csv >"$log.check.csv" 2>>"$log.err"
    read -r tf _ < <(summary "$log.csv" potrf)
    read -r _ st < <(summary "$log.check.csv" potrf)
    [ "$r" = 1 ] && one=$tf
    row "dpotrf n=$n nb=$nb, $r rank(s) x 1 GPU" "$tf" "$(awk -v a="$tf" -v b="$one" 'BEGIN {print (b > 0 ? sprintf("%.2f", a / b) : "-")}')" "$st"
    grep '^comm' "$log.err" | tail -n 3 | sed 's/^/    /' | tee -a "$outdir/table.txt"
done
PYTHONUNBUFFERED=1 python3 - "$n" "$reps" <<'PY' 2>&1 | tee -a "$outdir/table.txt"
import sys, time, torch
n, reps = int(sys.argv[1]), int(sys.argv[2])
torch.backends.cuda.matmul.allow_tf32 = False
def median(f):
    ts = []
    for _ in range(reps + 1):
        torch.cuda.synchronize(); t = time.perf_counter(); f(); torch.cuda.synchronize(); ts.append(time.perf_counter() - t)
    ts = sorted(ts[1:]); return ts[len(ts) // 2]
a = torch.rand(n, n, dtype=torch.float64, device="cuda")
b = torch.rand(n, n, dtype=torch.float64, device="cuda")
t = median(lambda: a @ b)
print(f"{'cuBLAS dgemm n=%d (1 GPU, resident)' % n:34s} {2 * n**3 / t * 1e-12:9.2f}")
del b
s = a @ a.T / n + torch.eye(n, dtype=torch.float64, device="cuda"); del a
l = torch.linalg.cholesky(s)
x = torch.rand(n, 1, dtype=torch.float64, device="cuda")
res = (s @ x - l @ (l.T @ x)).norm() / (n * s.norm() * x.norm() * 2.2e-16)
t = median(lambda: torch.linalg.cholesky(s))
print(f"{'cuSOLVER dpotrf n=%d (1 GPU, resident)' % n:34s} {n**3 / 3 / t * 1e-12:9.2f}          residual {res.item():.2g}")
PY
tar czf "$outdir/models.tgz" -C "$STARPU_HOME/.starpu" sampling 2>/dev/null

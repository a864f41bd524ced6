#!/usr/bin/env bash
# gpu_gemm.sh — Tessera's OpenCL dgemm/sgemm (NVIDIA path, kernels/opencl/gemm_nv.cl) on device-resident
# data next to cuBLAS (the machine's python3 + torch, TF32 off) and CLBlast, for n = SIZES; checked
# (sampled entries against a long-double dot product; cuBLAS against float64 on the GPU); medians of
# REPS batches. Prints one table: TFLOP/s ours / cuBLAS / CLBlast and the ratios.
#
# Run on the GPU machine from the repository root, after building here and copying
#   build/bench/gpu_gemm and build/libtessera.so* into .gpu-build/ (carry .gpu-kit and .gpu-build):
#   source .gpu-kit/env.sh; bench/gpu_gemm.sh
# Environment: SIZES (default 1024,2048,4096,8192), REPS (5), GPU_GEMM_BIN (.gpu-build/gpu_gemm),
#   VARIANTS_D / VARIANTS_S ('|'-separated extra build options to compare, e.g.
#   "-DTESSERA_NVD_MMA=884|-DTESSERA_NVD_MMA=1688"; empty = the library's defaults only),
#   PRECS (d,s), FORMS (nn; nn,nt,tn also times C = A·Bᵀ and C = Aᵀ·B, ours and cuBLAS),
#   MICRO=1 (also measure FP64 and TF32 mma.sync throughput per shape), CHECK=0 (skip the full case check),
#   TASK_SHAPES (default 512,1024,2048; empty = skip): also time the tile operations the task graphs
#   submit at these nb, ours (.gpu-build/gpu_task_shapes, library defaults) and cuBLAS, checked, in a
#   second table (bench/gpu_task_shapes.py says what is compared with what); TASK_VARIANTS
#   ('|'-separated build options, as VARIANTS_D) times them again with each and prints a table per
#   variant (cuBLAS timed once),
#   OUTDIR (where logs go; default $OUT if set, else /tmp/gpu_gemm).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPU_GEMM_BIN:-.gpu-build/gpu_gemm}
sizes=${SIZES:-1024,2048,4096,8192}
reps=${REPS:-5}
precs=${PRECS:-d,s}
forms=${FORMS:-nn}
outdir=${OUTDIR:-${OUT:-/tmp/gpu_gemm}}
mkdir -p "$outdir"
export LD_LIBRARY_PATH="$(cd "$(dirname "$bin")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit \
    --format=csv 2>/dev/null | tee "$outdir/gpu.txt"

variant_args() {  # '|'-separated list -> --variant OPTS ...
    local IFS='|'
    for v in $1; do printf '%s\0' --variant "$v"; done
}
mapfile -d '' vd < <(variant_args "${VARIANTS_D:-}")
mapfile -d '' vs < <(variant_args "${VARIANTS_S:-}")

: > "$outdir/ours.txt"
[ "${MICRO:-0}" = 1 ] && "$bin" --micro 2>&1 | tee -a "$outdir/ours.txt"
has() { case ",$precs," in *",$1,"*) return 0;; esac; return 1; }
if [ "${CHECK:-1}" = 1 ]; then
    has d && "$bin" --check --prec d "${vd[@]}" 2>&1 | tee -a "$outdir/ours.txt"
    has s && "$bin" --check --prec s "${vs[@]}" 2>&1 | tee -a "$outdir/ours.txt"
fi
has d && "$bin" --bench --clblast --prec d --sizes "$sizes" --forms "$forms" --reps "$reps" "${vd[@]}" 2>&1 | tee -a "$outdir/ours.txt"
has s && "$bin" --bench --clblast --prec s --sizes "$sizes" --forms "$forms" --reps "$reps" "${vs[@]}" 2>&1 | tee -a "$outdir/ours.txt"

PYTHONUNBUFFERED=1 python3 - "$sizes" "$reps" "$precs" "$forms" > "$outdir/cublas.txt" 2>&1 <<'PY'
import sys, torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
sizes = [int(s) for s in sys.argv[1].split(",")]
reps = int(sys.argv[2])
print("torch", torch.__version__, torch.cuda.get_device_name(0))
g = torch.Generator(device="cuda").manual_seed(0)
precs = sys.argv[3].split(",")
forms = sys.argv[4].split(",")
for dt, p in ((torch.float64, "d"), (torch.float32, "s")):
  if p not in precs: continue
  for form in forms:
    tag = p + ("" if form == "nn" else form)   # nt: C = A·Bᵀ, tn: C = Aᵀ·B (cuBLAS with one operand transposed)
    for n in sizes:
        a = torch.rand(n, n, dtype=dt, device="cuda", generator=g) * 2 - 1
        b = torch.rand(n, n, dtype=dt, device="cuda", generator=g) * 2 - 1
        if form == "nt": b = b.t()
        if form == "tn": a = a.t()
        c = torch.empty(n, n, dtype=dt, device="cuda")
        per = 20 if n <= 1024 else 10 if n <= 2048 else 4 if n <= 4096 else 2
        for _ in range(3):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        ts = []
        for _ in range(reps):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(per):
                torch.matmul(a, b, out=c)
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e) / 1e3 / per)
        t = sorted(ts)[len(ts) // 2]
        # check 64 rows against float64 (relative to |A||B|, in units of the precision's eps)
        rows = torch.randint(0, n, (64,), device="cuda", generator=g)
        ref = a[rows].double() @ b.double()
        mag = a[rows].double().abs() @ b.double().abs()
        eps = torch.finfo(dt).eps / 2
        res = ((c[rows].double() - ref).abs() / (mag * n * eps)).max().item()
        print(f"CUBLAS {tag} {n} {2*n**3/t*1e-12:8.2f} TFLOP/s  {t*1e3:.3f} ms  check={res:.3g} {'ok' if res <= 60 else 'FAILED'}")
        del a, b, c
        torch.cuda.empty_cache()
PY
cat "$outdir/cublas.txt"

python3 - "$outdir/ours.txt" "$outdir/cublas.txt" <<'PY' | tee "$outdir/table.txt"
import sys
res, clb, cub, bad = {}, {}, {}, []   # res[(prec, variant)][n] = TFLOP/s (checked runs only)
for line in open(sys.argv[1]):
    f = line.split()
    if line.startswith("RESULT") and len(f) >= 6 and f[2].isdigit():
        if not line.rstrip().endswith("ok"):
            bad.append(line.strip()); continue
        res.setdefault((f[1], f[3]), {})[int(f[2])] = float(f[4])
    elif line.startswith("CLBLAST") and len(f) >= 5 and f[2].isdigit():
        clb[(f[1], int(f[2]))] = float(f[3])
for line in open(sys.argv[2]):
    f = line.split()
    if line.startswith("CUBLAS"):
        cub[(f[1], int(f[2]))] = float(f[3])
nan = float("nan")
print()
print(f"{'':8} {'n':>6} {'ours':>8} {'cuBLAS':>8} {'CLBlast':>8} {'ours/cuBLAS':>12} {'ours/CLBlast':>13}")
chosen = {}
for prec in ("d", "dnt", "dtn", "s", "snt", "stn"):
    vs = {v: r for (p, v), r in res.items() if p == prec}
    if not vs: continue
    top = max(max(r) for r in vs.values())
    v = max(vs, key=lambda v: vs[v].get(top, 0))   # one configuration: the best at the largest n
    chosen[prec] = v
    for n in sorted(set(vs[v]) | {k[1] for k in cub if k[0] == prec}):
        o, c, l = vs[v].get(n, nan), cub.get((prec, n), nan), clb.get((prec, n), nan)
        print(f"{prec[0]+'gemm'+prec[1:]:8} {n:6d} {o:8.2f} {c:8.2f} {l:8.2f} {o/c:12.2f} {o/l:13.2f}")
print("TFLOP/s on device-resident data, medians of batches, results checked.")
for prec, v in chosen.items():
    print(f"ours ({prec}gemm) = {v}")
if len(res) > len(chosen):
    print("\nAll checked variants (TFLOP/s by n):")
    for (prec, v), r in sorted(res.items()):
        print(f"  {prec} {v:45} " + "  ".join(f"{n}:{t:6.2f}" for n, t in sorted(r.items())))
for b in bad: print("NOT OK:", b)
PY

shapes=${TASK_SHAPES-512,1024,2048}
if [ -n "$shapes" ]; then
    "$(dirname "$bin")/gpu_task_shapes" --prec "$precs" --nb "$shapes" --reps "$reps" > "$outdir/shapes.txt" 2>&1
    PYTHONUNBUFFERED=1 python3 "$here/gpu_task_shapes.py" cublas "$shapes" "$reps" "$precs" > "$outdir/cushapes.txt" 2>&1
    cat "$outdir/shapes.txt" "$outdir/cushapes.txt"
    python3 "$here/gpu_task_shapes.py" table "$outdir/shapes.txt" "$outdir/cushapes.txt" | tee "$outdir/shapes_table.txt"
    i=0
    IFS='|' read -r -a tvs <<< "${TASK_VARIANTS:-}"
    for v in "${tvs[@]}"; do
        [ -n "$v" ] || continue
        i=$((i + 1))
        echo; echo "Task shapes, variant $i: $v" | tee "$outdir/shapes_table_$i.txt"
        "$(dirname "$bin")/gpu_task_shapes" --prec "$precs" --nb "$shapes" --reps "$reps" --variant "$v" \
            > "$outdir/shapes_$i.txt" 2>&1
        cat "$outdir/shapes_$i.txt"
        python3 "$here/gpu_task_shapes.py" table "$outdir/shapes_$i.txt" "$outdir/cushapes.txt" | tee -a "$outdir/shapes_table_$i.txt"
    done
fi

#!/usr/bin/env bash
# lapack_preload.sh — an unmodified numpy (Debian's python3-numpy, OpenBLAS through the alternatives
# system) with and without LD_PRELOAD=libtessera_lapack.so, in one run: numpy.linalg.cholesky
# (xPOTRF) and numpy.linalg.solve (xGESV, one right-hand side) at n = 8192, the median of REPS calls
# in each process, every call checked (Cholesky: ‖L·Lᵀ − A‖₁/(n‖A‖₁eps) on a random sample of
# 64 columns; solve: ‖b − A·x‖₁/(‖A‖₁‖x‖₁ n eps), both below 30, LAPACK's threshold). The preloaded
# run must show its calls on Tessera (TESSERA_LAPACK_VERBOSE=1); its first call also starts the
# Runtime, reported apart. Prints one table: median seconds, GFLOP/s (n³/3, 2n³/3) and the speed-up
# plain / preload (> 1: faster under LD_PRELOAD). On a shared machine compare ratios of one run.
#   bash bench/lapack_preload.sh [BUILD_DIR]
# Environment: N (8192), REPS (3), PYTHON (/usr/bin/python3), TIMEOUT (seconds per process, 900).
set -uo pipefail
n=${N:-8192} reps=${REPS:-3} py=${PYTHON:-/usr/bin/python3} timeout=${TIMEOUT:-900}
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$(cd "$build" && pwd)/lapack_abi/libtessera_lapack.so
[ -e "$lib" ] || { echo "no $lib: build the tessera_lapack target first"; exit 2; }
"$py" -c "import numpy" 2>/dev/null || { echo "$py has no numpy (Debian: apt-get install python3-numpy)"; exit 2; }
home=$(mktemp -d /tmp/lapack_preload.XXXXXX)
trap 'rm -rf "$home"' EXIT
cat > "$home/run.py" <<'PY'
import sys, time, json
import numpy as np
n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(8192)
r = rng.uniform(-1, 1, (n, n))
spd = (r + r.T) / 2 + n * np.eye(n)           # diagonally dominant: SPD, O(n²) to build
a = r + np.sqrt(n) * np.eye(n)
b = rng.uniform(-1, 1, n)
eps = np.finfo(float).eps
nrm = lambda x: np.linalg.norm(x, 1)
out = {}
for op in ("cholesky", "solve"):
    times, worst = [], 0.0
    for _ in range(reps + (1 if len(sys.argv) > 3 else 0)):  # preload: one more, the Runtime's start
        t = time.perf_counter()
        x = np.linalg.cholesky(spd) if op == "cholesky" else np.linalg.solve(a, b)
        times.append(time.perf_counter() - t)
        if op == "cholesky":
            cols = rng.choice(n, 64, replace=False)
            ratio = nrm(x @ x[cols].T - spd[:, cols]) / (n * nrm(spd) * eps)
        else:
            ratio = nrm(b - a @ x) / (nrm(a) * nrm(x) * n * eps)
        worst = max(worst, ratio)
    first = times.pop(0) if len(sys.argv) > 3 else None
    out[op] = {"median": float(np.median(times)), "first": first, "ratio": worst}
print(json.dumps(out))
PY
run() {  # run MODE: the JSON line of one process
    if [ "$1" = preload ]; then
        env STARPU_HOME="$home" STARPU_SILENT=1 TESSERA_LAPACK_VERBOSE=1 LD_PRELOAD="$lib" \
            timeout "$timeout" "$py" "$home/run.py" "$n" "$reps" first 2> "$home/preload.err"
    else
        timeout "$timeout" "$py" "$home/run.py" "$n" "$reps" 2> "$home/plain.err"
    fi
}
plain=$(run plain) || { echo "plain run failed:"; cat "$home/plain.err"; exit 1; }
pre=$(run preload) || { echo "preloaded run failed:"; cat "$home/preload.err"; exit 1; }
on_tessera=$(grep -c "tessera_lapack: d\(potrf\|gesv\) n=$n tessera" "$home/preload.err")
"$py" - "$n" "$plain" "$pre" "$on_tessera" "$((2 * (reps + 1)))" <<'PY'
import sys, json
n, plain, pre, on, expected = int(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
flops = {"cholesky": n**3 / 3, "solve": 2 * n**3 / 3}
print(f"n = {n}; median seconds; {on} of {expected} preloaded calls on Tessera")
print(f"| call | plain numpy (OpenBLAS) | LD_PRELOAD libtessera_lapack | speed-up | first preloaded call (Runtime start) | check |")
print("| --- | ---: | ---: | ---: | ---: | --- |")
ok = on == expected
for op in ("cholesky", "solve"):
    p, q = plain[op], pre[op]
    good = p["ratio"] < 30 and q["ratio"] < 30
    ok &= good
    print(f"| numpy.linalg.{op} | {p['median']:.3f} s ({flops[op] / p['median'] / 1e9:.1f} GFLOP/s) | "
          f"{q['median']:.3f} s ({flops[op] / q['median'] / 1e9:.1f} GFLOP/s) | {p['median'] / q['median']:.2f}x | "
          f"{q['first']:.3f} s | {'pass' if good else 'FAIL'} (ratios {p['ratio']:.2g}, {q['ratio']:.2g}) |")
sys.exit(0 if ok else 1)
PY

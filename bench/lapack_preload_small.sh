#!/usr/bin/env bash
# lapack_preload_small.sh — the cost of libtessera_lapack for calls below the thresholds: Debian's
# numpy solving, factoring (cholesky) and QR-factoring 64×64 matrices (N), plain and under
# LD_PRELOAD=libtessera_lapack.so in one run, every call going through the interposer to the next
# LAPACK. Each process times REPS batches of CALLS calls per operation, each result checked
# (‖b − A·x‖, ‖L·Lᵀ − A‖, ‖Q·R − A‖ against n·eps·‖A‖ scale), and reports the median microseconds
# per call; the table gives preload / plain (the issue's goal: ≤ 1.1).
#   bash bench/lapack_preload_small.sh [BUILD_DIR]
# Environment: N (64), CALLS (2000), REPS (5), PYTHON (/usr/bin/python3).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$(cd "$build" && pwd)/lapack_abi/libtessera_lapack.so
py=${PYTHON:-/usr/bin/python3}
[ -e "$lib" ] || { echo "no $lib: build the tessera_lapack target first"; exit 2; }
home=$(mktemp -d /tmp/lapack_preload_small.XXXXXX)
trap 'rm -rf "$home"' EXIT
cat > "$home/run.py" <<'PY'
import sys, time, json
import numpy as np
n, calls, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(64)
a = rng.uniform(-1, 1, (n, n)) + n * np.eye(n)
b = rng.uniform(-1, 1, n)
spd = a @ a.T
eps = np.finfo(float).eps
ops = {"solve": lambda: np.linalg.solve(a, b), "cholesky": lambda: np.linalg.cholesky(spd), "qr": lambda: np.linalg.qr(a)}
def ok(op, r):
    if op == "solve": return np.linalg.norm(b - a @ r) <= 100 * n * eps * np.linalg.norm(a) * np.linalg.norm(r)
    if op == "cholesky": return np.linalg.norm(r @ r.T - spd) <= 100 * n * eps * np.linalg.norm(spd)
    return np.linalg.norm(r[0] @ r[1] - a) <= 100 * n * eps * np.linalg.norm(a)
out = {}
for op, f in ops.items():
    good, times = ok(op, f()), []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(calls): r = f()
        times.append((time.perf_counter() - t) / calls)
        good = good and ok(op, r)
    out[op] = {"us": float(np.median(times)) * 1e6, "ok": bool(good)}
print(json.dumps(out))
PY
args=("${N:-64}" "${CALLS:-2000}" "${REPS:-5}")
plain=$("$py" "$home/run.py" "${args[@]}") || { echo "plain run failed"; exit 1; }
pre=$(env STARPU_HOME="$home" STARPU_SILENT=1 LD_PRELOAD="$lib" "$py" "$home/run.py" "${args[@]}") ||
    { echo "preloaded run failed"; exit 1; }
"$py" - "${N:-64}" "$plain" "$pre" <<'PY'
import sys, json
n, plain, pre = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(f"n = {n}; median microseconds per numpy call")
print("| call | plain numpy | LD_PRELOAD libtessera_lapack | preload / plain | check |")
print("| --- | ---: | ---: | ---: | --- |")
ok = True
for op in plain:
    p, q = plain[op], pre[op]
    good = p["ok"] and q["ok"]
    ok &= good
    print(f"| numpy.linalg.{op} | {p['us']:.1f} | {q['us']:.1f} | {q['us'] / p['us']:.2f} | {'pass' if good else 'FAIL'} |")
sys.exit(0 if ok else 1)
PY

#!/usr/bin/env bash
# lapack_preload.sh — an unmodified numpy (Debian's python3-numpy, OpenBLAS through the alternatives
# system) with and without LD_PRELOAD=libtessera_lapack.so, in one run: numpy.linalg.cholesky
# (xPOTRF) and numpy.linalg.solve (xGESV, one right-hand side) at n = 8192, the median of REPS calls
# in each process, every call checked (Cholesky: ‖L·Lᵀ − A‖₁/(n‖A‖₁eps) on a random sample of
# 64 columns; solve: ‖b − A·x‖₁/(‖A‖₁‖x‖₁ n eps), both below 30, LAPACK's threshold), and
# numpy.linalg.qr (mode 'reduced': xGEQRF then xORGQR) of a QR_M×QR_N matrix (16384×4096), checked by
# ‖A − Q·R‖₁/(n‖A‖₁eps) and ‖I − QᵀQ‖₁/(m eps) on a random sample of 64 columns. The preloaded
# run must show its calls on Tessera (TESSERA_LAPACK_VERBOSE=1); its first call also starts the
# Runtime, reported apart (qr's first call is a warm-up: the Runtime has started). Prints one table:
# median seconds of the whole numpy call, GFLOP/s (n³/3, 2n³/3; qr 4mn² − 4n³/3, LAPACK Working
# Note 41's xGEQRF + xORGQR) and the speed-up plain / preload (> 1: faster under LD_PRELOAD); then,
# per call, the median seconds inside the LAPACK routines (the rest of a numpy call is its own
# copies): Tessera's (the preloaded run's verbose lines) and, unless INSIDE=0, the next library's,
# timed by the interposer in a third process that passes every call on (TESSERA_LAPACK_MIN_N above
# n). On a shared machine compare ratios of one run.
#   bash bench/lapack_preload.sh [BUILD_DIR]
# Environment: N (8192), QR_M (16384), QR_N (4096), OPS ("cholesky solve qr"), REPS (3),
# PYTHON (/usr/bin/python3), TIMEOUT (seconds per process, 1800), INSIDE (1).
set -uo pipefail
n=${N:-8192} reps=${REPS:-3} py=${PYTHON:-/usr/bin/python3} timeout=${TIMEOUT:-1800}
qm=${QR_M:-16384} qn=${QR_N:-4096} ops=${OPS:-cholesky solve qr}
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
n, reps, qm, qn, ops, preload = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(), len(sys.argv) > 6
rng = np.random.default_rng(8192)
eps = np.finfo(float).eps
nrm = lambda x: np.linalg.norm(x, 1)
if "cholesky" in ops or "solve" in ops:
    r = rng.uniform(-1, 1, (n, n))
    spd = (r + r.T) / 2 + n * np.eye(n)           # diagonally dominant: SPD, O(n²) to build
    a = r + np.sqrt(n) * np.eye(n)
    b = rng.uniform(-1, 1, n)
if "qr" in ops:
    t = rng.uniform(-1, 1, (qm, qn))
out = {}
for op in ops:
    times, worst = [], 0.0
    for _ in range(reps + (1 if preload else 0)):  # preload: one more, the Runtime's start
        start = time.perf_counter()
        x = np.linalg.cholesky(spd) if op == "cholesky" else np.linalg.solve(a, b) if op == "solve" else np.linalg.qr(t)
        times.append(time.perf_counter() - start)
        if op == "cholesky":
            cols = rng.choice(n, 64, replace=False)
            ratio = nrm(x @ x[cols].T - spd[:, cols]) / (n * nrm(spd) * eps)
        elif op == "solve":
            ratio = nrm(b - a @ x) / (nrm(a) * nrm(x) * n * eps)
        else:
            q, rr = x
            cols = rng.choice(qn, 64, replace=False)
            ratio = max(nrm(t[:, cols] - q @ rr[:, cols]) / (qn * nrm(t) * eps),
                        nrm(np.eye(64) - q[:, cols].T @ q[:, cols]) / (qm * eps))
        del x
        worst = max(worst, ratio)
    first = times.pop(0) if preload else None
    out[op] = {"median": float(np.median(times)), "first": first, "ratio": worst}
print(json.dumps(out))
PY
run() {  # run MODE: the JSON line of one process
    if [ "$1" = preload ]; then
        env STARPU_HOME="$home" STARPU_SILENT=1 TESSERA_LAPACK_VERBOSE=1 LD_PRELOAD="$lib" \
            timeout "$timeout" "$py" "$home/run.py" "$n" "$reps" "$qm" "$qn" "$ops" first 2> "$home/preload.err"
    elif [ "$1" = passed ]; then  # every call passed on to the next library, timed by the interposer
        env TESSERA_LAPACK_MIN_N=1000000000 TESSERA_LAPACK_VERBOSE=1 LD_PRELOAD="$lib" \
            timeout "$timeout" "$py" "$home/run.py" "$n" "$reps" "$qm" "$qn" "$ops" 2> "$home/passed.err"
    else
        timeout "$timeout" "$py" "$home/run.py" "$n" "$reps" "$qm" "$qn" "$ops" 2> "$home/plain.err"
    fi
}
plain=$(run plain) || { echo "plain run failed:"; cat "$home/plain.err"; exit 1; }
pre=$(run preload) || { echo "preloaded run failed:"; cat "$home/preload.err"; exit 1; }
: > "$home/passed.err"
if [ "${INSIDE:-1}" != 0 ]; then
    run passed > /dev/null || { echo "passed-on run failed:"; cat "$home/passed.err"; exit 1; }
fi
"$py" - "$n" "$qm" "$qn" "$reps" "$plain" "$pre" "$home/preload.err" "$home/passed.err" <<'PY'
import sys, json, re, statistics
n, qm, qn, reps = (int(x) for x in sys.argv[1:5])
plain, pre, log = json.loads(sys.argv[5]), json.loads(sys.argv[6]), open(sys.argv[7]).read()
passed_log = open(sys.argv[8]).read()
flops = {"cholesky": n**3 / 3, "solve": 2 * n**3 / 3, "qr": 4 * qm * qn**2 - 4 * qn**3 / 3}
routines = {"cholesky": ["dpotrf"], "solve": ["dgesv"], "qr": ["dgeqrf", "dorgqr"]}
size = {"cholesky": n, "solve": n, "qr": qn}
secs = lambda r, s: [float(t) for t in re.findall(rf"tessera_lapack: {r} n={s} tessera ([0-9.]+) s", log)]
ok = True
print(f"median seconds of {reps} calls (whole numpy call); cholesky, solve: n = {n}; qr: {qm}x{qn} (mode 'reduced')")
print(f"| call | plain numpy (OpenBLAS) | LD_PRELOAD libtessera_lapack | speed-up | first preloaded call | check |")
print("| --- | ---: | ---: | ---: | ---: | --- |")
for op in plain:
    p, q = plain[op], pre[op]
    on = min(len(secs(r, size[op])) for r in routines[op])
    good = p["ratio"] < 30 and q["ratio"] < 30 and on == reps + 1
    ok &= good
    name = f"numpy.linalg.{op}" + (f" {qm}x{qn}" if op == "qr" else "")
    print(f"| {name} | {p['median']:.3f} s ({flops[op] / p['median'] / 1e9:.1f} GFLOP/s) | "
          f"{q['median']:.3f} s ({flops[op] / q['median'] / 1e9:.1f} GFLOP/s) | {p['median'] / q['median']:.2f}x | "
          f"{q['first']:.3f} s | {'pass' if good else 'FAIL'} (ratios {p['ratio']:.2g}, {q['ratio']:.2g}; "
          f"{on} of {reps + 1} on Tessera) |")
# Inside the LAPACK calls (the rest of a numpy call is numpy's own copies): the preloaded run's
# calls on Tessera (its first, which starts the Runtime, left out), and, unless INSIDE=0, a third
# process's calls passed on to the next library (OpenBLAS) through the interposer.
median = lambda xs: statistics.median(xs) if xs else float("nan")
passed = lambda r, s: [float(t) for t in re.findall(rf"tessera_lapack: {r} n={s} next ([0-9.]+) s", passed_log)]
for op in plain:
    ours = sum(median(secs(r, size[op])[1:]) for r in routines[op])
    line = f"{op}, median seconds inside {' + '.join(routines[op])}: Tessera {ours:.3f} s"
    if passed_log:
        theirs = sum(median(passed(r, size[op])) for r in routines[op])
        line += f", the next library (passed on) {theirs:.3f} s, speed-up {theirs / ours:.2f}x"
    print(line)
sys.exit(0 if ok else 1)
PY

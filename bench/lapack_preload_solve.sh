#!/usr/bin/env bash
# lapack_preload_solve.sh — the GPU row of the drop-in LAPACK: an unmodified C program
# (bench/lapack_abi_solve.c: dposv_ and dgesv_ through LAPACK's Fortran ABI, each call timed and
# checked by ‖b − A·x‖₁/(‖A‖₁‖x‖₁ n eps) < 30) run plain on the machine's LAPACK, then under
# LD_PRELOAD=libtessera_lapack.so (TESSERA_LAPACK_VERBOSE=1: the calls must show on Tessera), in one
# run. Prints a table: median seconds and GFLOP/s (n³/3, 2n³/3) and the speed-up plain / preload.
# With REPS > 1 the first call of each routine is left out of the medians (the preloaded one starts
# the Runtime: StarPU, OpenCL devices); it is reported apart.
#   bash bench/lapack_preload_solve.sh [BUILD_DIR]
# Environment: N (32768), REPS (2), BIN (a prebuilt lapack_abi_solve; else built here with
# CC (cc) against LAPACK_LIBS, "-llapack -lblas"), TIMEOUT (seconds per run, 3600).
# pip's numpy wheels bundle a renamed OpenBLAS (scipy_openblas64_/libopenblas64_) that LD_PRELOAD
# cannot replace: this C program, linked to the system's -llapack, is what the interposer serves.
set -uo pipefail
n=${N:-32768} reps=${REPS:-2} timeout=${TIMEOUT:-3600}
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$(cd "$build" && pwd)/lapack_abi/libtessera_lapack.so
[ -e "$lib" ] || { echo "no $lib: build the tessera_lapack target first"; exit 2; }
work=$(mktemp -d /tmp/lapack_preload_solve.XXXXXX)
trap 'rm -rf "$work"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
    bin=$work/lapack_abi_solve
    ${CC:-cc} -O2 -o "$bin" "$here/lapack_abi_solve.c" ${LAPACK_LIBS:--llapack -lblas} -lm ||
        { echo "cannot build $here/lapack_abi_solve.c (set CC, LAPACK_LIBS or BIN)"; exit 2; }
fi
echo "binary: $bin; LAPACK: $(ldd "$bin" | grep -o '[^ ]*lapack[^ ]*' | head -1)"
timeout "$timeout" "$bin" "$n" "$reps" > "$work/plain.out" 2> "$work/plain.err" ||
    { echo "plain run failed:"; cat "$work/plain.out" "$work/plain.err"; exit 1; }
env STARPU_HOME="$work" STARPU_SILENT=1 TESSERA_LAPACK_VERBOSE=1 LD_PRELOAD="$lib" \
    timeout "$timeout" "$bin" "$n" "$reps" > "$work/preload.out" 2> "$work/preload.err" ||
    { echo "preloaded run failed:"; cat "$work/preload.out" "$work/preload.err"; exit 1; }
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "n = $n, $reps call(s) each; CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores${device:+; GPU: $device}"
echo "| call | plain (machine's LAPACK) | LD_PRELOAD libtessera_lapack | speed-up | first preloaded call | check |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
ok=0
for r in dposv dgesv; do
    # median of the seconds of routine r's lines, the first left out when there are several
    med() { grep "^$r " "$1" | sed 's/.*seconds=\([0-9.]*\).*/\1/' | tail -n +$((reps > 1 ? 2 : 1)) | sort -g |
        awk '{ t[++k] = $1 } END { print k % 2 ? t[(k + 1) / 2] : (t[k / 2] + t[k / 2 + 1]) / 2 }'; }
    p=$(med "$work/plain.out") q=$(med "$work/preload.out")
    first=$(grep -m1 "^$r " "$work/preload.out" | sed 's/.*seconds=\([0-9.]*\).*/\1/')
    fails=$(grep "^$r " "$work/plain.out" "$work/preload.out" | grep -vc "check=pass")
    on=$(grep -c "tessera_lapack: $r n=$n tessera" "$work/preload.err")
    [ "$fails" = 0 ] && [ "$on" = "$reps" ] || ok=1
    awk -v r="$r" -v n="$n" -v p="$p" -v q="$q" -v f="$first" -v fails="$fails" -v on="$on" -v reps="$reps" 'BEGIN {
        fl = (r == "dposv" ? 1 : 2) * n * n * n / 3
        printf "| %s_ | %.3f s (%.1f GFLOP/s) | %.3f s (%.1f GFLOP/s) | %.2fx | %.3f s | %s (%d of %d on Tessera) |\n",
               r, p, fl / p / 1e9, q, fl / q / 1e9, p / q, f, fails ? "FAIL" : "pass", on, reps }'
done
exit $ok

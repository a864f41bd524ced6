#!/usr/bin/env bash
# first_run.sh — the first run of each case in a fresh StarPU home next to the same run once
# calibrated (issue 39): what a user meets on a new machine, or with a new tile size, against what
# the same run costs later. Every run is checked (tessera-tester --check-random).
#
# For each case op:prec:n:nb[:nb_before] of CASES, in a StarPU home of its own, fresh:
#   - with nb_before: one untimed run at that nb first (a home calibrated for another tile size,
#     e.g. potrf:d:32768:3072:4096 is the first run at nb 3072 after nb 4096 ran);
#   - first: one process, one run (--warmup 0 --repeat 1): its operation time, and the tasks its
#     profile says were placed to calibrate a perfmodel (the profile's `uncalibrated:` line);
#   - calibrated: a second process in the same home, WARMUP untimed runs then REPS timed: the median,
#     and the tasks still placed to calibrate in its last run;
#   - ratio = first / calibrated (the goal: at most 1.25 on a GPU, 1.1 on CPUs only).
# op+factor runs tessera-tester's --factor (as bench/gpu_factorizations.sh's cases do):
# posv_mixed+fp16:d:32768:4096 is dsposv with FP16 factors.
# process_s is the first process's wall time: its start (StarPU, its bus calibration in a fresh home,
# the OpenCL programs, the worker rates), the matrix's generation, the run and its check; the
# operation time (first_s) is the run alone. nb 0: tessera-tester's default (tuned).
#
# On the GPU machine, from the repository root with .gpu-kit and .gpu-build carried (gpu_env.sh):
#   bash bench/first_run.sh
# Here (CPU only): TESTER=build/examples/tester/tessera-tester CASES="potrf:d:4096:0 ..." bash bench/first_run.sh
# Environment: CASES, WARMUP (3), REPS (3), EXTRA (more tester arguments for every case, e.g. --cond 100),
# TESTER (.gpu-build/tessera-tester), OUTDIR ($OUT or /tmp/first_run); each process's output goes to OUTDIR/first_run.log.
default_outdir=/tmp/first_run
if [ -d "$(dirname "$0")/../.gpu-build" ]; then
  source "$(dirname "$0")/gpu_env.sh"
  default_cases="potrf:d:32768:4096 gemm:d:16384:4096 getrf:d:16384:1024 geqrf:d:16384:1024 potrf:d:32768:3072:4096 posv_mixed+fp16:d:32768:4096"
else
  set -uo pipefail
  cd "$(dirname "$0")/.."
  outdir=${OUTDIR:-${OUT:-$default_outdir}}
  mkdir -p "$outdir"
  export STARPU_SILENT=1
  default_cases="potrf:d:4096:0 getrf:d:4096:0 geqrf:d:4096:0"
fi
tester=${TESTER:-.gpu-build/tessera-tester}
warmup=${WARMUP:-3}
reps=${REPS:-3}
log="$outdir/first_run.log"
: >"$log"

# run HOME ARGS...: one tester process; prints its stdout+stderr into the log and on stdout.
run() {
  local home=$1
  shift
  echo "==== STARPU_HOME=$home $tester $*" >>"$log"
  STARPU_HOME=$home "$tester" "$@" 2>&1 | tee -a "$log"
}
# Times (column 7) and statuses (column 10) of the tester's CSV rows of operation $op.
times() { awk -F, -v op="$op" '$1 == op && NF >= 10 {print $7}'; }
statuses() { awk -F, -v op="$op" '$1 == op && NF >= 10 {print $10}' | sort -u | tr '\n' ' '; }
median() { sort -g | awk '{v[NR] = $1} END {print NR ? (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) : "nan"}'; }
# Tasks placed to calibrate in the last profile of the output: the sum of the `uncalibrated:` counts.
uncalibrated() {
  awk '/^profile/ {n = 0} /uncalibrated:/ {line = $0; while (match(line, /[a-z_0-9]+ [0-9]+ of [0-9]+ on/)) {
       split(substr(line, RSTART, RLENGTH), f, " "); n += f[2]; line = substr(line, RSTART + RLENGTH)}} END {print n + 0}'
}

printf '%-30s %9s %9s %13s %9s %9s %7s %s\n' case process_s first_s first_uncalib calib_s calib_unc ratio checks
for c in ${CASES:-$default_cases}; do
  IFS=: read -r opf prec n nb before <<<"$c"
  op=${opf%%+*}
  factor=()
  [ "$op" != "$opf" ] && factor=(--factor "${opf#*+}")
  home=$(mktemp -d /tmp/first-run-home.XXXXXX)
  args=("$op" --prec "$prec" --n "$n" "${factor[@]}" --check-random --csv --profile)
  [ "$nb" != 0 ] && args+=(--nb "$nb")
  args+=(${EXTRA:-})
  if [ -n "${before:-}" ]; then
    run "$home" "$op" --prec "$prec" --n "$n" "${factor[@]}" --nb "$before" --warmup 0 --repeat 1 --check-random --csv >/dev/null
  fi
  t0=$(date +%s.%N)
  first_out=$(run "$home" "${args[@]}" --warmup 0 --repeat 1)
  process=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
  calib_out=$(run "$home" "${args[@]}" --warmup "$warmup" --repeat "$reps")
  first=$(times <<<"$first_out" | median)
  calib=$(times <<<"$calib_out" | median)
  checks="$(statuses <<<"$first_out")/ $(statuses <<<"$calib_out")"
  ratio=$(awk -v a="$first" -v b="$calib" 'BEGIN {print (b > 0 && a == a + 0) ? sprintf("%.2f", a / b) : "nan"}')
  printf '%-30s %9s %9s %13s %9s %9s %7s %s\n' "$c" "$process" "$first" "$(uncalibrated <<<"$first_out")" \
    "$calib" "$(uncalibrated <<<"$calib_out")" "$ratio" "$checks"
  rm -rf "$home"
done | tee "$outdir/first_run.txt"

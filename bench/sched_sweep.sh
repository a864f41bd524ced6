#!/usr/bin/env bash
# sched_sweep.sh: gp_kriging's tile Cholesky factorization time under each StarPU scheduler, as a
# markdown table (the README's tuning section).
#
#   bench/sched_sweep.sh [-x path/to/gp_kriging] [-n 4000] [-b 320] [-r 3] [-s "lws ws eager ..."]
#
# For every scheduler: STARPU_SCHED=<name>, one warm-up run (it also calibrates the performance
# models that dmda, dmdas and heteroprio rely on), then -r timed runs; the table shows the best and
# the median factorization time (s) and the best GFLOP/s (n^3/3 flops), for one grid point of the
# model (ell = 200 km, tau^2/sigma^2 = 0.1) on the first n training airports.
# Every other StarPU variable (STARPU_NCPU, STARPU_NOPENCL, STARPU_HOME, ...) is passed through;
# STARPU_HOME defaults to a temporary directory so that calibrations are shared across the sweep
# but do not touch yours. heteroprio runs with STARPU_MIN_PRIO=0 STARPU_MAX_PRIO=98 unless they are
# set: without a priority range StarPU 1.3's heteroprio has no bucket for Tessera's priorities and
# aborts. Exit status 1 if a run fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
exe=""
n=4000
nb=320
repeat=3
scheds="lws ws eager prio dmda dmdas heteroprio"
while getopts "x:n:b:r:s:h" opt; do
  case $opt in
    x) exe=$OPTARG ;;
    n) n=$OPTARG ;;
    b) nb=$OPTARG ;;
    r) repeat=$OPTARG ;;
    s) scheds=$OPTARG ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
if [[ -z $exe ]]; then  # the build tree next to the sources, else an installed gp_kriging
  for c in "$here/../build/examples/apps/gp_kriging" "$(command -v gp_kriging || true)"; do
    if [[ -n $c && -x $c ]]; then exe=$c; break; fi
  done
fi
[[ -n $exe && -x $exe ]] || { echo "sched_sweep.sh: gp_kriging not found; pass -x PATH" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export STARPU_HOME=${STARPU_HOME:-$tmp/starpu-home}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$tmp/pocl}
export STARPU_SILENT=1

# One run: prints "seconds gflops" of the factorization, taken from the report line
# "factor     n = N: potrf T s, G GFLOP/s ...".
run_once() {
  local out prio=()
  # heteroprio maps each priority to a bucket and asserts without one: give it the range 0..98.
  [[ $1 == heteroprio ]] && prio=(STARPU_MIN_PRIO="${STARPU_MIN_PRIO:-0}" STARPU_MAX_PRIO="${STARPU_MAX_PRIO:-98}")
  if ! out=$(env "${prio[@]}" STARPU_SCHED="$1" "$exe" --n "$n" --nb "$nb" --ell 200 --ratio 0.1 2>&1); then
    echo "sched_sweep.sh: gp_kriging failed under STARPU_SCHED=$1:" >&2
    echo "$out" >&2
    return 1
  fi
  sed -n 's/^factor .*potrf \([0-9.]*\) s, \([0-9.]*\) GFLOP\/s.*/\1 \2/p' <<<"$out"
}

workers=$(STARPU_SCHED=lws "$exe" --n 50 --ell 200 --ratio 0.1 2>/dev/null | sed -n 's/^runtime *\(.*\), scheduler.*/\1/p')
echo "gp_kriging factorization (tile potrf, double), n = $n, nb = $nb, $workers; best of $repeat runs after a warm-up"
echo
echo "| STARPU_SCHED | best time (s) | median time (s) | best GFLOP/s |"
echo "| --- | ---: | ---: | ---: |"
for s in $scheds; do
  run_once "$s" >/dev/null
  times=()
  best_g=0
  for ((i = 0; i < repeat; i++)); do
    read -r t g < <(run_once "$s")
    times+=("$t")
    best_g=$(awk -v a="$best_g" -v b="$g" 'BEGIN { print (b > a ? b : a) }')
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  best=$(head -1 <<<"$sorted")
  median=$(awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }' <<<"$sorted")
  printf '| %s | %.3f | %.3f | %.2f |\n' "$s" "$best" "$median" "$best_g"
done
if [[ " $scheds " == *" heteroprio "* ]]; then
  echo
  echo "heteroprio ran with STARPU_MIN_PRIO=${STARPU_MIN_PRIO:-0} STARPU_MAX_PRIO=${STARPU_MAX_PRIO:-98}."
fi

#!/usr/bin/env bash
# lapack_surface_vs_lapack.sh — issue 46's operations in double precision next to LAPACKE / CBLAS
# (OpenBLAS on every core) on the same seeded matrices in one run, every run checked:
#   ours   tessera-tester <op> --check (LAPACK's scaled residuals, examples/common/checks*.cpp), end to
#          end (tiles in host memory before and after), the tuned tile size unless NB is given;
#   peer   bench/lapack_surface --op <op> (LAPACKE_dpotri, dgetri after an untimed dpotrf / dgetrf as
#          the tester's ops, LAPACKE_dtrtri, cblas_dsymm, cblas_dsyr2k, LAPACKE_dgelqf, LAPACKE_dgecon
#          after an untimed dgetrf), its last call checked;
#   dlange: Tessera's max, one, infinity and Frobenius norms, timed by the tester, as a fraction of
#          Tessera's dgemm of the same n (issue 46's goal: under 5 %).
# Prints one table: median seconds of REPS runs (after WARMUP untimed runs of ours), GFLOP/s at the
# tester's counts, the ratio peer median / ours (> 1: Tessera faster) and the check. With ROUNDS > 1
# the peer and ours alternate ROUNDS times, each a process of its own, and the medians are over all
# their runs: on a shared machine whose speed drifts, neither side gets only the fast or the slow
# minutes (this 2-core VM: a side's median moved 5-10 % between consecutive processes).
# On a shared machine compare the ratios of one run, not times across runs.
#
#   bash bench/lapack_surface_vs_lapack.sh [BUILD_DIR]
# Environment: N (4096), REPS (3), WARMUP (1), ROUNDS (1), NB (tile size for every op; default the tuned one),
# OPS (the cases to run, default all: "potri getri trtri symm syr2k gelqf gecon lange"),
# THREADS (OpenBLAS threads of the peer),
# TIMEOUT (seconds per process, 1800), OUTDIR ($OUT or /tmp/lapack_surface).
set -uo pipefail
n=${N:-4096} reps=${REPS:-3} warmup=${WARMUP:-1} rounds=${ROUNDS:-1} round=1
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
tester="$build/examples/tester/tessera-tester" peer="$build/bench/lapack_surface"
[ -x "$tester" ] || { echo "lapack_surface_vs_lapack.sh: no tessera-tester under $build (pass BUILD_DIR)" >&2; exit 2; }
[ -x "$peer" ] || { echo "lapack_surface_vs_lapack.sh: no lapack_surface under $build (build the target lapack_surface)" >&2; exit 2; }
outdir=${OUTDIR:-${OUT:-/tmp/lapack_surface}}
mkdir -p "$outdir"
export STARPU_SILENT=1 STARPU_HOME=${STARPU_HOME:-$build/bench-home}
nb_arg=()
[ -n "${NB:-}" ] && nb_arg=(--nb "$NB")

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
gflops() { awk -v f="$1" -v t="$2" 'BEGIN {print (t > 0 && f > 0 ? sprintf("%.2f", f / t * 1e-9) : "-")}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print (a > 0 && b > 0 ? sprintf("%.2f", a / b) : "-")}'; }
fmt='%-44s %10s %9s %10s  %s\n'
printf "$fmt" case median_s GFLOP/s peer/this check | tee "$outdir/table.txt"
row() { printf "$fmt" "$@" | tee -a "$outdir/table.txt"; }
echo "n = $n, $reps runs × $rounds rounds (median), $(nproc) cores, tester $tester" | tee -a "$outdir/table.txt"
status=0

# run_tester LOG OP ARGS...: ours (log file LOG, started afresh in round 1, appended to after), median
# seconds and check over its rounds so far into $t $st; the tile size into $nb_used
run_tester() {
    local log="$outdir/tessera_$1"
    shift
    [ "$round" -gt 1 ] || rm -f "$log.csv" "$log.err"
    timeout "${TIMEOUT:-1800}" "$tester" "$@" --prec d --n "$n" "${nb_arg[@]}" --warmup "$warmup" --repeat "$reps" \
        --csv --check >>"$log.csv" 2>>"$log.err" || status=1
    read -r t st < <(summary "$log.csv" "$1")
    nb_used=$(awk -F, -v op="$1" '$1 == op {print $6; exit}' "$log.csv")
    [ "$st" = pass ] || { status=1; sed 's/^/    /' "$log.err" | tail -n 5; }
}
# run_peer OP: the peer's median seconds and check over its rounds so far into $ref $pst (its log
# started afresh in round 1)
run_peer() {
    local log="$outdir/peer_$1"
    [ "$round" -gt 1 ] || rm -f "$log.csv" "$log.err"
    timeout "${TIMEOUT:-1800}" "$peer" --op "$1" --n "$n" --repeat "$reps" ${THREADS:+--threads "$THREADS"} \
        >>"$log.csv" 2>>"$log.err" || status=1
    read -r ref pst < <(summary "$log.csv" "$(awk -F, 'NR == 2 {print $1}' "$log.csv")")
}
# compare OP PEER_LABEL FLOPS TESTER_ARGS...: the peer and ours alternately, ROUNDS times; the peer's
# row, then ours
compare() {
    local op=$1 label=$2 flops=$3
    shift 3
    for ((round = 1; round <= rounds; round++)); do
        run_peer "$op"
        run_tester "$op" "$op" "$@"
    done
    round=1
    row "d$op: $label (OpenBLAS)" "$ref" "$(gflops "$flops" "$ref")" 1.00 "$pst"
    row "d$op: Tessera (nb ${nb_used:-?})" "$t" "$(gflops "$flops" "$t")" "$(ratio "$ref" "$t")" "$st"
}

n3=$(awk -v n="$n" 'BEGIN {printf "%.0f", n * n * n}')
ops=" ${OPS:-potri getri trtri symm syr2k gelqf gecon lange} "
[[ $ops == *" symm "* ]] && compare symm cblas_dsymm "$((2 * n3))" --m "$n" --side L --uplo L --alpha 1 --beta 1
[[ $ops == *" syr2k "* ]] && compare syr2k cblas_dsyr2k "$((2 * n3))" --k "$n" --uplo L --trans N --alpha 1 --beta 1
[[ $ops == *" gelqf "* ]] && compare gelqf LAPACKE_dgelqf "$((4 * n3 / 3))" --m "$n"
[[ $ops == *" potri "* ]] && compare potri LAPACKE_dpotri "$((2 * n3 / 3))" --uplo L
[[ $ops == *" getri "* ]] && compare getri LAPACKE_dgetri "$((4 * n3 / 3))"
[[ $ops == *" trtri "* ]] && compare trtri LAPACKE_dtrtri "$((n3 / 3))" --uplo L --diag N
[[ $ops == *" gecon "* ]] && compare gecon LAPACKE_dgecon 0 --norm O
if [[ $ops == *" lange "* ]]; then
    run_tester gemm gemm --m "$n" --k "$n" --alpha 1 --beta 1
    gemm_t=$t
    row "dgemm: Tessera (nb ${nb_used:-?}), the reference" "$t" "$(gflops "$((2 * n3))" "$t")" - "$st"
    for norm in M O I F; do
        run_tester "lange_$norm" lange --m "$n" --norm "$norm"
        row "dlange norm=$norm: Tessera, % of dgemm" "$t" - \
            "$(awk -v a="$t" -v b="$gemm_t" 'BEGIN {print (a > 0 && b > 0 ? sprintf("%.1f%%", 100 * a / b) : "-")}')" "$st"
    done
fi
exit $status

#!/usr/bin/env bash
# Distributed scaling (StarPU-MPI): dpotrf (lower), dgemm and dgetrf_incpiv at one n on 1, 2 and 4 ranks, each rank
# with STARPU_NCPU CPU workers; per rank count: the median time and GFLOP/s of REPEAT runs, the
# bytes each rank sent (StarPU-MPI's statistics, tessera-tester --comm) against the model volume
# on the grid (examples/tester/comm_model.cpp), and one --check run of the
# same size (the scaled residual of docs/architecture.md#numerical-checks).
#   bash bench/mpi_scaling.sh [BUILD_DIR]
# Environment: N (default 4000), NB (250), RANKS ("1 2 4"), REPEAT (3), STARPU_NCPU (1),
#   MPIRUN_ARGS (extra mpirun arguments, e.g. "-H node1,node2,node3,node4" for one rank per node).
# On one machine the ranks share its cores and talk over loopback: the figures show the
# communication volume and the overhead of distribution, not a speed-up (docs/distributed.md).
set -euo pipefail
build=${1:-build}
tester="$build/examples/tester/tessera-tester"
n=${N:-4000} nb=${NB:-250} repeat=${REPEAT:-3}
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_NCPU=${STARPU_NCPU:-1} STARPU_SILENT=${STARPU_SILENT:-1}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The P×Q grid for R ranks: P·Q = R, P ≤ Q, P as large as possible (the Runtime's default).
grid() { local r=$1 p=1 d; for ((d = 1; d * d <= r; d++)); do ((r % d == 0)) && p=$d; done; echo "${p}x$((r / p))"; }
run() {  # run RANKS ARGS...: the tester on RANKS ranks
    local r=$1; shift
    # shellcheck disable=SC2086
    timeout 1200 mpirun -np "$r" --oversubscribe --bind-to none ${MPIRUN_ARGS:-} "$tester" "$@" --grid "$(grid "$r")"
}
run 1 potrf --n 1000 --nb "$nb" >/dev/null  # calibrate the perfmodels once
printf '%-6s %5s %5s %9s %9s %12s %12s %7s %10s\n' op ranks grid time_s gflops sent_MB model_MB ratio check
for op in potrf gemm getrf_incpiv; do
    for r in ${RANKS:-1 2 4}; do
        log=$(run "$r" "$op" --n "$n" --nb "$nb" --repeat "$repeat" --comm 2>&1)
        # Median time of the REPEAT rows; the comm lines of the last run.
        read -r t g < <(echo "$log" | awk -v op="$op" '$1 == op && $2 == "d" {print $7, $8}' | sort -n | awk '{a[NR]=$0} END {print a[int((NR + 1) / 2)]}')
        total=$(echo "$log" | awk '/comm +total/ {v=$3} END {print v + 0}')
        model=$(echo "$log" | awk '/comm +total/ {v=$6} END {print v + 0}')
        check=$(run "$r" "$op" --n "$n" --nb "$nb" --check 2>&1 | awk -v op="$op" '$1 == op {print $9, $10}')
        ratio=$(awk -v a="$total" -v b="$model" 'BEGIN {print (b > 0 ? sprintf("%.2f", a / b) : "-")}')
        printf '%-6s %5s %5s %9s %9s %12s %12s %7s %10s\n' "$op" "$r" "$(grid "$r")" "$t" "$g" "$total" "$model" "$ratio" "$check"
        echo "$log" | grep '^comm *rank' | tail -n "$r" | sed 's/^/    /'  # the last run's
    done
done

#!/usr/bin/env bash
# run_fuzz.sh FUZZER SEEDS WORK RUNS SECONDS: run a libFuzzer target on its seed corpus SEEDS (read
# only: the inputs it finds go to WORK/corpus, a finding to WORK/artifacts/), then on at least RUNS
# generated inputs, within SECONDS. Fails on a finding (crash, sanitizer report, leak, an input
# slower than 10 s, more than 2 GB) and when fewer than RUNS inputs fit in the time.
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 runs=$4 seconds=$5
rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
# The readers call no library without frame pointers: the fast unwinder gives whole stacks here, at
# several times the speed of the sanitized build's default (tests/sanitizers/options.cpp).
export ASAN_OPTIONS="fast_unwind_on_malloc=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
nseeds=$(find "$seeds" -type f | wc -l)
# -runs counts the seed inputs too; -max_len bounds a generated input (the seeds are below 1 KB).
rc=0
"$fuzzer" -runs=$((runs + nseeds)) -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -error_exitcode=77 -timeout_exitcode=78 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$seeds" >"$work/fuzz.log" 2>&1 || rc=$?
# The log less its progress lines and its recommended dictionary.
sed -E -e '/^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)/d' \
    -e '/^###### Recommended dictionary/,/^###### End of recommended dictionary/d' "$work/fuzz.log"
if [ "$rc" -ne 0 ]; then
  echo "run_fuzz: $(basename "$fuzzer") exited with $rc; failing input: $(ls "$work/artifacts")" >&2
  exit 1
fi
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
generated=$((executed - nseeds))
echo "run_fuzz: $(basename "$fuzzer"): $nseeds seed inputs + $generated generated inputs"
if [ "$generated" -lt "$runs" ]; then
  echo "run_fuzz: only $generated of $runs generated inputs ran within $seconds s" >&2
  exit 1
fi

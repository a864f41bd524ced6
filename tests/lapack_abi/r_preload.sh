#!/usr/bin/env bash
# R under LD_PRELOAD=libtessera_lapack.so ($1): runs r_preload.R (its checks print "r_preload: pass")
# and requires a verbose line "tessera_lapack: <routine> n=600 tessera" for each routine it must
# reach: dpotrf (chol), dpotri (chol2inv), dgesv and zgesv (solve), dgetrf (determinant). Exit 77
# (ctest: skipped) when Rscript is missing (Debian: apt-get install r-base-core).
set -uo pipefail
command -v Rscript > /dev/null || { echo "SKIP: no Rscript (Debian: apt-get install r-base-core)"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$(env LD_PRELOAD="$1" TESSERA_LAPACK_VERBOSE=1 Rscript "$here/r_preload.R" 2> "$err")
rc=$?
echo "$out"
cat "$err"
[ $rc -eq 0 ] || { echo "FAIL: Rscript exited $rc"; exit 1; }
grep -q "^r_preload: pass$" <<< "$out" || { echo "FAIL: no 'r_preload: pass'"; exit 1; }
for r in dpotrf dpotri dgesv zgesv dgetrf; do
    grep -q "^tessera_lapack: $r n=600 tessera " "$err" || { echo "FAIL: $r did not run on Tessera"; exit 1; }
done
echo "PASS"

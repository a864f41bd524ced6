# Sourced by the bench/gpu_*.sh scripts, with `default_outdir` set: runs from the repository root
# with the carried GPU kit and build (.gpu-kit, .gpu-build; ../shared/device/README.md), the output
# folder in $outdir (OUTDIR, else $OUT, else default_outdir), and hermetic StarPU and kernel caches
# shared by the scripts of one device call (perfmodels calibrate in the first runs).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -f .gpu-kit/env.sh ] && source .gpu-kit/env.sh
export LD_LIBRARY_PATH="$PWD/.gpu-build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
outdir=${OUTDIR:-${OUT:-$default_outdir}}
mkdir -p "$outdir"
export STARPU_HOME=${STARPU_HOME:-/tmp/tessera-gpu-home} TESSERA_CACHE_DIR=${TESSERA_CACHE_DIR:-/tmp/tessera-gpu-home/cl}
export STARPU_SILENT=1

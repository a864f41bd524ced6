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
# OpenCL program binaries: a carried .gpu-cl/cl (the cache an earlier call returned as cl.tgz,
# untarred into .gpu-cl) spares a fresh machine its ~60 s build of the programs.
default_cl=/tmp/tessera-gpu-home/cl
[ -d .gpu-cl/cl ] && default_cl=$PWD/.gpu-cl/cl
export STARPU_HOME=${STARPU_HOME:-/tmp/tessera-gpu-home} TESSERA_CACHE_DIR=${TESSERA_CACHE_DIR:-$default_cl}
export STARPU_SILENT=1
# Identical GPUs share one perfmodel history (StarPU 1.3 keeps one per OpenCL device otherwise), so
# models calibrated on one GPU serve every GPU of a multi-GPU machine (bench/gpu_notes.md).
export STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL=${STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL:-1}
# Perfmodels are named after STARPU_HOSTNAME: one name per GPU model, so that the models calibrated
# by an earlier device call (copied from $STARPU_HOME/.starpu/sampling into .gpu-models/ and carried)
# are found again on a fresh machine of the same kind.
export STARPU_HOSTNAME=${STARPU_HOSTNAME:-tessera-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9' '-')}
if [ -d .gpu-models ]; then
  mkdir -p "$STARPU_HOME/.starpu/sampling"
  cp -rn .gpu-models/. "$STARPU_HOME/.starpu/sampling/"
fi

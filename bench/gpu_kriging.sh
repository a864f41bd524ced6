#!/usr/bin/env bash
# gpu_kriging.sh — gp_kriging on tens of thousands of points: the GPU run next to the CPU-only run of
# the same problem (the factorization's seconds and GFLOP/s are in each run's "factor" line).
#
# The point set is synthetic (the shipped airports are 7,184): POINTS points (default 25,000) drawn
# uniformly over 25–50°N, 125–70°W with a smooth elevation field plus 30 m noise, written in
# airports.csv's columns, every tenth row held out as usual. Deterministic (seed 1).
# Run on the GPU machine from the repository root with build/examples/apps/gp_kriging copied into
# .gpu-build/ (and carried, as for gpu_factorizations.sh):
#   bash bench/gpu_kriging.sh
# Environment: POINTS, NB_GPU (2048), NB_CPU (320), ELL (km, 300), RATIO (0.001), OUTDIR.
default_outdir=/tmp/gpu_kriging
source "$(dirname "$0")/gpu_env.sh"
points=${POINTS:-25000}
csv="$outdir/points.csv"
python3 - "$points" "$csv" <<'PY'
import math, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
with open(path, "w") as f:
    f.write("id,name,city,country,iata,icao,latitude_deg,longitude_deg,altitude_ft\n")
    for i in range(n):
        lat, lon = rng.uniform(25, 50), rng.uniform(-125, -70)
        metres = (1200 + 900 * math.sin(lat / 3.0) * math.cos(lon / 4.0)
                  + 1500 * math.exp(-((lat - 40) ** 2 + (lon + 106) ** 2) / 30) + rng.gauss(0, 30))
        f.write(f"{i + 1},P{i + 1},,,,,{lat:.5f},{lon:.5f},{metres / 0.3048:.1f}\n")
PY
app=.gpu-build/gp_kriging
args=(--data "$csv" --ell "${ELL:-300}" --ratio "${RATIO:-0.001}" --check)
echo "== GPU (OpenCL + CPU workers), nb ${NB_GPU:-2048}" | tee "$outdir/kriging.txt"
"$app" "${args[@]}" --nb "${NB_GPU:-2048}" 2>&1 | tee -a "$outdir/kriging.txt"
echo "== CPU only (STARPU_NOPENCL=0), nb ${NB_CPU:-320}" | tee -a "$outdir/kriging.txt"
STARPU_NOPENCL=0 "$app" "${args[@]}" --nb "${NB_CPU:-320}" 2>&1 | tee -a "$outdir/kriging.txt"

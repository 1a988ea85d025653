#!/usr/bin/env bash
# On demand: the cost model, seen. Builds examples/cost_model (host backend),
# runs it for n = 2^4 .. 2^20 into docs/images/cost-model.csv and draws
# docs/images/cost-model.png with gnuplot (Debian: apt-get install -y gnuplot-nox).
# Not part of CI. Usage: bash docs/plot-cost-model.sh [max log2 n, default 20]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gnuplot >/dev/null || { echo "plot-cost-model: needs gnuplot (apt-get install -y gnuplot-nox)" >&2; exit 1; }
build=${SCANVEC_BUILD_DIR:-build/h-trace}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DSCANVEC_BACKEND=host -DCMAKE_BUILD_TYPE=Release \
        -DSCANVEC_BUILD_BENCH=OFF -DSCANVEC_DIST=OFF >/dev/null
fi
cmake --build "$build" --target cost_model -j "$(nproc)" >/dev/null
OMP_WAIT_POLICY=passive "$build/examples/cost_model" "${1:-20}" > docs/images/cost-model.csv
gnuplot -e "csv='docs/images/cost-model.csv'; png='docs/images/cost-model.png'" docs/cost-model.gp
echo "wrote docs/images/cost-model.csv and docs/images/cost-model.png"

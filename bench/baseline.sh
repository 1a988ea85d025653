#!/usr/bin/env bash
# Unpacks revision REV (default: origin's main, else HEAD~1) into build/baseline-src,
# for bench/gpu.sh's before-and-after comparison:
#   bash bench/baseline.sh 945b5fc
#   then on the GPU machine (carry .deps and build/baseline-src):
#   BASELINE_SRC=build/baseline-src bash bench/gpu.sh build; ... bash bench/gpu.sh bench
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD~1}
rm -rf build/baseline-src && mkdir -p build/baseline-src
git archive "$rev" | tar -x -C build/baseline-src
echo "build/baseline-src: $(git rev-parse --short "$rev")"

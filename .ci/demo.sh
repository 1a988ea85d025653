#!/usr/bin/env bash
# The main demo (README): builds examples/tour for the host backend and runs it;
# its part 2 is also drawn as one HTML page, build/demo/tour-trace.html
# (docs/trace.md: open it in any browser, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
cmake -S . -B build/demo -G Ninja -DSCANVEC_BACKEND=host -DCMAKE_BUILD_TYPE=Release \
      -DSCANVEC_BUILD_TESTS=OFF -DSCANVEC_BUILD_BENCH=OFF >/dev/null
cmake --build build/demo --target tour -j "$(nproc)" >/dev/null
exec build/demo/examples/tour --html build/demo/tour-trace.html

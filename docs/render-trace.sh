#!/usr/bin/env bash
# On demand: the tour's HTML trace, rendered by a real browser. Builds
# examples/tour (host backend), writes its part 2 as one HTML page
# (tour --html), renders it to docs/images/tour-trace.png with headless
# Chromium (Debian: apt-get install -y chromium), then checks the page as
# Chromium parsed it (--dump-dom): the step rows, the book's quicksort rows and
# the values are there. Not part of CI. Usage: bash docs/render-trace.sh
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "render-trace: needs chromium (apt-get install -y chromium)" >&2; exit 1; }
build=${SCANVEC_BUILD_DIR:-build/h-trace}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DSCANVEC_BACKEND=host -DCMAKE_BUILD_TYPE=Release \
        -DSCANVEC_BUILD_BENCH=OFF -DSCANVEC_DIST=OFF >/dev/null
fi
cmake --build "$build" --target tour -j "$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page="$work/tour-trace.html"
OMP_WAIT_POLICY=passive "$build/examples/tour" --html "$page" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$work/profile")
"$browser" "${flags[@]}" --dump-dom "file://$page" > "$work/dom.html" 2>/dev/null
"$browser" "${flags[@]}" --window-size="${TRACE_WIDTH:-1000},${TRACE_HEIGHT:-2600}" \
  --screenshot="$work/shot.png" "file://$page" >/dev/null 2>&1
# the page as rendered: every row the trace wrote is an element, and the values are in it
fail=0
check() { if ! "$@"; then echo "render-trace: check failed: ${*: -1}" >&2; fail=1; fi; }
rows_src=$(grep -o '<tr class="row">' "$page" | wc -l)
rows_dom=$(grep -o '<tr class="row">' "$work/dom.html" | wc -l)
check test "$rows_src" -gt 20
check test "$rows_dom" -eq "$rows_src"
check test "$(grep -o '<details' "$work/dom.html" | wc -l)" -eq "$(grep -o '<details' "$page" | wc -l)"
check grep -q '<th>Pivots</th>' "$work/dom.html"
check grep -q '<th>Seg-Flags.</th>' "$work/dom.html"
check grep -q '<th>Split</th><td>4</td><td>12</td><td>4</td><td>8</td>' "$work/dom.html"
check grep -q '<line ' "$work/dom.html"
check test "$(stat -c %s "$work/shot.png")" -gt 20000
[ "$fail" = 0 ] || exit 1
cp "$work/shot.png" docs/images/tour-trace.png
echo "render-trace: $rows_dom rows rendered; wrote docs/images/tour-trace.png"

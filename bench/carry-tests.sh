#!/usr/bin/env bash
# Packs test executables built here (nvcc and g++ on this machine, no GPU) for
# the GPU machine, whose calls are short: build here, carry the binaries, run
# them there (bench/gpu.sh's NO_BUILD=1 steps, or bench/sanitize.sh and
# bench/fuzz-diff.sh directly). Stripped and xz-compressed, about a fifth of
# their size; the device tool carries at most 64 MiB a call.
#   bench/carry-tests.sh [BUILD_ROOT] [OUT]
# BUILD_ROOT: the tree holding build/cuda and build/host (default: this one);
# OUT: the archive (default .gpu/carry.tar.xz, an ignored path to name in the
# tool's carry list). Unpack there from the repository root: tar xJf OUT.
# Takes build/cuda/tests/test_* and build/host/tests/test_fuzz (the fuzzer's
# host side), whichever exist. The binaries link libstdc++ and glibc of this
# machine (GLIBC_2.34 at most so far): the first call there should run one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-$PWD}
out=${2:-.gpu/carry.tar.xz}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for b in "$root"/build/cuda/tests/test_* "$root"/build/host/tests/test_fuzz; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  case "$b" in *.cmake) continue ;; esac
  rel=${b#"$root"/}
  mkdir -p "$stage/$(dirname "$rel")"
  strip -o "$stage/$rel" "$b"
done
mkdir -p "$(dirname "$out")"
tar cf - -C "$stage" build | xz -9 -T0 > "$out"
echo "$out: $(du -h "$out" | cut -f1), $(find "$stage" -type f | wc -l) executables"

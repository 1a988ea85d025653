#!/usr/bin/env bash
# Builds CUDA binaries on this machine (no GPU needed: nvcc only), for the
# device tool to carry to the GPU machine and run there without spending
# its device time on a build (bench/README.md has the times).
#   bash bench/local-cuda.sh tests/test_sorts bench/scanvec_bench bench/scanvec_profile
# strips them and prints each one's size and the device tool's carry list
# (at most 8 paths, 64 MiB in all). Sources edited while a unit compiles can
# be older than its object and so not rebuilt: edit first, then build.
# PACK=FILE (an ignored path, say .gpu/carry.tar.xz): also one xz archive of
# them, about a fifth of their size, for more than 8 binaries or 64 MiB (the
# whole test suite is ~40 MB packed): carry FILE, and unpack it there from the
# repository root (tar xJf FILE), or let bench/carried.sh unpack and run
# them. HOST_TARGETS (say tests/test_fuzz, the fuzzer's host side): built too,
# by the host preset in build/host-local, and packed beside them. The
# binaries link this machine's glibc and libstdc++ (GLIBC_2.34, GLIBCXX_3.4.29
# at most so far), which ran there.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: bash bench/local-cuda.sh TARGET..." >&2; exit 2; }
dir=build/cuda-local
[ -d .deps ] || bash bench/carry-deps.sh
cmake --preset cuda -B "$dir" -DDOCTEST_PREFIX="$PWD/.deps" -DCMAKE_PREFIX_PATH="$PWD/.deps" > /dev/null
ninja -C "$dir" -j "$(nproc)" "$@"
carry=()
for t in "$@"; do  # the host's symbols stripped: more fits the carry
  strip "$dir/$t"
  carry+=("\"$dir/$t\"")
  du -h "$dir/$t"
done
packed=("${@/#/$dir/}")
if [ -n "${HOST_TARGETS:-}" ]; then
  host=build/host-local
  cmake --preset host -B "$host" -DDOCTEST_PREFIX="$PWD/.deps" -DCMAKE_PREFIX_PATH="$PWD/.deps" -DSCANVEC_DIST=OFF > /dev/null
  # shellcheck disable=SC2086
  ninja -C "$host" -j "$(nproc)" $HOST_TARGETS
  for t in $HOST_TARGETS; do strip "$host/$t"; packed+=("$host/$t"); done
fi
if [ -n "${PACK:-}" ]; then
  mkdir -p "$(dirname "$PACK")"
  tar cf - "${packed[@]}" | xz -9 -T0 > "$PACK"
  du -h "$PACK"
  echo "carry: [\"$PACK\"]  (there: tar xJf $PACK)"
else
  echo "carry: [$(IFS=,; echo "${carry[*]}")]"
fi

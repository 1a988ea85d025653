#!/usr/bin/env bash
# On the GPU machine, from the repository root: runs test binaries built on
# the CPU machine and carried (PACK= bench/local-cuda.sh), so that a call
# spends its time running, not building (bench/README.md has the build times).
#   bench/carried.sh ARCHIVE [suite] [fuzz] [sanitize]    (default: suite fuzz)
# ARCHIVE: the carried tar.xz (unpacked here once; its binaries lie under
# build/cuda-local or build/cuda). suite: every test executable, 4 at a time,
# a line each and the logs of those that failed in $OUT. fuzz:
# bench/fuzz-diff.sh over the archive's CUDA and host test_fuzz (local-cuda.sh
# with HOST_TARGETS=tests/test_fuzz packs both). sanitize: bench/sanitize.sh
# over the archive's executables (its SANITIZE_* settings apply; give it a
# call of its own). The binaries read docs/ from this tree
# (SCANVEC_SOURCE_DIR), not from where they were built.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
archive=${1:?usage: bench/carried.sh ARCHIVE [suite] [fuzz] [sanitize]}; shift
steps=${*:-suite fuzz}
out=${OUT:-build/gpu-out}; mkdir -p "$out"
t0=$(date +%s)
tar xJf "$archive" || exit 1
dir=$(dirname "$(ls -d build/cuda-local/tests/test_* build/cuda/tests/test_* 2>/dev/null | head -1)")
[ -n "$dir" ] && [ "$dir" != . ] || { echo "carried: no test executables in $archive"; exit 1; }
export SCANVEC_SOURCE_DIR=$PWD OMP_WAIT_POLICY=passive
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; compute-sanitizer --version | tail -1
  date -u; } > "$out/device.txt" 2>&1
rc=0
fuzz_pid=
if [[ " $steps " == *" fuzz "* ]]; then  # beside the suite: the host shards take the CPU, the suite the GPU
  host_fuzz=$(ls build/host-local/tests/test_fuzz build/host/tests/test_fuzz 2>/dev/null | head -1)
  FUZZ_CUDA_BIN=$dir/test_fuzz FUZZ_HOST_BIN=${host_fuzz:-missing} FUZZ_HOST_SHARDS=${FUZZ_HOST_SHARDS:-10} \
    OUT="$out" bash bench/fuzz-diff.sh > "$out/fuzz.log" 2>&1 &
  fuzz_pid=$!
fi
if [[ " $steps " == *" suite "* ]]; then
  ls "$dir"/test_* | grep -v -e '_fuzz$' -e '\.' | xargs -P 4 -I{} bash -c '
    b={}; n=$(basename $b); s=$(date +%s); log=$(mktemp)
    $b > $log 2>&1; rc=$?
    echo "$n rc=$rc $(( $(date +%s) - s )) s $(grep -E "^\[doctest\] test cases:" $log | tail -1)"
    [ $rc -eq 0 ] || cp $log "'"$out"'/suite-$n.log"; rm -f $log' | sort > "$out/suite.txt"
  cat "$out/suite.txt"
  passed=$(grep -c " rc=0 " "$out/suite.txt"); all=$(wc -l < "$out/suite.txt")
  echo "suite: $passed of $all executables passed in $(( $(date +%s) - t0 )) s"
  [ "$passed" = "$all" ] || rc=1
fi
if [ -n "$fuzz_pid" ]; then
  wait "$fuzz_pid" || rc=1
  tail -1 "$out/fuzz.log"
fi
if [[ " $steps " == *" sanitize "* ]]; then
  control=$(ls build/cuda-local/bench/scanvec_sanitize_control build/cuda/bench/scanvec_sanitize_control 2>/dev/null | head -1)
  SANITIZE_CONTROL=${SANITIZE_CONTROL:-$control} \
  SANITIZE_BINS=${SANITIZE_BINS:-$(ls "$dir"/test_* | grep -v -e '_fuzz$' -e '_large$' -e '\.')} \
    OUT="$out" bash bench/sanitize.sh > "$out/sanitize.log" 2>&1 || rc=1
  tail -2 "$out/sanitize.log"
fi
exit $rc

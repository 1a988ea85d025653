#!/usr/bin/env bash
# For a GPU machine (the H100 lent through the device tool): builds the cuda
# preset, runs the whole test suite, then the benchmarks; prints a short
# summary last and writes full logs and results under $OUT (or build/gpu-out).
#   bench/gpu.sh [build|tests|bench|dist|sanitize|profile|fuzz|fuzz-build|all]   default: all (sanitize, fuzz: separate, slow)
#   build: only configure and build (a device call has 10 minutes: build in one call, run in the next)
#   CMAKE_EXTRA: extra configure arguments (say -DSCANVEC_DIST=OFF)
#   BUILD_TARGETS: build only these targets (a short call after a small change)
#   BUILD_TIMEOUT: seconds the build may take in this call (default: no limit)
#   NO_BUILD=1: neither configure nor build; run what build/cuda holds
#   BENCH_ARGS: extra arguments for scanvec_bench (say --only write,programs)
#   sanitize: compute-sanitizer's four tools over every test case (bench/sanitize.sh, its SANITIZE_* settings)
#   profile: kernel times of one call of each program (ncu), in $OUT/profile-*.txt
#     PROFILE_PROGRAMS (default "quicksort split radix_sort"), PROFILE_LOG2: their size (default 24)
#     PROFILE_DETAIL: a regex of kernel names (say "three_way_(count|split)_tiles"): ncu's memory,
#       stall, occupancy and launch sections of PROFILE_DETAIL_COUNT (2) of their launches after
#       PROFILE_DETAIL_SKIP (2), in $OUT/ncu-detail-PROGRAM.txt
#   dist: the distributed layer's tests (ranks share the GPUs when there are
#     fewer: MPI engine; one GPU each: NCCL), then scanvec_dist_bench on 1, 2,
#     4, 8 ranks up to the GPU count, sizes DIST_SIZES (default 28,30,31), and
#     2 ranks on the MPI engine (SCANVEC_DIST_NCCL=0) at 2^28 for comparison;
#     rows in $OUT/dist.csv (bench/dist_report.py makes the table); DIST_MPI=0 skips the MPI rows
#     DIST_MULTIRANK=0 skips the two ranks on one GPU through NCCL's wheel (NCCL_MULTI_RANK_GPU_ENABLE)
#     DIST_TESTS=0 skips the tests (a second call on a warm machine); the tests run
#       twice, the second time on the MPI engine (SCANVEC_DIST_NCCL=0), unless DIST_MPI=0
#     DIST_TRIALS: NCCL settings to time the exchanging calls under (below;
#       bench/dist_report.py trial-1.csv --before trial-0.csv sets a trial beside the defaults)
#   BASELINE_SRC: a source tree of an earlier revision (bench/baseline.sh makes one):
#     its scanvec_bench is built beside this one, and the bench step runs both
#     (the earlier first) and compares them row by row (bench/compare.py) in
#     $OUT/compare.md: before and after a change, in one run on one machine
#   BUNDLE=1: at the end, everything under $OUT in one results.tgz (the device
#     tool brings back at most 8 files; unpack with tar xzf)
#   FIX_MTIMES=1: every file outside build/ and .git/ dated 2020-01-01 first. The
#     device tool copies the tree afresh for each call, which dates the sources
#     after the last call's objects and rebuilds everything; with the same old
#     date in every call, a build cut short by the call's time limit goes on
#     where it stopped (nothing is compiled again, though ninja may link the
#     executables again: a second call that only runs takes NO_BUILD=1).
#     Only on that machine's copy (here it would hide edits),
#     and only while the tree stays as it was: an edited header, dated 2020
#     too, would not be rebuilt.
#   fuzz: cross-backend differential fuzzing (bench/fuzz-diff.sh, which lists its FUZZ_*
#     settings): the cuda preset's test_fuzz and the host preset's (build/host), built side
#     by side (BUILD_TARGETS defaults to test_fuzz), run FUZZ_PROGRAMS (100000) programs
#     in shards, host and CUDA at once, and their digests compared, in $OUT/fuzz.md.
#     The shards stop FUZZ_BUDGET (560) seconds after this script started, less 30
#     (FUZZ_TIMEOUT, if set, instead), and only the programs both sides finished are compared.
#     fuzz-build: only those two builds (a first call; the second takes NO_BUILD=1)
# doctest travels in .deps/ (bench/carry-deps.sh), since that machine cannot fetch.
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
start=$(date +%s)
out=${OUT:-build/gpu-out}; mkdir -p "$out"
export DOCTEST_PREFIX=$PWD/.deps
if [ "${FIX_MTIMES:-0}" = 1 ]; then
  find . \( -path ./build -o -path ./.git \) -prune -o -type f -print0 | xargs -0 touch -h -d 2020-01-01
fi
summary=()
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"

# NO_BUILD=1: run what build/cuda holds (a second call on a warm machine)
if [ "${NO_BUILD:-0}" != 1 ]; then
# shellcheck disable=SC2086
cmake --preset cuda -DDOCTEST_PREFIX="$DOCTEST_PREFIX" -DCMAKE_PREFIX_PATH="$DOCTEST_PREFIX" ${CMAKE_EXTRA:-} > "$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 1; }
t0=$(date +%s)
base_pid=
host_pid=
if [ "$what" = fuzz ] || [ "$what" = fuzz-build ]; then  # the host side of the fuzz step, built alongside
  BUILD_TARGETS=${BUILD_TARGETS:-test_fuzz}
  ( cmake --preset host -DDOCTEST_PREFIX="$DOCTEST_PREFIX" -DCMAKE_PREFIX_PATH="$DOCTEST_PREFIX" -DSCANVEC_DIST=OFF \
      -DSCANVEC_BUILD_BENCH=OFF -DSCANVEC_BUILD_EXAMPLES=OFF \
      && timeout "${BUILD_TIMEOUT:-0}" cmake --build --preset host -j "$(nproc)" --target test_fuzz ) > "$out/host-build.log" 2>&1 &
  host_pid=$!
fi
if [ -n "${BASELINE_SRC:-}" ]; then  # the earlier revision's bench, built alongside
  ( cd "$BASELINE_SRC" && cmake --preset cuda -DSCANVEC_BUILD_TESTS=OFF -DSCANVEC_BUILD_EXAMPLES=OFF \
      && cmake --build --preset cuda -j "$(nproc)" --target scanvec_bench ) > "$out/baseline-build.log" 2>&1 &
  base_pid=$!
fi
# Keep going past a failed target: every compile error shows in one call, and
# the tests that did build still run.
# BUILD_TARGETS: only these targets (say "test_trace scanvec_dist_bench"), for a short call.
# BUILD_TIMEOUT (seconds): stop the build then and go on (with FIX_MTIMES, the next call resumes it).
# shellcheck disable=SC2086
if timeout "${BUILD_TIMEOUT:-0}" cmake --build --preset cuda -j "$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS} -- -k 0 > "$out/build.log" 2>&1; then
  summary+=("build: ok in $(( $(date +%s) - t0 )) s")
else
  grep -E "error|FAILED" "$out/build.log" | head -40
  summary+=("build: FAILED (see build.log) after $(( $(date +%s) - t0 )) s")
fi

if [ -n "$host_pid" ]; then
  if wait "$host_pid"; then summary+=("host test_fuzz build: ok in $(( $(date +%s) - t0 )) s")
  else tail -20 "$out/host-build.log"; summary+=("host test_fuzz build: FAILED (host-build.log)"); fi
fi

fi  # NO_BUILD

if [ -n "${base_pid:-}" ]; then
  if wait "$base_pid"; then summary+=("baseline bench build: ok"); else summary+=("baseline bench build: FAILED (baseline-build.log)"); fi
fi

if [ "$what" = all ] || [ "$what" = tests ]; then
  t_tests=$(date +%s)
  # One stripe of the tests per GPU where there are several (ctest -I
  # start,,stride; each stripe sees only its GPU), else all on the one.
  ngpu=$(nvidia-smi -L | wc -l)
  rc=0
  if [ "$ngpu" -ge 2 ]; then
    pids=()
    for g in $(seq 0 $((ngpu - 1))); do
      CUDA_VISIBLE_DEVICES=$g ctest --preset cuda -j 2 -LE dist --timeout 600 -I "$((g + 1)),,$ngpu" \
        > "$out/tests-gpu$g.log" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
    cat "$out"/tests-gpu*.log > "$out/tests.log"
    # ctest's last line: "100% tests passed out of 72" or "97% tests passed, 2 tests failed out of 72"
    counts=$(grep -hE "tests passed.* out of [0-9]+" "$out"/tests-gpu*.log |
      sed -E 's/.*passed(, ([0-9]+) tests failed)? out of ([0-9]+).*/\2 \3/' |
      awk '{f += ($2 == "" ? 0 : $1); t += ($2 == "" ? $1 : $2)} END {print t - f, t}')
    echo "${counts% *} tests passed out of ${counts#* } (on $ngpu GPUs, one stripe each)" >> "$out/tests.log"
  else
    ctest --preset cuda -j 4 -LE dist --timeout 600 > "$out/tests.log" 2>&1  # dist: its own step
    rc=$?
  fi
  grep -E "tests passed|tests failed" "$out/tests.log" | tail -1
  summary+=("tests: $(grep -E 'tests passed' "$out/tests.log" | tail -1) in $(( $(date +%s) - t_tests )) s")
  if [ $rc -ne 0 ]; then  # the failures, here and in the summary (what a caller's tail shows)
    failed=$(grep -E "\(Failed\)|\(SEGFAULT\)|\(Subprocess|Timeout" "$out/tests.log" | head -30)
    echo "$failed"
    while IFS= read -r line; do summary+=("  $line"); done <<< "$failed"
  fi
fi

if [ "$what" = fuzz ]; then
  fuzz_limit=${FUZZ_TIMEOUT:-$(( ${FUZZ_BUDGET:-560} - ($(date +%s) - start) - 30 ))}
  if [ "$fuzz_limit" -lt 30 ]; then
    summary+=("fuzz: not run, ${fuzz_limit} s left of FUZZ_BUDGET (build in one call: fuzz-build, run in the next: NO_BUILD=1)")
  else
    FUZZ_TIMEOUT=$fuzz_limit OUT=$out bench/fuzz-diff.sh > "$out/fuzz.log" 2>&1
    cat "$out/fuzz.log"
    summary+=("$(tail -1 "$out/fuzz.log")")
  fi
fi

if [ "$what" = sanitize ]; then
  # compute-sanitizer: every test case under memcheck (leaks too), racecheck,
  # synccheck and initcheck, loops as graphs and from the host (bench/sanitize.sh,
  # which lists its SANITIZE_* settings)
  OUT=$out bench/sanitize.sh > "$out/sanitize.log" 2>&1
  tail -3 "$out/sanitize.log"
  summary+=("$(tail -1 "$out/sanitize.log")")
fi

if [ "$what" = all ] || [ "$what" = bench ]; then
  if [ -x build/cuda/bench/scanvec_bench ]; then
    base_bin=${BASELINE_SRC:-/nonexistent}/build/cuda/bench/scanvec_bench
    if [ -x "$base_bin" ]; then
      mkdir -p "$out/before"
      # shellcheck disable=SC2086
      "$base_bin" --out "$out/before" ${BENCH_ARGS:-} > "$out/before/bench.log" 2>&1
      summary+=("bench (baseline): rc=$?")
    fi
    # shellcheck disable=SC2086
    build/cuda/bench/scanvec_bench --out "$out" ${BENCH_ARGS:-} > "$out/bench.log" 2>&1
    summary+=("bench: rc=$? (table in $out/bench.md)")
    cat "$out/bench.md" 2>/dev/null
    if [ -x "$base_bin" ]; then
      python3 bench/compare.py "$out/before/bench.csv" "$out/bench.csv" > "$out/compare.md"
      summary+=("compare with baseline: $(tail -1 "$out/compare.md")")
    fi
  fi
fi
if [ "$what" = dist ]; then
  # Never NVLink multicast (it can take the host's shared GPUs down).
  export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  gpus=$(nvidia-smi -L | wc -l)
  if [ "${DIST_TESTS:-1}" = 1 ]; then
    ctest --preset cuda -L dist --timeout 300 > "$out/dist-tests.log" 2>&1
    summary+=("dist tests on $gpus GPUs: $(grep -E 'tests passed' "$out/dist-tests.log" | tail -1)")
    grep -E "\(Failed\)|\(SEGFAULT\)|Timeout" "$out/dist-tests.log" | head -20
    echo "${summary[-1]}"
    # again on the MPI engine, which stages device data through host memory
    # (no CI machine has a GPU to run that path); DIST_MPI=0 skips it
    if [ "${DIST_MPI:-1}" = 1 ]; then
      SCANVEC_DIST_NCCL=0 ctest --preset cuda -L dist --timeout 300 > "$out/dist-tests-mpi.log" 2>&1
      summary+=("dist tests, MPI engine (SCANVEC_DIST_NCCL=0): $(grep -E 'tests passed' "$out/dist-tests-mpi.log" | tail -1)")
      grep -E "\(Failed\)|\(SEGFAULT\)|Timeout" "$out/dist-tests-mpi.log" | head -20
      echo "${summary[-1]}"
    fi
  fi
  bin=build/cuda/bench/scanvec_dist_bench
  if [ -x "$bin" ]; then
    rm -f "$out/dist.csv"
    for np in 1 2 4 8; do
      [ "$np" -le "$gpus" ] || break
      mpirun -np "$np" -x NCCL_NVLS_ENABLE "$bin" --sizes "${DIST_SIZES:-28,30,31}" --csv "$out/dist.csv" \
        > "$out/dist-bench-np$np.log" 2>&1
      summary+=("dist bench, $np GPUs: rc=$?")
      cat "$out/dist-bench-np$np.log"
    done
    # Two ranks on one GPU over NCCL (issue 22): NCCL_MULTI_RANK_GPU_ENABLE=1
    # needs NCCL 2.30+, which the GPU machine has only as the Python wheel
    # nvidia-nccl-cu13 (the system's is 2.28.3): the same soname, put first on
    # the library path. The bench's engine column says whether NCCL ran.
    # The trial runs only where the wheel is 2.30 or later.
    wheel=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
    wheel_version=$(python3 -c "import importlib.metadata as m; print(m.version('nvidia-nccl-cu13'))" 2>/dev/null)
    summary+=("NCCL wheel nvidia-nccl-cu13: ${wheel_version:-none}")
    if [ "${DIST_MULTIRANK:-1}" = 1 ] && [ -n "$wheel" ] && [ -f "$wheel/lib/libnccl.so.2" ] \
       && printf '%s\n%s\n' 2.30 "$wheel_version" | sort -V -C; then
      ls "$wheel/lib" > "$out/multirank.log"
      for t in test_dist_vector test_dist_scan test_dist_permute test_dist_programs; do
        CUDA_VISIBLE_DEVICES=0 NCCL_MULTI_RANK_GPU_ENABLE=1 LD_LIBRARY_PATH="$wheel/lib:${LD_LIBRARY_PATH:-}" NCCL_DEBUG=VERSION \
          timeout 300 mpirun -np 2 -x CUDA_VISIBLE_DEVICES -x NCCL_MULTI_RANK_GPU_ENABLE -x LD_LIBRARY_PATH -x NCCL_DEBUG \
          -x NCCL_NVLS_ENABLE "build/cuda/tests/dist/$t" >> "$out/multirank.log" 2>&1
        summary+=("2 ranks on GPU 0, NCCL wheel, NCCL_MULTI_RANK_GPU_ENABLE=1: $t rc=$?")
      done
      CUDA_VISIBLE_DEVICES=0 NCCL_MULTI_RANK_GPU_ENABLE=1 LD_LIBRARY_PATH="$wheel/lib:${LD_LIBRARY_PATH:-}" \
        timeout 300 mpirun -np 2 -x CUDA_VISIBLE_DEVICES -x NCCL_MULTI_RANK_GPU_ENABLE -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
        "$bin" --sizes 24 --reps 3 >> "$out/multirank.log" 2>&1
      summary+=("  its bench at 2^24: rc=$? engine $(awk '$1 == "scan" {print $2}' "$out/multirank.log" | tail -1)")
      grep -E "NCCL version|Failed|error" "$out/multirank.log" | sort | uniq -c | head -8
    fi
    # DIST_TRIALS: NCCL settings to try on the exchanges, ';'-separated, each a
    # list of VAR=value (say "NCCL_MAX_P2P_NCHANNELS=32;NCCL_NCHANNELS_PER_PEER=4"):
    # the exchanging calls on all GPUs at DIST_TRIAL_SIZES, once with the
    # defaults and once per setting, in $out/trial-<k>.csv (trials.txt names them).
    if [ -n "${DIST_TRIALS:-}" ] && [ "$gpus" -ge 2 ]; then
      IFS=';' read -r -a trials <<< ";${DIST_TRIALS}"
      k=0
      for trial in "${trials[@]}"; do
        echo "trial-$k: ${trial:-defaults}" >> "$out/trials.txt"
        # shellcheck disable=SC2086
        env $trial mpirun -np "$gpus" -x NCCL_NVLS_ENABLE $(for v in $trial; do printf -- '-x %s ' "${v%%=*}"; done) \
          "$bin" --sizes "${DIST_TRIAL_SIZES:-28,30}" --only "${DIST_TRIAL_OPS:-permute,back_permute,sort,split}" \
          --csv "$out/trial-$k.csv" > "$out/trial-$k.log" 2>&1
        summary+=("trial-$k (${trial:-defaults}) on $gpus GPUs: rc=$?")
        k=$((k + 1))
      done
    fi
    if [ "$gpus" -ge 2 ] && [ "${DIST_MPI:-1}" = 1 ]; then
      SCANVEC_DIST_NCCL=0 mpirun -np 2 -x SCANVEC_DIST_NCCL -x NCCL_NVLS_ENABLE "$bin" --sizes 28 --csv "$out/dist.csv" \
        > "$out/dist-bench-mpi.log" 2>&1
      summary+=("dist bench, 2 GPUs over MPI: rc=$?")
      cat "$out/dist-bench-mpi.log"
    fi
  fi
fi
if [ "$what" = all ] || [ "$what" = profile ]; then
  for program in ${PROFILE_PROGRAMS:-quicksort split radix_sort}; do
    bin=build/cuda/bench/scanvec_profile
    [ -x "$bin" ] || break
    "$bin" "$program" "${PROFILE_LOG2:-24}" | tee -a "$out/profile-timing.txt"
    ncu --clock-control none --cache-control none --profile-from-start off --csv --print-units base \
        --metrics gpu__time_duration.sum "$bin" "$program" "${PROFILE_LOG2:-24}" > "$out/ncu-$program.csv" 2> "$out/ncu-$program.err"
    python3 bench/kernel_times.py "$out/ncu-$program.csv" > "$out/profile-$program.txt" 2>&1
    head -12 "$out/profile-$program.txt"
    if [ -n "${PROFILE_DETAIL:-}" ]; then  # why those kernels take their time: memory, stalls, occupancy
      ncu --clock-control none --profile-from-start off --kernel-name "regex:$PROFILE_DETAIL" \
          --launch-skip "${PROFILE_DETAIL_SKIP:-2}" --launch-count "${PROFILE_DETAIL_COUNT:-2}" \
          --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
          --section Occupancy --section LaunchStats --section SchedulerStats \
          "$bin" "$program" "${PROFILE_LOG2:-24}" > "$out/ncu-detail-$program.txt" 2>&1
      summary+=("profile detail $program: $(grep -c 'Section: SpeedOfLight\|GPU Speed Of Light' "$out/ncu-detail-$program.txt") kernels in ncu-detail-$program.txt")
    fi
    summary+=("profile $program: $(tail -1 "$out/profile-timing.txt")")
  done
fi
echo; echo "=== summary ==="; printf '%s\n' "${summary[@]}"
printf '%s\n' "${summary[@]}" > "$out/summary.txt"
if [ "${BUNDLE:-0}" = 1 ]; then
  tar czf "/tmp/results.tgz" -C "$out" . && rm -rf "${out:?}"/* && mv /tmp/results.tgz "$out/results.tgz"
fi

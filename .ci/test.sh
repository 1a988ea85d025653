#!/usr/bin/env bash
# The test command (README): on a fresh machine, installs what is missing,
# builds the host backend under AddressSanitizer + UBSan and runs every test
# and example, compiling the CUDA backend's examples with nvcc meanwhile
# (running them needs a GPU: see bench/gpu.sh). The CUDA check stops at NVVM
# IR (no PTX: the GPU machine's full build generates it and runs ptxas) and
# leaves out the tests, the benchmarks and the fuzzer, which compile and run in
# that full build; on the host all of them build and run above, but the
# benchmarks, which are only compiled. Warnings are errors in both builds
# (SCANVEC_WERROR in the presets). Time on 2 cores:
# README; where it goes: the summary this script ends with, and
# docs/design/README.md ("Build cost").
#   SCANVEC_SKIP_CUDA=1   skip the CUDA build (also skipped when nvcc is absent)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# ctest runs $jobs test programs at once, each with an OpenMP thread per core:
# threads that spin while they wait for the others would take the cores those
# others need.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# step <name>: a stage begins (the previous one ends). Each stage's wall and
# CPU seconds (user + system, all cores) are summed up at the end: where CI's
# time goes (docs/design/README.md, "Build cost").
# (the CPU time of this shell's finished children: /proc/$$/stat's cutime and
# cstime, in clock ticks; $$ is this shell even inside $(...))
tick=$(getconf CLK_TCK)
cpu_s() { sed 's/^.*) //' "/proc/$$/stat" | awk -v tick="$tick" '{ printf "%d", ($14 + $15) / tick }'; }
stages=() stage="" stage_wall=$SECONDS stage_cpu=$(cpu_s)
end_stage() {
  if [ -n "$stage" ]; then
    stages+=("$(printf '%5d s wall %6d s CPU  %s' $((SECONDS - stage_wall)) $(($(cpu_s) - stage_cpu)) "$stage")")
  fi
  stage=$1 stage_wall=$SECONDS stage_cpu=$(cpu_s)
}
step() { end_stage "$*"; echo; echo "=== $* ==="; }

step "dependencies"
bash .ci/deps.sh

# The host backend once, under AddressSanitizer + UBSan: every test and
# example built and run, the one-file tests as 4 grouped executables, the
# distributed ones as 2 (run with 1 to 4 ranks), the examples as 2 programs
# and the fuzzer as 2 units (SCANVEC_TEST_UNITS in the preset;
# tests/CMakeLists.txt and examples/CMakeLists.txt say why). At -Og,
# not -O1 (the host-asan preset): g++ spends most of a sanitized compile optimising, and -Og builds in ~60% of the time
# while the tests and examples run ~1.5x longer (-Og keeps the stores and
# aggregates -O1 removes, so the sanitizers check every access they checked).
# The benchmarks are compiled, not built (SCANVEC_BENCH_SYNTAX_ONLY: g++
# -fsyntax-only instantiates every template and generates nothing; nothing is
# linked): that finds what does not compile, host-only branches included, at a
# third of the cost; bench/gpu.sh builds and runs them. Sizes up to 65539
# (SCANVEC_TEST_SMALL): on the host every path is reached by then (its largest
# tile is 16384 elements), and the sanitizers find memory and UB errors at
# every size; the 10^6 and 2^24 cases run on the GPU machine (bash
# bench/gpu.sh), where tiles and look-back across thousands of blocks need
# them. (An unsanitized -O3 host build beside this one would add ~5 minutes.)
# The 1 PiB request in test_memory is deliberate (allocator_may_return_null).
step "host backend under AddressSanitizer + UBSan: build"
cmake --preset host-asan >/dev/null
cmake --build --preset host-asan -j "$jobs" --target all scanvec_bench_syntax
step "host backend under AddressSanitizer + UBSan: test, beside the cuda backend's compile check"
# The CUDA check compiles while the host's tests run: alone, each left a core
# idle for part of its time (tests waiting for their ranks or for the last
# long test, the last units compiling one at a time); side by side they fill
# it (docs/design/README.md, "Build cost", has the times).
nvcc=/usr/local/cuda/bin/nvcc
cuda_pid=
if [ "${SCANVEC_SKIP_CUDA:-0}" != 1 ] && [ -x "$nvcc" ]; then
  # The examples through nvcc (every algorithm and the primitives they call,
  # with the library's CUDA-only headers, in 2 units, examples/interop.cu, and
  # the distributed layer: dist_sort and dist_tour, every sv::dist call once):
  # its front end checks host and device code, and cicc lowers the device code
  # to NVVM IR (code=lto_90 in the cuda-ci preset), which is where the errors
  # only nvcc reports come from (a __host__ function called from device code,
  # errors in device-only template code). The tests' sources, every key type
  # of every family, cost several times the examples there and kept CI over
  # 15 minutes (docs/design/README.md, "Build cost"); they compile, with
  # everything else, in the GPU machine's full build (bench/gpu.sh,
  # bench/local-cuda.sh), which every change to GPU code runs before it lands.
  # Generating PTX from that IR took about half of cicc's time and checks the
  # code generator more than scanvec's source (which has no inline PTX): the
  # GPU machine's full build generates it, runs ptxas, links and runs
  # everything. (nvcc's -fdevice-syntax-only would be cheaper still, but
  # misses the calls of __host__ functions from device code.) -cuda: no g++
  # pass over the host code, and so no objects to link.
  cmake --preset cuda-ci >/dev/null
  objects=$(ninja -C build/cuda-ci -t targets all | sed -n 's/^\([^:]*\.o\): CUDA_COMPILER.*/\1/p')
  # shellcheck disable=SC2086
  ninja -C build/cuda-ci -j "$jobs" $objects > build/cuda-ci-compile.log 2>&1 &
  cuda_pid=$!
else
  echo "cuda backend: skipped (no $nvcc or SCANVEC_SKIP_CUDA=1)"
fi
rc=0
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 SCANVEC_TEST_SMALL=1 \
  ctest --preset host-asan -j "$jobs" || rc=$?
if [ -n "$cuda_pid" ]; then  # its errors show even when a test failed
  echo; echo "=== cuda backend: compile the examples (they and the tests run on a GPU machine: bash bench/gpu.sh) ==="
  cuda_rc=0
  wait "$cuda_pid" || cuda_rc=$?
  cat build/cuda-ci-compile.log
  if [ "$cuda_rc" -ne 0 ]; then echo "cuda backend: the compile check FAILED"; rc=1; fi
fi
[ "$rc" -eq 0 ] || exit "$rc"
end_stage ""
echo; echo "test.sh: all passed"
printf '%s\n' "${stages[@]}" "$(printf '%5d s wall %6d s CPU  in all' "$SECONDS" "$(cpu_s)")"

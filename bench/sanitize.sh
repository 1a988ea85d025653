#!/usr/bin/env bash
# compute-sanitizer over the CUDA test executables: every test case of every
# executable under every tool, one process per (test case, tool), many at once
# on the one GPU (a tool slows a kernel 10-100x; the test cases are what spread
# the work). Called by bench/gpu.sh's sanitize step; runs on its own too, from
# the repository root, over what build/cuda/tests holds:
#   bench/sanitize.sh
# The suite runs with SCANVEC_HOST_ROUNDS=1 ("host-rounds": the rounds that
# the device repeats in a CUDA graph with a conditional while node, quicksort's
# from 2^18 keys and runtime::repeat_on_device's, queued from the host): in
# such a graph compute-sanitizer 2025.3.1 fails (memcheck, racecheck and
# initcheck with an illegal address, synccheck with divergent-barrier reports)
# where the program alone runs clean, and so does the control below
# (bench/results/cuda/sanitize.md). The control runs in both settings, so a
# later tool that follows such graphs shows here. Every executable runs at
# SCANVEC_TEST_SMALL=1 (sizes up to 65539); quicksort's test cases run again
# at their full sizes.
# memcheck runs with --leak-check full: the memory cache gives its free blocks
# back at exit, so a clean run also says scanvec leaves no leak to report.
# Environment:
#   SANITIZE_BINS     the executables (default build/cuda/tests/test_*, less test_fuzz,
#                     which bench/fuzz-diff.sh covers across backends, and test_large,
#                     whose cases are the other tests' kernels past 2^31 elements:
#                     hours under a tool; ctest runs it)
#   SANITIZE_BY_CASE  a regex of the executables run one process per test case (the
#                     long ones, default below); the others one process per tool
#   SANITIZE_FILTER   a regex: only the processes whose line (NAME SETTING SMALL TOOL
#                     EXECUTABLE ...) matches run (say "memcheck|initcheck")
#   SANITIZE_DEADLINE seconds after the start past which no process starts (default:
#                     none); those left are reported as not run
#   SANITIZE_TOOLS    default "memcheck initcheck synccheck racecheck", run in that order:
#                     on the H200 memcheck takes seconds an executable, racecheck up to
#                     minutes a test case (test_sorts), so a deadline cuts the slow one
#   SANITIZE_JOBS     processes at once (default: nproc)
#   SANITIZE_TIMEOUT  seconds one process may run (default 480); one stopped
#                     then is reported as not finished, never as clean
#   SANITIZE_RACECHECK_SIZES  the largest test size under racecheck (default 65539, as the
#                     others): racecheck's hazards lie within one block, and a few cases
#                     of test_sorts run past 7 minutes each at 65539 (say 16385)
#   SANITIZE_GRAPHS   set: quicksort's test cases also with their rounds in the graph (at
#                     full size), beside the host rounds
#   SANITIZE_CONTROL  an executable run under every tool in both settings
#                     beside the suite (say a kernel known to be correct, to
#                     tell a tool's report from a program's)
#   OUT               where sanitize.md and sanitize-logs.tgz go (default build/gpu-out)
# Exit status: 0 when every process finished with the tool's "0 errors" (or
# "0 hazards") and the test's own success; 1 otherwise. The last line printed
# is one line of summary.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-build/gpu-out}; mkdir -p "$out"
work=build/gpu-sanitize; rm -rf "$work"; mkdir -p "$work"
tools=${SANITIZE_TOOLS:-memcheck initcheck synccheck racecheck}
jobs=${SANITIZE_JOBS:-$(nproc)}
limit=${SANITIZE_TIMEOUT:-480}
bins=${SANITIZE_BINS:-$(ls build/cuda/tests/test_* 2>/dev/null | grep -v -e '_fuzz$' -e '_large$' -e '\.')}
by_case=${SANITIZE_BY_CASE:-test_(sorts|book|graphs|faults|nested|nested_permute)$}
deadline=$(( $(date +%s) + ${SANITIZE_DEADLINE:-1000000} ))

# One line per process: NAME SETTING SMALL TOOL EXECUTABLE [doctest arguments...]
list=$work/jobs.txt; : > "$list"
add_cases() {  # add_cases SETTING SMALL BIN FILTER...: one job per test case and tool
  local setting=$1 small=$2 bin=$3; shift 3
  local n k tool
  n=$(SCANVEC_TEST_SMALL=$small "$bin" --count "$@" 2>/dev/null | sed -nE 's/.*passing the current filters: ([0-9]+).*/\1/p')
  [ -n "$n" ] || { echo "sanitize: $bin --count gave nothing" >&2; return; }
  if [[ ! "$(basename "$bin")" =~ $by_case ]]; then  # one process per tool: all its cases
    for tool in $tools; do echo "$(basename "$bin")-all $setting $small $tool $bin${*:+ $*}" >> "$list"; done
    return
  fi
  for k in $(seq 1 "$n"); do
    for tool in $tools; do
      echo "$(basename "$bin")-$k $setting $small $tool $bin --first=$k --last=$k${*:+ $*}" >> "$list"
    done
  done
}
for bin in $bins; do
  [ -x "$bin" ] || continue
  case "$(basename "$bin")" in
    # a deliberate request of 1 PiB, which the tools' allocator cannot answer as the driver does
    test_memory) add_cases host-rounds 1 "$bin" "--test-case-exclude=*impossible?allocation*" ;;
    *) add_cases host-rounds 1 "$bin" ;;
  esac
  if [ "$(basename "$bin")" = test_sorts ]; then
    add_cases host-rounds 0 "$bin" "--test-case=*quicksort*"
    # SANITIZE_GRAPHS=1: quicksort's cases also as they run by default, rounds in the graph
    [ -n "${SANITIZE_GRAPHS:-}" ] && add_cases graphs 0 "$bin" "--test-case=*quicksort*"
  fi
done
if [ -n "${SANITIZE_CONTROL:-}" ]; then
  for setting in graphs host-rounds; do
    for tool in $tools; do echo "control $setting 0 $tool $SANITIZE_CONTROL" >> "$list"; done
  done
fi

if [ -n "${SANITIZE_FILTER:-}" ]; then grep -E "$SANITIZE_FILTER" "$list" > "$list.kept"; mv "$list.kept" "$list"; fi

# run_one NAME SETTING SMALL TOOL BIN ARGS...: $work/NAME-SETTING-SMALL-TOOL.{log,rc}
# (rc "-1 0": not started, the deadline had passed)
run_one() {
  local name=$1 setting=$2 small=$3 tool=$4; shift 4
  local stem="$work/$name-$setting-small$small-$tool" extra=() rounds=0 t0 rc
  if [ "$(date +%s)" -ge "$deadline" ]; then echo "-1 0" > "$stem.rc"; return; fi
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  [ "$setting" = host-rounds ] && rounds=1
  [ "$tool" = racecheck ] && [ "$small" = 1 ] && small=${SANITIZE_RACECHECK_SIZES:-1}
  t0=$(date +%s)
  SCANVEC_TEST_SMALL=$small SCANVEC_HOST_ROUNDS=$rounds timeout -k 10 "$limit" \
    compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 "$@" > "$stem.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - t0 ))" > "$stem.rc"
}
export -f run_one; export work limit deadline
t0=$(date +%s)
# tool by tool in $tools' order (xargs -L: no line may end in a blank, which
# would join it to the next)
for tool in $tools; do awk -v t="$tool" '$4 == t' "$list"; done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _

# One row per executable, setting, size and tool: test cases clean / run, and what was not clean.
python3 - "$work" "$out/sanitize.md" <<'EOF'
import collections, glob, os, re, sys
work, report = sys.argv[1], sys.argv[2]
rows = collections.OrderedDict()
bad = []
for rc_path in sorted(glob.glob(os.path.join(work, "*.rc"))):
    stem = rc_path[:-3]
    base = os.path.basename(stem)
    parts = re.match(r"(?P<name>.+?)(?:-(?P<case>\d+|all))?-(?P<setting>graphs|host-rounds)-small(?P<small>\d)-(?P<tool>\w+)$", base)
    rc, secs = (int(x) for x in open(rc_path).read().split())
    log = open(stem + ".log", errors="replace").read() if os.path.exists(stem + ".log") else ""
    summary = re.findall(r"(ERROR SUMMARY: \d+ errors?|RACECHECK SUMMARY: \d+ hazards? displayed \(\d+ errors?, \d+ warnings?\))", log)
    clean = rc == 0 and summary and all(re.search(r": 0 (errors|hazards)", s) for s in summary)
    # a test case that makes no CUDA call (arithmetic of the checks, the docs' text): the tool
    # stops with this line and exit 255 once the test has passed; nothing ran to check
    clean = clean or ("terminated before first instrumented API call" in log and "Status: SUCCESS!" in log)
    sizes = "full" if parts["small"] == "0" else "65539"
    if parts["tool"] == "racecheck" and parts["small"] == "1" and os.environ.get("SANITIZE_RACECHECK_SIZES", "1") != "1":
        sizes = os.environ["SANITIZE_RACECHECK_SIZES"]
    key = (parts["name"], parts["setting"], sizes, parts["tool"])
    r = rows.setdefault(key, [0, 0, 0])
    r[0] += 1; r[1] += bool(clean); r[2] = max(r[2], secs)
    if not clean:
        why = ("not run (deadline)" if rc == -1 else "timed out" if rc in (124, 137)
               else (summary[-1] if summary else f"exit {rc}, no summary"))
        first = re.search(r"========= (Invalid|Race|Barrier|Uninitialized|Leaked|Program hit|Error).*", log)
        bad.append(f"| {base} | {why} | {first.group(0)[10:120] if first else ''} |")
with open(report, "w") as f:
    f.write("| executable | setting | sizes | tool | processes clean / run (a test case each, or all in one) | longest (s) |\n|---|---|---|---|---|---|\n")
    for (name, setting, sizes, tool), (n, ok, secs) in rows.items():
        f.write(f"| {name} | {setting} | {sizes} | {tool} | {ok} / {n} | {secs} |\n")
    if bad:
        f.write("\n| process not clean | why | first report |\n|---|---|---|\n" + "\n".join(bad) + "\n")
# The control in a graph measures the tool, not scanvec: counted apart.
tool_limit = {k: v for k, v in rows.items() if k[0] == "control" and k[1] == "graphs"}
rows = {k: v for k, v in rows.items() if k not in tool_limit}
total = sum(r[0] for r in rows.values()); ok = sum(r[1] for r in rows.values())
line = f"sanitize: {ok} of {total} processes clean ({len(rows)} rows of executable, setting, sizes and tool)"
if tool_limit:
    line += "; the control in a graph: " + ", ".join(
        f"{k[3]} {'clean' if v[1] == v[0] else 'fails (the tool)'}" for k, v in tool_limit.items())
open(os.path.join(work, "summary.txt"), "w").write(line + "\n")
sys.exit(0 if ok == total and total > 0 else 1)
EOF
rc=$?
tar czf "$out/sanitize-logs.tgz" -C build gpu-sanitize
echo "sanitize: $(( $(date +%s) - t0 )) s, $(wc -l < "$list") processes, $jobs at once; table in $out/sanitize.md"
tail -1 "$work/summary.txt"
exit $rc

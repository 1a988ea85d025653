#!/usr/bin/env bash
# Cross-backend differential fuzzing (tests/fuzz/test_fuzz.cpp): the same
# FUZZ_PROGRAMS programs through the host build and the CUDA build, split into
# shards of consecutive seeds, and the two digests (SCANVEC_FUZZ_DUMP) compared
# line by line. Called by bench/gpu.sh's fuzz step (which builds both
# executables); runs on its own too, from the repository root:
#   bench/fuzz-diff.sh
# Environment:
#   FUZZ_PROGRAMS      programs in all (default 100000)
#   FUZZ_SEED          seed of the first (default 20261201, test_fuzz's own)
#   FUZZ_CUDA_SHARDS   processes sharing the GPU (default 4)
#   FUZZ_HOST_SHARDS   host processes, one thread each (default: nproc less the
#                      CUDA shards, at least 1: both sides run at once)
#   FUZZ_TIMEOUT       seconds a shard may run (default 480); a shard stopped
#                      then (or crashed) counts up to its last whole program,
#                      and only the seeds that both sides finished are compared
#   FUZZ_HOST_BIN, FUZZ_CUDA_BIN  the executables (default build/host/tests/test_fuzz,
#                      build/cuda/tests/test_fuzz); FUZZ_CUDA_BIN=$FUZZ_HOST_BIN
#                      tests this script without a GPU
#   FUZZ_WORK          where the digests go (default build/fuzz-diff; ~0.5 KB a program a side)
#   OUT                where fuzz.md and fuzz-logs.tgz go (default build/gpu-out)
# SCANVEC_TEST_SMALL, if set, reaches both sides alike.
# Exit status: 0 when every shard finished with "0 failed" and doctest's success
# and the digests agree on every seed; 1 otherwise. The last line printed is
# one line of summary (gpu.sh puts it in its own).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-build/gpu-out}; mkdir -p "$out"
work=${FUZZ_WORK:-build/fuzz-diff}
rm -rf "$work"; mkdir -p "$work"
programs=${FUZZ_PROGRAMS:-100000}
seed=${FUZZ_SEED:-20261201}
gshards=${FUZZ_CUDA_SHARDS:-4}
hshards=${FUZZ_HOST_SHARDS:-$(( $(nproc) > gshards ? $(nproc) - gshards : 1 ))}
limit=${FUZZ_TIMEOUT:-480}
host_bin=${FUZZ_HOST_BIN:-build/host/tests/test_fuzz}
cuda_bin=${FUZZ_CUDA_BIN:-build/cuda/tests/test_fuzz}
for b in "$host_bin" "$cuda_bin"; do
  [ -x "$b" ] || { echo "fuzz: no executable $b"; exit 1; }
done

# run_side NAME BIN SHARDS: shard k has seeds seed + [k*programs/S, (k+1)*programs/S)
# and writes $work/NAME-k.{dump,log,rc,range}
run_side() {
  local name=$1 bin=$2 shards=$3 k lo hi
  for k in $(seq 0 $((shards - 1))); do
    lo=$(( programs * k / shards )); hi=$(( programs * (k + 1) / shards ))
    echo "$((seed + lo)) $((hi - lo))" > "$work/$name-$k.range"
    [ "$hi" -gt "$lo" ] || { echo 0 > "$work/$name-$k.rc"; : > "$work/$name-$k.dump"; continue; }
    (
      s0=$(date +%s%N)
      OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive SCANVEC_FUZZ_PROGRAMS=$((hi - lo)) \
        SCANVEC_FUZZ_SEED=$((seed + lo)) SCANVEC_FUZZ_DUMP="$work/$name-$k.dump" \
        timeout -k 10 "$limit" "$bin" > "$work/$name-$k.log" 2>&1
      rc=$?
      echo "$rc $(( ($(date +%s%N) - s0) / 1000000 ))" > "$work/$name-$k.rc"  # status, milliseconds
    ) &
  done
}
t0=$(date +%s)
run_side host "$host_bin" "$hshards"
run_side cuda "$cuda_bin" "$gshards"
wait
wall=$(( $(date +%s) - t0 ))

python3 - "$work" "$out" "$programs" "$seed" "$hshards" "$gshards" "$limit" "$wall" "$host_bin" "$cuda_bin" <<'EOF'
import os, re, subprocess, sys
work, out, programs, seed, hshards, gshards, limit, wall, host_bin, cuda_bin = sys.argv[1:]
programs, seed, hshards, gshards, wall = int(programs), int(seed), int(hshards), int(gshards), int(wall)

def side(name, shards):
    """Every shard's status; the digest lines of the seeds it finished; those seeds as ranges."""
    info, lines, done = [], [], []
    for k in range(shards):
        p = f"{work}/{name}-{k}"
        lo, n = map(int, open(p + ".range").read().split())
        rc_wall = open(p + ".rc").read().split() if os.path.exists(p + ".rc") else ["?"]
        rc, secs = rc_wall[0], (int(rc_wall[1]) / 1000 if len(rc_wall) > 1 else 0.0)
        log = open(p + ".log", errors="replace").read() if os.path.exists(p + ".log") else ""
        m = re.search(r"fuzz: (\d+) programs \(seeds.*?, (\d+) steps, (\d+) failed", log)
        ok_doctest = "Status: SUCCESS" in log
        whole = n == 0 or (m is not None and int(m.group(1)) == n)
        text = open(p + ".dump", errors="replace").read() if os.path.exists(p + ".dump") else ""
        body = [l for l in text.split("\n") if l.strip() and not l.startswith("#")]
        body = [l if l.split()[0].isdigit() else "0 " + l for l in body]  # (never: a line not a digest's)
        if not text.endswith("\n") and body:
            body.pop()  # a line cut short
        if whole:
            end = lo + n
        else:  # stopped: up to the last program that the digest holds whole
            seeds = [int(l.split()[0]) for l in body]
            end = max(seeds) if seeds else lo  # the last one may be cut short
            body = [l for l in body if int(l.split()[0]) < end]
        lines += body
        done.append((lo, end))
        info.append(dict(k=k, lo=lo, n=n, rc=rc, secs=secs, finished=end - lo, whole=whole,
                         failed=(m.group(3) if m else "?"), steps=(m.group(2) if m else "?"),
                         doctest=ok_doctest, clean=whole and ok_doctest and rc == "0" and m is not None and m.group(3) == "0"))
    return info, lines, done

def covered(ranges, s):
    return any(lo <= s < hi for lo, hi in ranges)

hinfo, hlines, hdone = side("host", hshards)
cinfo, clines, cdone = side("cuda", gshards)
both = lambda l: covered(hdone, int(l.split()[0])) and covered(cdone, int(l.split()[0]))
hkeep, ckeep = [l for l in hlines if both(l)], [l for l in clines if both(l)]
compared = sum(1 for s in range(seed, seed + programs) if covered(hdone, s) and covered(cdone, s))
open(f"{work}/host.txt", "w").write("\n".join(hkeep) + "\n")
open(f"{work}/cuda.txt", "w").write("\n".join(ckeep) + "\n")
d = subprocess.run(["diff", f"{work}/host.txt", f"{work}/cuda.txt"], capture_output=True, text=True).stdout.split("\n")
differing = sum(1 for l in d if l.startswith(("<", ">")))
dseeds = sorted({int(l[2:].split()[0]) for l in d if l.startswith(("<", ">")) and l[2:].split()})

clean = all(i["clean"] for i in hinfo + cinfo)
agree = differing == 0 and compared == programs
stopped = [i for i in hinfo + cinfo if not i["whole"]]
reported = [i for i in hinfo + cinfo if i["whole"] and not i["clean"]]  # failures, or doctest's
md = ["# Cross-backend differential fuzzing", "",
      f"- programs: {programs}, seeds {seed}..{seed + programs - 1}"
      + (" (SCANVEC_TEST_SMALL=1)" if os.environ.get("SCANVEC_TEST_SMALL") == "1" else ""),
      f"- host: {host_bin}, {hshards} shards, one thread each; CUDA: {cuda_bin}, {gshards} shards sharing the GPU; all at once",
      f"- wall: {wall} s (shard limit {limit} s)",
      f"- programs both sides finished and compared: {compared} of {programs}",
      f"- digest lines compared: {len(hkeep)} host, {len(ckeep)} CUDA; differing lines: {differing}"
      + (f", in {len(dseeds)} programs (seeds {' '.join(map(str, dseeds[:20]))}{' ...' if len(dseeds) > 20 else ''})" if dseeds else ""),
      f"- every shard finished, \"0 failed\", doctest passed: {'yes' if clean else 'NO'}", "",
      "| side | shard | first seed | programs | finished | steps | failed | doctest | rc | s |",
      "|---|---|---|---|---|---|---|---|---|---|"]
for name, info in (("host", hinfo), ("cuda", cinfo)):
    for i in info:
        md.append(f"| {name} | {i['k']} | {i['lo']} | {i['n']} | {i['finished']} | {i['steps']} | {i['failed']} | "
                  f"{'ok' if i['doctest'] else 'NO'} | {i['rc']} | {i['secs']:.0f} |")
if differing:
    md += ["", "First differences (diff host cuda; a line is \"<seed> <step> <kind> <hash>\"; replay with",
           "SCANVEC_FUZZ_SEED=<seed> SCANVEC_FUZZ_PROGRAMS=1 SCANVEC_FUZZ_VERBOSE=1 on each side):", "", "```"]
    md += d[:40] + ["```"]
for name, info in (("host", hinfo), ("cuda", cinfo)):
    for i in info:
        if not i["clean"]:
            tail = open(f"{work}/{name}-{i['k']}.log", errors="replace").read().splitlines()[-15:]
            md += ["", f"Log of {name} shard {i['k']} (last lines):", "", "```"] + tail + ["```"]
open(f"{out}/fuzz.md", "w").write("\n".join(md) + "\n")
print("\n".join(md[:10]))
verdict = ("DIFFER" if differing else "FAILED: a shard reported failures" if reported
           else f"agree where compared, {len(stopped)} shards stopped early" if stopped else "backends agree")
print(f"fuzz: {verdict}: {compared}/{programs} programs compared, {differing} differing lines, "
      f"shards clean {sum(i['clean'] for i in hinfo + cinfo)}/{len(hinfo + cinfo)} "
      f"({hshards} host + {gshards} CUDA), {wall} s (fuzz.md)")
sys.exit(0 if agree and clean else 1)
EOF
rc=$?
tar czf "$out/fuzz-logs.tgz" -C "$work" --exclude='*.dump' --exclude='*.txt' .  # the shards' logs
exit $rc

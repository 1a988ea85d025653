#!/usr/bin/env python3
"""The distributed layer's scaling table from scanvec_dist_bench rows.

    python3 bench/dist_report.py dist.csv [device.txt] > dist.md
    python3 bench/dist_report.py dist.csv --plot-data scaling.dat

Reads the CSV that `bash bench/gpu.sh dist` writes (op,engine,ranks,n,median_ms;
every rank count of one run appended to one file) and prints, for each size:
each call's time on 1 and P GPUs, the speed-up over scanvec on one GPU and
over CUB on one GPU (scan, reduce, sort), and for the calls bound by the
all-to-all the share of the engine's own all-to-all speed they reach; then
weak scaling (n per GPU fixed), where a rank's time goes (the one-device
steps, and the distributed sort's phases), and NCCL against MPI staged through host memory.
"""
import argparse
import collections
import csv
import sys

OPS = ["scan", "reduce", "segmented_scan", "permute", "back_permute", "write", "combining_write", "split", "sort",
       "quicksort"]
EXCHANGING = {"permute", "back_permute", "write", "combining_write", "split", "sort", "quicksort"}


def log2(n):
    return n.bit_length() - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("device", nargs="?")
    ap.add_argument("--plot-data", help="write Gelem/s per op and GPU count at the largest common size here")
    ap.add_argument("--before", help="an earlier run's CSV (say a DIST_TRIALS trial): every row of both, side by side")
    args = ap.parse_args()

    t = {}  # (op, engine, ranks, n) -> ms
    with open(args.csv) as f:
        for r in csv.DictReader(f):
            t[(r["op"], r["engine"], int(r["ranks"]), int(r["n"]))] = float(r["median_ms"])
    fast = "nccl" if any(k[1] == "nccl" and k[2] > 1 for k in t) else "mpi"
    ranks = sorted({k[2] for k in t if k[1] == fast})
    multi = [p for p in ranks if p > 1]  # a trial's file has no 1-GPU rows
    sizes = sorted({k[3] for k in t if k[1] == fast and k[2] > 1})
    out = sys.stdout
    if args.device:
        with open(args.device) as f:
            out.write("Device: " + "; ".join(line.strip() for line in f if line.strip()) + "\n\n")
    out.write(f"int32 keys, median of the repetitions, the slowest rank; engine {fast} between GPUs.\n\n")

    for n in sizes:
        out.write(f"### n = 2^{log2(n)} ({n} elements)\n\n")
        head = "| call | " + " | ".join(f"{p} GPU{'s' if p > 1 else ''} ms" for p in ranks)
        head += " | speed-up " + "/".join(str(p) for p in multi) + " vs 1 GPU | vs CUB on 1 GPU | all-to-all share |\n"
        out.write(head)
        out.write("|---" * (len(ranks) + 4) + "|\n")
        for op in OPS:
            cells = [t.get((op, fast if p > 1 else e, p, n)) for p in ranks for e in [fast]]
            if not any(cells):  # not run at this size (quicksort past 2^30, older files)
                continue
            one = t.get((op, fast, 1, n))
            several = [t.get((op, fast, p, n)) for p in multi]
            row = f"| {op} | " + " | ".join(f"{c:.3f}" if c else "–" for c in cells)
            ups = [f"{one / c:.2f}x" if one and c else "–" for c in several]
            cub = t.get(("sort" if op == "quicksort" else op, "cub", 1, n))  # quicksort: against CUB's radix sort
            vs_cub = [f"{cub / c:.2f}x" if cub and c else "–" for c in several]
            share = []
            if op in EXCHANGING:
                for p, c in zip(multi, several):
                    raw = t.get(("all_to_all_raw", fast, p, n))
                    share.append(f"{raw / c:.0%}" if raw and c else "–")
            row += " | " + " / ".join(ups) + " | " + " / ".join(vs_cub) + " | " + (" / ".join(share) or "") + " |\n"
            out.write(row)
        raws = [t.get(("all_to_all_raw", fast, p, n)) for p in multi]
        out.write("\nThe engine's own all-to-all of the same bytes (n/P int32 per GPU): " +
                  ", ".join(f"{p} GPUs {r:.3f} ms" for p, r in zip(multi, raws) if r) + ".\n\n")

    # weak scaling: 1 GPU at n against P GPUs at P n
    rows = []
    for p in multi:
        for n in sorted({k[3] for k in t if k[2] == 1}):
            for op in OPS:
                a, b = t.get((op, fast, 1, n)), t.get((op, fast, p, p * n))
                if a and b:
                    rows.append(f"| {op} | 2^{log2(n)} | {p} | {a:.3f} | {b:.3f} | {a / b:.2f} |\n")
    if rows:
        out.write("### Weak scaling (n per GPU fixed)\n\n| call | n per GPU | GPUs | 1 GPU ms | P GPUs ms | efficiency (1 = perfect) |\n|---|---|---|---|---|---|\n")
        out.writelines(rows)
        out.write("\n")

    def per_rank_table(title, prefix, names, extra_heads, extra):
        """Rows of one value per name (op prefix + name) for each size and GPU count, then extra(vals, p, n)."""
        if not names:
            return
        out.write(f"### {title}\n\n| n | GPUs | " + " | ".join(x[len(prefix):] for x in names) +
                  "".join(f" | {h}" for h in extra_heads) + " |\n")
        out.write("|---" * (len(names) + len(extra_heads) + 2) + "|\n")
        for n in sizes:
            for p in multi:
                vals = [t.get((x, fast, p, n)) for x in names]
                if not any(vals):
                    continue
                cells = [f"{v:.3f}" if v else "–" for v in vals] + extra(vals, p, n)
                out.write(f"| 2^{log2(n)} | {p} | " + " | ".join(cells) + " |\n")
        out.write("\n")

    raw = lambda vals, p, n: [f"{t[k]:.3f}" if (k := ("all_to_all_raw", fast, p, n)) in t else "–"]
    per_rank_table("Where a rank's time goes: the one-device steps on its block", "step:",
                   sorted({k[0] for k in t if k[0].startswith("step:")}), ["all-to-all"], raw)
    whole = lambda vals, p, n: [f"{sum(v for v in vals if v):.3f}", f"{t.get(('sort', fast, p, n), 0):.3f}"]
    per_rank_table("Where the distributed sort's time goes (each phase waited for; the slowest rank)", "phase:",
                   list(dict.fromkeys(k[0] for k in t if k[0].startswith("phase:"))), ["sum", "sort (no waits)"], whole)
    for op in ("permute", "back_permute", "split"):
        prefix = op + "-phase:"
        per_rank_table(f"Where the distributed {op}'s time goes (each phase waited for; the slowest rank)", prefix,
                       list(dict.fromkeys(k[0] for k in t if k[0].startswith(prefix))),
                       ["sum", f"{op} (no waits)", "all-to-all"],
                       lambda vals, p, n, op=op: [f"{sum(v for v in vals if v):.3f}", f"{t.get((op, fast, p, n), 0):.3f}"] +
                       raw(vals, p, n))

    # Each exchange's rate against the engine's own all-to-all of 4 bytes an element in the same run
    # (the measure for the calls bound by the all-to-all). Bytes an element on the wire, int32 values:
    exchanges = [("permute-phase:exchange of the records", "permute: {place, value} records", 8),
                 ("back_permute-phase:exchange of the requests", "back_permute: 32-bit places", 4),
                 ("back_permute-phase:exchange of the answers", "back_permute: the answers", 4),
                 ("phase:exchange of the keys", "sort: the keys", 4),
                 ("split-phase:exchange of the elements", "split: the elements (not all-to-all)", 4)]
    rows = []
    for n in sizes:
        for p in multi:
            raw_ms = t.get(("all_to_all_raw", fast, p, n))
            for name, what, nbytes in exchanges:
                ms = t.get((name, fast, p, n))
                if ms and raw_ms:
                    rows.append(f"| 2^{log2(n)} | {p} | {what} | {nbytes} | {ms:.3f} | {raw_ms * nbytes / 4:.3f} | "
                                f"{raw_ms * nbytes / 4 / ms:.0%} |\n")
    if rows:
        out.write("### Each exchange against the engine's all-to-all (the same run)\n\n"
                  "| n | GPUs | exchange | bytes an element | ms | all-to-all of those bytes, ms | rate vs all-to-all |\n"
                  "|---|---|---|---|---|---|---|\n")
        out.writelines(rows)
        out.write("\n")

    one = [(op, n) for (op, e, p, n) in t if e == "one-device"]
    if one:
        out.write("### One rank against the one-device call (the layer's own cost)\n\n| call | n | one-device ms | dist, 1 rank ms | ratio |\n|---|---|---|---|---|\n")
        for op, n in sorted(one, key=lambda x: (x[1], x[0])):
            a, b = t.get((op, "one-device", 1, n)), t.get((op, fast, 1, n))
            if a and b:
                out.write(f"| {op} | 2^{log2(n)} | {a:.3f} | {b:.3f} | {b / a:.3f}x |\n")
        out.write("\n")

    mpi = [(op, n) for (op, e, p, n) in t if e == "mpi" and p > 1 and op in OPS + ["all_to_all_raw"]]
    if mpi and fast == "nccl":
        out.write("### NCCL against MPI staged through host memory (2 GPUs)\n\n| call | n | NCCL ms | MPI ms | MPI / NCCL |\n|---|---|---|---|---|\n")
        for op, n in sorted(mpi, key=lambda x: (x[1], (OPS + ["all_to_all_raw"]).index(x[0]))):
            a, b = t.get((op, "nccl", 2, n)), t.get((op, "mpi", 2, n))
            if a and b:
                out.write(f"| {op} | 2^{log2(n)} | {a:.3f} | {b:.3f} | {b / a:.0f}x |\n")
        out.write("\n")

    if args.before:
        b = {}
        with open(args.before) as f:
            for r in csv.DictReader(f):
                b[(r["op"], r["engine"], int(r["ranks"]), int(r["n"]))] = float(r["median_ms"])
        both = sorted(set(t) & set(b), key=lambda k: (k[3], k[2], k[0]))
        out.write(f"### Against {args.before} (every row of both runs)\n\n"
                  "| n | GPUs | call or phase | engine | before ms | this run ms | this / before |\n"
                  "|---|---|---|---|---|---|---|\n")
        for k in both:
            out.write(f"| 2^{log2(k[3])} | {k[2]} | {k[0]} | {k[1]} | {b[k]:.3f} | {t[k]:.3f} | {t[k] / b[k]:.2f} |\n")
        out.write("\n")

    if args.plot_data:
        ran = [op for op in OPS if any(k[0] == op for k in t)]  # older files lack the newer calls
        n = max(n for n in sizes if all((op, fast, p, n) in t or p == 1 for op in ran for p in ranks))
        with open(args.plot_data, "w") as f:
            f.write(f"# n = 2^{log2(n)}: 10^9 elements per second of each call on " +
                    ", ".join(str(p) for p in ranks) + " GPUs\n")
            f.write("call " + " ".join(f'"{p} GPU{"s" if p > 1 else ""}"' for p in ranks) + "\n")
            for op in ran:
                vals = [t.get((op, fast, p, n)) for p in ranks]
                f.write(op.replace("_", "-") + " " + " ".join(f"{n / v * 1e-6:.2f}" if v else "NaN" for v in vals) + "\n")

if __name__ == "__main__":
    main()

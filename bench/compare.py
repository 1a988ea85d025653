#!/usr/bin/env python3
"""Compares two scanvec_bench runs (bench.csv) row by row: before and after a change.

    python3 bench/compare.py BEFORE.csv AFTER.csv [--limit 1.03] [--min-n 1048576]

For every (family, op, input, type, n) in both files prints scanvec's time
after/before, and for rows with an alternative the change of the ratio to it
(after's ratio / before's ratio). Rows slower by more than --limit (default 3%)
are marked; rows below --min-n elements are shown but not judged (a few
microseconds of launch jitter is more than 3% there). Exits 1 when a judged row
is over the limit.
"""
import argparse
import csv
import sys


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["family"], r["op"], r["input"], r["type"], int(r["n"]))
            rows[key] = r
    return rows


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main(argv):
    parser = argparse.ArgumentParser(description="Compares two scanvec_bench runs row by row.")
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--limit", type=float, default=1.03)
    parser.add_argument("--min-n", type=int, default=1 << 20)
    args = parser.parse_args(argv[1:])
    limit, min_n = args.limit, args.min_n
    before, after = load(args.before), load(args.after)
    worse = 0
    print(f"| family | op | input | type | n | before ms | after ms | after/before | ratio-to-alt change | |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(set(before) & set(after), key=lambda k: (k[0], k[1], k[2], k[3], k[4])):
        b, a = before[key], after[key]
        tb, ta = number(b["scanvec_ms"]), number(a["scanvec_ms"])
        if not tb or not ta:
            continue
        change = ta / tb
        rb, ra = number(b["ratio_alt"]), number(a["ratio_alt"])
        alt = f"{ra / rb:.3f}" if rb and ra else ""
        judged = key[4] >= min_n
        # a row is worse when its time grew past the limit and, where it has an
        # alternative measured in the same run, its ratio to it grew too
        bad = judged and change > limit and (not (rb and ra) or ra / rb > limit)
        worse += bad
        mark = "WORSE" if bad else ("" if judged else "(not judged)")
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {key[4]} | {tb:.4f} | {ta:.4f} | {change:.3f} | {alt} | {mark} |")
    only = sorted(set(before) ^ set(after))
    if only:
        print(f"\n{len(only)} rows in one run only: " + "; ".join(f"{k[0]} {k[1]} {k[4]}" for k in only[:10]))
    print(f"\n{worse} judged rows worse by more than {100 * (limit - 1):.0f}%")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

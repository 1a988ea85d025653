#!/usr/bin/env python3
"""Sums ncu's per-launch gpu__time_duration by kernel (ncu --csv --print-units base).

    python3 bench/kernel_times.py ncu.csv     ->  kernels by total time, with launches and share
"""
import csv
import re
import sys
from collections import defaultdict


def short(name):
    """The kernel's function name and its first template words, not the whole instantiation."""
    name = re.sub(r"\(.*$", "", name) if "<" not in name else name
    head = name.split("<", 1)
    return (head[0] + ("<" + head[1][:90] if len(head) > 1 else ""))[:120]


def main(path):
    total = defaultdict(float)
    launches = defaultdict(int)
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    header = next(i for i, r in enumerate(rows) if "Kernel Name" in r and "Metric Value" in r)
    cols = rows[header]
    k, v = cols.index("Kernel Name"), cols.index("Metric Value")
    for r in rows[header + 1:]:
        if len(r) <= max(k, v):
            continue
        try:
            ns = float(r[v].replace(",", ""))
        except ValueError:
            continue
        total[short(r[k])] += ns
        launches[short(r[k])] += 1
    all_ns = sum(total.values()) or 1.0
    print(f"{'ms':>9} {'share':>6} {'launches':>8}  kernel")
    for name, ns in sorted(total.items(), key=lambda x: -x[1]):
        print(f"{ns / 1e6:9.3f} {100 * ns / all_ns:5.1f}% {launches[name]:8d}  {name}")
    print(f"{all_ns / 1e6:9.3f} 100.0% {sum(launches.values()):8d}  (all kernels)")


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env bash
# Plots the distributed layer's scaling: bench/plot-dist.sh DIR [CSV] [DEVICE]
#   (CSV: DIR/dist.csv by default; DEVICE: the GPUs' name for the title, "H100s" by default)
#   DIR/scaling.png   elements per second of each call on 1, 2, ... GPUs at the
#                     largest size every GPU count ran (bench/dist_report.py --plot-data)
# Needs gnuplot (Debian: gnuplot-nox); plot fetched results here, not on the GPU machine.
set -euo pipefail
dir=${1:?usage: bench/plot-dist.sh DIR [CSV] [DEVICE] (CSV from bash bench/gpu.sh dist)}
csv=${2:-$dir/dist.csv}
device=${3:-H100s}
data=$(mktemp)
trap 'rm -f "$data"' EXIT
python3 "$(dirname "$0")/dist_report.py" "$csv" --plot-data "$data" > /dev/null
title=$(head -1 "$data" | sed 's/^# n = 2^\([0-9]*\):.*/n = 2^{\1} int32/')
gnuplot <<GP
set terminal pngcairo size 1000,520 font ",11"
set xtics rotate by -25
set output "$dir/scaling.png"
set title "scanvec::dist on $device over NCCL, $title: throughput by GPU count"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "10^9 elements per second (log)"
set key top right
set grid ytics
plot for [c=2:$(sed -n 3p "$data" | wc -w)] "$data" using c:xtic(1) title columnhead(c)
GP

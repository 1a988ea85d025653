#!/usr/bin/env bash
# Plots a scanvec_bench run: bench/plot.sh DIR   (DIR holds bench.csv and growth.csv)
#   DIR/bench.png   median time vs size, log-log, one panel per operation and type:
#                   the scanvec calls, their alternatives and the memcpy
#   DIR/growth.png  time per element vs size (2^10 up) of the int32 scan and sorts,
#                   where launch, allocation and synchronisation costs show at small sizes
# Installs gnuplot-nox (Debian package) when gnuplot is missing: run it where
# apt can reach a mirror (the GPU machine cannot; plot the fetched results here).
set -euo pipefail
dir=${1:?usage: bench/plot.sh DIR (with bench.csv and growth.csv from scanvec_bench)}
[ -f "$dir/bench.csv" ] && [ -f "$dir/growth.csv" ] || { echo "plot.sh: no bench.csv/growth.csv in $dir" >&2; exit 1; }

if ! command -v gnuplot > /dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnuplot-nox > /dev/null
fi
terminal=pngcairo
gnuplot -e "set terminal" 2>&1 | grep -q pngcairo || terminal=png

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# split_series CSV OUT SPEC...: one file per (panel, series) with "n value" lines, sorted by n.
# A SPEC is "name_column:value_column" (a name_column starting with = is a fixed name).
# Panels are family + type (the nested family, one size, is left out); OUT/panels.txt
# lists "id<TAB>title", OUT/series.txt "file<TAB>panel id<TAB>label".
split_series() {
  local csv=$1 out=$2; shift 2
  mkdir -p "$out"
  awk -v specs="$*" -v out="$out" '
    function parse(line,   i, c, f, q, k) {   # one CSV line into F[1..k] (quotes, doubled quotes)
      k = 0; f = ""; q = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = 0 } else f = f c }
        else if (c == "\"") q = 1
        else if (c == ",") { F[++k] = f; f = "" }
        else f = f c
      }
      F[++k] = f
      return k
    }
    NR == 1 { k = parse($0); for (i = 1; i <= k; i++) col[F[i]] = i; ns = split(specs, spec, " "); next }
    {
      parse($0)
      if (F[col["family"]] == "nested") next
      panel = F[col["family"]] " " F[col["type"]]
      if (!(panel in pid)) { pid[panel] = ++np; printf "%d\t%s\n", np, panel > (out "/panels.txt") }
      for (s = 1; s <= ns; s++) {
        split(spec[s], nv, ":")
        name = substr(nv[1], 1, 1) == "=" ? substr(nv[1], 2) : F[col[nv[1]]]
        value = F[col[nv[2]]]
        if (name == "" || value == "") continue
        series = panel SUBSEP name
        if (!(series in sid)) { sid[series] = ++nseries; printf "%s/%d.dat\t%d\t%s\n", out, nseries, pid[panel], name > (out "/series.txt") }
        if ((series, F[col["n"]]) in seen) continue      # a scanvec time repeats on each alternative row
        seen[series, F[col["n"]]] = 1
        print F[col["n"]], value > (out "/" sid[series] ".raw")
      }
    }' "$csv"
  for f in "$out"/*.raw; do sort -n "$f" > "${f%.raw}.dat"; done
}

# plot OUT_PNG DATA_DIR YLABEL TITLE COLUMNS
plot() {
  local png=$1 data=$2 ylabel=$3 title=$4 cols=$5
  local panels rows
  panels=$(wc -l < "$data/panels.txt")
  rows=$(( (panels + cols - 1) / cols ))
  {
    echo "set terminal $terminal size $((cols * 560)),$((rows * 420)) font ',9'"
    echo "set output '$png'"
    echo "set datafile separator whitespace"
    echo "set logscale xy; set format x '2^{%L}'; set logscale x 2; set grid"
    echo "set key below font ',8'; set xlabel 'n'; set ylabel '$ylabel'"
    echo "set multiplot layout $rows,$cols title '$title'"
    while IFS=$'\t' read -r id name; do
      echo "set title '$name' noenhanced"
      local plots=()
      while IFS=$'\t' read -r file panel label; do
        [ "$panel" = "$id" ] || continue
        local style="lw 1 pt 7 ps 0.5"                                      # an alternative
        [[ $label == sv::* ]] && style="lw 3 pt 7 ps 0.8"                  # scanvec: thick
        [[ $label == memcpy ]] && style="lw 1 dt 2 pt 1 lc rgb 'gray40'"  # the physical limit: dashed
        plots+=("'$file' using 1:2 with linespoints $style title '$label' noenhanced")
      done < "$data/series.txt"
      local joined; joined=$(printf "%s, " "${plots[@]}"); echo "plot ${joined%, }"
    done < "$data/panels.txt"
    echo "unset multiplot"
  } > "$data/plot.gp"
  gnuplot "$data/plot.gp"
}

backend=$(awk -F, 'NR == 2 { print $1 }' "$dir/bench.csv")
split_series "$dir/bench.csv" "$tmp/time" op:scanvec_ms alt:alt_ms =memcpy:memcpy_ms
plot "$dir/bench.png" "$tmp/time" "median time (ms)" "scanvec ($backend backend) against its alternatives and memcpy: time vs size" 3
split_series "$dir/growth.csv" "$tmp/growth" impl:ns_per_element
plot "$dir/growth.png" "$tmp/growth" "time per element (ns)" "cost growth: time per element of the int32 scan and sorts" 2
echo "plot.sh: wrote $dir/bench.png and $dir/growth.png"

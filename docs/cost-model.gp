# gnuplot: the steps, the work and the time of the six programs against n
# (docs/plot-cost-model.sh sets csv and png).
set datafile separator ","
set terminal pngcairo size 1500,500 font "sans,10" noenhanced
set output png
programs = "split segmented radix_sort split_radix_sort list_ranking quicksort"
rows(p) = sprintf("< grep '^%s,' %s", p, csv)
set key top left box opaque
set grid
set xlabel "log2 n"
set xrange [3.5:20.5]
set multiplot layout 1,3 title "scanvec: the model's cost against n (host backend, 2 cores)"
set title "steps (the model's depth): O(1), O(bits), O(log n)"
set ylabel "steps"
set logscale y 2
set yrange [1:512]
plot for [p in programs] rows(p) using 2:4 with linespoints title p
set title "work (elements touched, summed over the steps)"
set ylabel "work"
set logscale y 10
set yrange [*:*]
set format y "10^{%T}"
set format y "%.0e"
plot for [p in programs] rows(p) using 2:5 with linespoints title p
set title "measured time (second run)"
set ylabel "ms"
set format y "%g"
plot for [p in programs] rows(p) using 2:6 with linespoints title p
unset multiplot

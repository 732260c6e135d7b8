# gemm_ratio.gp — each GEMM step's TFLOP/s as a fraction of cuBLAS measured in
# the same run (interleaved launches), at 4096³ and 8192³.
#   gnuplot -c plots/gemm_ratio.gp DATA OUT.png GPU NSIZES [NBARS]
# DATA (written by render.sh): tab separated, a header "step 4096³ 8192³"
# (only the sizes with data: NSIZES columns after the label), then one line per
# step (and per --group point, per CUTLASS counterpart): label, its ratio at
# each size (NaN = no row).  NBARS: the number of those lines (sets the width).
data = ARG1; out = ARG2; gpu = ARG3; nc = ARG4 + 0
nb = ARGC >= 5 ? ARG5 + 0 : 6
width = nb * 150 > 900 ? nb * 150 : 900

set terminal pngcairo size width,550 noenhanced font "sans,11"
set output out
set datafile separator "\t"
set key autotitle columnheader top left Left reverse box opaque
set title "GEMM: ratio to cuBLAS (same run, same shape)\n".gpu
set ylabel "TFLOP/s ÷ cuBLAS TFLOP/s"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set style textbox opaque noborder margins 1, 1   # a value stays legible over the 1.0 line
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set grid ytics
set xtics nomirror
sizecolors = "#1f77b4 #ff7f0e #2ca02c"
# nc bars per cluster and a gap of one bar: bar j (0-based) is centred at
# x + (j - (nc - 1) / 2) / (nc + 1)
plot for [c = 2:nc + 1] data using c:xtic(1) lc rgb word(sizecolors, c - 1), \
     for [j = 0:nc - 1] data using ($0 + (j - (nc - 1) / 2.) / (nc + 1.)):j + 2:(sprintf("%.2f", column(j + 2))) \
        with labels boxed offset 0,0.8 notitle, \
     1 with lines dt 2 lw 2 lc rgb "black" title "cuBLAS = 1.0"

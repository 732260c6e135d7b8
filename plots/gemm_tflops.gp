# gemm_tflops.gp — GEMM TFLOP/s per step vs M = N = K, with cuBLAS.
#   gnuplot -c plots/gemm_tflops.gp DATA OUT.png GPU "04 05 ..."
# DATA (written by render.sh): tab separated, a header line of series titles,
# then one line per size: size, one column per step in ARG4, cuBLAS; NaN = no row.
data = ARG1; out = ARG2; gpu = ARG3; steps = ARG4
ns = words(steps)

# one colour per step, the same in every plot of the course
colors = "#7f7f7f #ff7f0e #2ca02c #1f77b4 #9467bd #8c564b #d62728 #e377c2 #bcbd22"
stepcolor(s) = (s >= 1 && s <= 9) ? word(colors, s) : "#17becf"
# "08" + 0 is a bad octal number to gnuplot: read the step's number digit by digit
stepnum(w) = (strlen(w) == 2 && w[1:1] eq "0") ? w[2:2] + 0 : w + 0

set terminal pngcairo size 900,550 noenhanced font "sans,11"
set output out
set datafile separator "\t"
set key autotitle columnheader top left Left reverse box opaque
set title "GEMM, bf16 in, fp32 accumulate: TFLOP/s vs size (M = N = K)\n".gpu
set logscale x 2
set xlabel "M = N = K"
set ylabel "TFLOP/s"
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.3, 0   # room for the key
set grid
plot for [i=1:ns] data using 1:i+1 with linespoints lw 2 pt 7 ps 1.1 \
        lc rgb stepcolor(stepnum(word(steps, i))), \
     data using 1:ns+2:xtic(1) with linespoints lw 2 dt 2 pt 6 ps 1.1 lc rgb "black"

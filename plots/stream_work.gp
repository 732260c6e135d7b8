# stream_work.gp — streaming y = f(x): time vs work (dependent FMAs per
# element) for steps 01-03 and the time a D2D copy of the same bytes takes.
# The hand-off steps pay load + compute; a deep enough pipeline pays
# max(load, compute), so its curve stays on the copy line until compute wins.
#   gnuplot -c plots/stream_work.gp DATA OUT.png GPU "01 02 03"
# DATA (written by render.sh): tab separated, a header of series titles, then
# one line per work value: work, ms per step in ARG4, copy ms; NaN = no row.
data = ARG1; out = ARG2; gpu = ARG3; steps = ARG4
ns = words(steps)

colors = "#7f7f7f #ff7f0e #2ca02c #1f77b4 #9467bd #8c564b #d62728 #e377c2 #bcbd22"
stepcolor(s) = (s >= 1 && s <= 9) ? word(colors, s) : "#17becf"
# "08" + 0 is a bad octal number to gnuplot: read the step's number digit by digit
stepnum(w) = (strlen(w) == 2 && w[1:1] eq "0") ? w[2:2] + 0 : w + 0

set terminal pngcairo size 900,550 noenhanced font "sans,11"
set output out
set datafile separator "\t"
set key autotitle columnheader top left Left reverse box opaque
set title "Streaming: time vs work per element (hand-off: load + compute; pipeline: max(load, compute))\n".gpu
set xlabel "work (dependent FMAs per element)"
set ylabel "time (ms)"
set yrange [0:*]
set autoscale xfix
set offsets graph 0.02, graph 0.02, graph 0.25, 0   # room for the key
set grid
plot for [i=1:ns] data using 1:i+1 with linespoints lw 2 pt 7 ps 1.1 \
        lc rgb stepcolor(stepnum(word(steps, i))), \
     data using 1:ns+2 with lines lw 2 dt 2 lc rgb "black"

# stream_stages.gp — streaming y = f(x): step 03's GB/s vs the number of
# pipeline slots, against the D2D copy and the one-slot steps 01 and 02.
#   gnuplot -c plots/stream_stages.gp DATA OUT.png GPU WORK COPY_GBPS S01_GBPS S02_GBPS N_ELEMS
# DATA (written by render.sh): tab separated "stages GB/s" lines of step 03.
# The GB/s arguments are "NaN" when there is no such row.
data = ARG1; out = ARG2; gpu = ARG3; work = ARG4
copy = ARG5; s01 = ARG6; s02 = ARG7; nelems = ARG8

set terminal pngcairo size 900,550 noenhanced font "sans,11"
set output out
set datafile separator "\t"
set key top left Left reverse box opaque
set title sprintf("Streaming, work = %s FMAs per element, n = %s: GB/s vs pipeline stages\n%s", work, nelems, gpu)
set xlabel "stages (slots in step 03's circular buffer)"
set ylabel "GB/s (bytes read + written)"
set xtics 1
set yrange [0:*]
set autoscale xfix
set offsets 0.3, 0.3, graph 0.35, 0   # room for the key above the copy line
set grid
has(v) = v ne "NaN" && v ne ""
plot data using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc rgb "#2ca02c" title "step 03 staged pipeline", \
     has(copy) ? copy + 0 : 1/0 with lines dt 2 lw 2 lc rgb "black" \
        title has(copy) ? sprintf("D2D copy (%.0f GB/s)", copy + 0) : "D2D copy (no data)", \
     has(s02) ? s02 + 0 : 1/0 with lines dt 4 lw 2 lc rgb "#ff7f0e" \
        title has(s02) ? sprintf("step 02 async, 1 slot (%.0f GB/s)", s02 + 0) : "step 02: no data", \
     has(s01) ? s01 + 0 : 1/0 with lines dt 5 lw 2 lc rgb "#7f7f7f" \
        title has(s01) ? sprintf("step 01 sync hand-off (%.0f GB/s)", s01 + 0) : "step 01: no data"

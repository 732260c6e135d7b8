# timeline.gp — Gantt chart of a --trace file: one row per warp (streaming)
# or warpgroup (GEMM) of the two traced CTAs, one rectangle per recorded span,
# coloured by pipeline phase.  Step 01 shows load and compute in turn, step 03
# the producer loading ahead of the consumers, step 07 one consumer
# warpgroup's epilogue under the other's MMAs.
#   gnuplot -c plots/timeline.gp DATA SETUP OUT.png TITLE
# DATA and SETUP are written by render.sh from plots/results/timeline_stepNN.csv:
# DATA is tab separated "x_centre_us row half_width_us half_height phase_id";
# SETUP sets ytics, yrange, xrange and the variables rows (rows drawn),
# separators (rows between CTAs), present (phase ids with records), ctas
# ("0 and 131") and window_us.
data = ARG1; setup = ARG2; out = ARG3; ttl = ARG4
load setup

# fixed colour per phase: producer oranges, consumer purples, epilogue green;
# waiting is the light shade of the role's colour.  A span runs from the
# previous record of its row to this one, so each legend entry says what the
# row was doing during its bars (titles in quotes: gnuplot's word() keeps them whole).
names = "'producer_acquire: waits for a free slot' 'producer_load: issues the copies (cp.async or TMA)' " . \
        "'consumer_wait: waits for data (07: and for its turn)' " . \
        "'consumer_compute: computes (issues the MMAs)' 'consumer_release: wait_group, frees the slot' " . \
        "'epilogue: writes the tile out' " . \
        "'fixup (09): stores a partial, or waits for and adds the partials' other"
colors = "#f8c98f #e66101 #cdc5e6 #5e3c99 #80cdc1 #1b7837 #d7191c #999999"

h = rows * 24 + 190
h = h < 420 ? 420 : (h > 1800 ? 1800 : h)
set terminal pngcairo size 1000,h noenhanced font "sans,10"
set output out
set datafile separator "\t"
set title sprintf("%s: CTAs %s, the first %g µs", ttl, ctas, window_us)
set xlabel "time (µs) from the first record of CTA ".word(ctas, 1)." (%globaltimer)"
set key outside bottom center horizontal Left reverse maxrows 3
set grid xtics
set ytics nomirror
unset mytics
set tics out
do for [i = 1:words(separators)] {
    y = word(separators, i) + 0
    set arrow from graph 0, first y to graph 1, first y nohead dt 3 lc rgb "#888888"
}
if (words(present) == 0) {
    set label 1 "no records in this window" at graph 0.5, graph 0.5 center
    plot NaN notitle
} else {
    plot for [i = 1:words(present)] data \
        using 1:(column(5) == word(present, i) + 0 ? column(2) : NaN):3:4 \
        with boxxyerror fs solid 1.0 noborder lc rgb word(colors, word(present, i) + 1) \
        title word(names, word(present, i) + 1)
}

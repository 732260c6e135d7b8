# progression.gp — the course in one picture: every step's speed as a fraction
# of its reference, measured interleaved with it launch by launch in the same
# run.  Steps 01-03 (streaming y = f(x)): GB/s ÷ the D2D copy's GB/s at the
# default work and stages.  Steps 04 on (bf16 GEMM): TFLOP/s ÷ cuBLAS's at
# 4096³ and 8192³.  1.0 = as fast as the reference.
#   gnuplot -c plots/progression.gp DATA SETUP OUT.png GPU
# DATA (written by render.sh): tab separated, one line per step that has rows:
# x (1, 2, ...), ratio to the copy, ratio to cuBLAS at 4096³, at 8192³ (NaN
# where a column does not apply or has no row).  SETUP sets the xtics (one
# "step NN\nname" per x) and nsteps, nstream, ngemm, has4096, has8192, sep (x
# of the line between the streaming and the GEMM steps, NaN if none), ymax
# (the largest ratio, at least 1), streamnote (work and stages used) and
# revnote (the git revision the rows come from: report.awk takes the newest
# that has rows of every step shown, or says which step comes from which).
data = ARG1; setup = ARG2; out = ARG3; gpu = ARG4
load setup

set terminal pngcairo size 1600,600 noenhanced font "sans,11"   # ten steps: room for their names
set output out
set datafile separator "\t"
set title "Hiding latency, step by step: each step's speed ÷ its reference's, same run, interleaved launches\n".gpu." · ".revnote
set ylabel "step ÷ reference (1.0 = as fast as the reference)"
set xrange [0.4:nsteps + 0.6]
set yrange [0:ymax * 1.38]   # room for the key above the bars
set ytics 0.2
set grid ytics
set xtics nomirror scale 0
set key top left Left reverse box opaque samplen 2 width 1
set style fill solid 0.85 border -1
set bmargin 4.5   # two-line xtic labels: step number, step name
set style textbox opaque noborder margins 1, 1   # a value stays legible over the 1.0 line
set boxwidth 1 absolute

if (sep == sep) {   # NaN != NaN: a separator only between two workloads
    set arrow 1 from first sep, graph 0 to first sep, graph 1 nohead dt 3 lc rgb "#888888"
}

cstream = "#2ca02c"; c4096 = "#1f77b4"; c8192 = "#ff7f0e"
wbar = 0.36    # GEMM bars: two per step, side by side
wone = 0.5     # streaming bar: one per step

# Every series present gets a key entry; an absent one is not drawn at all
# (gnuplot would warn about a file with no valid points).
cmd = "plot 1 with lines dt 2 lw 2 lc rgb 'black' title 'reference = 1.0 (D2D copy for the streaming steps, cuBLAS for the GEMM steps)'"
if (nstream > 0) {
    cmd = cmd.sprintf(", data using 1:2:(wone) with boxes lc rgb '%s' title 'streaming: GB/s ÷ D2D copy GB/s (%s)'", cstream, streamnote)
    cmd = cmd.", data using 1:2:(sprintf('%.2f', $2)) with labels boxed offset 0,0.8 notitle"
}
if (ngemm > 0 && has4096) {
    cmd = cmd.sprintf(", data using ($1 - wbar / 2):3:(wbar) with boxes lc rgb '%s' title 'GEMM 4096³: TFLOP/s ÷ cuBLAS TFLOP/s'", c4096)
    cmd = cmd.", data using ($1 - wbar / 2):3:(sprintf('%.2f', $3)) with labels boxed offset 0,0.8 notitle"
}
if (ngemm > 0 && has8192) {
    cmd = cmd.sprintf(", data using ($1 + wbar / 2):4:(wbar) with boxes lc rgb '%s' title 'GEMM 8192³: TFLOP/s ÷ cuBLAS TFLOP/s'", c8192)
    cmd = cmd.", data using ($1 + wbar / 2):4:(sprintf('%.2f', $4)) with labels boxed offset 0,0.8 notitle"
}
eval cmd

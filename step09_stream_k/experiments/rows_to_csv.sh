#!/bin/sh
# rows_to_csv.sh — step 09's session-2 rows (logs/l2_aware_plan/bench_step09.csv,
# written before the CSV had the columns impl,group,cluster,mode,repeat) in
# the course CSV's current schema, appended to plots/results/<gpu>.csv.
# What each run was is known from the plan it printed (its plans.log): the
# variant's _dp / _sk suffix was the forced --mode; auto ran whole tiles
# ("dp") everywhere but 1024x1024x14336, where it ran the L2-aware split
# ("sk_l2").  impl course, group 8 (default), cluster 1; repeat 1-3 for auto's
# three runs per shape, empty for the forced modes.  Auto's rows at 1024^3,
# 1536x1536x8192 and 3072x3072x4096 are left out: the refitted model no
# longer picks the plan they ran (NOTES.md).
#   sh step09_stream_k/experiments/rows_to_csv.sh plots/results/NVIDIA_H100_80GB_HBM3.csv
set -eu
IN=$(dirname "$0")/logs/l2_aware_plan/bench_step09.csv
awk -F, -v OFS=, '
NR == 1 { next }
{
    shape = $3 "x" $4 "x" $5; v = $2; mode = ""; rep = ""
    if (v ~ /_dp$/) { mode = "dp"; sub(/_dp$/, "", v) }
    else if (v ~ /_sk$/) { mode = "sk"; sub(/_sk$/, "", v) }
    else {
        if (shape == "1024x1024x1024" || shape == "1536x1536x8192" || shape == "3072x3072x4096") next
        mode = shape == "1024x1024x14336" ? "sk_l2" : "dp"
        rep = ++n[shape]
    }
    $2 = v
    print $0, "course", 8, 1, mode, rep
}' "$IN" >>"$1"

#!/bin/sh
# mark_chooser.sh — one-time migration (issue 23) of the results files to the
# column `chooser` (common/csv.h): who chose the configuration a row ran.
# Rows written before the column read it as empty, which the tables take as
# the step's own choice.  That is true of every old row except the step 09
# runs whose plan a flag forced, and those this script marks, from the record
# of how they were run; it changes no measured value.
#
#   session 2 (rows appended by step09_stream_k/experiments/rows_to_csv.sh):
#     its header says the forced --mode runs (variant suffix _dp / _sk) were
#     written with an empty repeat and auto's with repeat 1-3, so a step 09
#     row of the course with a mode and no repeat is forced.
#   session 3, call 5 (step09_stream_k/experiments/session3/call5.sh, its log
#     experiments/logs/session3/call5.log): at 1024x1024x2048,
#     1024x1024x4096 and 1536x1536x8192 it ran `--mode auto` then
#     `--mode dp`, twice (`for rep in 1 2`), without --repeat, so the binary
#     wrote repeat 1 on all four; auto ran the split there (the log's plan
#     lines: "32 streamed" / "72 streamed", the CSV's mode sk_l2), so the rows
#     with mode dp are the forced ones.  The second run of each pair gets
#     repeat 2, as the loop numbered it, so that each pair reads as one set
#     of two runs.  These rows are those of git revision 22b3044-dirty dated
#     2026-11-23T13:11:51Z to 13:12:00Z.
#
# The header gets `chooser` (and `harness` if it lacks it); a marked row is
# padded to the full width.  Running it again changes nothing.
#   sh plots/tools/mark_chooser.sh plots/results/NVIDIA_H100_80GB_HBM3.csv
set -eu
for f in "$@"; do
    tmp=$f.chooser.$$
    awk -F, -v OFS=, '
    FNR == 1 {
        for (i = 1; i <= NF; i++) col[$i] = i
        if (!("harness" in col)) { $0 = $0 ",harness"; col["harness"] = NF + 1 }
        if (!("chooser" in col)) { $0 = $0 ",chooser" }
        n = split($0, h, ","); for (i = 1; i <= n; i++) col[h[i]] = i; width = n
        print; next
    }
    /^#/ { print; next }
    {
        S = $(col["step"]); I = $(col["impl"]); M = $(col["mode"]); R = $(col["repeat"])
        D = $(col["date"]); G = $(col["git_rev"])
        mark = 0
        if (S == "09" && I == "course" && M != "" && R == "" && (M == "dp" || M == "sk")) mark = 1
        if (S == "09" && I == "course" && G == "22b3044-dirty" && D >= "2026-11-23T13:11:51Z" && D <= "2026-11-23T13:12:00Z") {
            shape = $(col["m"]) "x" $(col["n"]) "x" $(col["k"])
            if (shape == "1024x1024x2048" || shape == "1024x1024x4096" || shape == "1536x1536x8192") {
                seen[shape, M]++
                if (seen[shape, M] == 2) $(col["repeat"]) = 2
                if (M == "dp") mark = 1
            }
        }
        if (mark) {
            for (i = NF + 1; i <= width; i++) $i = ""
            $(col["chooser"]) = "forced"
        }
        print
    }' "$f" >"$tmp"
    if cmp -s "$tmp" "$f"; then rm -f "$tmp"; echo "$f: unchanged"; else mv "$tmp" "$f"; echo "$f: marked"; fi
done

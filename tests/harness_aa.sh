#!/bin/sh
# tests/harness_aa.sh [BIN] [SHAPES] — the GEMM harness's A/A self-test (GPU).
#
# Runs BIN (default build/step09_stream_k) with --ref-vs-ref: cuBLAS timed
# against itself, the one side through the step's launch path, the other as
# the reference, each on the input sets the harness gives it.  A fair
# harness reads 1.00.  Three processes per shape; prints each ratio and the
# median, and says FAIL (exit 1) when a median is off 1.00 by more than 1%.
# Not part of make test: it is a measurement, run on the GPU machine
# (plots/results/harness_aa_*.log keep what it printed there).
# Without a GPU it says so and exits 3 (the programs' contract).
set -u
BIN=${1:-build/step09_stream_k}
SHAPES=${2:-"512x512x512 2048x2048x2048 8192x8192x8192"}
CSV=${AA_CSV:-}
[ -x "$BIN" ] || { echo "harness_aa: $BIN is not built (make)"; exit 2; }
fail=0
for shape in $SHAPES; do
    m=${shape%%x*}; rest=${shape#*x}; n=${rest%%x*}; k=${rest#*x}
    ratios=""
    for r in 1 2 3; do
        out=$("$BIN" --m "$m" --n "$n" --k "$k" --ref-vs-ref --no-check ${CSV:+--csv "$CSV" --repeat $r} 2>&1)
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "$out" | tail -n 2
            [ $rc -eq 3 ] && { echo "harness_aa: no GPU that runs $BIN: nothing measured"; exit 3; }
            echo "harness_aa: $BIN failed ($rc) at $shape"; exit 1
        fi
        ratio=$(echo "$out" | sed -n 's/.*| ratio \([0-9.]*\) |.*/\1/p' | head -n 1)
        timing=$(echo "$out" | sed -n 's/^  timing: //p')
        echo "$shape run $r: ratio $ratio ($timing)"
        ratios="$ratios $ratio"
    done
    med=$(echo $ratios | tr ' ' '\n' | sort -n | sed -n 2p)
    verdict=$(awk -v x="$med" 'BEGIN { print (x >= 0.99 && x <= 1.01) ? "ok" : "FAIL" }')
    echo "$shape: median $med of$ratios: $verdict (1.00 +- 0.01)"
    [ "$verdict" = ok ] || fail=1
done
exit $fail

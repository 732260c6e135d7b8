#!/bin/sh
# model_refit.sh — what does a streamed k-tile and a split tile's fixup cost
# on the cluster build (the constants of auto's model)?  It printed
# logs/model_refit.log in session 3 (as session3/call2.sh):
#  1. step 09's timeline at 1024 x 1024 x 14336 (the fixup now has its own phase);
#  2. the refit data for auto's model: at shapes where auto keeps whole tiles
#     but a two-offset streamed plan exists, that plan (build/step09_sk2 =
#     kernel.cu with -DSK_MIN_GAIN_PCT=-900: auto always takes its best
#     streamed candidate) against --mode dp, alternated, 2 processes each;
#  3. the bench of steps 08-09 and their CUTLASS peers (SHAPES=$3 if given).
#   sh step09_stream_k/experiments/model_refit.sh build "$OUT" ["shapes"]
# (REFIT_BENCH=0 skips part 3, the 5-minute bench.)
B=${1:-build}
O=${2:-/tmp}
L=$O/model_refit.log
say() { echo "$*" | tee -a "$L"; }
say "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
timeout 60 $B/step09_stream_k --trace "$O/timeline_step09.csv" --m 1024 --n 1024 --k 14336 >>"$L" 2>&1
say "timeline rc=$?"
say "# refit: forced two-offset plan (sk2) vs dp, ratio to cuBLAS, alternated"
for s in 1024x1024x2048 1024x1024x4096 1000x1000x8192 1536x1536x8192 3072x3072x4096 1024x1024x14336; do
    m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
    line="$s"
    for rep in 1 2; do
        for b in sk2 dp; do
            if [ $b = sk2 ]; then out=$(timeout 60 $B/step09_sk2 --m $m --n $n --k $k --no-check 2>&1)
            else out=$(timeout 60 $B/step09_stream_k --m $m --n $n --k $k --no-check --mode dp 2>&1); fi
            echo "$out" >>"$L"
            line="$line $b $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)/$(echo "$out" | grep -o '[0-9.]* ms' | head -1)"
        done
    done
    say "$line"
done
[ "${REFIT_BENCH:-1}" = 1 ] || exit 0   # REFIT_BENCH=0: parts 1-2 only (README, exercise 6)
say "# bench steps 08 09 + peers"
if [ -n "${3:-}" ]; then export SHAPES="$3"; fi
STEPS="08 09" BENCH_LOG=$O/bench.log timeout 480 sh plots/bench.sh "$B" "$O/bench_0809.csv" gemm >"$O/bench_stdout.txt" 2>&1
say "bench rc=$? $(tail -2 "$O/bench_stdout.txt" | tr '\n' ' ')"

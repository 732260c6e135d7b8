#!/bin/sh
# peers/gpu_check.sh — one GPU call (issue 15): are CUTLASS's counterparts
# correct, how fast are they beside the course's steps, and do the CSV's new
# columns and repeats come out of the bench end to end.
#   sh peers/gpu_check.sh OUT_DIR     (binaries from make all peers, in build/)
# 1. every peer at edge shapes, checked against cuBLAS and float64 (the
#    course harness's check); 2. the bench's quick mode, timed; 3. the bench
#    with 2 alternating repeats at three goal shapes, steps 05-09 and peers.
# Writes OUT_DIR/{edges.log,quick.log,quick.csv,repeats.log,repeats.csv}.
set -u
OUT=${1:?usage: $0 OUT_DIR}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
fail=0
for p in build/peers/cutlass_step0*; do
    # CUTLASS's kernels need N % 8 == 0 (16-byte rows of D): the first run
    # (11:14 UTC, plots/results/issue15/edges.log) found N = 1, 129, 4100
    # refused with exit 2; such a refusal is reported as one, not a failure.
    for s in "1 1 8" "127 129 72" "127 128 72" "1000 1000 1000" "300 4096 264"; do
        set -- $s
        "$p" --m "$1" --n "$2" --k "$3" --iters 3 --warmup 1 >>"$OUT/edges.log" 2>&1
        case $? in 0) r=ok ;; 2) r="refused (exit 2)" ;; *) r=FAILED; fail=1 ;; esac
        echo "$(basename "$p") $1x$2x$3: $r" | tee -a "$OUT/edges.log"
    done
done
t0=$(date +%s)
BENCH_LOG=$OUT/quick.bench.log sh plots/bench.sh build "$OUT/quick.csv" quick >"$OUT/quick.log" 2>&1 || fail=1
echo "BENCH=quick: $(($(date +%s) - t0)) s"; tail -n 3 "$OUT/quick.log"
t0=$(date +%s)
STEPS="05 06 07 08 09" SHAPES="4096x4096x4096 8192x8192x8192 1024x1024x14336" BENCH_REPEATS=2 \
    BENCH_STAGES_SHAPE=none BENCH_GROUPS_SHAPES= \
    BENCH_LOG=$OUT/repeats.bench.log sh plots/bench.sh build "$OUT/repeats.csv" gemm >"$OUT/repeats.log" 2>&1 || fail=1
echo "repeats: $(($(date +%s) - t0)) s"; tail -n 3 "$OUT/repeats.log"
awk -F, 'NR > 1 { printf "%-7s %s %5sx%5sx%5s st=%s g=%s c=%s mode=%s rep=%s ratio=%s err=%s\n", $21, $1, $3, $4, $5, $8, $22, $23, $24, $25, $14, $15 }' "$OUT/repeats.csv"
exit $fail

#!/bin/sh
# verify_port.sh — one GPU call for step 09 as committed (after the port onto
# the role-function structure): its GPU tests, 30-run repeatability, the
# planted flag, and auto's timing at the goal shapes as bench rows.
#   sh step09_stream_k/experiments/verify_port.sh BUILD OUT
# BUILD: step09_stream_k, debug/step09_stream_k, step09_repeat_check,
# tests/run_tests, step07_pingpong.  Rows: OUT/bench_step09.csv (current
# columns; append to plots/results/<gpu>.csv).  About 2 minutes on an H100.
B=${1:-build}
O=${2:-/tmp}
L=$O/verify_port.log
: >"$L"
say() { echo "$*" | tee -a "$L"; }
CK_RUN_SUITE=gpu CK_RUN_CASE=stream_k COURSE_BUILD=$B $B/tests/run_tests >"$O/tests_step09.log" 2>&1
say "tests rc=$?: $(tail -1 "$O/tests_step09.log")"
grep -E ":F:|:E:" "$O/tests_step09.log" | head -20 | tee -a "$L"
$B/step09_repeat_check 1024 1024 14336 0 30 2>&1 | tail -1 | tee -a "$L"
$B/step09_repeat_check 1000 1001 2048 2 30 2>&1 | tail -1 | tee -a "$L"
for s in 1024x1024x14336 512x4096x4096 2048x2048x2048 4096x4096x4096 1024x4096x4096 2048x4096x14336; do
    m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
    line="$s auto:"
    for rep in 1 2 3; do
        out=$($B/step09_stream_k --m "$m" --n "$n" --k "$k" --no-check --repeat $rep --csv "$O/bench_step09.csv" 2>&1)
        echo "$out" >>"$L"
        line="$line $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
    done
    line="$line | step07: $($B/step07_pingpong --m "$m" --n "$n" --k "$k" --no-check 2>&1 | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
    say "$line"
done
say "verify_port done"

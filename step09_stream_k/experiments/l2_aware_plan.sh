#!/bin/sh
# l2_aware_plan.sh — does the L2-aware plan (at most two start k-offsets)
# beat whole tiles and textbook stream-K, and is it correct?  The step's GPU
# tests, bitwise repeatability, the four sanitizers at a streamed shape, a
# timeline, and the bench rows (ratio to cuBLAS interleaved).  One GPU call.
# As session2.sh it printed logs/l2_aware_plan/ in session 2 (the
# step-07-based build of 9b34606; committed in ee6de30); run today it
# measures today's kernel.
#
#   sh step09_stream_k/experiments/l2_aware_plan.sh BUILD OUT
#
# BUILD: step07_pingpong, step09_stream_k, debug/step09_stream_k,
# step09_repeat_check, tests/run_tests.  Rows go to OUT/bench_step09.csv
# (appended to plots/results/<gpu>.csv afterwards, unchanged).
B=${1:-build}
O=${2:-/tmp}
L=$O/l2_aware_plan.log
CSV=$O/bench_step09.csv
: >"$L"
say() { echo "$*" | tee -a "$L"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$L"

say "# 1. step 09's GPU tests (tests/test_steps_gpu.c, case stream_k)"
CK_RUN_SUITE=gpu CK_RUN_CASE=stream_k COURSE_BUILD=$B $B/tests/run_tests >"$O/tests_step09.log" 2>&1
say "tests rc=$?: $(tail -1 "$O/tests_step09.log")"
grep -E "^tests/.*:F:|:E:" "$O/tests_step09.log" | head -20 | tee -a "$L"

say "# 2. bitwise identical run to run (30 launches)"
$B/step09_repeat_check 1024 1024 14336 0 30 2>&1 | tail -1 | tee -a "$L"
$B/step09_repeat_check 1000 1001 2048 2 30 2>&1 | tail -1 | tee -a "$L"

say "# 3. compute-sanitizer, four tools, --mode sk at 200x264x136 (every tile split)"
mkdir -p "$O/san/bin"
cp $B/step09_stream_k "$O/san/bin/"
GIT_REV=l2_aware_plan sh tests/sanitize.sh "$O/san/bin" "$O/sanitize_step09.md" >>"$L" 2>&1
say "sanitize rc=$?"; tail -3 "$O/sanitize_step09.md" | tee -a "$L"

say "# 4. timeline, 1024x1024x14336 auto"
$B/step09_stream_k --m 1024 --n 1024 --k 14336 --trace "$O/timeline_step09.csv" --iters 1 --warmup 0 2>&1 |
    tail -1 | tee -a "$L"

say "# 5. timing: ratio to cuBLAS interleaved (the harness's median; 20 launches in the committed logs); auto x3 as bench rows"
run09() { # run09 SHAPE MODE: one process, its row in CSV, prints ratio(ms)
    m=${1%%x*}; r=${1#*x}; n=${r%%x*}; k=${r#*x}
    out=$($B/step09_stream_k --m "$m" --n "$n" --k "$k" --mode "$2" --no-check --csv "$CSV" 2>&1)
    echo "$out" >>"$L"
    printf '%s(%s) ' "$(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)" \
        "$(echo "$out" | grep -o ': [0-9.]* ms' | head -1 | cut -d' ' -f2)"
}
run07() {
    m=${1%%x*}; r=${1#*x}; n=${r%%x*}; k=${r#*x}
    $B/step07_pingpong --m "$m" --n "$n" --k "$k" --no-check 2>&1 | grep -o 'ratio [0-9.]*' | cut -d' ' -f2
}
for s in 1024x1024x14336 512x4096x4096 2048x2048x2048 4096x4096x4096 1024x4096x4096 2048x4096x14336 \
         1024x1024x1024 1536x1536x8192 3072x3072x4096; do
    line="$s auto: $(run09 $s auto)$(run09 $s auto)$(run09 $s auto)"
    case $s in
        1024x1024x14336|1024x1024x1024|1536x1536x8192|3072x3072x4096)
            line="$line| dp: $(run09 $s dp)| sk: $(run09 $s sk)" ;;
    esac
    case $s in 1536x1536x8192|3072x3072x4096) ;; *) line="$line| step07: $(run07 $s)" ;; esac
    say "$line"
done
grep "stream-K plan" "$L" | sort | uniq -c | tee -a "$O/plans.log" >/dev/null
say "l2_aware_plan done"

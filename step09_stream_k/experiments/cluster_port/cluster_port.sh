#!/bin/sh
# cluster_port.sh — the one GPU call for step 09 derived from step 08 (stream-K
# on clusters of 2 CTAs sharing A): its GPU tests, the planted flag, 30-run
# repeatability in --mode sk, and auto's timing against step 08, alternated
# process by process (3 each) at the goal shapes, as bench rows.
#   sh step09_stream_k/experiments/cluster_port/cluster_port.sh BUILD OUT
# after make, make DEBUG=1 step09 and the builds it lists: BUILD holds
# step09_stream_k (the port), step08_cluster_multicast, debug/step09_stream_k,
# step09_repeat_check, tests/run_tests (built on the CPU machine).
# OUT/bench_cluster_port.csv: rows in the course CSV's schema (append to
# plots/results/<gpu>.csv without its header line).  ~2.5 minutes on an H100.
# It printed logs/cluster_port/ (cluster_port.log, planted.log,
# bench_cluster_port.csv) in session 3, run by session3/call1.sh.
B=${1:-build}
O=${2:-/tmp}
L=$O/cluster_port.log
: >"$L"
say() { echo "$*" | tee -a "$L"; }
say "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>&1)"
say "# 1. step 09's GPU tests (tests/test_steps_gpu.c, case stream_k)"
CK_RUN_SUITE=gpu CK_RUN_CASE=stream_k COURSE_BUILD=$B timeout 150 $B/tests/run_tests >"$O/tests_step09.log" 2>&1
say "tests rc=$?: $(tail -1 "$O/tests_step09.log")"
grep -E ":F:|:E:" "$O/tests_step09.log" | head -20 | tee -a "$L"
say "# 2. planted bug 5 (a writer never raises its flag), DEBUG build"
timeout 60 $B/debug/step09_stream_k --plant-bug 5 --m 1024 --n 1024 --k 14336 --iters 1 --warmup 0 >"$O/planted.log" 2>&1
say "planted rc=$?: $(grep -m1 'HANG' "$O/planted.log")"
say "# 3. bitwise identical run to run, --mode sk (30 launches)"
timeout 60 $B/step09_repeat_check 1024 1024 14336 2 30 2>&1 | tail -2 | tee -a "$L"
timeout 60 $B/step09_repeat_check 1000 1001 2048 2 30 2>&1 | tail -2 | tee -a "$L"
say "# 4. timing: ratio to cuBLAS interleaved (the harness's median; 20 launches in the committed logs); step 09 auto and step 08 alternated, 3 processes each"
C=$O/bench_cluster_port.csv
for s in 1024x1024x14336 2048x2048x2048 4096x4096x4096 4096x4096x14336 8192x8192x8192; do
    m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
    a="$s step09 auto:"; b="step08:"
    for rep in 1 2 3; do
        out=$(timeout 60 $B/step09_stream_k --m "$m" --n "$n" --k "$k" --no-check --repeat $rep --csv "$C" 2>&1)
        echo "$out" >>"$L"
        a="$a $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
        out=$(timeout 60 $B/step08_cluster_multicast --m "$m" --n "$n" --k "$k" --no-check --repeat $rep --csv "$C" 2>&1)
        echo "$out" >>"$L"
        b="$b $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
    done
    say "$a | $b"
done
say "# 5. 1024x1024x14336 forced modes, one process each (dp: step 08's plan; sk: the textbook hybrid)"
for md in dp sk; do
    out=$(timeout 60 $B/step09_stream_k --m 1024 --n 1024 --k 14336 --no-check --mode $md 2>&1)
    echo "$out" >>"$L"
    say "1024x1024x14336 $md: $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
done
say "cluster_port done"

#!/bin/sh
# textbook_sk.sh — does textbook stream-K pay, and where?  Is it correct in
# every mode (dp, sk, auto), deterministic, diagnosable?  One GPU call, logs
# to OUT.  As prototype.sh it printed logs/textbook_sk.log in session 1 (the
# step-07-based build; committed in 9b34606); run today it measures today's
# kernel.
#
#   sh step09_stream_k/experiments/textbook_sk.sh BUILD OUT
#
# BUILD holds step07_pingpong, step09_stream_k, debug/step09_stream_k and
# step09_repeat_check (experiments/repeat_check.cu).  Step 07 runs beside
# step 09 in the same session so their ratios to cuBLAS compare.
B=${1:-build}
O=${2:-/tmp}
L=$O/textbook_sk.log
: >"$L"
Q="--iters 1 --warmup 0"
fail=0
say() { echo "$*" | tee -a "$L"; }

say "# 1. correctness: every mode on edge shapes (check ok = vs cuBLAS and float64)"
for mode in dp sk auto; do
  for a in "--m 1 --n 1 --k 8" "--m 127 --n 129 --k 72" "--m 1000 --n 1000 --k 1000" \
           "--m 300 --n 4100 --k 264" "--m 1000 --n 1001 --k 64" "--m 50816 --n 128 --k 64" \
           "--m 256 --n 256 --k 256 --exact" "--m 129 --n 257 --k 8 --exact" \
           "--m 2048 --n 2048 --k 256 --exact" "--m 1 --n 1 --k 256 --exact" \
           "--m 1024 --n 1024 --k 14336" "--m 4224 --n 4352 --k 136"; do
    out=$($B/step09_stream_k $a --mode $mode $Q 2>&1); rc=$?
    echo "$out" >>"$L"
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q "check ok"; then say "FAIL rc=$rc: $a --mode $mode"; fail=1; fi
  done
done
say "correctness done (fail=$fail)"

say "# 2. bitwise identical run to run (30 launches each)"
for c in "1024 1024 14336 2" "2048 2048 2048 2" "1000 1001 1000 2" "1536 1536 8192 0" "4096 4096 4096 2"; do
  # shellcheck disable=SC2086
  $B/step09_repeat_check $c 30 2>&1 | tee -a "$L" | tail -1 || fail=1
done

say "# 3. planted bug 5 (a partial never flagged), DEBUG build"
timeout 30 $B/debug/step09_stream_k --plant-bug 5 --m 1024 --n 1024 --k 14336 $Q >"$O/planted.log" 2>&1
say "planted rc=$? (want nonzero, not 124)"; tail -12 "$O/planted.log" | tee -a "$L"

say "# 4. timeline at 1024x1024x14336 (auto)"
$B/step09_stream_k --m 1024 --n 1024 --k 14336 --trace "$O/timeline_step09.csv" $Q 2>&1 | grep -v '^  timing:' | tail -2 | tee -a "$L"

say "# 5. timing: step 07, step 09 dp / sk / auto, ratio to cuBLAS interleaved"
for s in 1024x1024x14336 512x4096x4096 2048x2048x2048 4096x4096x4096 1024x4096x4096 2048x4096x14336 \
         1536x1536x8192 3072x3072x4096 2048x2048x8192; do
  m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
  line="$s"
  r07=$($B/step07_pingpong --m $m --n $n --k $k --no-check 2>&1 | grep -o "ratio [0-9.]*" | cut -d' ' -f2)
  line="$line 07=$r07"
  for mode in dp sk auto; do
    out=$($B/step09_stream_k --m $m --n $n --k $k --mode $mode --no-check 2>&1)
    echo "$out" >>"$L"
    r=$(echo "$out" | grep -o "ratio [0-9.]*" | cut -d' ' -f2)
    ms=$(echo "$out" | grep -o ": [0-9.]* ms" | head -1 | cut -d' ' -f2)
    line="$line $mode=$r(${ms}ms)"
  done
  say "$line"
done
say "textbook_sk done, fail=$fail"

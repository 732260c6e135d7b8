#!/bin/sh
# refit_confirm.sh — after auto's model was refitted (SK_RATE_PCT 150 -> 115,
# exact sharing count), are its new choices faster, and is the step still
# correct?  And is it at CUTLASS's stream-K where it is closest (1024 x 4096
# x 14336)?  It printed logs/refit_confirm/ in session 3 (as
# session3/call5.sh): step 09's GPU tests (the
# stream_k case: auto now splits 1536 x 1536 x 8192 and 1000 x 1000 x 2048),
# the four sanitizers on step 09, auto against --mode dp where the refit
# changed auto's choice (alternated, 2 processes each), and step 09 against
# CUTLASS's stream-K peer at 1024 x 4096 x 14336 (alternated, 3 each).
#   sh step09_stream_k/experiments/refit_confirm.sh build "$OUT"
B=${1:-build}
O=${2:-/tmp}
L=$O/refit_confirm.log
say() { echo "$*" | tee -a "$L"; }
say "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
CK_RUN_SUITE=gpu CK_RUN_CASE=stream_k COURSE_BUILD=$B timeout 200 $B/tests/run_tests >"$O/tests_step09.txt" 2>&1
say "tests rc=$?: $(tail -1 "$O/tests_step09.txt")"
grep -E ":F:|:E:" "$O/tests_step09.txt" | head | tee -a "$L"
mkdir -p "$O/sb" && cp "$B/step09_stream_k" "$O/sb/"
timeout 200 sh tests/sanitize.sh "$O/sb" "$O/sanitize_step09.md" >>"$L" 2>&1
say "sanitize rc=$?"; rm -f "$O/sb/step09_stream_k"
C=$O/refit_confirm.csv
for s in 1024x1024x2048 1024x1024x4096 1536x1536x8192; do
    m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
    line="$s"
    for rep in 1 2; do for md in auto dp; do
        out=$(timeout 60 $B/step09_stream_k --m $m --n $n --k $k --mode $md --csv "$C" 2>&1); echo "$out" >>"$L"
        line="$line $md $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
    done; done
    say "$line"
done
line="1024x4096x14336"
for rep in 1 2 3; do
    ck=""; [ $rep -gt 1 ] && ck=--no-check
    out=$(timeout 60 $B/step09_stream_k --m 1024 --n 4096 --k 14336 --repeat $rep $ck --csv "$C" 2>&1); echo "$out" >>"$L"
    line="$line step09 $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
    out=$(timeout 60 $B/peers/cutlass_step09 --m 1024 --n 4096 --k 14336 --repeat $rep $ck --csv "$C" 2>&1); echo "$out" >>"$L"
    line="$line cutlass $(echo "$out" | grep -o 'ratio [0-9.]*' | cut -d' ' -f2)"
done
say "$line"
say "refit_confirm done"

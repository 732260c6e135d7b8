#!/bin/sh
# bench.sh — run the benchmark sweeps of the step binaries and append one CSV
# row per run to the results file of this GPU (README.md,
# "Results").  `make bench` calls it, then plots/render.sh.
#
#   plots/bench.sh BUILD_DIR CSV [all|quick|stream|gemm]
#
#   BUILD_DIR  where the step binaries are (build/step01_sync_pc, ...); a
#              missing binary is skipped with a note.
#   CSV        the results file every run appends to (--csv CSV), e.g.
#              plots/results/NVIDIA_H100_80GB_HBM3.csv.  If CSV is a directory,
#              the file is DIR/<gpu>.csv, <gpu> being the name the first run
#              records (spaces and odd characters turned into '_').
#   mode       all (default): the full sweep below, steps 01-07;
#              quick: the headline shapes only (steps 01-03 at their defaults,
#              every GEMM step at QUICK_SHAPES); stream: steps 01-03 of the
#              full sweep; gemm: steps 04-07 of it.  `make bench BENCH=quick`.
#
# The sweep is counted first; every run then prints one progress line,
#   [12/87] step05 4096x4096x4096 ... ok (3 s)  elapsed 1m12s, ~4m30s left
# (time left: the mean time per run so far times the runs still to go).
# Run counts with all seven binaries present: all 74 (stream 26; gemm 48:
# 9 shapes for each of steps 04-07, plus the stages sweeps of 04 (5) and 05
# (3) and the group sweep of 06 (4)), quick 19.  A missing binary is skipped
# with a note.  On an H100 a streaming run takes 1-2 s, a GEMM run 1-6 s.
#
# Each run is `BIN <flags> --csv CSV`.  A run that fails (non-zero exit, or a
# timeout) is reported with the tail of its output and the sweep goes on; the
# script then exits 1.  Exit code 3 from a step means "this device cannot run
# this step" (e.g. steps 05-07 need sm_90a): that step's remaining runs are
# skipped with a note and do not count as failures.  When no CUDA device is
# present at all the script says so and exits 3 without running anything else.
#
# Environment:
#   BENCH_ITERS, BENCH_WARMUP  passed as --iters / --warmup when set
#   BENCH_DEVICE               passed as --device when set
#   BENCH_TIMEOUT              seconds before a run counts as hung (default 600)
#   BENCH_LOG                  full output of every run (default BUILD_DIR/bench.log)
#   BENCH_DRY_RUN=1            print the commands, run nothing
# The sweep lists below can be overridden the same way (BENCH_STREAM_WORKS=...,
# BENCH_GEMM_GROUPS_06=..., BENCH_QUICK_SHAPES=...).
# shellcheck disable=SC2034  # GEMM_STAGES_NN are read through eval in gemm_sweep
set -u

# ---- sweeps: tune here ------------------------------------------------------
# Streaming (steps 01-03): every step at each work value (default n-elems);
# step 03 at STREAM_WORK_STAGES slots for those, plus a stages sweep at the
# default work (no --work flag).
STREAM_WORKS=${BENCH_STREAM_WORKS:-"0 4 16 32 64 128"}
STREAM_STAGES=${BENCH_STREAM_STAGES:-"1 2 3 4 5 6 7 8"}
STREAM_WORK_STAGES=${BENCH_STREAM_WORK_STAGES:-4}
# GEMM (steps 04-07): squares M=N=K, then MxNxK shapes from LLM layers, then
# a stages sweep at GEMM_STAGES_MNK for the steps that list stages.
GEMM_SQUARES=${BENCH_GEMM_SQUARES:-"512 1024 2048 4096 6144 8192"}
GEMM_SHAPES=${BENCH_GEMM_SHAPES:-"1024x1024x14336 4096x14336x4096 4096x4096x14336"}
GEMM_STAGES_MNK=${BENCH_GEMM_STAGES_MNK:-4096}
GEMM_STAGES_04=${BENCH_GEMM_STAGES_04:-"2 3 4 5 6"}
GEMM_STAGES_05=${BENCH_GEMM_STAGES_05:-"2 3 4"}
GEMM_STAGES_06=${BENCH_GEMM_STAGES_06:-"2 3 4"}
GEMM_STAGES_07=${BENCH_GEMM_STAGES_07:-"2 4 6"}
# Raster group sizes (--group G, steps with a tile scheduler) at each of
# GEMM_GROUPS_MNK.  They run before the step's size sweep, so that the rows of
# the step's default configuration are the newest at those sizes.
GEMM_GROUPS_MNK=${BENCH_GEMM_GROUPS_MNK:-"4096 8192"}
GEMM_GROUPS_06=${BENCH_GEMM_GROUPS_06:-"1"}
GEMM_GROUPS_07=${BENCH_GEMM_GROUPS_07:-""}
# quick: every GEMM step at these shapes only (the README's headline rows).
QUICK_SHAPES=${BENCH_QUICK_SHAPES:-"4096x4096x4096 8192x8192x8192 4096x14336x4096 4096x4096x14336"}
# -----------------------------------------------------------------------------

usage() {
    echo "usage: $0 BUILD_DIR CSV_FILE|RESULTS_DIR [all|quick|stream|gemm]" >&2
    exit 2
}

bin_name() {
    case $1 in
    01) echo step01_sync_pc ;;
    02) echo step02_async_pipeline ;;
    03) echo step03_staged_pipeline ;;
    04) echo step04_cpasync_multistage ;;
    05) echo step05_tma_wgmma ;;
    06) echo step06_persistent ;;
    07) echo step07_pingpong ;;
    esac
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
BUILD_DIR=$1
CSV_ARG=$2
MODE=${3:-all}
case $MODE in stream | gemm | all | quick) ;; *) usage ;; esac
if [ ! -d "$BUILD_DIR" ]; then
    echo "bench.sh: build directory '$BUILD_DIR' does not exist (run make first)" >&2
    exit 2
fi

EXTRA=""
[ -n "${BENCH_ITERS:-}" ] && EXTRA="$EXTRA --iters $BENCH_ITERS"
[ -n "${BENCH_WARMUP:-}" ] && EXTRA="$EXTRA --warmup $BENCH_WARMUP"
[ -n "${BENCH_DEVICE:-}" ] && EXTRA="$EXTRA --device $BENCH_DEVICE"
DRY=${BENCH_DRY_RUN:-0}
TIMEOUT_S=${BENCH_TIMEOUT:-600}
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout -k 10 $TIMEOUT_S"

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 2
trap 'rm -rf "$TMPD"' EXIT
trap 'echo; echo "bench.sh: interrupted" >&2; exit 130' INT TERM

LOG=${BENCH_LOG:-$BUILD_DIR/bench.log}
if [ "$DRY" != 1 ]; then
    : >"$LOG" || { echo "bench.sh: cannot write the log $LOG" >&2; exit 2; }
fi

# CSV: the file runs append to.  In directory mode it is not known until a
# run has recorded the GPU's name: until then runs write to $PENDING.
CSV=""
PENDING=""
BEFORE=0
count_lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }
if [ -d "$CSV_ARG" ]; then
    PENDING=$TMPD/pending.csv
else
    CSV=$CSV_ARG
    mkdir -p "$(dirname "$CSV")" || exit 2
    BEFORE=$(count_lines "$CSV")
fi

# The first rows of a directory-mode bench name the file.
resolve_pending() {
    [ -n "$PENDING" ] && [ -s "$PENDING" ] || return 0
    gpu=$(awk -F, '!/^#/ && $1 != "step" && NF >= 16 { g = $16 } END { print g }' "$PENDING")
    name=$(printf '%s' "${gpu:-unknown_gpu}" | tr -c 'A-Za-z0-9._-' '_')
    CSV=$CSV_ARG/$name.csv
    BEFORE=$(count_lines "$CSV")
    if [ "$BEFORE" -eq 0 ]; then
        cat "$PENDING" >"$CSV"
    else
        awk -F, '!/^#/ && $1 != "step"' "$PENDING" >>"$CSV"
    fi
    NOTE="  (results file: $CSV)"
    PENDING=""
}

NRUN=0
NOK=0
NFAIL=0
FAILED=""
SKIPPED=""      # steps the device cannot run (exit 3)
NO_DEVICE=0
PASS=count      # count: the sweep is walked once to count the runs; then run
TOTAL=0         # runs planned (less those of steps the device cannot run)
I=0             # the run being made, 1..TOTAL

# say TEXT: a line of the sweep's narration (not in the counting pass)
say() { [ "$PASS" = count ] || echo "$*"; }

# hms SECONDS: 45s, 1m12s, 1h02m
hms() {
    if [ "$1" -lt 60 ]; then echo "${1}s"
    elif [ "$1" -lt 3600 ]; then echo "$(($1 / 60))m$(printf %02d $(($1 % 60)))s"
    else echo "$(($1 / 3600))h$(printf %02d $(($1 % 3600 / 60)))m"; fi
}

# label FLAGS...: the run as the progress line shows it: MxNxK, then the
# other flags as given ("defaults" when there are none).
label() {
    lm="" ln="" lk="" lrest=""
    while [ $# -gt 0 ]; do
        case $1 in
        --m) lm=$2; shift ;;
        --n) ln=$2; shift ;;
        --k) lk=$2; shift ;;
        *) lrest="$lrest $1" ;;
        esac
        shift
    done
    if [ -n "$lm$ln$lk" ]; then echo "${lm}x${ln}x${lk}$lrest"
    elif [ -n "$lrest" ]; then echo "${lrest# }"
    else echo "defaults"; fi
}

# run STEP FLAGS...: one benchmark run, reported on one progress line.
run() {
    step=$1
    shift
    if [ "$PASS" = count ]; then
        TOTAL=$((TOTAL + 1))
        eval "CNT_$step=\$((\${CNT_$step:-0} + 1))"
        return 0
    fi
    [ "$NO_DEVICE" = 1 ] && return 0
    case " $SKIPPED " in *" $step "*) return 0 ;; esac
    bin=$BUILD_DIR/$(bin_name "$step")
    target=${CSV:-$PENDING}
    NRUN=$((NRUN + 1))
    I=$((I + 1))
    eval "ATT_$step=\$((\${ATT_$step:-0} + 1))"
    if [ "$DRY" = 1 ]; then
        echo "[$I/$TOTAL] $bin $* $EXTRA --csv $target" | tr -s ' '
        return 0
    fi
    printf '[%d/%d] step%s %-28s ... ' "$I" "$TOTAL" "$step" "$(label "$@")"
    t0=$(date +%s)
    echo "=== $bin $* $EXTRA --csv $target" >>"$LOG"
    # shellcheck disable=SC2086  # TIMEOUT and EXTRA are lists of words
    $TIMEOUT "$bin" "$@" $EXTRA --csv "$target" >"$TMPD/out" 2>&1
    rc=$?
    cat "$TMPD/out" >>"$LOG"
    echo "=== exit $rc" >>"$LOG"
    t1=$(date +%s)
    NOTE=""
    resolve_pending
    # elapsed since the sweep began; time left from the mean time per run
    el=$((t1 - START))
    progress() { echo "$1  elapsed $(hms "$el"), ~$(hms $((el * (TOTAL - I) / (I > 0 ? I : 1)))) left"; }
    case $rc in
    0)
        NOK=$((NOK + 1))
        progress "ok ($((t1 - t0)) s)"
        ;;
    3)
        if grep -q "no CUDA device" "$TMPD/out"; then
            echo "no CUDA device"
            NO_DEVICE=1
        else
            # this step's remaining runs, this one included, leave the count
            left=0
            eval "left=\$((CNT_$step - ATT_$step + 1))"
            TOTAL=$((TOTAL - left))
            I=$((I - 1))
            echo "skipped: the device cannot run step $step ($left runs less)"
            sed -n '1,3s/^/      /p' "$TMPD/out"
            SKIPPED="$SKIPPED $step"
        fi
        NRUN=$((NRUN - 1))
        ;;
    124 | 137)
        NFAIL=$((NFAIL + 1))
        FAILED="$FAILED
  step$step $* (timed out after ${TIMEOUT_S} s: a hang?)"
        progress "FAILED: timed out after ${TIMEOUT_S} s (a hang?)"
        tail -n 5 "$TMPD/out" | sed 's/^/      /'
        ;;
    *)
        NFAIL=$((NFAIL + 1))
        FAILED="$FAILED
  step$step $* (exit $rc)"
        progress "FAILED (exit $rc)"
        tail -n 5 "$TMPD/out" | sed 's/^/      /'
        ;;
    esac
    [ -z "$NOTE" ] || echo "$NOTE"
    return 0
}

# have STEP: is the binary there?  Says so once when it is not.
have() {
    b=$BUILD_DIR/$(bin_name "$1")
    if [ -x "$b" ]; then return 0; fi
    say "step$1: $b not built, skipped"
    return 1
}

stream_sweep() {
    for s in 01 02 03; do
        [ "$NO_DEVICE" = 1 ] && return 0
        have "$s" || continue
        say "step$s: streaming, work sweep"
        for w in $STREAM_WORKS; do
            if [ "$s" = 03 ]; then
                run "$s" --work "$w" --stages "$STREAM_WORK_STAGES"
            else
                run "$s" --work "$w"
            fi
        done
        if [ "$s" = 03 ]; then
            say "step$s: stages sweep at the default work"
            for st in $STREAM_STAGES; do run "$s" --stages "$st"; done
        fi
    done
}

# run_shape STEP MxNxK FLAGS...
run_shape() {
    rs=$1
    shape=$2
    shift 2
    m=${shape%%x*}
    rest=${shape#*x}
    n=${rest%%x*}
    k=${rest#*x}
    run "$rs" --m "$m" --n "$n" --k "$k" "$@"
}

gemm_sweep() {
    for s in 04 05 06 07; do
        [ "$NO_DEVICE" = 1 ] && return 0
        have "$s" || continue
        eval "groups=\${GEMM_GROUPS_$s:-}"
        if [ -n "$groups" ]; then
            say "step$s: raster group sizes ($groups) at $GEMM_GROUPS_MNK cubed"
            for sz in $GEMM_GROUPS_MNK; do
                for g in $groups; do run "$s" --m "$sz" --n "$sz" --k "$sz" --group "$g"; done
            done
        fi
        say "step$s: GEMM, sizes"
        for sz in $GEMM_SQUARES; do run "$s" --m "$sz" --n "$sz" --k "$sz"; done
        for shape in $GEMM_SHAPES; do run_shape "$s" "$shape"; done
        eval "stages=\${GEMM_STAGES_$s:-}"
        if [ -n "$stages" ]; then
            sz=$GEMM_STAGES_MNK
            say "step$s: stages sweep at ${sz}x${sz}x${sz}"
            for st in $stages; do run "$s" --m "$sz" --n "$sz" --k "$sz" --stages "$st"; done
        fi
    done
}

# quick: the headline numbers only
quick_sweep() {
    for s in 01 02 03; do
        [ "$NO_DEVICE" = 1 ] && return 0
        have "$s" && run "$s"
    done
    for s in 04 05 06 07; do
        [ "$NO_DEVICE" = 1 ] && return 0
        have "$s" || continue
        say "step$s: GEMM, headline shapes"
        for shape in $QUICK_SHAPES; do run_shape "$s" "$shape"; done
    done
}

sweep() {
    case $MODE in
    stream) stream_sweep ;;
    gemm) gemm_sweep ;;
    quick) quick_sweep ;;
    all)
        stream_sweep
        gemm_sweep
        ;;
    esac
}

# shellcheck disable=SC2034  # PASS is read by run and say
PASS=count
sweep
PASS=run
if [ "$DRY" = 1 ]; then
    sweep
    echo "bench: $TOTAL runs ($MODE)"
    exit 0
fi
echo "bench: $TOTAL runs ($MODE sweep), binaries from $BUILD_DIR, log in $LOG"
START=$(date +%s)
sweep
END=$(date +%s)

if [ "$NO_DEVICE" = 1 ]; then
    echo "bench: no CUDA device on this machine, nothing was benchmarked."
    echo "       The plots and tables are rendered from the recorded CSVs (plots/results/)."
    exit 3
fi

# ---- summary of the rows this bench appended --------------------------------
if [ -n "$CSV" ] && [ -f "$CSV" ]; then
    echo
    echo "Rows appended to $CSV:"
    tail -n "+$((BEFORE + 1))" "$CSV" | awk -F, '
    function num(x, f) { return x == "" ? "-" : sprintf(f, x) }
    BEGIN {
        printf "%-4s %-20s %6s %10s %12s %9s %8s\n", "step", "shape", "stages", "ms", "perf", "ref", "ratio"
    }
    /^#/ || $1 == "step" || NF < 14 { next }
    {
        if ($3 != "") {
            shape = ($3 == $4 && $4 == $5) ? $3 "^3" : $3 "x" $4 "x" $5
            perf = num($10, "%.1f") " TF/s"
        } else {
            shape = "n=" $6 " work=" $7
            perf = num($11, "%.0f") " GB/s"
        }
        ref = ($12 == "cublas") ? "cuBLAS" : ($12 == "d2d_copy" ? "copy" : $12)
        printf "%-4s %-20s %6s %10s %12s %9s %8s\n", $1, shape, ($8 == "" ? "-" : $8), num($9, "%.4f"), perf, ref " " num($13, "%.0f"), num($14, "%.3f")
        rows++
    }
    END { if (!rows) print "  (none)" }'
fi

echo
echo "bench: $NRUN runs in $(hms $((END - START))) ($MODE sweep), $NOK ok, $NFAIL failed$([ -n "$SKIPPED" ] && echo ", device cannot run step(s):$SKIPPED")"
if [ "$NFAIL" -gt 0 ]; then
    echo "failed runs (full output in $LOG):$FAILED"
    exit 1
fi
exit 0

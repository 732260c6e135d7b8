#!/bin/sh
# bench.sh — run the benchmark sweeps of the step binaries (and of CUTLASS's
# counterparts, peers/) and append one CSV row per run to the results file of
# this GPU (README.md, "Results").  `make bench` calls it, then plots/render.sh.
#
#   plots/bench.sh BUILD_DIR CSV [all|quick|stream|gemm]
#   STEPS="08 09" SHAPES="4096x4096x4096 8192x8192x8192" plots/bench.sh build plots/results gemm
#
#   BUILD_DIR  where the binaries are (build/step01_sync_pc, ..., and
#              build/peers/cutlass_stepNN from `make peers`); a missing binary
#              is skipped with a note (steps 08-09 until they exist, the peers
#              until make peers has built them).
#   CSV        the results file every run appends to (--csv CSV).  If CSV is
#              a directory, the file is DIR/<gpu>.csv, <gpu> being the name the
#              first run records (spaces and odd characters turned into '_').
#   mode       all (default): streaming steps 01-03, then GEMM steps 04-09 and
#              their CUTLASS counterparts; stream / gemm: one half of it;
#              quick: one repeat, no peers, steps 01-03 at their defaults and
#              every GEMM step at QUICK_SHAPES.
#
# What runs (lists below, each overridable as BENCH_<NAME>):
#   the default configuration of each step (no flag but the shape), tagged
#   --repeat R in the CSV: at GOAL_SHAPES (the shapes the course's goals
#   name) REPEATS times in separate processes, alternating between the steps
#   and their peers (repeat 1 of every shape and step, then repeat 2, ...);
#   only repeat 1 checks the result (--no-check after); at the other shapes
#   of GEMM_SQUARES, the LLM shapes (LLM_M x LLM_NK, plus EXTRA_SHAPES) and
#   ODD_K_SHAPES once.  Streaming: each step's default REPEATS times.
#   GEMM shapes: 23, the 21 of the squares, the LLM shapes and EXTRA_SHAPES
#   (4096^3 counted once) and the 2 of ODD_K_SHAPES (K % 64 != 0:
#   docs/hopper_ptx.md, "K not a multiple of 64"); 10 of them are goal
#   shapes, so each GEMM binary makes 3 x 10 + 13 = 43 runs.
#   sweeps of one parameter (no --repeat: the tables show them as single
#   runs): streaming --work and step 03's --stages; GEMM --stages at
#   STAGES_SHAPE and --group at GROUPS_SHAPES.
#   comparisons: step 09 with its plan forced (--mode MODES_09, no --repeat)
#   at MODES_SHAPES; the binary records them with chooser=forced, so the
#   tables show them beside auto's runs, never as the step's headline.
#   step 10's --tune (TUNE_10=1): once at every GEMM shape, --tune --explain
#   --variant autotune_tuned (chooser=tune, no --repeat): what lesson 10's
#   model-against-tune table reads, from the same revision as the model's rows.
# Every row a run appends is checked for what the tables read: repeat is the
# --repeat given (empty without), chooser is "forced" for a run with --mode
# dp|sk or --config, "tune" for --tune, "model" for step 10's other runs (its
# model chose; the bench passes --no-cache) and "default" (or empty, from a
# binary older than the column) otherwise.  A row that says otherwise would put a comparison in a headline
# table: the run counts as failed, with the row's values.
# Filters: STEPS="04 08" runs only those steps (and their peers); SHAPES=
# "MxNxK ..." only those GEMM shapes (streaming is not filtered by SHAPES).
# One sweep can so be spread over several GPU calls of 10 minutes.
#
# Run counts: BENCH_DRY_RUN=1 prints the list of runs and their number for
# the binaries present (with STEPS= and SHAPES= applied), so a sweep can be
# split into GPU calls of the length at hand.  The whole plan, as
# tests/test_claims.sh counts it with stand-in binaries:
#   steps 01-10 and peers 05-09 built: gemm 569 runs, all 604 runs
#   (12 GEMM binaries x 43, 14 --stages, 8 --group, 8 --mode, 23 --tune;
#   35 streaming)
#   without the peers (BENCH_PEERS=0): gemm 354 runs, all 389 runs
# Times: the last line of a bench says how long it took.  Recorded ones (before the fair harness of
# 585cb90, which made each GEMM run time ~2 ms per side, and flush the L2
# where the input sets do not fit: runs take longer now):
# plots/results/issue15/bench_quick_h200.log (the quick sweep with steps
# 01-09, an H200), bench_0809_h100.log (steps 08-09 and their peers, two
# calls split by SHAPES=, the H100), quick.log (steps 01-07, the H100).
# A run that fails (non-zero exit, or a timeout) is reported with the tail of
# its output and the sweep goes on; the script then exits 1.  Exit code 3
# from a step means "this device cannot run this step": that step's remaining
# runs are skipped with a note.  With no CUDA device at all the script says
# so and exits 3.
#
# Environment:
#   STEPS, SHAPES              the filters above
#   BENCH_ITERS, BENCH_WARMUP  passed as --iters / --warmup when set
#   BENCH_DEVICE               passed as --device when set
#   BENCH_TIMEOUT              seconds before a run counts as hung (default 600)
#   BENCH_LOG                  full output of every run (default BUILD_DIR/bench.log)
#   BENCH_PEERS=0              leave CUTLASS's counterparts out
#   BENCH_DRY_RUN=1            print the commands, run nothing
# shellcheck disable=SC2034  # STAGES_NN / GROUPS_NN are read through eval
set -u

# ---- sweeps: tune here ------------------------------------------------------
REPEATS=${BENCH_REPEATS:-3}
STREAM_WORKS=${BENCH_STREAM_WORKS-"0 4 16 32 64 128"}
STREAM_STAGES=${BENCH_STREAM_STAGES-"1 2 3 4 5 6 7 8"}
STREAM_WORK_STAGES=${BENCH_STREAM_WORK_STAGES-4}
GEMM_SQUARES=${BENCH_GEMM_SQUARES-"512 1024 2048 4096 6144 8192"}
LLM_M=${BENCH_LLM_M-"512 1024 2048 4096 8192"}
LLM_NK=${BENCH_LLM_NK-"4096x4096 14336x4096 4096x14336"}
EXTRA_SHAPES=${BENCH_EXTRA_SHAPES-"1024x1024x14336"}
# K % 64 != 0 (issue 24): each row of A and B starts 16 bytes further into
# a 128-byte line than the row before.  K = 4168 is 8 (mod 64); 4000 x 3000 adds M and N that are
# not multiples of 128.  Both measured in plots/results/odd_k/: steps 06 and
# 09 at 0.65-0.72 of cuBLAS there, ~1.00 at K = 4160 (oddk_time.log,
# remedy_run/remedy_summary.log; docs/hopper_ptx.md says why).
ODD_K_SHAPES=${BENCH_ODD_K_SHAPES-"4096x4096x4168 4000x3000x4168"}
GOAL_SHAPES=${BENCH_GOAL_SHAPES-"4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096 4096x4096x14336 8192x14336x4096 8192x4096x14336 1024x1024x14336 2048x2048x2048 512x4096x4096"}
QUICK_SHAPES=${BENCH_QUICK_SHAPES-"4096x4096x4096 8192x8192x8192 4096x14336x4096 4096x4096x14336"}
STAGES_SHAPE=${BENCH_STAGES_SHAPE-4096x4096x4096}
STAGES_04=${BENCH_STAGES_04-"2 3 4 5 6"}
STAGES_05=${BENCH_STAGES_05-"2 3 4"}
STAGES_06=${BENCH_STAGES_06-"2 3 4"}
STAGES_07=${BENCH_STAGES_07-"2 4 6"}
GROUPS_SHAPES=${BENCH_GROUPS_SHAPES-"4096x4096x4096 8192x8192x8192"}
GROUPS_06=${BENCH_GROUPS_06-"1 16"}
GROUPS_07=${BENCH_GROUPS_07-"1 16"}
# step 09's plan forced (--mode), to compare with auto's choice: where auto
# streams (its split) and at the 1024 x 1024 x K shapes of exercise 2
MODES_SHAPES=${BENCH_MODES_SHAPES-"1024x1024x14336 1024x1024x2048 1024x1024x4096 1536x1536x8192"}
MODES_09=${BENCH_MODES_09-"dp sk"}
TUNE_10=${BENCH_TUNE_10-1}
GEMM_STEPS="04 05 06 07 08 09 10"
PEERS=${BENCH_PEERS-1}
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
    08) echo step08_cluster_multicast ;;
    09) echo step09_stream_k ;;
    10) echo step10_autotune ;;
    c??) echo "peers/cutlass_step${1#c}" ;;
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
[ -n "${BENCH_ITERS-}" ] && EXTRA="$EXTRA --iters $BENCH_ITERS"
[ -n "${BENCH_WARMUP-}" ] && EXTRA="$EXTRA --warmup $BENCH_WARMUP"
[ -n "${BENCH_DEVICE-}" ] && EXTRA="$EXTRA --device $BENCH_DEVICE"
DRY=${BENCH_DRY_RUN-0}
TIMEOUT_S=${BENCH_TIMEOUT:-600}
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout -k 10 $TIMEOUT_S"

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 2
trap 'rm -rf "$TMPD"' EXIT
trap 'echo; echo "bench.sh: interrupted" >&2; exit 130' INT TERM

LOG=${BENCH_LOG-$BUILD_DIR/bench.log}
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
    # step 10 chooses by its model, never by a tuning cache left on this machine
    [ "$step" = 10 ] && set -- "$@" --no-cache
    target=${CSV:-$PENDING}
    NRUN=$((NRUN + 1))
    I=$((I + 1))
    eval "ATT_$step=\$((\${ATT_$step:-0} + 1))"
    if [ "$DRY" = 1 ]; then
        echo "[$I/$TOTAL] $bin $* $EXTRA --csv $target" | tr -s ' '
        return 0
    fi
    printf '[%d/%d] %-9s %-34s ... ' "$I" "$TOTAL" "$(case $step in c*) echo "cutlass${step#c}" ;; *) echo "step$step" ;; esac)" "$(label "$@")"
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
    [ "$rc" = 0 ] && check_row "$@"
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
    4)
        NFAIL=$((NFAIL + 1))
        FAILED="$FAILED
  step$step $* (row mislabeled)"
        progress "FAILED: $ROWMSG"
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

# check_row FLAGS...: the row the run just appended ($CSV's last line) reads
# as what the run was (see the header); on a mismatch rc becomes 4 and
# ROWMSG says why.
check_row() {
    [ -n "$CSV" ] && [ -f "$CSV" ] || return 0
    want_rep="" want_ch=default
    [ "$step" = 10 ] && want_ch=model   # its model chose (run passes --no-cache)
    while [ $# -gt 0 ]; do
        case $1 in
        --repeat) want_rep=$2; shift ;;
        --mode) case $2 in dp | sk) want_ch=forced ;; esac; shift ;;
        --config) want_ch=forced; shift ;;
        --tune) want_ch=tune ;;
        esac
        shift
    done
    got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { l = $0 }
        END { split(l, f, ","); r = ("repeat" in c) ? f[c["repeat"]] : "?"; h = ("chooser" in c) ? f[c["chooser"]] : ""
              print r "," h }' "$CSV")
    got_rep=${got%%,*} got_ch=${got#*,}
    [ "$got_ch" = "" ] && [ "$want_ch" = default ] && got_ch=default
    if [ "$got_rep" != "$want_rep" ] || [ "$got_ch" != "$want_ch" ]; then
        rc=4
        ROWMSG="its row reads repeat='$got_rep' chooser='$got_ch', the run was repeat='$want_rep' chooser='$want_ch': the tables would misread it (a binary older than the chooser column, or one whose --repeat has a default?)"
    fi
}

# have STEP: is the binary there?  Says so once when it is not.
have() {
    b=$BUILD_DIR/$(bin_name "$1")
    if [ -x "$b" ]; then return 0; fi
    case $1 in
    c*) say "CUTLASS's step$(echo "$1" | cut -c2-) counterpart: $b not built (make peers), skipped" ;;
    *) say "step$1: $b not built, skipped" ;;
    esac
    return 1
}

# wanted STEP: does the STEPS filter let STEP (or its peer cNN) through?
wanted() { [ -z "${STEPS:-}" ] || case " $STEPS " in *" ${1#c} "*) return 0 ;; *) return 1 ;; esac; }
# shape_ok MxNxK: does the SHAPES filter let it through?
shape_ok() { [ -z "${SHAPES:-}" ] || case " $SHAPES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# repeat_flags R: only the first repeat checks the result
repeat_flags() { if [ "$1" -gt 1 ]; then echo "--repeat $1 --no-check"; else echo "--repeat $1"; fi; }

stream_sweep() {
    for s in 01 02 03; do
        [ "$NO_DEVICE" = 1 ] && return 0
        wanted "$s" && have "$s" || continue
        say "step$s: streaming, the default configuration ($1 repeats), then the work sweep"
        r=1; while [ "$r" -le "$1" ]; do
            # shellcheck disable=SC2046
            run "$s" $(repeat_flags "$r"); r=$((r + 1)); done
        [ "$1" -gt 1 ] || [ "$MODE" != quick ] || continue
        for w in $STREAM_WORKS; do
            if [ "$s" = 03 ]; then run "$s" --work "$w" --stages "$STREAM_WORK_STAGES"; else run "$s" --work "$w"; fi
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

# the GEMM binaries present and wanted: steps, then their peers
gemm_bins() {
    GB=""
    for s in $GEMM_STEPS; do wanted "$s" && have "$s" && GB="$GB $s"; done
    [ "$PEERS" = 1 ] || return 0
    for s in $GEMM_STEPS; do wanted "$s" && have "c$s" && GB="$GB c$s"; done
}

# the default configuration: REPEATS x GOAL_SHAPES, alternating between
# binaries; then the other shapes once.  $1: repeats, $2: goal shapes, $3: others
gemm_defaults() {
    r=1
    while [ "$r" -le "$1" ]; do
        say "GEMM, default configurations, repeat $r of $1:$GB"
        for shape in $2; do
            shape_ok "$shape" || continue
            # shellcheck disable=SC2046
            for s in $GB; do run_shape "$s" "$shape" $(repeat_flags "$r"); done
        done
        r=$((r + 1))
    done
    [ -n "$3" ] && say "GEMM, default configurations at the other shapes (once):$GB"
    for shape in $3; do
        shape_ok "$shape" || continue
        for s in $GB; do run_shape "$s" "$shape" --repeat 1; done
    done
}

gemm_sweep() {
    gemm_bins
    others=""
    for sh in $(for q in $GEMM_SQUARES; do echo "${q}x${q}x${q}"; done) \
              $(for m in $LLM_M; do for nk in $LLM_NK; do echo "${m}x$nk"; done; done) $EXTRA_SHAPES $ODD_K_SHAPES; do
        case " $GOAL_SHAPES $others " in *" $sh "*) ;; *) others="$others $sh" ;; esac
    done
    gemm_defaults "$REPEATS" "$GOAL_SHAPES" "$others"
    for s in $GB; do
        case $s in c*) continue ;; esac
        eval "stages=\${STAGES_$s:-}"
        if [ -n "$stages" ] && shape_ok "$STAGES_SHAPE"; then
            say "step$s: stages sweep at $STAGES_SHAPE"
            for st in $stages; do run_shape "$s" "$STAGES_SHAPE" --stages "$st"; done
        fi
        eval "groups=\${GROUPS_$s:-}"
        [ -n "$groups" ] && say "step$s: raster group sizes ($groups) at $GROUPS_SHAPES"
        for shape in $GROUPS_SHAPES; do
            shape_ok "$shape" || continue
            for g in $groups; do run_shape "$s" "$shape" --group "$g"; done
        done
        eval "modes=\${MODES_$s:-}"
        [ -n "$modes" ] && say "step$s: plans forced ($modes) at $MODES_SHAPES, to compare with its own choice"
        for shape in $MODES_SHAPES; do
            [ -n "$modes" ] && shape_ok "$shape" || continue
            for md in $modes; do run_shape "$s" "$shape" --mode "$md"; done
        done
    done
    # step 10's --tune at every GEMM shape: what its model is measured against
    [ "$TUNE_10" = 1 ] || return 0
    case " $GB " in *" 10 "*) ;; *) return 0 ;; esac
    say "step10: --tune at every GEMM shape, once (lesson 10's model-against-tune table)"
    for shape in $GOAL_SHAPES $others; do
        shape_ok "$shape" && run_shape 10 "$shape" --tune --explain --variant autotune_tuned
    done
}

# quick: one repeat of the headline numbers, no peers
quick_sweep() {
    stream_sweep 1
    PEERS=0
    gemm_bins
    gemm_defaults 1 "$QUICK_SHAPES" ""
}

sweep() {
    case $MODE in
    stream) stream_sweep "$REPEATS" ;;
    gemm) gemm_sweep ;;
    quick) quick_sweep ;;
    all)
        stream_sweep "$REPEATS"
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
        printf "%-4s %-20s %6s %10s %12s %9s %8s\n", ($21 == "cutlass" ? "c" : "") $1, shape, ($8 == "" ? "-" : $8), num($9, "%.4f"), perf, ref " " num($13, "%.0f"), num($14, "%.3f")
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

#!/bin/sh
# tests/sanitize.sh — compute-sanitizer on every step (make sanitize).
#
#   tests/sanitize.sh BUILD_DIR OUT_MD   the four tools on every step binary of BUILD_DIR,
#                                        then one planted bug (BUILD_DIR/debug); needs a GPU
#   tests/sanitize.sh --kernels BIN      the kernels the filter lets through for BIN, one
#                                        name a line (no GPU: make test checks them)
#
# Four tools: memcheck (out-of-bounds and misaligned accesses), racecheck
# (shared-memory hazards), synccheck (illegal barrier use) and initcheck
# (reads of uninitialized global memory).
#
# Only the course's kernels are checked.  Every run also launches cuBLAS, the
# harness's reference, and cuBLAS's own kernels have hazards of their own at
# some shapes (at 1000 x 1000 x 2048 racecheck finds 2 WAR hazards in its
# nvjet_sm90_tst_64x128 kernel, the same in the runs of steps 07, 08 and 09):
# a learner who sanitizes a step must read the step's errors, not cuBLAS's.
# So each run takes compute-sanitizer's include filter, --kernel-name, one
# per kernel of the step: the __global__ functions compiled into the step's
# binary (its timed and traced kernels), found by their host stubs (nm), less
# the harness's own from common/ (the L2 flush, the cluster placement probe).
# An include list and not an exclude of cuBLAS's names, which change between
# versions.  The filter matches the mangled name's start, _Z<length><name>
# (a substring, kns=), so pingpong_kernel and pingpong_kernel_traced are told
# apart and no other kernel's name can contain it.  A filter
# that matched nothing would check nothing and report 0 errors, so:
#   * make test (tests/test_claims.sh) checks, without a GPU, that each
#     step's filter lets through at least one kernel of the step, and not the
#     harness's L2-flush kernel that the same binary holds;
#   * the table records how many launches of those kernels each tool ran
#     through: the program's check launch ("check ok" in its output) and its
#     timed launches ("timing: N launches each"; streaming steps time exactly
#     --iters), every one matched by the filter and so checked (no
#     --launch-count); a launch the tool failed to track fails the row;
#   * a control: racecheck on step 07 at 1000 x 1000 x 2048 without the
#     filter and with it (cuBLAS's hazards show only without);
#   * a planted bug (a DEBUG build, BUILD_DIR/debug, from make DEBUG=1) run
#     through the same filter under each tool: the table says which tools
#     report it, and at least one must.
# Shapes: streaming steps with ~4 chunks per CTA (the ring wraps); the
# persistent steps (06 on) where every CTA walks several tiles; step 09
# also where its plan streams (checked: the plan line's "N streamed", N > 0).
# Writes OUT_MD (the table) and each run's log in OUT_MD's folder,
# sanitize_logs/; exits 1 if any count is not 0 or any check above failed.
# To spread it over GPU calls of limited length:
#   SANITIZE_STEPS="01 02 03"  only those steps' rows
#   SANITIZE_EXTRAS=0          leave out the control and the planted bugs
#   SANITIZE_APPEND=1          append the rows to OUT_MD instead of starting it
#   SANITIZE_ROWS=TEXT         only the runs whose arguments contain TEXT (grep's pattern)
# e.g. SANITIZE_STEPS="01 02 03 04 05 06" SANITIZE_EXTRAS=0 sh tests/sanitize.sh build OUT,
# then SANITIZE_STEPS="07 08 09" SANITIZE_APPEND=1 sh tests/sanitize.sh build OUT.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")

# kernels BIN: the step's kernels in BIN (names, one a line).  nvcc emits a
# host stub __device_stub__Z<len><name>... for each __global__ function.
kernels() {
    harness=$(sed -n 's/.*__global__ void \([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' "$ROOT"/common/*.cuh "$ROOT"/common/*.h 2>/dev/null | sort -u)
    nm "$1" 2>/dev/null | sed -n 's/.*__device_stub__Z\([0-9][0-9]*\)\([A-Za-z_][A-Za-z0-9_]*\).*/\1 \2/p' |
        while read -r len rest; do printf '%s\n' "$rest" | cut -c1-"$len"; done | sort -u |
        while read -r k; do printf '%s\n' "$harness" | grep -qx "$k" || echo "$k"; done
}
# filter_flags BIN: --kernel-name kns=_Z<len><name> for each kernel: the
# start of its mangled name, the same on the device as the host stub's
# (tests/test_claims.sh checks that each such symbol is in the binary).
filter_flags() {
    for k in $(kernels "$1"); do printf ' --kernel-name kns=_Z%s%s' "${#k}" "$k"; done
}
if [ "${1:-}" = "--kernels" ]; then
    [ -n "${2:-}" ] && [ -f "$2" ] || { echo "usage: $0 --kernels BIN" >&2; exit 2; }
    kernels "$2"
    exit 0
fi

BUILD=${1:-build}
OUT=${2:-plots/results/sanitize.md}
LOGS=$(dirname "$OUT")/sanitize_logs
SAN=${SANITIZER:-compute-sanitizer}
# A bare name found on PATH becomes its path (the -x test below needs one).
SAN=$(command -v "$SAN" 2>/dev/null || echo "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer")
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "sanitize: no CUDA device here; nothing run (the recorded table is $OUT)"
    exit 0
fi
[ -x "$SAN" ] || { echo "sanitize: no compute-sanitizer (looked for $SAN; SANITIZER=path overrides)"; exit 2; }
mkdir -p "$LOGS"
TOOLS="memcheck racecheck synccheck initcheck"
TMO=${SANITIZE_TIMEOUT:-300}   # seconds per tool run; a run past it reads "no summary (exit 124)"
status=0

# args_of STEP: the run(s) of a step, one line each
args_of() {
    case $1 in
        # 2162765 floats = 4 x 132 chunks of 4096, + 77: every CTA walks 4 or 5 chunks
        01|02) echo "--n-elems 2162765 --work 4" ;;
        03) echo "--n-elems 2162765 --work 4 --stages 3" ;;
        04|05) echo "--m 1000 --n 1000 --k 512" ;;             # edge tiles, 8 k-tiles
        # 06: 512 tiles of 128 x 256 on 132 CTAs (3-4 each); 07: 1024 tiles of
        # 128 x 128 (7-8 per CTA, 3-4 per warpgroup); 08: 512 cluster tiles on
        # 66 clusters (7-8 each); K = 128, 2 k-tiles: the ring wraps across tiles
        06|07|08) echo "--m 4096 --n 4096 --k 128" ;;
        # the textbook deal at the same shape (each unit walks several whole
        # tiles, then streamed pieces of the last waves, with fixups), and
        # auto's split where it streams (two units per tile)
        09) echo "--m 4096 --n 4096 --k 128 --mode sk"; echo "--m 1024 --n 1024 --k 2048" ;;
        # step 10: every configuration of its menu in the textbook deal at 09's
        # multi-tile shape (its full kernel), in whole tiles there (the lean
        # kernel), and the chooser's own choice where 09's auto streams
        10) for c in 64x64 64x128 128x128 128x192 128x256c; do
                echo "--m 4096 --n 4096 --k 128 --mode sk --config $c --no-cache"
                echo "--m 4096 --n 4096 --k 128 --mode dp --config $c --no-cache"
            done
            echo "--m 1024 --n 1024 --k 2048 --no-cache"
            # 33 (64x64) and 66 (128x256c) writers a tile: the owner's lanes wait on more than 32 flags
            echo "--m 100 --n 70 --k 8200 --mode sk --config 64x64 --no-cache"
            echo "--m 100 --n 70 --k 8200 --mode sk --config 128x256c --no-cache"
            # the chooser's fourth plan where it picks it (one tile, its U' units) and at the multi-tile shape
            echo "--m 64 --n 64 --k 16384 --no-cache"
            echo "--m 4096 --n 4096 --k 128 --mode cap --config 64x128 --no-cache"
            # decode shapes, the chooser's picks: one row of A in 64x64's lean kernel at 13 slots (its
            # ring past 8: chooser_ring), 16 rows the same, and eight rows in 64x128's lean kernel (63, 48
            # and 56 of a tile's 64 rows past M)
            echo "--m 1 --n 4096 --k 4096 --no-cache"
            echo "--m 16 --n 4096 --k 4096 --no-cache"
            echo "--m 8 --n 14336 --k 4096 --no-cache"
            # 64x64's A box cut to M's 8 rows, streamed: the slot's other rows are never written;
            # its B box cut to N's 16 the same way, streamed and in the lean kernel at 13 slots
            echo "--m 8 --n 4096 --k 1024 --mode sk --config 64x64 --no-cache"
            echo "--m 4096 --n 16 --k 1024 --mode sk --config 64x64 --no-cache"
            echo "--m 4096 --n 16 --k 2048 --mode dp --config 64x64 --no-cache"
            # a pair's A where M fits in rank 0's half: rank 0's box cut to M, rank 1 loads none
            echo "--m 8 --n 4096 --k 1024 --mode sk --config 64x128 --no-cache"
            echo "--m 40 --n 4096 --k 1024 --mode dp --config 128x128 --no-cache"
            # a pair's tile alone where N leaves it one or three tiles (chooser_cluster): streamed with its B box
            # cut to N (100, masked stores), whole tiles in the lean kernel, three tiles across N masked
            echo "--m 4096 --n 100 --k 1024 --mode sk --config 64x128 --no-cache"
            echo "--m 4096 --n 128 --k 512 --mode dp --config 64x128 --no-cache"
            echo "--m 4096 --n 300 --k 512 --mode dp --config 128x128 --no-cache"
            echo "--m 4096 --n 160 --k 1024 --mode sk --config 128x192 --no-cache"
            # a pair with a padding CTA (odd counts past chooser_cluster's 7), which loads no box of its own
            # (producer_load_tile): 9 tiles across N in the lean kernel; 9 across N streamed with masked
            # stores; the cooperative pair along M, 3 tiles along M, streamed
            echo "--m 4096 --n 1152 --k 512 --mode dp --config 128x128 --no-cache"
            echo "--m 1000 --n 1100 --k 1024 --mode sk --config 64x128 --no-cache"
            echo "--m 300 --n 2048 --k 1024 --mode sk --config 128x256c --no-cache"
            # the shared box cut at the edge (map_shared_edge): the last tile row's 8 rows of A, rank 0's
            # half cut and rank 1 loading none, in the lean kernel's second copy; rank 1's half cut (32 of
            # 64 rows), streamed, masked stores; the cooperative pair's B in its last column, 8 of 256 columns
            echo "--m 136 --n 8192 --k 512 --mode dp --config 64x128 --no-cache"
            echo "--m 1120 --n 1000 --k 1024 --mode sk --config 128x128 --no-cache"
            echo "--m 2048 --n 4104 --k 512 --mode sk --config 128x256c --no-cache" ;;
        *) echo "--m 4096 --n 4096 --k 128"; echo "--m 1024 --n 1024 --k 2048" ;;
    esac
}
ITERS=1

# run_tool TOOL LOG BIN ARGS...: the tool through the filter; prints the
# cell "E errors, L launches" and sets cell_bad=1 when E > 0, L = 0 or the
# tool said it could not track a launch.
run_tool() {
    t=$1 log=$2 bin=$3; shift 3
    extra="" flags=$(filter_flags "$bin")
    # racecheck through the include filter dies on the GEMM steps ("Internal
    # Sanitizer Error: The Sanitizer failed to handle a hardware exception",
    # then cuBLAS's next call fails: compute-sanitizer 2025.3.1 on the H100,
    # every GEMM step, 2026-11-24) while the unfiltered run completes.  So
    # racecheck runs unfiltered and its cell counts only the hazards whose
    # accesses it places in one of the step's kernels (by name, from the
    # report): cuBLAS's own hazards, if any, are left out, as the filter
    # would have left them.
    [ "$t" = racecheck ] && { extra="--racecheck-report all"; flags=""; }
    # shellcheck disable=SC2086,SC2046
    timeout "$TMO" "$SAN" --tool "$t" $extra $flags "$bin" "$@" >"$log" 2>&1
    rc=$?
    e=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n1)
    # racecheck: "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)"
    if [ -z "$e" ] && grep -q "RACECHECK SUMMARY" "$log"; then
        e=$(awk -v ks=" $(kernels "$bin" | tr '\n' ' ')" '
            /Error: |Warning: / { if (open && mine) n++; open = 1; mine = 0; next }
            open && / at / { split($0, w, " at "); name = w[2]; sub(/[(+].*/, "", name)
                             if (index(ks, " " name " ")) mine = 1 }
            END { if (open && mine) n++; print n + 0 }' "$log")
        [ "$rc" != 0 ] && [ "$e" = 0 ] && grep -q "Target application returned an error\|Internal Sanitizer Error" "$log" && e=""
        [ -n "$e" ] && rc=0   # the tool's exit status counts cuBLAS's hazards too
    fi
    ck=0; grep -q "check ok" "$log" && ck=1
    timed=$(sed -n 's/.*timing: \([0-9]*\) launches each.*/\1/p' "$log" | tail -n1)
    case $bin in */step0[123]_*) timed=$ITERS ;; esac     # the streaming harness times exactly --iters
    [ -n "$timed" ] || timed=0
    [ "$ck" = 1 ] || timed=0                              # no result printed: count nothing
    l=$((ck + timed))
    cell_bad=0
    if [ -z "$e" ]; then cell="no summary (exit $rc)"; cell_bad=1
    else
        cell="$e errors, $l launches"
        [ "$e" = 0 ] && [ "$rc" = 0 ] && [ "$l" -gt 0 ] || cell_bad=1
        [ "$rc" = 0 ] || cell="$cell (exit $rc)"
    fi
    if grep -q "didn't track the launch\|failure to track a kernel launch" "$log"; then
        cell="$cell, a launch not tracked"; cell_bad=1
    fi
}

GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
REV=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
STEPS_WANTED=${SANITIZE_STEPS:-}
wanted() { [ -z "$STEPS_WANTED" ] || case " $STEPS_WANTED " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
[ "${SANITIZE_APPEND:-0}" = 1 ] && [ -f "$OUT" ] || {
    echo "# compute-sanitizer: the course's kernels, per step and tool"
    echo
    echo "Generated by \`make sanitize\` (tests/sanitize.sh) on $GPU, $(date -u +%Y-%m-%dT%H:%M:%SZ), git $REV," \
         "$("$SAN" --version 2>/dev/null | sed -n 's/^Version /compute-sanitizer /p' | head -n1)." \
         "Each run checks only the step's kernels (the filter's column: \`--kernel-name\`, one per kernel);" \
         "cuBLAS's, which every run also launches as the reference, are not checked." \
         "Except racecheck, which dies through the filter on the GEMM steps: it runs unfiltered and its" \
         "cell counts only the hazards it places in the step's kernels (tests/sanitize.sh says how)."
    echo "A cell reads: errors the tool reported, and launches of the step's kernels it checked" \
         "(the check launch and the --iters $ITERS timed one(s): every launch the filter matches is checked)." \
         "Logs in \`sanitize_logs/\`."
    echo
    printf '| step | arguments | kernels checked |'; for t in $TOOLS; do printf ' %s |' "$t"; done; echo
    printf '|---|---|---|'; for t in $TOOLS; do printf -- '---|'; done; echo
} >"$OUT"
[ "${SANITIZE_APPEND:-0}" = 1 ] && echo "(appending to $OUT)"

for bin in "$BUILD"/step[0-9]*; do
    [ -x "$bin" ] && [ -f "$bin" ] || continue
    name=$(basename "$bin"); s=${name#step}; s=${s%%_*}
    wanted "$s" || continue
    ks=$(kernels "$bin" | tr '\n' ' ')
    if [ -z "$ks" ]; then
        echo "$name: no kernel of the step found in the binary (nm): nothing would be checked"; status=1
        echo "| $name | – | none found | – | – | – | – |" >>"$OUT"; continue
    fi
    n=0
    args_of "$s" | grep -e "${SANITIZE_ROWS:-}" >"$LOGS/.args"
    while read -r a; do
        n=$((n + 1))
        args="$a --iters $ITERS --warmup 0"
        row="| $name | \`$args\` | $(echo $ks | sed 's/ /, /g') |"
        for t in $TOOLS; do
            log="$LOGS/${name}_${n}_$t.log"
            # shellcheck disable=SC2086
            run_tool "$t" "$log" "$bin" $args
            if [ "$s" = 09 ]; then
                st=$(sed -n 's/.*stream-K plan:.*: \([0-9]*\) streamed.*/\1/p' "$log" | head -n1)
                if [ -z "$st" ] || [ "$st" = 0 ]; then cell="$cell, plan streams nothing"; cell_bad=1; fi
            fi
            [ "$cell_bad" = 0 ] || status=1
            row="$row $cell |"
            echo "$name $t ($a): $cell"
        done
        echo "$row" >>"$OUT"
    done <"$LOGS/.args"
    rm -f "$LOGS/.args"
done

if [ "${SANITIZE_EXTRAS:-1}" = 0 ]; then echo "wrote $OUT (no control, no planted bugs: SANITIZE_EXTRAS=0)"; exit $status; fi

# ---- control: cuBLAS's hazards are outside the filter -----------------------
ctl=$BUILD/step07_pingpong
if [ -x "$ctl" ]; then
    ca="--m 1000 --n 1000 --k 2048 --iters 1 --warmup 0"
    # shellcheck disable=SC2086
    timeout "$TMO" "$SAN" --tool racecheck --racecheck-report all "$ctl" $ca >"$LOGS/control_racecheck_unfiltered.log" 2>&1
    u=$(sed -n 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$LOGS/control_racecheck_unfiltered.log" | tail -n1)
    # shellcheck disable=SC2086
    run_tool racecheck "$LOGS/control_racecheck_filtered.log" "$ctl" $ca
    [ "$cell_bad" = 0 ] || status=1
    where=$(grep -o 'nvjet[A-Za-z0-9_]*\|sm90_xmma[A-Za-z0-9_]*\|cutlass[A-Za-z0-9_]*' "$LOGS/control_racecheck_unfiltered.log" | sort -u | head -n 3 | tr '\n' ' ')
    {
        echo
        echo "Control, racecheck on step07_pingpong \`$ca\`: without the filter ${u:-no summary} errors" \
             "(kernels named in them: ${where:-none}), with it $cell."
    } >>"$OUT"
    echo "control: unfiltered ${u:-?} errors (${where:-}), filtered: $cell"
fi

# ---- a planted bug, through the filter --------------------------------------
# DEBUG builds bound every wait: a planted protocol bug ends in a hang report
# and a trap instead of hanging.  Bug 4 of step 07 (a consumer warpgroup skips
# one named-barrier arrive: its partner waits for the turn forever) and bug 3
# of step 03 (a consumer skips one release: the producer waits forever).
# racecheck runs with deadlock detection (--racecheck-deadlock-timeout).  A
# tool "reports it" when it prints an error in the step's kernel (the log
# names the kernel as a function outside a host backtrace frame).
DBG=$BUILD/debug
caught=0
{
    echo
    echo "Planted bugs (DEBUG build, \`$DBG\`), through the same filter: what each tool reported."
    echo
    printf '| step | arguments |'; for t in $TOOLS; do printf ' %s |' "$t"; done; echo
    printf '|---|---|'; for t in $TOOLS; do printf -- '---|'; done; echo
} >>"$OUT"
for pb in "step07_pingpong:--plant-bug 4 --m 2048 --n 2048 --k 1024" "step03_staged_pipeline:--plant-bug 3 --stages 2 --n-elems 4000000"; do
    pn=${pb%%:*}; pa="${pb#*:} --iters 1 --warmup 0"
    bin=$DBG/$pn
    if [ ! -x "$bin" ]; then echo "| $pn | \`$pa\` | not built (make DEBUG=1) | | | |" >>"$OUT"; status=1; continue; fi
    ks=$(kernels "$bin" | tr '\n' '|'); ks=${ks%|}
    [ -n "$ks" ] || ks=no_kernel_found
    row="| $pn | \`$pa\` |"
    for t in $TOOLS; do
        log="$LOGS/planted_${pn}_$t.log"
        extra=""
        [ "$t" = racecheck ] && extra="--racecheck-report all --racecheck-deadlock-timeout 500"
        # shellcheck disable=SC2086,SC2046
        timeout "$TMO" "$SAN" --tool "$t" $extra $(filter_flags "$bin") "$bin" $pa >"$log" 2>&1
        rc=$?
        e=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n1)
        [ -z "$e" ] && e=$(sed -n 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$log" | tail -n1)
        # a device-side report names the kernel as a function, "name(...)";
        # host backtrace frames (a failed API call) do not count
        if [ -n "$e" ] && [ "$e" != 0 ] && grep -v "Host Frame" "$log" | grep -Eq "(^|[^A-Za-z0-9_])($ks)\("; then
            cell="reported: $e errors in the step's kernel (exit $rc)"; caught=$((caught + 1))
        else
            cell="not reported (${e:-no summary} errors, exit $rc)"
        fi
        row="$row $cell |"
        echo "planted $pn $t: $cell"
    done
    echo "$row" >>"$OUT"
done
if [ "$caught" = 0 ]; then
    echo "sanitize: no tool reported a planted bug through the filter"; status=1
    echo; echo "No tool reported a planted bug through the filter: the filter or the tools are not checking what this table says." >>"$OUT"
fi
echo "wrote $OUT"
exit $status

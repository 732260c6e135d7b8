# plots/results/odd_k/remedy.sh — issue 24's second experiment: does the
# tensor maps' L2 promotion, or a tile that loads fewer rows per MAC, change
# what K = 8 (mod 64) costs steps 06 and 09?  README.md beside this file says
# what each variant tests and what was predicted before it ran.
#
# Run from the repository root, on the GPU machine, with $OUT a folder for the
# logs:   bash plots/results/odd_k/remedy.sh
# It builds 7 variants into build/oddk/ (in parallel), then times each at
# 4 shapes (plus K = 4128 for the two baselines), in two rounds of one
# process each, shape by shape with the variants alternated, and reads the
# L2 counters of one variant with ncu between the rounds.  It stops starting
# runs once REMEDY_BUDGET_S (default 135) seconds have passed since it began;
# expected total ~130 s.  Without a GPU it builds everything and exits 3.
set -o pipefail
OUT=${OUT:-$(mktemp -d /tmp/oddk_remedy.XXXXXX)}
mkdir -p "$OUT" || exit 1
B=build/oddk
BUDGET=${REMEDY_BUDGET_S:-135}
T0=$SECONDS
elapsed() { echo $((SECONDS - T0)); }

# name, step, make variables ("-": none).  Base variants are plain builds of
# this tree; the L2 ones differ only in common/tma.o (CC_EXTRA reaches gcc,
# not nvcc); bn192 is step 09's documented tile option (NVCC_EXTRA).
VARIANTS="s09_base step09_stream_k -
s09_none step09_stream_k CC_EXTRA=-DTMA_L2_PROMOTION=0
s09_256 step09_stream_k CC_EXTRA=-DTMA_L2_PROMOTION=256
s09_bn192 step09_stream_k NVCC_EXTRA=-DBN=192
s06_base step06_persistent -
s06_none step06_persistent CC_EXTRA=-DTMA_L2_PROMOTION=0
s09_64 step09_stream_k CC_EXTRA=-DTMA_L2_PROMOTION=64"
SHAPES="4096x4096x4168 4096x4096x4096 4096x4096x4160 4000x3000x4168"   # most telling first
BASE_ONLY_SHAPES="4096x4096x4128"   # K = 32 (mod 64): every other row off by 64 B

# ---- build: one make per variant, all at once -----------------------------
echo "remedy.sh: building $(echo "$VARIANTS" | wc -l) variants into $B/ (logs in $OUT)"
pids=""
while read -r name step vars; do
    [ "$vars" = "-" ] && vars=""
    # shellcheck disable=SC2086  # vars is one VAR=value word or none
    make BUILD="$B/$name" $vars "$B/$name/$step" > "$OUT/build_$name.log" 2>&1 &
    pids="$pids $!:$name"
done <<EOF
$VARIANTS
EOF
fail=0
for p in $pids; do
    wait "${p%%:*}" || { echo "build of ${p#*:} failed:"; tail -15 "$OUT/build_${p#*:}.log"; fail=1; }
done
[ $fail = 0 ] || exit 1

# The override must have reached tma.c: each L2 variant's tma.o differs from
# the base's, and -DTMA_L2_PROMOTION=128 would compile to the same object.
for v in s09_none s09_256 s09_64 s06_none; do
    if cmp -s "$B/$v/common/tma.o" "$B/s09_base/common/tma.o"; then
        echo "remedy.sh: $v's common/tma.o is the base's: the L2 override did not reach gcc"; exit 1
    fi
done
cmp -s "$B/s09_base/common/tma.o" "$B/s06_base/common/tma.o" || { echo "remedy.sh: the two base tma.o differ"; exit 1; }
echo "remedy.sh: built in $(elapsed) s; L2 variants' tma.o differ from the base's (checked)" | tee "$OUT/remedy_time.log"

# ---- a GPU? (the step's own answer: exit 3 and why) ------------------------
probe=$("$B/s09_base/step09_stream_k" --m 256 --n 256 --k 64 --no-check --iters 1 --warmup 0 2>&1)
rc=$?
if [ $rc = 3 ]; then
    echo "$probe" | tail -1
    echo "remedy.sh: no GPU here that step 09 can run on: everything built, nothing timed (exit 3)"
    exit 3
elif [ $rc != 0 ]; then
    echo "$probe" | tail -5; echo "remedy.sh: the probe run failed (exit $rc)"; exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >> "$OUT/remedy_time.log" 2>&1

# ---- timing ---------------------------------------------------------------
# One line per run: round variant shape step_ms cublas_ms ratio (the fair
# harness's medians, gemm_impl.cuh's line).
run_one() { # run_one ROUND NAME STEP SHAPE
    if [ "$(elapsed)" -ge "$BUDGET" ]; then echo "skip $1 $2 $4 (budget)" >> "$OUT/remedy_skipped.log"; return; fi
    # shellcheck disable=SC2046  # the shape splits into M N K on purpose
    set -- "$1" "$2" "$3" "$4" $(echo "$4" | tr x ' ')
    out=$(timeout 20 "$B/$2/$3" --m "$5" --n "$6" --k "$7" --no-check 2>&1)
    echo "[$1 $2] $out" >> "$OUT/remedy_raw.log"
    line=$(echo "$out" | grep 'ratio')
    ms=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) ms .*cuBLAS \([0-9.]*\) ms.*ratio \([0-9.]*\).*/\1 \2 \3/p')
    echo "$1 $2 $4 ${ms:-failed}" | tee -a "$OUT/remedy_runs.log"
}
round() { # round R
    for sh in $SHAPES $BASE_ONLY_SHAPES; do
        while read -r name step vars; do
            case "$BASE_ONLY_SHAPES" in *"$sh"*) case "$name" in *_base) ;; *) continue ;; esac ;; esac
            run_one "$1" "$name" "$step" "$sh"
        done <<EOF
$VARIANTS
EOF
    done
}
: > "$OUT/remedy_runs.log"; : > "$OUT/remedy_skipped.log"
echo "== round 1 ($(elapsed) s)"; round 1

# ---- one ncu run: step 09 with no L2 promotion at K = 4168 ------------------
# The metrics of measure.sh, so oddk_ncu.log's base row (128B) compares.
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ -x "$NCU" ] && [ "$(elapsed)" -lt $((BUDGET - 40)) ]; then
    M="gpu__time_duration.sum,sm__cycles_elapsed.max,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
    echo "== ncu s09_none 4096x4096x4168 ($(elapsed) s)" | tee "$OUT/remedy_ncu.log"
    timeout 40 "$NCU" --metrics "$M" --kernel-name "regex:pingpong_kernel$" --launch-skip 3 --launch-count 1 \
        "$B/s09_none/step09_stream_k" --m 4096 --n 4096 --k 4168 --no-check --iters 3 --warmup 1 2>&1 |
        grep -E "^  [a-zA-Z_]|  (gpu__|sm__|lts__|dram__)" | tee -a "$OUT/remedy_ncu.log"
else
    echo "remedy.sh: ncu skipped (not found, or $(elapsed) s already spent)" | tee "$OUT/remedy_ncu.log"
fi

echo "== round 2 ($(elapsed) s)"; round 2

# ---- summary: per variant and shape, the mean step time, its change against
# the same step's base variant in the same session, and the ratio to cuBLAS.
{ printf "%-10s %-15s %2s %9s %8s %7s  %s\n" variant shape n step_ms vs_base ratio ratios
awk '$4 != "failed" && NF == 6 {
        k = $2 " " $3; n[k]++; ms[k] += $4; r[k] += $6; rs[k] = rs[k] " " $6
        if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
     END {
        for (i = 1; i <= m; i++) {
            k = order[i]; split(k, a, " "); base = substr(a[1], 1, 3) "_base " a[2]
            d = (base in n) ? sprintf("%+7.1f%%", 100 * (ms[k] / n[k]) / (ms[base] / n[base]) - 100) : "      -"
            printf "%-10s %-15s %2d %9.4f %8s %7.3f %s\n", a[1], a[2], n[k], ms[k] / n[k], d, r[k] / n[k], rs[k] } }' \
    "$OUT/remedy_runs.log" | sort -k2,2 -k1,1 -s; } | tee "$OUT/remedy_summary.log"
[ -s "$OUT/remedy_skipped.log" ] && echo "remedy.sh: $(wc -l < "$OUT/remedy_skipped.log") runs skipped for the budget ($OUT/remedy_skipped.log)"
echo "remedy.sh: done in $(elapsed) s; logs in $OUT"

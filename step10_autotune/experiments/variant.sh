# variant.sh — sourced (`. step10_autotune/experiments/variant.sh`) by the experiments
# that build step 10's kernel.cu (or steps 08-09's) with a small patch (smaller_tile,
# coop128, coop128x64, no_cluster, peer05_shape, shareb_all, coop_epilogue, m512_chain,
# m512_order, fixed_cost, small_no_cluster, deeper_ring, decode, pair_alone, padding_box, edge_box, shared_edge,
# sk_scatter, sk_reread, coop128_alone, coop_launch; and step 06's late_coords).  An experiment's own patch is its own; the patch several of them share
# (clusters of one, plain launches), building the copy, refusing to go on without a GPU,
# checking it at odd shapes, timing runs round by round and summing the rounds up are written once, here.

# variant_build NAME SRC BIN [NVCC_FLAG...]: compile SRC (the patched copy) into BIN with
# the harness's objects (made into BIN's folder by make), and step 10 itself beside it
# when REFERENCE=1 (the A/B's other side).  PREBUILT=1: the binaries were built from this
# tree on the machine that carried them, so the device machine skips nvcc.
variant_build() {
    local name=$1 src=$2 bin=$3 b objs; shift 3   # local: dash and bash both have it
    [ "${PREBUILT:-0}" = 1 ] && return 0
    b=$(dirname "$bin")
    objs="$b/common/args.o $b/common/csv.o $b/common/tma.o $b/common/tune_cache.o"
    # shellcheck disable=SC2086  # objs is a list of words
    make -s $objs BUILD="$b" 2>/dev/null
    # shellcheck disable=SC2086  # the same words again
    nvcc -O3 -std=c++17 -Icommon -Istep10_autotune "$@" -DGIT_REV="\"$name\"" -gencode=arch=compute_90a,code=sm_90a \
         "$src" $objs -lcublas -lcudart -ldl -o "$bin" || exit 1
    [ "${REFERENCE:-0}" = 1 ] && { make -s step10 BUILD="$b" || exit 1; }
    return 0
}

# variant_patch_py BUILD NAME [ARG]: step 10's kernel.cu through the Python patch on stdin
# into BUILD/NAME/kernel.cu, then built as BUILD/NAME/step10_autotune.  The patch edits the
# string `s` (the source) and may read ARG as sys.argv[3]; `edit(old, new)` replaces the one
# place `old` stands, and exits naming NAME when it stands in none or several.  A patch exits
# (sys.exit, or through edit) when kernel.cu no longer matches it, and so does this.  Not
# under PREBUILT=1: the scripts call it only where they build.
variant_patch_py() {
    mkdir -p "$1/$2" || exit 1
    python3 -c 'import sys
s = open(sys.argv[1]).read()
def edit(old, new):
    global s
    if s.count(old) != 1:
        sys.exit("%s: kernel.cu changed; the patch no longer applies (%d places read %r)"
                 % (sys.argv[4], s.count(old), old.splitlines()[0] if old.strip() else old))
    s = s.replace(old, new)
exec(sys.stdin.read())
open(sys.argv[2], "w").write(s)' step10_autotune/kernel.cu "$1/$2/kernel.cu" "${3-}" "$2" || exit 1
    variant_build "$2" "$1/$2/kernel.cu" "$1/$2/step10_autotune"
}

# variant_deeper_ring BUILD NAME STAGES [LINE]: step 10 built in BUILD/NAME with a ring of up to STAGES
# slots (-DSMEM_LAYOUT_MAX_STAGES: kernel.cu's cap, and common/smem_layout.h's, give way to it), LINE (a C
# line: deeper_ring/run.sh's one D buffer) first in its copy of kernel.cu.
variant_deeper_ring() {
    mkdir -p "$1/$2" || exit 1
    { [ -z "${4-}" ] || printf '%s\n' "$4"; cat step10_autotune/kernel.cu; } > "$1/$2/kernel.cu" || exit 1
    variant_build "$2" "$1/$2/kernel.cu" "$1/$2/step10_autotune" -DSMEM_LAYOUT_MAX_STAGES="$3"
}

# variant_pairs_alone BUILD NAME: step 10 built in BUILD/NAME with every pair along N alone wherever N
# falls (chooser_cluster without its odd-count test: a copy of chooser.h beside kernel.cu's copy, which
# "chooser.h" finds first); pair_alone/run.sh and judge.sh.  The other side, every pair a pair, needs no
# patch: -DCHOOSER_ALONE_TILES_N=0.
variant_pairs_alone() {
    mkdir -p "$1/$2" && cp step10_autotune/kernel.cu "$1/$2/kernel.cu" || exit 1
    sed 's/ && tn % 2 && tn <= CHOOSER_ALONE_TILES_N ? 1 : c->cluster;/ ? 1 : c->cluster;   \/\* experiment: every pair alone \*\//' \
        step10_autotune/chooser.h > "$1/$2/chooser.h"
    grep -q 'experiment: every pair alone' "$1/$2/chooser.h" ||
        { echo "$2: chooser.h changed; the every-pair-alone patch no longer applies"; exit 1; }
    variant_build "$2" "$1/$2/kernel.cu" "$1/$2/step10_autotune" -diag-suppress=177   # tn unused
}

# variant_plain_launch BUILD NAME: step 10 built in BUILD/NAME with every launch plain, a streamed plan's
# too (the tree launches those cooperatively): ncu cannot launch a cooperative cluster kernel (LaunchFailed,
# session 26), and coop_launch/ times the attribute against this.  A plan's 132 CTAs are resident anyway
# when nothing else runs.  sk_reread/run.sh and coop_launch/run.sh.
variant_plain_launch() {
    variant_patch_py "$1" "$2" <<'PY'
edit("    gemm_launch(P->sk.plan.sk_tiles ? p->launch : P->use_tma_store ? p->lean : &whole, &o, p->grid, P, stream);",
     "    gemm_launch(P->use_tma_store && !P->sk.plan.sk_tiles ? p->lean : &whole, &o, p->grid, P, stream);   /* experiment: no cooperative launch */")
PY
}

# variant_need_gpu NAME BIN: exit 3, the contract's "no suitable GPU", once the build is done.
variant_need_gpu() {
    nvidia-smi > /dev/null 2>&1 || { echo "$1: built $2; no GPU here"; exit 3; }
}

# variant_start USAGE ARG...: an experiment's arguments, BUILD OUT [PART] (PART all unless given), into BUILD, OUT
# and PART, both folders made; without two, USAGE and exit 2 (tile_192, swap_width, model_layers).
variant_start() {
    [ $# -ge 3 ] || { echo "usage: $1" >&2; exit 2; }
    BUILD=$2; OUT=$3; PART=${4:-all}
    mkdir -p "$OUT" "$BUILD"
}

# variant_tree NAME BUILD OUT: step 10 built from the tree into BUILD (make step10; not under PREBUILT=1), the
# exit 3 without a GPU once it is built, then variant_gpu_info: the start of the experiments that run the tree's
# own binary (decode/run.sh, decode/feed_load.sh, model_layers/run.sh).
variant_tree() {
    [ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$2" || exit 1
    variant_need_gpu "$1" "$2/step10_autotune"
    variant_gpu_info "$2" "$3"
}

# variant_gpu_info BUILD OUT: the GPU's name and clocks (OUT/gpu.txt), and what step 10's chooser reads
# from it (OUT/devinfo.txt: SMs, L2 bytes, DRAM GB/s as the harness computes them): the arguments of
# the experiments' CPU tools (fixup_writers/fit_more.c, sk_cap/picks.c).
variant_gpu_info() {
    nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.memory --format=csv > "$2/gpu.txt" 2>&1
    cat > "$1/devinfo.cu" <<'CU'
#include <cstdio>
int main() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); int khz = 0, bits = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0); cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  printf("%d %d %.1f\n", p.multiProcessorCount, p.l2CacheSize, 2.0 * khz * 1e3 * (bits / 8.0) / 1e9); }
CU
    nvcc -o "$1/devinfo" "$1/devinfo.cu" && "$1/devinfo" > "$2/devinfo.txt"
}

# variant_check_grid BIN LOG "SHAPES" "MODES" CONFIG...: every CONFIG in every plan of MODES at
# every shape (MxNxK), checked against cuBLAS, bit for bit (--exact) where K <= 256; one line per
# run appended to LOG: "check SHAPE CONFIG/MODE rc=<exit code> <the harness's check line>".
variant_check_grid() {
    local bin=$1 log=$2 shapes=$3 modes=$4 sh m n k r exact c mode out; shift 4
    for sh in $shapes; do
        m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
        exact=""; [ "$k" -le 256 ] && exact=--exact
        for c in "$@"; do for mode in $modes; do
            out=$(timeout 60 "$bin" --m "$m" --n "$n" --k "$k" --no-cache --config "$c" --mode $mode $exact 2>&1)
            echo "check $sh $c/$mode rc=$? $(echo "$out" | grep -h 'check' | head -1 | sed 's/.*| check/check/')" >> "$log"
        done; done
    done
}

# variant_checks BIN LOG CONFIG...: every CONFIG with both plans at odd shapes (edges in M,
# N and K; a K of one k-tile; a padding tile past M for pairs along M).
variant_checks() {
    local bin=$1 log=$2; shift 2
    variant_check_grid "$bin" "$log" "77x200x136 130x66x8 513x4097x200 1000x1000x1000 1100x4096x4168" "dp sk" "$@"
}

# variant_no_cluster NAME IN OUT: IN (the kernel.cu of step 08, 09 or 10) with clusters of
# one: CLUSTER_SIZE 1 (each CTA loads its whole A and B boxes; in steps 08-09 the "multicast"
# goes to itself, in step 10 since 78cfd39 the loads are plain, as for its 64x64) and no release
# to a partner that is not there.  Step 10's cluster is a template parameter since session 23:
# every MENU_CONFIG entry gets 1 for its cluster (the cooperative 128x256c too).  Exits 1 if IN
# no longer matches.
variant_no_cluster() {
    if grep -q '^    MENU_CONFIG("' "$2"; then   # step 10 since session 23: MENU_CONFIG's fifth argument is the cluster
        sed -e 's/^\(    MENU_CONFIG("[^"]*", [0-9]*, [0-9]*, [0-9]*, \)2,/\11,/' "$2" > "$3"
        grep -q '^    MENU_CONFIG("[^"]*", [0-9]*, [0-9]*, [0-9]*, 1,' "$3" &&
            ! grep -q '^    MENU_CONFIG("[^"]*", [0-9]*, [0-9]*, [0-9]*, 2,' "$3" ||
            { echo "$1: $2 changed; the clusters-of-one patch no longer applies"; exit 1; }
        return 0
    fi
    sed -e 's/^#define CLUSTER_SIZE 2$/#define CLUSTER_SIZE 1/' \
        -e 's/^#define CLUSTER_SIZE (BM \* BN > 64 \* 64 ? 2 : 1)$/#define CLUSTER_SIZE 1/' \
        -e 's/^    if (remote) mbar_arrive_cluster(&empty\[slot\], peer);$/    if (remote \&\& CLUSTER_SIZE > 1) mbar_arrive_cluster(\&empty[slot], peer);/' \
        "$2" > "$3"
    grep -q '^#define CLUSTER_SIZE 1$' "$3" && grep -q 'if (remote && CLUSTER_SIZE > 1) mbar_arrive_cluster' "$3" ||
        { echo "$1: $2 changed; the clusters-of-one patch no longer applies"; exit 1; }
}

# variant_rounds LOG ROUNDS DIR "SHAPES" RUN...: every RUN (a binary of DIR and its flags) at
# every shape (MxNxK), ROUNDS rounds, the runs of a shape one after the other, --no-check;
# one line per process appended to LOG: "r<round> <shape> <RUN>: " and the harness's
# result line from stages= on (the step's time and TFLOP/s, cuBLAS's, the ratio, the clock).
variant_rounds() {
    local log=$1 rounds=$2 dir=$3 shapes=$4 r sh m n k rest run; shift 4   # local: dash and bash both have it
    for r in $(seq 1 "$rounds"); do
        for sh in $shapes; do
            m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
            for run in "$@"; do
                # shellcheck disable=SC2086  # run is a binary and its flags
                echo "r$r $sh $run: $("$dir"/$run --m "$m" --n "$n" --k "$k" --no-check 2>&1 | grep ratio | sed 's/.*stages=/stages=/' | cut -c1-110)" >> "$log"
            done
        done
    done
}

# variant_rotated_rounds LOG ROUNDS DIR "SHAPES" RUN...: variant_rounds ROUNDS times, one round at
# a time under a "== round r" line, the runs' order rotated by one each round (A B, then B A for
# two), so no run always follows the same one.
variant_rotated_rounds() {
    local log=$1 rounds=$2 dir=$3 shapes=$4 r first; shift 4   # local: dash and bash both have it
    for r in $(seq 1 "$rounds"); do
        echo "== round $r" >> "$log"
        variant_rounds "$log" 1 "$dir" "$shapes" "$@"
        first=$1; shift; set -- "$@" "$first"
    done
}

# variant_tune BIN LOG SHAPE...: --tune (--no-cache --no-check) at every shape (MxNxK): each
# process whole in LOG's folder as <BIN's name>_<shape>.log, its tune: lines and result line
# appended to LOG under "== <shape> rc=<exit code>".
variant_tune() {
    local bin=$1 log=$2 sh m n k r one; shift 2   # local: dash and bash both have it
    for sh in "$@"; do
        m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
        one="$(dirname "$log")/$(basename "$bin")_$sh.log"
        "$bin" --m "$m" --n "$n" --k "$k" --no-cache --no-check --tune > "$one" 2>&1
        { echo "== $sh rc=$?"; grep -h "^tune:\|ratio" "$one" | cut -c1-160; } >> "$log"
    done
}

# variant_forced_rounds DIR LOG PAIRS: for each line "SHAPE CONFIG/PLAN" of the file PAIRS, 3 rotated rounds of
# DIR/step10_autotune's own pick against that candidate forced (--config, --mode), appended to LOG; an sk_l2
# candidate (auto's plan, which --mode cannot name) is skipped.  sk_reread's head_to_head.sh and misses_h2h.sh.
variant_forced_rounds() {
    local dir=$1 log=$2 sh cand c m   # local: dash and bash both have it
    while read -r sh cand; do
        c=${cand%/*}; m=${cand#*/}
        [ "$m" = sk_l2 ] && { echo "$sh: $cand is not forceable: skipped"; continue; }
        variant_rotated_rounds "$log" 3 "$dir" "$sh" "step10_autotune --no-cache" "step10_autotune --config $c --mode $m --no-cache"
    done < "$3"
}

# variant_forced_medians LOG: per shape of variant_forced_rounds' LOG, "SHAPE MODEL_MS FORCED_MS", the medians of
# the two runs' times.
variant_forced_medians() {
    variant_times_summary "$1" | awk -F'[|:]' '{ n = split($3, t, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && t[j] + 0 < t[j - 1] + 0; j--) { x = t[j]; t[j] = t[j - 1]; t[j - 1] = x }
        sh = $1; gsub(/ /, "", sh); if ($2 ~ /--config/) f[sh] = t[int((n + 1) / 2)]; else m[sh] = t[int((n + 1) / 2)] }
        END { for (s in m) if (s in f) print s, m[s], f[s] }' | sort
}

# variant_rounds_summary LOG OUT: LOG's rounds (variant_rounds' lines) as one line per shape and run,
# "SHAPE | RUN --config C --mode M:: ratio ratio ...", the rounds in order, sorted into OUT and printed.
variant_rounds_summary() {
    awk '/^r[0-9]/ { sh = $2; b = $3; for (i = 4; i <= NF; i++) { if ($i ~ /^--(config|mode)$/) b = b " " $i " " $(i + 1);
                     if ($i == "ratio") v = $(i + 1) }; k = sh " | " b; r[k] = r[k] " " v } END { for (k in r) print k ":" r[k] }' \
        "$1" | sort > "$2"
    cat "$2"
}

# variant_times_summary LOG: LOG's rounds (variant_rounds' lines) as one line per shape and run, "SHAPE | RUN: t t ...",
# the step's time (ms) of each round in order, --no-cache left out of RUN; sorted by run, then by M.
variant_times_summary() {
    awk '/^r[0-9]/ { t = ""; for (i = 1; i <= NF; i++) if ($i == "ms" && t == "") t = $(i - 1)
                     c = $0; sub(/^r[0-9]+ [^ ]+ /, "", c); sub(/ --no-cache/, "", c); sub(/:.*/, "", c)
                     k = $2 " | " c; v[k] = v[k] " " t } END { for (k in v) print k ":" v[k] }' "$1" | sort -t'|' -k2,2 -k1,1n
}

# variant_ratios_summary LOG: LOG's rounds as one line per shape and binary (its folder, or its name when it
# has none), "SHAPE BINARY: r r ...", the ratio to cuBLAS of each round in order; sorted by M, then N.
variant_ratios_summary() {
    awk '/^r[0-9]/ { r = ""; for (i = 1; i <= NF; i++) if ($i == "ratio") r = $(i + 1); b = $3; sub(/\/.*/, "", b); sub(/:$/, "", b)
                     v[$2 " " b] = v[$2 " " b] " " r } END { for (k in v) print k ":" v[k] }' "$1" | sort -t x -k1,1n -k2,2n
}

# VARIANT_OWNER_LOOP: the stream-K owner's loop in step 10's fixup_add_partials since session 17 (its
# writers in batches of 32), the text the fixup experiments (fixup_batch, fixup_writers) replace: read
# from kernel.cu itself (its first line to the loop's closing brace, the newline after it kept), so the
# patches' anchor cannot drift from the tree; empty, and the patches refuse, if that loop is gone.
VARIANT_OWNER_LOOP="$(awk '/^    for \(int v0 = unit \+ 1; v0 <= last; v0 \+= 32\) \{$/ { on = 1 }
                           on { print } on && /^    \}$/ { exit }' step10_autotune/kernel.cu)
"

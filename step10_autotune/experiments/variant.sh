# variant.sh — sourced (`. step10_autotune/experiments/variant.sh`) by the experiments
# that build step 10's kernel.cu with a small patch (smaller_tile, coop128, no_cluster,
# shareb_all).  The patch itself is each experiment's; building the copy, refusing to go
# on without a GPU, and checking it at odd shapes are written once, here.

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

# variant_need_gpu NAME BIN: exit 3, the contract's "no suitable GPU", once the build is done.
variant_need_gpu() {
    nvidia-smi > /dev/null 2>&1 || { echo "$1: built $2; no GPU here"; exit 3; }
}

# variant_checks BIN LOG CONFIG...: every CONFIG with both plans at odd shapes (edges in M,
# N and K; a K of one k-tile; a padding tile past M for pairs along M), checked against
# cuBLAS, bit for bit (--exact) where K <= 256; one line per run appended to LOG.
variant_checks() {
    local bin=$1 log=$2 sh m n k r exact c mode out; shift 2
    for sh in 77x200x136 130x66x8 513x4097x200 1000x1000x1000 1100x4096x4168; do
        m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
        exact=""; [ "$k" -le 256 ] && exact=--exact
        for c in "$@"; do for mode in dp sk; do
            out=$(timeout 60 "$bin" --m "$m" --n "$n" --k "$k" --no-cache --config "$c" --mode $mode $exact 2>&1)
            echo "check $sh $c/$mode rc=$? $(echo "$out" | grep -h 'check' | head -1 | sed 's/.*| check/check/')" >> "$log"
        done; done
    done
}

# cupti_fit.sh — sourced (`. "$(dirname "$0")/cupti_fit.sh"`) by fixed_cost's scripts (run.sh,
# cluster_arrive.sh, param_warm.sh, prefetch_place.sh, store_tail.sh, stamps.sh, small_squares.sh,
# l2_warm.sh, param_layout.sh, param_spread.sh, early_walk.sh, launch_attrs.sh, launch_floor.sh,
# ring_refill.sh, cold_code.sh, epi_group.sh, epi_stsm.sh, kloop_split.sh): kernels timed by
# CUPTI (../launch_gap/kernel_times.c, an injection library), the fixed cost per launch fitted
# from their run times, and the tree against patched builds (fixed_cost_ab), written once here.

# cupti_lib OUT: build OUT/kernel_times.so (needs CUPTI from the toolkit beside nvcc).
cupti_lib() {
    local cuda   # local: dash and bash both have it
    cuda=$(dirname "$(dirname "$(command -v nvcc)")")
    cc -O2 -shared -fPIC -I"$cuda/include" "$(dirname "$0")/../launch_gap/kernel_times.c" \
       -L"$cuda/lib64" -lcupti -o "$1/kernel_times.so"
}

# cupti_sweep OUT BUILD RUN...: each RUN (a binary under BUILD and its flags) once at
# 512 x 4096 x K for K = 64, 256, 1024, 4096 (SWEEP_M, SWEEP_N: another M x N) under CUPTI; the median run time of the step's
# kernel and of cuBLAS's in that process (../launch_gap/launch_gap.awk), one line each,
# "<binary> <step|cublas> <K> <us>", in OUT/runs.txt.  Exits 1 if the library does not build.
cupti_sweep() {
    local out=$1 build=$2 k run   # local: dash and bash both have it
    shift 2
    cupti_lib "$out" || exit 1
    : > "$out/runs.txt"
    for k in 64 256 1024 4096; do
        for run in "$@"; do
            # shellcheck disable=SC2086  # run is a binary and its flags
            CUDA_INJECTION64_PATH="$out/kernel_times.so" KERNEL_TIMES_OUT="$out/k.csv" \
              "$build"/$run --m "${SWEEP_M:-512}" --n "${SWEEP_N:-4096}" --k $k --no-check > "$out/one.log" 2>&1
            awk -F, -f "$(dirname "$0")/../launch_gap/launch_gap.awk" "$out/k.csv" |
              awk -v b="${run%% *}" -v k=$k '$1 == "step" || $1 == "cublas" { printf "%s %s %d %s\n", b, $1, k, $3 }' \
              >> "$out/runs.txt"
        done
    done
    rm -f "$out/k.csv" "$out/one.log" "$out/kernel_times.so"
}

# cupti_fit OUT: least squares of OUT/runs.txt's times on the k-tiles, t = a + b * K / 64, per
# binary and side: a the fixed cost of a launch, b the time per k-tile; OUT/fit.txt, printed too.
cupti_fit() {
    awk '{ key = $1 " " $2; x = $3 / 64; n[key]++; sx[key] += x; sy[key] += $4; sxx[key] += x * x; sxy[key] += x * $4 }
         END { for (key in n) { b = (n[key] * sxy[key] - sx[key] * sy[key]) / (n[key] * sxx[key] - sx[key] * sx[key])
                                a = (sy[key] - b * sx[key]) / n[key]
                                printf "%-34s a = %6.2f us  b = %6.4f us per k-tile  (%d K)\n", key, a, b, n[key] } }' \
        "$1/runs.txt" | sort | tee "$1/fit.txt"
}

# fixed_cost_ab OUT BUILD "SHAPES" VARIANT...: the tree's step 10 (BUILD/step10_autotune) against
# each VARIANT (a folder of BUILD holding a patched step10_autotune): cupti_sweep and cupti_fit
# of all of them at 128x128/dp, then 3 rounds of the model's picks at SHAPES (MxNxK), alternated
# with the order rotated (OUT/rounds.txt; variant.sh's variant_rotated_rounds, sourced first).
fixed_cost_ab() {
    local out=$1 build=$2 shapes=$3 f="--no-cache --config 128x128 --mode dp" n v   # local: dash and bash both have it
    shift 3
    n=$#
    for v in "$@"; do set -- "$@" "$v/step10_autotune"; done
    shift "$n"
    n=$#
    for v in "$@"; do set -- "$@" "$v $f"; done
    shift "$n"
    cupti_sweep "$out" "$build" "step10_autotune $f" "$@"
    cupti_fit "$out"
    n=$#
    for v in "$@"; do set -- "$@" "${v%% *} --no-cache"; done
    shift "$n"
    : > "$out/rounds.txt"
    variant_rotated_rounds "$out/rounds.txt" 3 "$build" "$shapes" "step10_autotune --no-cache" "$@"
}

# cupti_rounds OUT BUILD "SHAPES" FLAGS RUN...: each RUN (a binary under BUILD and its own flags; FLAGS
# follow them all) once per shape (MxNxK) and round, 3 rounds with the runs' order rotated at every
# shape, under CUPTI; per process the mean and the median run time of the step's kernel and of
# cuBLAS's (../launch_gap/launch_gap.awk: CUPTI's stamps come in 256 ns steps, the mean resolves
# less), one line each, "r<round> <shape> <run> <step|cublas> <mean us> <median us>", in
# OUT/runs.txt; a run is named by its folder ("tree" for BUILD's own binary) and flags.  Then
# OUT/summary.txt, printed too: per shape, run and side, the mean over the rounds and each
# round's.  Exits 1 if the library does not build.
cupti_rounds() {
    local out=$1 build=$2 shapes=$3 flags=$4 r sh m n k rest run name first   # local: dash and bash both have it
    shift 4
    cupti_lib "$out" || exit 1
    : > "$out/runs.txt"
    for r in 1 2 3; do
        for sh in $shapes; do
            m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
            for run in "$@"; do
                name=$(echo "$run" | sed "s|^step10_autotune|tree|; s|/step10_autotune||" | tr -s ' ' | sed 's/ $//; s/ /_/g')
                # shellcheck disable=SC2086  # run and flags are words
                CUDA_INJECTION64_PATH="$out/kernel_times.so" KERNEL_TIMES_OUT="$out/k.csv" \
                  "$build"/$run $flags --m "$m" --n "$n" --k "$k" > "$out/one.log" 2>&1 ||
                  echo "r$r $sh $name: rc=$?" >> "$out/runs.txt"
                awk -F, -f "$(dirname "$0")/../launch_gap/launch_gap.awk" "$out/k.csv" |
                  awk -v r="$r" -v sh="$sh" -v run="$name" \
                    '$1 == "step" || $1 == "cublas" { printf "r%s %s %-22s %-6s %s %s\n", r, sh, run, $1, $4, $3 }' >> "$out/runs.txt"
            done
            first=$1; shift; set -- "$@" "$first"
        done
    done
    rm -f "$out/k.csv" "$out/one.log" "$out/kernel_times.so"
    sort -k2,2 -k3,3 -k4,4 "$out/runs.txt" |
      awk '$1 ~ /^r/ && NF == 6 { key = $2 " " $3 " " $4; n[key]++; s[key] += $5; v[key] = v[key] " " $5 }
           END { for (k in n) printf "%-44s mean %6.3f us  (rounds:%s)\n", k, s[k] / n[k], v[k] }' |
      sort > "$out/summary.txt"
    cat "$out/summary.txt"
}

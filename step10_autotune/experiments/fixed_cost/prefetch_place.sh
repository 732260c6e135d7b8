#!/bin/sh
# fixed_cost/prefetch_place.sh BUILD OUT: where should the tensor maps' prefetch go?  Step
# 10 issues it at kernel entry (thread 0, before barrier init: session 8, NOTES "Small
# shapes"); steps 07-09 in the producer, after the start-up barrier; and at 09c70b0 step
# 10's first load still issues ~1.1 us after its first acquire where step 07's takes
# ~0.4 us (logs/at_09c70b0/stamps.txt).  Builds step 10 with the prefetch in the producer
# as steps 07-09 have it (BUILD/pf_producer/) and with none (BUILD/pf_none/), then on the
# GPU against the tree's build: run.sh's fixed-cost fit for the three, and 3 rounds
# alternated (the order rotated) at five shapes.  PREBUILT=1 skips nvcc.  Exits 3 without
# a GPU.
set -u
BUILD=${1:?usage: prefetch_place.sh BUILD OUT}; OUT=${2:?usage: prefetch_place.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/pf_producer" "$BUILD/pf_none"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in producer none; do
    python3 - step10_autotune/kernel.cu "$BUILD/pf_$v/kernel.cu" "$v" <<'PY' || exit 1
import sys
s = open(sys.argv[1]).read()
early = '    if (threadIdx.x == 0) { tma_prefetch_map(&P->map_a); tma_prefetch_map(&P->map_b); }'
loop = '    for (work_walk w = walk_start(P); walk_valid(P, &w); walk_next(P, &w)) {\n        const work_unit u = walk_unit(P, &w);\n        producer_load_tile'
if s.count(early) != 1 or s.count(loop) != 1:
    sys.exit("prefetch_place: kernel.cu changed; the patch no longer applies")
i = s.index(early); j = s.index('\n', i) + 1
s = s[:i] + s[j:]
if sys.argv[3] == "producer":
    s = s.replace(loop, '    tma_prefetch_map(&P->map_a);   /* experiment: where steps 07-09 have it */\n    tma_prefetch_map(&P->map_b);\n' + loop)
open(sys.argv[2], "w").write(s)
PY
    variant_build "pf_$v" "$BUILD/pf_$v/kernel.cu" "$BUILD/pf_$v/step10_autotune"
  done
fi
variant_need_gpu prefetch_place "$BUILD/pf_none/step10_autotune"
F="--no-cache --config 128x128 --mode dp"
cupti_sweep "$OUT" "$BUILD" "step10_autotune $F" "pf_producer/step10_autotune $F" "pf_none/step10_autotune $F"
cupti_fit "$OUT"
L=$OUT/rounds.txt; : > "$L"
variant_rotated_rounds "$L" 3 "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" \
  "step10_autotune --no-cache" "pf_producer/step10_autotune --no-cache" "pf_none/step10_autotune --no-cache"

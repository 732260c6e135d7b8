#!/bin/sh
# fixed_cost/store_tail.sh BUILD OUT: must a CTA wait for its last TMA stores to LAND before
# it exits?  Steps 06-10 end each consumer's walk with `cp.async.bulk.wait_group 0`
# (tma_store_wait_all): the leader waits until D's last sub-tiles are written to global
# memory.  The shared memory only needs them READ (`wait_group.read 0`), which is how
# CUTLASS's epilogue ends (PipelineTmaStore::producer_tail, tma_store_wait<0>); the writes
# are the grid's, and the kernel's completion orders them before the next kernel in the
# stream.  At small shapes every CTA's last epilogue is on the critical path, so the wait
# for the write round trip would be part of the fixed cost per launch.
# Builds step 10 with the end wait `.read` (BUILD/st_read/) and with that and the tensor
# maps' prefetch back in the producer, as steps 07-09 have it (BUILD/st_read_pf/; at entry
# or in the producer measured the same: prefetch_place.sh), then on the GPU against the
# tree's build: the fixed-cost fit (CUPTI, 512 x 4096 x K), 3 rounds alternated with the
# order rotated at eight shapes, and both variants checked at odd shapes, every
# configuration and plan.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: store_tail.sh BUILD OUT}; OUT=${2:?usage: store_tail.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/st_read" "$BUILD/st_read_pf"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in st_read st_read_pf; do
    python3 - step10_autotune/kernel.cu "$BUILD/$v/kernel.cu" "$v" <<'PY' || exit 1
import sys
s = open(sys.argv[1]).read()
tail = 'if (cc->leader && P->use_tma_store) tma_store_wait_all();'
early = '    if (threadIdx.x == 0) { tma_prefetch_map(&P->map_a); tma_prefetch_map(&P->map_b); }'
loop = '    for (work_walk w = walk_start(P); walk_valid(P, &w); walk_next(P, &w)) {\n        const work_unit u = walk_unit(P, &w);\n        producer_load_tile'
if s.count(tail) != 1:
    sys.exit("store_tail: kernel.cu changed; the patch no longer applies")
s = s.replace(tail, 'if (cc->leader && P->use_tma_store) tma_store_wait_read(0);   /* experiment: read only */')
if sys.argv[3] == "st_read_pf":
    if s.count(early) != 1 or s.count(loop) != 1:
        sys.exit("store_tail: kernel.cu changed; the prefetch patch no longer applies")
    i = s.index(early); j = s.index('\n', i) + 1
    s = s[:i] + s[j:]
    s = s.replace(loop, '    tma_prefetch_map(&P->map_a);   /* experiment: where steps 07-09 have it */\n    tma_prefetch_map(&P->map_b);\n' + loop)
open(sys.argv[2], "w").write(s)
PY
    variant_build "$v" "$BUILD/$v/kernel.cu" "$BUILD/$v/step10_autotune"
  done
fi
variant_need_gpu store_tail "$BUILD/st_read/step10_autotune"
F="--no-cache --config 128x128 --mode dp"
cupti_sweep "$OUT" "$BUILD" "step10_autotune $F" "st_read/step10_autotune $F" "st_read_pf/step10_autotune $F"
cupti_fit "$OUT"
L=$OUT/rounds.txt; : > "$L"
variant_rotated_rounds "$L" 3 "$BUILD" "512x512x512 1024x1024x1024 768x768x768 512x4096x4096 1024x4096x4096 2048x2048x2048 4096x4096x4096 256x4096x4096" \
  "step10_autotune --no-cache" "st_read/step10_autotune --no-cache" "st_read_pf/step10_autotune --no-cache"
for v in st_read st_read_pf; do
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks_$v.txt" 64x128 128x128 128x192 128x256c
  echo "$v checks ok: $(grep -c 'check ok' "$OUT/checks_$v.txt") of $(wc -l < "$OUT/checks_$v.txt")"
done

#!/bin/sh
# fixed_cost/prefetch_place.sh BUILD OUT: where should the tensor maps' prefetch go?  From
# session 8 to session 10 step 10 issued it at kernel entry (thread 0, before barrier init:
# NOTES "Small shapes"); steps 07-09 issue it in the producer, after the start-up barrier;
# and at 09c70b0 step 10's first load still issued ~1.1 us after its first acquire where
# step 07's takes ~0.4 us (logs/at_09c70b0/stamps.txt).  Builds step 10 with the prefetch at
# kernel entry (BUILD/pf_entry/) and with none (BUILD/pf_none/), then on the GPU against the
# tree's build (the prefetch in the producer, since session 11): the fixed-cost fit for the
# three, and 3 rounds alternated (the order rotated) at five shapes.  The log in
# logs/prefetch_place/ came from this script's first form, when the tree had it at entry:
# there "step10_autotune" is the entry build and "pf_producer/" the producer's.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: prefetch_place.sh BUILD OUT}; OUT=${2:?usage: prefetch_place.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in entry none; do
    variant_patch_py "$BUILD" "pf_$v" "$v" <<'PY'
producer = '    tma_prefetch_map(&P->map_a);\n    tma_prefetch_map(&P->map_b);\n'
init = '    barriers_init<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&sm, P->stages);\n'
if s.count(producer) != 1 or s.count(init) != 1:
    sys.exit("prefetch_place: kernel.cu changed; the patch no longer applies")
s = s.replace(producer, '')
if sys.argv[3] == "entry":
    s = s.replace(init, '    if (threadIdx.x == 0) { tma_prefetch_map(&P->map_a); tma_prefetch_map(&P->map_b); }   /* experiment: at entry */\n' + init)
PY
  done
fi
variant_need_gpu prefetch_place "$BUILD/pf_none/step10_autotune"
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" pf_entry pf_none

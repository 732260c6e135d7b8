#!/bin/sh
# fixed_cost/launch_attrs.sh BUILD OUT: do the kernel's launch attributes move the fixed cost?
#
# In the timelines of fixed_cost/stamps.sh, a launch of step 10 spends 1.6-1.9 us outside its
# trace (CUPTI's run time less the span from the first CTA's entry to the last one's end),
# and the same kernel in clusters of one 1.2-1.6 us (logs/at_09c70b0/stamps.txt): part of
# the cost per launch is the cluster launch itself.  Two function attributes the step leaves
# at their defaults could change it:
#   spread, loadbal:  cudaFuncAttributeClusterSchedulingPolicyPreference, Spread (1) or
#                     LoadBalancing (2), where the default (0) lets the driver choose;
#   carve100:         cudaFuncAttributePreferredSharedMemoryCarveout 100 (all of the unified
#                     L1 as shared memory; the default lets the driver size it per launch).
# Each build sets its attribute on the kernels the chosen configuration launches here (the full one, its
# traced copy and, since session 21, the lean one) in
# config_prepare; nothing in the kernels changes.  Then the fixed-cost fit and 3 rotated
# rounds at five shapes against the tree's build (cupti_fit.sh's fixed_cost_ab) and the
# checks at odd shapes.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: launch_attrs.sh BUILD OUT}; OUT=${2:?usage: launch_attrs.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in spread loadbal carve100; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
at = '    p->lean = m->lean[which];\n'
if s.count(at) != 1:
    sys.exit("launch_attrs: kernel.cu changed; the patch no longer applies")
attr = {'spread': 'cudaFuncAttributeClusterSchedulingPolicyPreference, cudaClusterSchedulingPolicySpread',
        'loadbal': 'cudaFuncAttributeClusterSchedulingPolicyPreference, cudaClusterSchedulingPolicyLoadBalancing',
        'carve100': 'cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared'}[sys.argv[3]]
s = s.replace(at, at + '''    /* experiment (fixed_cost/launch_attrs.sh) */
    CUDA_CHECK(cudaFuncSetAttribute(p->launch->kernel, ATTR));
    CUDA_CHECK(cudaFuncSetAttribute(p->launch->kernel_traced, ATTR));
    CUDA_CHECK(cudaFuncSetAttribute(p->lean->kernel, ATTR));
'''.replace('ATTR', attr))
PY
  done
fi
variant_need_gpu launch_attrs "$BUILD/carve100/step10_autotune"
: > "$OUT/checks.txt"
for v in spread loadbal carve100; do
  echo "== $v" >> "$OUT/checks.txt"
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks.txt" 64x128 128x256c
done
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" spread loadbal carve100

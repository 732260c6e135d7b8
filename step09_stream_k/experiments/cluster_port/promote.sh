#!/bin/sh
# promote.sh — make the cluster port step 09 (run from the repository root,
# in a clean checkout; undo with git checkout).  It replaces
# step09_stream_k/kernel.cu with the port's, makes the port's plan release
# experiments/repeat_check.cu's default,
# and applies the port's test changes (tests.patch: the stream_k cases'
# comments and one more case, 640 x 640 x 8192, where rank 1's padding tile is
# streamed; the sanitizer entry's comment).  Then build and run the one GPU
# call (cluster_port.sh, ~2.5 minutes on an H100):
#   sh step09_stream_k/experiments/cluster_port/promote.sh
#   make && make DEBUG=1 step09 && make build/tests/run_tests
#   nvcc -O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a \
#        step09_stream_k/experiments/repeat_check.cu build/common/{args,csv,tma}.o \
#        -lcublas -lcudart -ldl -o build/step09_repeat_check
#   sh step09_stream_k/experiments/cluster_port/cluster_port.sh build "$OUT"
set -eu
P=$(dirname "$0")
cp "$P/kernel.cu" step09_stream_k/kernel.cu
sed -i 's|^#define STEP09_PLAN_RELEASE gemm_plan_free$|#define STEP09_PLAN_RELEASE gemm_cluster_release|' \
    step09_stream_k/experiments/repeat_check.cu
git apply "$P/tests.patch"
echo "promoted: step09_stream_k/kernel.cu is the cluster port; make diff STEP=9 shows it against step 08"

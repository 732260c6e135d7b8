#!/bin/bash
# proto08_build.sh — builds (on the workstation) what phaseA.sh runs on the GPU.
set -e
cd "$(dirname "$0")/../.."
make -s build/step07_pingpong build/common/args.o build/common/csv.o build/common/tma.o
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"proto\" -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
P=step08_cluster_multicast/experiments/proto08.cu
mkdir -p build/p
$NV step08_cluster_multicast/experiments/probe_cluster.cu -o build/probe_cluster &
$NV -DCLUSTER=1 $P $L -o build/p/c1 &
$NV -DCLUSTER=2 $P $L -o build/p/c2B &
wait
$NV -DCLUSTER=2 -DMCAST_A=1 $P $L -o build/p/c2A &
$NV -DCLUSTER=2 -DREL_CLUSTER=1 $P $L -o build/p/c2Brel &
$NV -DCLUSTER=2 -DCOURSE_DEBUG $P $L -o build/p/c2Bdbg &
wait

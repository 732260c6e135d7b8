#!/bin/sh
# gaps_ncu.sh — where do the two gaps step 09 leaves come from (NOTES.md,
# "Goals")?  It printed logs/gaps_ncu/ in session 3 (as session3/call6.sh): ncu on
# the GEMM kernels of one run each (step 09's pingpong_kernel, cuBLAS's kernel
# in the same process, CUTLASS's stream-K peer) at 1024 x 4096 x 14336 (the
# one shape below CUTLASS) and 2048^3 (0.92 of cuBLAS).  ncu holds the clock
# at base, so compare cycles and shares, not times.
#   sh step09_stream_k/experiments/gaps_ncu.sh build "$OUT"
B=${1:-build}
O=${2:-/tmp}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread"
for s in 1024x4096x14336 2048x2048x2048; do
    m=${s%%x*}; r=${s#*x}; n=${r%%x*}; k=${r#*x}
    for b in step09_stream_k peers/cutlass_step09; do
        f=$O/ncu_${s}_$(basename $b).txt
        timeout 150 $NCU --metrics $M --kernel-name regex:"pingpong_kernel|nvjet|xmma|gemm|Gemm|device_kernel|cutlass" \
            --launch-count 4 $B/$b --m $m --n $n --k $k --iters 1 --warmup 1 --no-check >"$f" 2>&1
        echo "$s $b ncu rc=$?"
    done
done

#!/bin/sh
# call1.sh — session 3's first GPU call: the cluster port's verification
# (cluster_port.sh), then what the streamed shape is bound by: ncu on step 09
# (port, auto), the step-07-based build (build/step09_old) and cuBLAS at
# 1024 x 1024 x 14336, and the two builds alternated with cuBLAS.
#   sh step09_stream_k/experiments/session3/call1.sh build "$OUT"
B=${1:-build}
O=${2:-/tmp}
sh step09_stream_k/experiments/cluster_port/cluster_port.sh "$B" "$O"
L=$O/call1.log
say() { echo "$*" | tee -a "$L"; }
say "# old (step-07-based) vs port, alternated, 1024x1024x14336 auto"
for rep in 1 2 3; do
  for b in step09_old step09_stream_k; do
    out=$(timeout 60 $B/$b --m 1024 --n 1024 --k 14336 --no-check 2>&1)
    say "$b: $(echo "$out" | grep -o 'ratio [0-9.]*') $(echo "$out" | grep -o '[0-9.]* ms' | head -2 | tr '\n' ' ')"
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__cycles_active.avg,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__registers_per_thread,l1tex__m_xbar2l1tex_read_bytes.sum,gpc__cycles_elapsed.max,sm__throughput.avg.pct_of_peak_sustained_elapsed"
for b in step09_stream_k step09_old; do
  say "# ncu $b 1024x1024x14336 (all kernels of one --iters 1 run)"
  timeout 120 $NCU --metrics $M --launch-count 12 $B/$b --m 1024 --n 1024 --k 14336 --iters 1 --warmup 1 --no-check >"$O/ncu_$b.txt" 2>&1
  say "ncu rc=$?"
done
for b in step09_stream_k; do
  timeout 120 $NCU --set full --kernel-name regex:"pingpong_kernel|gemm|xmma|sm90" --launch-count 4 $B/$b --m 1024 --n 1024 --k 14336 --iters 1 --warmup 1 --no-check >"$O/ncu_full_$b.txt" 2>&1
  say "ncu full rc=$?"
done
say "call1 done"

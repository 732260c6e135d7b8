# plots/results/odd_k/measure.sh — what docs/hopper_ptx.md's section "K not a
# multiple of 64" cites (oddk_time.log, oddk_ncu.log): run on the GPU machine
# from the repository root as `bash plots/results/odd_k/measure.sh`, with $OUT
# a folder for its logs.  Builds the steps, times steps 06 and 09 against
# cuBLAS (the fair harness) at an aligned K and K = 8 (mod 64) beside it, and
# reads L2 and DRAM counters of step 09's kernel and cuBLAS's (ncu, one
# launch each, the clock ncu fixes).
set -o pipefail
make -j16 all > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
M="gpu__time_duration.sum,sm__cycles_elapsed.max,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
echo "== timing (fair harness), ratio to cuBLAS" | tee $OUT/oddk_time.log
for sh in 4096,4096,4096 4096,4096,4168 4096,4096,4160 4000,3000,4160 4000,3000,4168; do set -- $(echo $sh | tr , ' ')
  for s in step06_persistent step09_stream_k; do echo "$s $1x$2x$3 $(build/$s --m $1 --n $2 --k $3 --no-check | grep -o 'ratio [0-9.]*')"; done; done 2>&1 | tee -a $OUT/oddk_time.log
for sh in 4096,4096,4096 4096,4096,4168 4000,3000,4160 4000,3000,4168; do set -- $(echo $sh | tr , ' ')
  for k in "regex:pingpong_kernel$" "regex:nvjet|sm90_xmma|gemm"; do
    echo "== ncu $1x$2x$3 $k" >> $OUT/oddk_ncu.log
    timeout 60 ncu --metrics $M --kernel-name "$k" --launch-skip 3 --launch-count 1 build/step09_stream_k --m $1 --n $2 --k $3 --no-check --iters 3 --warmup 1 2>&1 | grep -E "^  [a-zA-Z_]|  (gpu__|sm__|lts__|dram__)" >> $OUT/oddk_ncu.log
  done; done
cat $OUT/oddk_ncu.log | cut -c1-150

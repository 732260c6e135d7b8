set -o pipefail
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader
echo "== A/A (hold + counterbalanced)"
sh tests/harness_aa.sh build/gnew/step09_stream_k "512x512x512 1024x1024x1024 2048x2048x2048 8192x8192x8192" 2>&1 | tee $OUT/aa.log
sh tests/harness_aa.sh build/gnew/step06_persistent "512x512x512 2048x2048x2048" 2>&1 | tee -a $OUT/aa.log
echo "== ncu cycles"
for s in step06_persistent step08_cluster_multicast; do for b in build/guard_old3 build/gnew; do
  echo "$b/$s"; ncu --metrics sm__cycles_elapsed.max,gpc__cycles_elapsed.max --kernel-name regex:"persistent_kernel$|pingpong_kernel$" --launch-skip 4 --launch-count 3 $b/$s --m 4096 --n 14336 --k 4096 --no-check --iters 4 --warmup 2 2>&1 | grep -E "cycles_elapsed" ; done; done | tee $OUT/ncu_cycles.log
echo "== guard"
ROUNDS=3 sh tests/refactor_guard.sh build/guard_old3 build/gnew $OUT/g 2>&1 | tail -26
cp $OUT/g/ab_runs.txt $OUT/g/ab_table.txt $OUT/; rm -rf $OUT/g

set -o pipefail
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader
make -j16 all > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "== A/A (hold + counterbalanced + sets in launch order)"
bash tests/harness_aa.sh build/step09_stream_k "512x512x512 1024x1024x1024 2048x2048x2048 8192x8192x8192" 2>&1 | tee $OUT/aa.log
bash tests/harness_aa.sh build/step06_persistent "512x512x512 2048x2048x2048" 2>&1 | tee -a $OUT/aa.log
echo "== repeat check"
nvcc -O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a step09_stream_k/experiments/repeat_check.cu build/common/args.o build/common/csv.o build/common/tma.o -lcublas -lcudart -ldl -o build/step09_repeat_check && { build/step09_repeat_check 1024 1024 14336 2 30; build/step09_repeat_check 1000 1001 2048 2 30; build/step09_repeat_check 1024 1024 14336 0 30; } 2>&1 | tee $OUT/repeat.log
echo "== make test"
( time make test ) > $OUT/tests.log 2>&1; echo "make test rc $?"; tail -8 $OUT/tests.log

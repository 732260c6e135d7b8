set -o pipefail
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader
make -j16 all > $OUT/build.log 2>&1 && make -j16 DEBUG=1 all >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "== A/A (hold + counterbalanced + sets of A, B and D in launch order)"
bash tests/harness_aa.sh build/step09_stream_k "512x512x512 1024x1024x1024 2048x2048x2048 8192x8192x8192" 2>&1 | tee $OUT/aa.log
bash tests/harness_aa.sh build/step06_persistent "512x512x512 2048x2048x2048" 2>&1 | tee -a $OUT/aa.log
echo "== sanitize 01-07"
( time SANITIZE_STEPS="01 02 03 04 05 06 07" SANITIZE_EXTRAS=0 GIT_REV=$(cat .rev) sh tests/sanitize.sh build $OUT/sanitize.md ) > $OUT/sanitize.log 2>&1; echo "rc $?"; tail -30 $OUT/sanitize.md

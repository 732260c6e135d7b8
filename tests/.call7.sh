set -o pipefail
make -j16 all > $OUT/build.log 2>&1 && make -j16 DEBUG=1 all >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "== A/A, random order per round"
bash tests/harness_aa.sh build/step09_stream_k "512x512x512 1024x1024x1024 2048x2048x2048" 2>&1 | tee $OUT/aa.log
for r in 1 2 3; do build/step09_stream_k --m 512 --n 512 --k 512 --ref-vs-ref --no-check --iters 100 | grep -E "ratio" | sed 's/.*| ratio/iters 100: ratio/'; done 2>&1 | tee -a $OUT/aa.log
echo "== sanitize"
( time timeout 470 env GIT_REV=$(cat .rev) sh tests/sanitize.sh build $OUT/sanitize.md ) > $OUT/sanitize.log 2>&1; echo "rc $?"; tail -4 $OUT/sanitize.log
cd $OUT && tar czf sanitize_logs.tgz sanitize_logs 2>/dev/null && rm -rf sanitize_logs; cat $OUT/sanitize.md | head -60

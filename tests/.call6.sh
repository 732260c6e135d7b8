set -o pipefail
CS=$(command -v compute-sanitizer || find /usr/local /opt -name compute-sanitizer -type f 2>/dev/null | head -1)
echo "compute-sanitizer: $CS"; export PATH=$(dirname "$CS"):$PATH
make -j16 all > $OUT/build.log 2>&1 && make -j16 DEBUG=1 all >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "== A/A 512^3 --iters 100 (the whole loop fits behind the hold?)"
for r in 1 2 3; do build/step09_stream_k --m 512 --n 512 --k 512 --ref-vs-ref --no-check --iters 100 | grep -E "ratio|timing" | sed 's/.*| ratio/ratio/' ; done 2>&1 | tee $OUT/aa_exp.log
echo "== A/A 512^3 and 1024^3, sides swapped in the timing call (reference as side a)"
for s in 512 1024; do for r in 1 2 3; do build/aaexp/step09_aa_swapped --m $s --n $s --k $s --ref-vs-ref --no-check | grep -E "ratio" | sed 's/.*| ratio/ratio/'; done; done 2>&1 | tee -a $OUT/aa_exp.log
echo "== sanitize 01-07"
( time timeout 430 env SANITIZE_STEPS="01 02 03 04 05 06 07" SANITIZE_EXTRAS=0 GIT_REV=$(cat .rev) sh tests/sanitize.sh build $OUT/sanitize.md ) > $OUT/sanitize.log 2>&1; echo "rc $?"; tail -5 $OUT/sanitize.log; cat $OUT/sanitize.md | tail -25

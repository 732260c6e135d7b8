#!/bin/bash
# ab.sh (step10_autotune/experiments/shareb): the shareb prototype: correctness in the DEBUG build, then old (4c8befb) vs new (shareb.patch on 06abafe), 128x256c/dp forced, alternated
#   bash step10_autotune/experiments/shareb/ab.sh   (from the repository root)
# needs build/sb/old (the tree's build/step10_autotune), build/sb/new and build/sb/new_debug
# (make step10 and make DEBUG=1 step10 with shareb.patch applied, copied there); writes
# /tmp/sb/ab.log and, on the device machine, $OUT/sb.tgz.  Exit 3 without a GPU.
set -u
export PATH=/usr/local/cuda/bin:$PATH
B=build/sb; W=/tmp/sb; mkdir -p $W; chmod +x $B/*
$B/old --m 64 --n 64 --k 64 --no-cache > /dev/null 2>&1; [ $? -eq 3 ] && { echo "ab.sh: no GPU" >&2; exit 3; }
for a in "--m 1000 --n 1000 --k 1000 --mode dp" "--m 1000 --n 1000 --k 1000 --mode sk" "--m 1100 --n 4096 --k 4168 --mode sk" "--m 1001 --n 4096 --k 4168 --mode dp" "--m 4096 --n 4096 --k 128 --mode sk"; do
  timeout 30 $B/new_debug --config 128x256c $a --no-cache > $W/d.tmp 2>&1; echo "debug [$a] rc=$? $(grep -E 'check|HANG' $W/d.tmp | head -2 | tr '\n' ' ')" | tee -a $W/ab.log
done
for r in 1 2; do for s in "4096 4096 4168" "4000 3000 4168" "4096 4096 4112" "4096 4096 4096" "2048 4096 14336" "8192 8192 8192"; do set -- $s
  for b in old new; do echo "r$r $b $s: $(timeout 40 $B/$b --m $1 --n $2 --k $3 --config 128x256c --mode dp --no-cache --no-check 2>&1 | grep ratio | sed 's/.*stages=[0-9]*: //')" | tee -a $W/ab.log; done
done; done
[ -n "${OUT:-}" ] && tar czf "$OUT/sb.tgz" -C $W .
exit 0

#!/bin/bash
# phaseB1.sh — first GPU call of the step 08 kernel (built on the workstation
# from step 07 after the structure refactor): correctness on the edge shapes,
# the planted bugs of the DEBUG build, the timeline of cluster 0, whether
# racecheck / synccheck run on multicast + distributed shared memory, and
# step 07 vs step 08 alternated at the goal shapes (2 processes each).
# Needs build/step07_pingpong build/step08_cluster_multicast
#       build/debug/step08_cluster_multicast
# Logs: $OUT/b1_check.log $OUT/b1_time.log $OUT/b1_sanitize.log $OUT/t08.csv
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
S08=build/step08_cluster_multicast
Q="--iters 2 --warmup 1"
{
echo "== edge shapes"
for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "4100 300 8" "4096 4096 4096" \
         "256 512 512" "8192 8192 64" "4224 4352 136" "50816 128 64" "16896 256 128" "1000 1001 64" \
         "128 384 64" "384 128 64" "100 200 64" "64 4000 128" "2048 2048 256"; do
  set -- $s
  o=$(timeout 60 $S08 --m $1 --n $2 --k $3 $Q 2>&1); rc=$?
  echo "$s rc=$rc $(echo "$o" | grep -o 'check.*\|FAIL.*\|rror.*' | head -2 | tr '\n' ' ')"
done
for s in "127 129 72" "256 512 256" "1 1 256" "129 257 8" "2048 2048 256" "300 4100 136"; do set -- $s
  o=$(timeout 60 $S08 --m $1 --n $2 --k $3 --exact $Q 2>&1); rc=$?
  echo "exact $s rc=$rc $(echo "$o" | grep -o 'check.*\|FAIL.*' | head -1)"
done
for a in "--m 1000 --n 3000 --k 136 --group 1" "--m 1000 --n 3000 --k 136 --group 3" \
         "--m 3000 --n 1000 --k 72 --group 64" "--m 127 --n 129 --k 72 --exact --stages 2" \
         "--m 1000 --n 1000 --k 1000 --stages 4"; do
  o=$(timeout 60 $S08 $a $Q 2>&1); rc=$?
  echo "$a rc=$rc $(echo "$o" | grep -o 'check.*\|FAIL.*\|rror.*' | head -1)"
done
echo "== planted bugs (DEBUG build)"
for bug in 1 3 5; do
  echo "-- bug $bug"
  timeout 30 build/debug/step08_cluster_multicast --m 2048 --n 2048 --k 1024 --plant-bug $bug $Q 2>&1 | grep -v "^HANG" | tail -8
  echo "rc=${PIPESTATUS[0]}"
done
echo "== timeline"
timeout 60 $S08 --m 4096 --n 4096 --k 1024 --trace "$OUT/t08.csv" $Q 2>&1 | tail -2
awk -F, 'NR>1 && $1 ~ /^[0-9]+$/ {n[$1]++} END {for (c in n) print "cta", c, n[c], "records"}' "$OUT/t08.csv"
} > "$OUT/b1_check.log" 2>&1
grep -c "check ok" "$OUT/b1_check.log"; grep -v "check ok" "$OUT/b1_check.log" | head -40

run() {   # label binary m n k
  local label=$1 bin=$2 m=$3 n=$4 k=$5
  local o; o=$(timeout 90 $bin --m $m --n $n --k $k --iters 20 --no-check 2>&1)
  echo "$label ${m}x${n}x${k} $(echo "$o" | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]* | SM clock [0-9]* MHz')" >> "$OUT/b1_time.log"
}
for rep in 1 2; do
  for s in "4096 4096 4096" "6144 6144 6144" "8192 8192 8192" "4096 14336 4096" "4096 4096 14336" \
           "8192 14336 4096" "8192 4096 14336"; do
    run s07 build/step07_pingpong $s
    run s08 $S08 $s
  done
done
python3 - "$OUT/b1_time.log" <<'PY'
import re, sys
rows = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\S+) (\S+) .*ratio ([0-9.]+)', l)
    if m: rows.setdefault((m.group(1), m.group(2)), []).append(m.group(3))
shapes = []; labels = []
for (l, s) in rows:
    if s not in shapes: shapes.append(s)
    if l not in labels: labels.append(l)
for s in shapes:
    print('%-18s' % s + ''.join('  %s %s' % (l, '/'.join(rows.get((l, s), []))) for l in labels))
PY

echo "== sanitizers on multicast + DSMEM (small, several tiles per CTA)" | tee "$OUT/b1_sanitize.log"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in racecheck synccheck memcheck initcheck; do
  extra=""; [ $t = racecheck ] && extra="--racecheck-report all"
  timeout 240 $SAN --tool $t $extra $S08 --m 2048 --n 4096 --k 128 --iters 1 --warmup 0 > "$OUT/san_$t.txt" 2>&1
  echo "$t rc=$? $(grep -o 'ERROR SUMMARY.*\|RACECHECK SUMMARY.*' "$OUT/san_$t.txt" | tail -1) $(grep -m2 -i 'not supported\|unsupported\|cluster' "$OUT/san_$t.txt" | tr '\n' ' ')" | tee -a "$OUT/b1_sanitize.log"
done

echo "== prototype variants (group 4 / 16 tiles, walk = cluster id), 1 process each" >> "$OUT/b1_time.log"
for s in "6144 6144 6144" "4096 4096 14336"; do
  set -- $s
  for v in "c2A_pl_g4m|PROTO_ORDER=plain PROTO_ALONG=m|--group 4" "c2A_pl_g16m|PROTO_ORDER=plain PROTO_ALONG=m|--group 16" \
           "c2A_id_g8m|PROTO_ALONG=m|--group 8"; do
    IFS='|' read -r label envs flags <<< "$v"
    o=$(env $envs timeout 90 build/p/c2A --m $1 --n $2 --k $3 --iters 20 --no-check $flags 2>&1)
    echo "$label ${1}x${2}x${3} $(echo "$o" | grep -o 'ratio [0-9.]* | SM clock [0-9]* MHz')" >> "$OUT/b1_time.log"
  done
  run s08 $S08 $s
done
tail -9 "$OUT/b1_time.log"

#!/bin/bash
# phaseA2.sh — second GPU call of phase A: placement with the LoadBalancing
# cluster policy, then the cluster-of-2 prototype with the walk ordered by
# the plain launch's placement ("plain" order) and raster groups in tile
# units of 8 (group 4 cluster tiles along the cluster's axis), against
# step 07, alternating binaries, 2 processes each.
# Logs: $OUT/probe2.log $OUT/proto_time2.log
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 120 build/probe_cluster > "$OUT/probe2.log" 2>&1; echo "probe rc=$?"
grep "lb rep 0" -A1 "$OUT/probe2.log" | cut -c1-300
run() {   # label, env, binary, m n k, extra flags
  local label=$1 envs=$2 bin=$3 m=$4 n=$5 k=$6; shift 6
  local o; o=$(env $envs timeout 90 $bin --m $m --n $n --k $k --iters 20 --no-check "$@" 2>&1)
  echo "$label ${m}x${n}x${k} $(echo "$o" | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]* | SM clock [0-9]* MHz') | $(echo "$o" | grep -o 'proto: .*' | head -1)" >> "$OUT/proto_time2.log"
}
for rep in 1 2; do
for s in "4096 4096 4096" "8192 8192 8192" "4096 14336 4096" "6144 6144 6144" "4096 4096 14336"; do
  run s07        ""                                build/step07_pingpong $s
  run c2B_pl_g4m "PROTO_ORDER=plain PROTO_ALONG=m" build/p/c2B $s --group 4
  run c2B_pl_g8m "PROTO_ORDER=plain PROTO_ALONG=m" build/p/c2B $s --group 8
  run c2B_pl_g8n "PROTO_ORDER=plain PROTO_ALONG=n" build/p/c2B $s --group 8
  run c2A_pl_g4n "PROTO_ORDER=plain PROTO_ALONG=n" build/p/c2A $s --group 4
  run c2A_pl_g8m "PROTO_ORDER=plain PROTO_ALONG=m" build/p/c2A $s --group 8
  run c2B_lb_g4m "PROTO_POLICY=lb PROTO_ALONG=m"   build/p/c2B $s --group 4
done
done
python3 - "$OUT/proto_time2.log" <<'PY'
import re, sys
rows = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\S+) (\S+) .*ratio ([0-9.]+)', l)
    if m: rows.setdefault((m.group(1), m.group(2)), []).append(m.group(3))
shapes = []; labels = []
for (l, s) in rows:
    if s not in shapes: shapes.append(s)
    if l not in labels: labels.append(l)
print('%-12s' % 'ratio' + ''.join('%20s' % s for s in shapes))
for l in labels:
    print('%-12s' % l + ''.join('%20s' % '/'.join(rows.get((l, s), [])) for s in shapes))
PY

#!/bin/bash
# phaseA.sh — one GPU call: placement / L2-side / remote-arrive probe, then the
# prototype (proto08.cu) against step 07 in every launch mode and walk order,
# then ncu's L2 / DRAM counters for the plain and cluster launches.
# Binaries are built on the workstation (proto08_build.sh) and carried:
#   build/probe_cluster  build/step07_pingpong  build/p/{c1,c2B,c2A,c2Brel,c2Bdbg}
# Logs: $OUT/probe.log $OUT/proto_check.log $OUT/proto_time.log $OUT/ncu.log
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader

echo "== probe"
timeout 120 build/probe_cluster > "$OUT/probe.log" 2>&1; echo "probe rc=$?"
grep -v "^  sm \|by cta" "$OUT/probe.log" | head -40

echo "== correctness of the cluster prototypes" | tee "$OUT/proto_check.log"
for B in c2B c2A; do
  for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "4100 300 8" "200 264 136" "129 385 128" \
           "256 512 512" "4224 4352 136" "1000 1001 64" "3000 1000 72" "384 128 64" "128 384 64" "4096 4096 4096"; do
    set -- $s
    o=$(timeout 60 build/p/$B --m $1 --n $2 --k $3 --iters 2 --warmup 1 2>&1); rc=$?
    echo "$B $s rc=$rc $(echo "$o" | grep -o 'check.*\|FAIL.*\|error.*' | head -2 | tr '\n' ' ')" >> "$OUT/proto_check.log"
  done
  for s in "127 129 72" "256 512 256" "2048 2048 256" "129 257 8"; do set -- $s
    echo "$B exact $s $(timeout 60 build/p/$B --m $1 --n $2 --k $3 --exact --iters 2 --warmup 1 2>&1 | grep -o 'check.*\|FAIL.*')" >> "$OUT/proto_check.log"
  done
done
echo "== planted: missing release (DEBUG prototype, bug 3)" >> "$OUT/proto_check.log"
timeout 60 build/p/c2Bdbg --m 2048 --n 2048 --k 1024 --plant-bug 3 --iters 1 --warmup 0 >> "$OUT/proto_check.log" 2>&1
echo "rc=$?" >> "$OUT/proto_check.log"
grep -c "check ok" "$OUT/proto_check.log"; grep -v "check ok" "$OUT/proto_check.log" | head -20

echo "== timing (interleaved with cuBLAS in each process)" | tee "$OUT/proto_time.log"
run() {   # label, env, binary, shape
  local label=$1 envs=$2 bin=$3; shift 3
  local o; o=$(env $envs timeout 90 $bin --m $1 --n $2 --k $3 --iters 20 --no-check 2>&1)
  local info; info=$(echo "$o" | grep -o 'proto: .*' | head -1)
  echo "$label $1x$2x$3 $(echo "$o" | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]* | SM clock [0-9]* MHz') | $info" >> "$OUT/proto_time.log"
}
for rep in 1 2; do
for s in "4096 4096 4096" "8192 8192 8192" "4096 14336 4096" "6144 6144 6144"; do
  set -- $s
  run s07        ""                                       build/step07_pingpong $s
  run c1_plain   ""                                       build/p/c1 $s
  run c1_cl      "PROTO_LAUNCH=cluster"                   build/p/c1 $s
  run c1_cl_pl   "PROTO_LAUNCH=cluster PROTO_ORDER=plain" build/p/c1 $s
  run c1_cl_sm   "PROTO_LAUNCH=cluster PROTO_ORDER=smid"  build/p/c1 $s
  run c2B_m      "PROTO_ALONG=m"                          build/p/c2B $s
  run c2B_n      "PROTO_ALONG=n"                          build/p/c2B $s
  run c2B_sm     "PROTO_ORDER=smid"                       build/p/c2B $s
  run c2A        ""                                       build/p/c2A $s
  run c2A_sm     "PROTO_ORDER=smid"                       build/p/c2A $s
done
done
run c2Brel "" build/p/c2Brel 4096 4096 4096
run c2B    "" build/p/c2B    4096 4096 4096

echo "== ncu" | tee "$OUT/ncu.log"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
if [ -n "$NCU" ]; then
  $NCU --query-metrics --chip gh100 2>/dev/null | grep -i "fabric\|^lts__t_sectors \|^lts__t_requests \|^dram__bytes_read " >> "$OUT/ncu.log"
  M="gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sector_hit_rate.pct,sm__cycles_active.avg"
  for extra in lts__t_sectors_srcunit_ltcfabric.sum lts__t_requests_srcunit_ltcfabric.sum lts__t_sectors_srcunit_tex.sum; do
    $NCU --query-metrics --chip gh100 2>/dev/null | grep -q "^${extra%.sum} " && M="$M,$extra"
  done
  echo "metrics: $M" >> "$OUT/ncu.log"
  for cfg in "s07||build/step07_pingpong" "c1_cl|PROTO_LAUNCH=cluster|build/p/c1" "c1_cl_pl|PROTO_LAUNCH=cluster PROTO_ORDER=plain|build/p/c1" \
             "c2B||build/p/c2B" "c2A||build/p/c2A"; do
    IFS='|' read -r label envs bin <<< "$cfg"
    for s in "4096 4096 4096"; do set -- $s
      echo "--- $label $s" >> "$OUT/ncu.log"
      env $envs timeout 120 $NCU --metrics "$M" -k regex:pingpong_kernel --launch-skip 3 --launch-count 1 \
          $bin --m $1 --n $2 --k $3 --iters 3 --warmup 1 --no-check 2>&1 | grep -E "^\s+(gpu__|dram__|lts__|sm__)|proto:" >> "$OUT/ncu.log"
    done
  done
else
  echo "no ncu" >> "$OUT/ncu.log"
fi
echo "== summary"
grep -o '^[a-zA-Z0-9_]* [0-9x]* .*ratio [0-9.]*' "$OUT/proto_time.log" | awk '{print $1, $2, $NF}' | sort -k2,2 -k1,1 | column -t

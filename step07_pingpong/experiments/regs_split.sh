#!/bin/sh
# regs_split.sh — do steps 06 and 07 need setmaxnreg?  ptxas -v of six
# builds, no GPU needed (run from the repository root): step 06's kernel.cu
# (128 x 256, two consumer warpgroups), step 07's at its default tile
# (128 x 128) and at -DBN=192, each with the register split
#   (REGS_DEC / REGS_INC as committed) and without it (a copy of kernel.cu in
#   /tmp with the two macro calls deleted: every warp keeps the 168 registers
#   that __launch_bounds__(384, 1) gives).
# Prints, per build and kernel: registers, spill stores / loads (bytes), and,
# where cuobjdump is found ($CUOBJDUMP, PATH, or make deps' copy), the
# highest register the timed kernel's SASS names: ptxas's "Used" is the count
# at entry, the consumers' code after setmaxnreg.inc may use more.
set -eu
T=${TMPDIR:-/tmp}/regs_split.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
for st in step06_persistent step07_pingpong; do
    sed -e 's/^\( *\)REGS_DEC(PRODUCER_REGS);/\1\/* no setmaxnreg *\//' \
        -e 's/^\( *\)REGS_INC(CONSUMER_REGS);/\1\/* no setmaxnreg *\//' \
        $st/kernel.cu > "$T/${st}_nosplit.cu"
    test "$(grep -c 'no setmaxnreg' "$T/${st}_nosplit.cu")" -eq 2
done
CUOBJ=${CUOBJDUMP:-$(command -v cuobjdump || true)}
[ -z "$CUOBJ" ] && CUOBJ=$(find -L build/deps -name cuobjdump -type f 2>/dev/null | head -1)
# cuobjdump -sass runs nvdisasm (make deps puts both under build/deps, as make sass does)
ND=$(command -v nvdisasm || find -L build/deps -name nvdisasm -type f 2>/dev/null | head -1)
[ -n "$ND" ] && PATH="$(dirname "$ND"):$PATH"
NV="nvcc -O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a -c -Xptxas -v"
for build in "step06_persistent 256" "step07_pingpong 128" "step07_pingpong 192"; do
  set -- $build; st=$1; bn=$2
  for split in with without; do
    src=$st/kernel.cu
    [ $split = without ] && src="$T/${st}_nosplit.cu"
    flags=-DBN=$bn; [ $st = step06_persistent ] && flags=
    $NV -I$st $flags "$src" -o "$T/k.o" > "$T/log" 2>&1
    # ptxas prints, per kernel: "Compiling entry function '<name>'", then
    # "N bytes spill stores, M bytes spill loads", then "Used R registers".
    # Only the step's two kernels: the harness compiles others (an L2 flush).
    awk -v bn="${st%%_*} BN=$bn" -v sp=$split '
      /Compiling entry function/ { k = ($0 ~ /traced/) ? "traced" : "timed"; ours = ($0 ~ /persistent_kernel|pingpong_kernel/) }
      /bytes spill stores/ { st = $5; ld = $9 }
      /Used [0-9]+ registers/ { if (!ours) next; for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i + 1);
                                printf "%s setmaxnreg %-7s %-6s kernel: %s registers, %s B spill stores, %s B spill loads\n",
                                       bn, sp, k, r, st, ld }' "$T/log"
    if [ -n "$CUOBJ" ]; then
      hi=$("$CUOBJ" -sass "$T/k.o" | awk '/Function :/ { t = ($0 ~ /traced/) || ($0 !~ /persistent_kernel|pingpong_kernel/) } !t' |
           grep -o '\bR[0-9]*\b' | tr -d R | sort -n | tail -1)
      echo "${st%%_*} BN=$bn setmaxnreg $split timed  kernel: highest register in the SASS: R$hi"
    fi
  done
done

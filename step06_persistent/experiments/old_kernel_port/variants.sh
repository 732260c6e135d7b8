#!/bin/sh
# old_kernel_port/variants.sh BUILD: the builds of step 06's bisection (NOTES.md, "The cause,
# bisected"), each as BUILD/<name>/step06_persistent, then their SASS counts:
#   port    585cb90's kernel under this harness (port.sh; it also checks its SASS)
#   hyb     port's device code with one struct of parameters (one_struct.py)
#   nomask  this tree's kernel with the masked-store path compiled out (timing only: N % 8 == 0)
#   late    this tree's kernel asking for the unit's coordinates after the mainloop
#   new     this tree's kernel as it is
# all five with the scheduler as it was before 6c7e529 (port.sh's copy of common/, as in
# session 9's runs), and
#   fixed   this tree's kernel with this tree's common/ (the multiply-and-shift division).
#   latefix late's kernel with this tree's common/ (both changes together; session 10)
#   portfix port's kernel with this tree's common/ (585cb90's device code, the new divide)
#   hybfix  hyb's kernel with this tree's common/ (the same with one struct of parameters)
#   padport port's kernel and plain division with tile_sched padded to the size the new
#           division's fields give it (10 more ints): is it the parameters' layout?
# Time them with alternate.sh, e.g.
#   sh alternate.sh OUT step06_persistent "4096,4096,4096" BUILD/port BUILD/new BUILD/fixed
# The SASS counts (instructions, MUFU.RCP, where the first one sits against the first HGMMA)
# go to BUILD/sass_counts.txt.  No GPU needed.
set -u
BUILD=${1:?usage: variants.sh BUILD}
HERE=$(dirname "$0")
sh "$HERE/port.sh" "$BUILD" || exit 1
objs="$BUILD/common/args.o $BUILD/common/csv.o $BUILD/common/tma.o $BUILD/common/tune_cache.o"
build() {   # build NAME SRC [COMMON_DIR]
  mkdir -p "$BUILD/$1"
  # shellcheck disable=SC2086  # objs is a list of words
  nvcc -O3 -std=c++17 -lineinfo -I"${3:-$BUILD/port/common}" -Istep06_persistent -DGIT_REV="\"$1\"" -Xptxas -warn-spills,-warn-lmem-usage \
       -gencode=arch=compute_90a,code=sm_90a "$2" $objs -lcublas -lcudart -ldl -o "$BUILD/$1/step06_persistent" || exit 1
}
mkdir -p "$BUILD/hyb" "$BUILD/nomask" "$BUILD/late" "$BUILD/new" "$BUILD/fixed" "$BUILD/latefix" "$BUILD/portfix" "$BUILD/hybfix" "$BUILD/padport"
python3 "$HERE/one_struct.py" "$BUILD/port/kernel_585cb90.cu" "$BUILD/hyb/kernel.cu" || exit 1
build hyb "$BUILD/hyb/kernel.cu"
sed 's/^    if (P->use_tma_store) {$/    if (1) {   \/* experiment: the masked path compiled out (N % 8 == 0 only) *\//' \
    step06_persistent/kernel.cu > "$BUILD/nomask/kernel.cu"
grep -q 'if (1) {   /\* experiment' "$BUILD/nomask/kernel.cu" || { echo "variants: nomask's patch no longer applies"; exit 1; }
build nomask "$BUILD/nomask/kernel.cu"
python3 - step06_persistent/kernel.cu "$BUILD/late/kernel.cu" <<'PY' || exit 1
import sys
s = open(sys.argv[1]).read()
a = """        const work_unit u = walk_unit(P, &w);
        consumer_mainloop(cc, acc, &u);
        epilogue_store(P, cc, acc, &u);"""
b = """        work_unit u = {0, 0, 0, 0, P->k_tiles};   /* experiment: the k range first ... */
        consumer_mainloop(cc, acc, &u);
        u = walk_unit(P, &w);                     /* ... the tile's coordinates after the mainloop */
        epilogue_store(P, cc, acc, &u);"""
if s.count(a) != 1:
    sys.exit("variants: late's patch no longer applies")
open(sys.argv[2], "w").write(s.replace(a, b))
PY
build late "$BUILD/late/kernel.cu"
build new step06_persistent/kernel.cu
build fixed step06_persistent/kernel.cu common
build latefix "$BUILD/late/kernel.cu" common
build portfix "$BUILD/port/kernel_585cb90.cu" common
build hybfix "$BUILD/hyb/kernel.cu" common
rm -rf "$BUILD/padport/common" && cp -r "$BUILD/port/common" "$BUILD/padport/common" || exit 1
sed -i 's|^    int along_n;            /\* 1: n is the fast index inside a group; 0: m is \*/$|&\n    int pad[10];            /* experiment: the size of the new division'"'"'s fields */|' \
    "$BUILD/padport/common/persistent_schedule.h"
grep -q 'int pad\[10\];' "$BUILD/padport/common/persistent_schedule.h" || { echo "variants: padport's patch no longer applies"; exit 1; }
build padport "$BUILD/port/kernel_585cb90.cu" "$BUILD/padport/common"
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || ls build/deps/cuobjdump-*/nvidia/cu13/bin/cuobjdump 2>/dev/null | head -n1)}
[ -n "$CUOBJDUMP" ] || { echo "variants: no cuobjdump (make sass fetches one)"; exit 1; }
NVD=$(command -v nvdisasm || ls build/deps/nvdisasm-*/nvidia/cu13/bin/nvdisasm 2>/dev/null | head -n1)
[ -n "$NVD" ] && PATH="$(dirname "$NVD"):$PATH"
for d in port hyb nomask late new fixed latefix portfix hybfix padport; do
  "$CUOBJDUMP" -sass "$BUILD/$d/step06_persistent" |
    awk '/Function :/ { f = $0 } f ~ /persistent_kernel(13|14CUtensor|17one_struct)/ && f !~ /traced/' |
    grep -E '^\s+/\*[0-9a-f]{4}\*/' > "$BUILD/$d/timed.sass"
  h=$(grep -n HGMMA "$BUILD/$d/timed.sass" | head -n1 | cut -d: -f1)
  mu=$(grep -n "MUFU.RCP" "$BUILD/$d/timed.sass" | head -n1 | cut -d: -f1)
  printf "%-7s instructions %5d  MUFU.RCP %d  first MUFU.RCP at %s lines from the first HGMMA\n" "$d" \
    "$(wc -l < "$BUILD/$d/timed.sass")" "$(grep -c MUFU.RCP "$BUILD/$d/timed.sass")" "$([ -n "$mu" ] && echo $((mu - h)) || echo none)"
done | tee "$BUILD/sass_counts.txt"

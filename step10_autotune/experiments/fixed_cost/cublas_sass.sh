#!/bin/sh
# fixed_cost/cublas_sass.sh BUILD OUT: what does cuBLAS's kernel at 1024^3 and 512^3 execute?
#
# launch_floor.sh found cuBLAS's 1024^3 kernel (nvjet 128x64, clusters of 2) launching with the
# tree's resources exactly: 384 threads, 168 registers, 128 CTAs, ~213 KiB of shared memory.
# Its machine code is not in libcublasLt's cubins under a name cuobjdump finds (NOTES.md,
# "Session 13"), but ncu's source page prints the SASS of any kernel it profiles, with its
# warp-state samples per instruction.  One launch of cuBLAS's kernel and one of step 10's
# (BUILD/step10_autotune, the model's pick) at each shape: OUT/sass_<shape>_<nvjet|pingpong>.csv
# (ncu --page source --print-source sass --csv), and a count of each opcode in each,
# OUT/opcodes.txt.  Exits 3 without a GPU or without ncu.  logs/cublas_sass/ came from
# 21363a0's tree (step 10's full kernel); at HEAD the regex "pingpong" finds the lean kernel.
set -u
BUILD=${1:?usage: cublas_sass.sh BUILD OUT}; OUT=${2:?usage: cublas_sass.sh BUILD OUT}
mkdir -p "$OUT"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
nvidia-smi > /dev/null 2>&1 && command -v ncu > /dev/null 2>&1 ||
  { echo "cublas_sass: built $BUILD/step10_autotune; no GPU or no ncu here"; exit 3; }
: > "$OUT/opcodes.txt"
for sh in 1024x1024x1024 512x512x512; do
  m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
  for kn in nvjet pingpong; do
    f="$OUT/sass_${sh}_$kn.csv"
    ncu --kernel-name "regex:$kn" --launch-count 1 --section SourceCounters --section WarpStateStats \
        --page source --print-source sass --csv \
        "$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache --no-check > "$f" 2> "$OUT/ncu_err.txt"
    # the opcode is the first word of the Source column, after any predicate
    python3 - "$f" "$sh $kn" >> "$OUT/opcodes.txt" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next((i for i, r in enumerate(rows) if 'Source' in r), None)
if head is None:
    print("== %s: no source table (%d lines)" % (sys.argv[2], len(rows))); sys.exit(0)
col = rows[head].index('Source')
ops = collections.Counter()
for r in rows[head + 1:]:
    if len(r) <= col or not r[col].strip(): continue
    w = r[col].split()
    if w[0].startswith('@'): w = w[1:]
    if w: ops[w[0].split('.')[0]] += 1
print("== %s: %d instructions" % (sys.argv[2], sum(ops.values())))
print("   " + "  ".join("%s %d" % kv for kv in sorted(ops.items(), key=lambda kv: -kv[1])))
PY
  done
done
cat "$OUT/opcodes.txt"

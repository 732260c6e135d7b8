#!/bin/sh
# tests/sass_compare.sh OLD_BUILD NEW_BUILD [STEPS] — the refactor guard:
# compares the SASS of every kernel of steps 05-07 (cuobjdump -sass) between
# two builds, with addresses, encodings, register numbers, predicate numbers
# and constant-bank offsets masked, so what remains is the instruction stream
# (opcodes, modifiers, immediates other than hex offsets, control-flow shape).
# Per kernel it prints "identical" or the masked diff, then the count of each
# opcode that matters to the pipeline, old / new.  The output is the record
# the steps' NOTES.md cite (tests/sass_compare.log).
set -u
OLD=${1:?old build dir}
NEW=${2:?new build dir}
STEPS=${3:-"step05_tma_wgmma step06_persistent step07_pingpong"}
CUOBJDUMP=${CUOBJDUMP:-/tmp/tools/cuobjdump}
command -v "$CUOBJDUMP" >/dev/null 2>&1 || CUOBJDUMP=cuobjdump
for s in $STEPS; do
    if [ ! -x "$OLD/$s" ] || [ ! -x "$NEW/$s" ]; then echo "== $s: missing binary"; continue; fi
    "$CUOBJDUMP" -sass "$OLD/$s" > "${TMPDIR:-/tmp}/sass_old.$$"
    "$CUOBJDUMP" -sass "$NEW/$s" > "${TMPDIR:-/tmp}/sass_new.$$"
    python3 - "$s" "${TMPDIR:-/tmp}/sass_old.$$" "${TMPDIR:-/tmp}/sass_new.$$" "${DIFF_LINES:-80}" <<'PY'
import difflib, re, sys
step, old_path, new_path, max_lines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
OPS = "HGMMA UTMALDG UTMASTG SYNCS BAR USETMAXREG STS LDS STG".split()
RAW = {}   # kernel -> its setmaxnreg instructions, immediates unmasked
def kernels(path):
    out, name = {}, None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m: name = m.group(1); out[name] = []; continue
        m = re.match(r"\s*/\*[0-9a-f]{4}\*/\s*(.*?)\s*;?\s*/\*", line)
        if name and m:
            ins = m.group(1)
            if "USETMAXREG" in ins:
                RAW.setdefault((path, name), []).append(re.sub(r"\bU?P\d\b", "Px", ins))
            ins = re.sub(r"\bUR\d+\b", "URx", ins)
            ins = re.sub(r"\bR\d+\b", "Rx", ins)
            ins = re.sub(r"\bU?P\d\b", "Px", ins)
            ins = re.sub(r"c\[0x[0-9a-f]+\]\[0x[0-9a-f]+\]", "c[..]", ins)
            ins = re.sub(r"0x[0-9a-f]+", "0x..", ins)
            out[name].append(ins)
    return out
def counts(lines):
    c = {}
    for op in OPS:
        c[op] = sum(1 for l in lines if re.match(r"^(@!?U?P\w+\s+)?%s(\.|\s|$)" % op, l))
    return " ".join("%s=%d" % (op, c[op]) for op in OPS)
old, new = kernels(old_path), kernels(new_path)
for k in old:
    print("== %s %s" % (step, k))
    if k not in new: print("   missing in the new build"); continue
    a, b = old[k], new[k]
    if a == b: print("   identical (%d instructions, masked)" % len(a))
    else:
        print("   DIFFERS: %d -> %d instructions" % (len(a), len(b)))
        d = [l for l in difflib.unified_diff(a, b, lineterm="", n=0) if l[:1] in "+-" and l[:3] not in ("+++", "---")]
        for l in d[:max_lines]: print("   " + l)
        if len(d) > max_lines: print("   ... %d more diff lines" % (len(d) - max_lines))
    print("   old: " + counts(a))
    print("   new: " + counts(b))
    ra, rb = RAW.get((old_path, k), []), RAW.get((new_path, k), [])
    if ra or rb:
        print("   setmaxnreg %s: %s" % ("unchanged" if ra == rb else "CHANGED", "; ".join(rb) or "; ".join(ra)))
for k in new:
    if k not in old: print("== %s %s: new kernel" % (step, k))
PY
    rm -f "${TMPDIR:-/tmp}/sass_old.$$" "${TMPDIR:-/tmp}/sass_new.$$"
done

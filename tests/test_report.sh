#!/bin/sh
# test_report.sh — the report pipeline (plots/report.awk, splice.awk,
# render.sh) on a hand-written results file, tests/report/fixture.csv; make
# test runs it.  The expected tables in tests/report/expected/ were computed by
# hand from the fixture:
#   step 06 at 4096³: its latest set is repeats 1-3 (the older repeat-1 row at
#     0.6250 starts a set that the next repeat 1 replaces): ms median of 0.200
#     0.190 0.195 = 0.195; TFLOP/s median of 700 730 720 = 720.0; cuBLAS median
#     of 777.78 768.42 782.61 = 777.8; ratio median of 0.90 0.95 0.92 = 0.92,
#     range 0.90-0.95; CUTLASS's (0.97 + 0.99) / 2 = 0.98, range 0.97-0.99.
#   step 06 at 8192³: one run, 1.0126 -> 1.01 (rounded once, as the plot's label).
#   the group sweep row is found by its group column (1), never by its label.
#   step 03's best stages: 6 (0.96); copy time at work 64: 0.4 ms x 950 / 1000 = 0.38 ms.
#   step 09 has only a CUTLASS row (0.9400): the gemm table shows it, the course cells "–".
#   step 09's own table: at 2048³ the newer headline configuration (cluster 2,
#     0.9440 -> 0.94) replaces the older one (cluster 1, 0.8810, revision aaa:
#     neither its ratio nor its date nor its revision appears); 1024x1024x14336:
#     ms (0.045 + 0.046) / 2 = 0.0455, TFLOP/s (668.17 + 653.64) / 2 = 660.9,
#     ratio (1.2500 + 1.2228) / 2 = 1.2364 -> 1.24, range 1.22-1.25; the plan
#     column (mode) because the step's rows have one; the forced dp and sk runs
#     are two configurations (mode is part of the key), 0.78 and 1.12.
#   step 09 at 1024x1024x2048 (the chooser column, issue 23): auto's runs
#     (chooser default, sk_l2, repeats 1 and 2) alternate with forced --mode
#     dp runs (chooser forced, also repeats 1 and 2), the forced one last, as
#     a bench that compares them writes them.  The headline row is auto's:
#     ms (0.016480 + 0.016592) / 2 = 0.0165, TFLOP/s (260.62 + 258.86) / 2 =
#     259.7, cuBLAS (339.36 + 336.39) / 2 = 337.9, ratio (0.7680 + 0.7695) / 2
#     = 0.77, range 0.77-0.77; the forced dp set goes to the other table,
#     marked "(forced)": (0.7183 + 0.7262) / 2 = 0.72, range 0.72-0.73.  A
#     forced --mode sk run at 4096^3 with repeat 1 heads nothing: the gemm
#     table still says step 09 is "not measured yet" there, and step 09's
#     other table shows it (0.6959 -> 0.70).
# Prints one line per check; exits 1 if any failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
T=$(mktemp -d "${TMPDIR:-/tmp}/test_report.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
check() { if [ "$2" = 0 ]; then echo "report: $1: ok"; else echo "report: $1: FAILED"; fail=1; fi; }

mkdir "$T/out"
awk -v out="$T/out" -v csv=fixture.csv -v steps="$ROOT/plots/steps.tsv" \
    -v shapes="4096x4096x4096 6144x6144x6144 8192x8192x8192" -f "$ROOT/plots/report.awk" "$HERE/report/fixture.csv"
check "report.awk runs" $?
for e in "$HERE"/report/expected/*; do
    diff -u "$e" "$T/out/$(basename "$e")" >"$T/diff" 2>&1
    r=$?; [ $r = 0 ] || cat "$T/diff"
    check "$(basename "$e") as computed by hand" $r
done

# splice: a known key replaced, an unknown one kept, text around untouched
printf 'intro\n<!-- BEGIN results gemm -->\nold\n<!-- END results gemm -->\nmid\n<!-- BEGIN results nokey -->\nkept\n<!-- END results nokey -->\nend\n' >"$T/a.md"
printf 'intro\n<!-- BEGIN results gemm -->\n\nNEW\n\n<!-- END results gemm -->\nmid\n<!-- BEGIN results nokey -->\nkept\n<!-- END results nokey -->\nend\n' >"$T/want.md"
echo NEW >"$T/gemm.md"
awk -v dir="$T" -f "$ROOT/plots/splice.awk" "$T/a.md" >"$T/got.md"
cmp -s "$T/got.md" "$T/want.md"
check "splice.awk replaces a block and keeps the rest" $?
printf 'x\n<!-- BEGIN results gemm -->\nold\n' >"$T/b.md"
awk -v dir="$T" -f "$ROOT/plots/splice.awk" "$T/b.md" >/dev/null
[ $? = 1 ]
check "splice.awk refuses a BEGIN without END" $?

# render.sh end to end without gnuplot: tables written, no PNG, no install
mkdir "$T/res" "$T/png"
cp "$HERE/report/fixture.csv" "$T/res/Test_GPU.csv"
printf '<!-- BEGIN results gemm -->\n<!-- END results gemm -->\n' >"$T/README.md"
(cd "$T" && GNUPLOT=/nonexistent/gnuplot PLOTS_OUT="$T/png" RESULTS_MD="$T/README.md" COURSE_GPU=Test_GPU \
    sh "$ROOT/plots/render.sh" "$T/res" >"$T/render.log" 2>&1)
r=$?; [ $r = 0 ] || cat "$T/render.log"
check "render.sh without gnuplot exits 0" $r
grep -q '| step 06 persistent | 4096³ | 4 | 0.195 | 720.0 | 777.8 | 0.92 (0.90–0.95, 3 runs) | 0.98 (0.97–0.99, 2 runs) |' "$T/README.md"
check "render.sh splices the gemm table into the README" $?
[ -z "$(ls "$T/png")" ]
check "render.sh without gnuplot writes no PNG" $?
exit $fail

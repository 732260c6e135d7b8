#!/bin/sh
# test_numbers.sh — the quoted-numbers rule (README.md, "Writing your own
# step", rule 5): every measured figure a README quotes (a ratio, a time, a
# TFLOP/s or GB/s figure) outside a generated table names its source, and the
# source says so: a log that exists, a CSV row that exists, a generated table
# that holds the figure.  What counts as a figure and the citation syntax:
# tests/numbers.awk.  make test runs it.
#   sh tests/test_numbers.sh [FILE.md ...]   default: README.md step*/README.md
#                                            plots/README.md docs/*.md
# First a fixture (a temporary file: an uncited figure must fail, cited ones
# pass, a citation of a missing log or row must fail), then one line per
# file ("numbers: FILE: N figures cited: ok") and one per uncovered figure or
# bad citation ("numbers: FILE:LINE: ...: FAILED: why").  Exit 1 if any failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
cd "$ROOT" || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/numbers.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0

# scan FILE...: numbers.awk's records (FIG / CITE lines) on stdout
scan() { awk -f "$HERE/numbers.awk" plots/results/*.csv pass=1 "$@" pass=2 "$@"; }
# verdicts: the records turned into ok / FAILED lines
verdicts() {
    awk -F'\t' '
        $1 == "CITE" && $5 !~ /^ok/ { printf "numbers: %s:%s: \"%s\": FAILED: %s\n", $2, $3, $4, $5; bad[$2]++ }
        $1 == "FIG" { n[$2]++; if (!($2 in order)) order[$2] = ++nf; name[nf] = $2 }
        $1 == "FIG" && $6 != "cited" {
            why = ($6 == "uncited") ? "no citation after it in its paragraph (log:, CSV: or table:)" : $6
            printf "numbers: %s:%s: %s %s: FAILED: %s\n", $2, $3, $4, $5, why; bad[$2]++ }
        END { for (i = 1; i <= nf; i++) if (!(name[i] in bad)) printf "numbers: %s: %d figures, each cited: ok\n", name[i], n[name[i]] }'
}

# ---- the fixture: the check itself --------------------------------------------
rev=$(awk -F, 'NR == 2 { print $19 }' plots/results/NVIDIA_H100_80GB_HBM3.csv)
step=$(awk -F, 'NR == 2 { print $1 }' plots/results/NVIDIA_H100_80GB_HBM3.csv)
log=$(ls plots/results/*/*.log | head -n1)
fixture() { # NAME WANT(pass|fail) TEXT: the check on a file holding TEXT
    printf '%s\n' "$3" >"$T/fixture.md"
    if scan "$T/fixture.md" | verdicts | grep -q FAILED; then got=fail; else got=pass; fi
    if [ "$got" = "$2" ]; then echo "numbers: fixture: $1: ok"
    else echo "numbers: fixture: $1: FAILED: the check says $got, want $2"; fail=1; fi
}
fixture "an uncited ratio fails" fail "It runs at 0.96 of cuBLAS."
fixture "an uncited time fails" fail "A tile takes 0.0452 ms here."
fixture "an uncited TFLOP/s figure fails" fail "It reaches 790 TFLOP/s."
fixture "a citation before the figure does not cover it" fail "(log: $log) It runs at 1.25x."
fixture "a ratio cited by a log passes" pass "It runs at 0.96 of cuBLAS,
1.25x at the other shape (log: $log)."
fixture "a citation of a missing log fails" fail "It runs at 0.96 (log: plots/results/no_such.log)."
fixture "a ratio cited by a CSV row passes" pass "It runs at 0.96 (CSV: step$step, rev $rev)."
fixture "a CSV citation no row matches fails" fail "It runs at 0.96 (CSV: step$step, rev 0000000)."
fixture "a figure in a generated block is exempt" pass "<!-- BEGIN results x -->
| 0.96 | 0.0452 ms |
<!-- END results x -->"
fixture "a table citation holding the figure passes" pass "<!-- BEGIN results x -->
| 0.96 |
<!-- END results x -->

It runs at 0.96 (table: x)."
fixture "a table citation without the figure fails" fail "<!-- BEGIN results x -->
| 0.96 |
<!-- END results x -->

It runs at 0.97 (table: x)."
fixture "sizes, versions, tolerances, hardware facts are not figures" pass "CUDA 13.0, CUTLASS 4.2.0.0,
4096 x 4096, K % 64, error < 1e-2, 227 KiB, 132 SMs, 1.98 GHz, \`0.96\` in code, 50%."

# ---- the READMEs ----------------------------------------------------------------
[ $# -gt 0 ] || set -- README.md $(ls step*/README.md) plots/README.md $(ls docs/*.md)
scan "$@" | verdicts >"$T/out"
cat "$T/out"
grep -q FAILED "$T/out" && fail=1
exit $fail

#!/bin/sh
# test_all.sh RUNNER — make test's parts, after the build, each to the end
# even when one fails, then one verdict line (the last line of make test):
#   the Check runner        CPU suites, and the GPU suites where there is a GPU
#   tests/test_report.sh    the report pipeline on a hand-written CSV
#   tests/test_claims.sh    what the READMEs and tools claim, where a script can check it
#   tests/test_numbers.sh   every measured figure a README quotes names its source
#   tests/test_targets.sh   every make target the README names, in a scratch copy
#   tests/test_exercises.sh every command the step READMEs' exercises (and README.md)
#                           name, checked as written without a GPU
#   tests/code_shape.sh     the kernels' and common/'s function lengths and parameter counts
# The runner's own last line, "N passed, N failed, N skipped", stays the
# last line of that form in the log (.ci/run relies on it): the other parts
# and the verdict count in other words.  Exit 1 if any part failed.
set -u
RUNNER=${1:?usage: tests/test_all.sh BUILD/tests/run_tests}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/test_all.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT

# part NAME CMD...: runs CMD, its output shown as it comes and kept in
# $T/NAME.log; its exit code in $T/NAME.rc.
part() {
    name=$1; shift
    { "$@"; echo $? >"$T/$name.rc"; } 2>&1 | tee "$T/$name.log"
}
part runner "$RUNNER"
part report sh "$HERE/test_report.sh"
part claims sh "$HERE/test_claims.sh"
part numbers sh "$HERE/test_numbers.sh"
part targets sh "$HERE/test_targets.sh"
part exercises sh "$HERE/test_exercises.sh"
part shape sh "$HERE/code_shape.sh"

# The runner's counts: its last "N passed, N failed, N skipped" line.
counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$T/runner.log" | tail -n1)
[ -n "$counts" ] || counts="no summary line"
# ok/total of a script part: its lines "NAME: ...: ok" and "NAME: ...: FAILED".
tally() {
    ok=$(grep -c "^$1: .*: ok" "$T/$1.log")
    bad=$(grep -c "^$1: .*: FAILED" "$T/$1.log")
    echo "$1 $ok/$((ok + bad))"
}
status=0; failed=""
for p in runner report claims numbers targets exercises shape; do
    rc=$(cat "$T/$p.rc" 2>/dev/null || echo 1)
    [ "$rc" = 0 ] || { status=1; failed="$failed $p"; }
done
shape=$(sed -n 's/^code_shape: \(.*\)/\1/p' "$T/shape.log" | tail -n1)
summary="$counts; $(tally report); $(tally claims); $(tally numbers); $(tally targets); $(tally exercises); code shape: ${shape:-no summary}"
if [ "$status" = 0 ]; then
    echo "make test: PASS: $summary"
else
    echo "make test: FAIL ($(echo $failed | sed 's/ /, /g')): $summary"
fi
exit $status

#!/bin/sh
# tests/setup_test.sh — does `make test` still set itself up on a fresh
# machine?  (.ci/run runs it before make test.)  In clean copies of the tree
# (tracked and untracked, not ignored files: what a clone or a copy to the
# GPU machine holds), with the system's Check ignored (CHECK_SYSTEM=0), so
# that only the bootstrap in tests/deps.sh can provide it:
#
#   1. bootstrap  make test-runner downloads Check into build/deps, links the
#                 test runner, and the runner's CPU suite passes
#   2. make deps  fills build/deps in another copy
#   3. offline    a copy of the tree plus that build/deps only, no way to
#                 download (APT_GET=false): the runner builds from build/deps;
#                 make clean keeps build/deps
#   4. no way     a copy without build/deps and no way to download: make test
#                 stops with exit 2 and the message naming the packages and the
#                 commands, before compiling anything
#
# Builds only the test runner (gcc, a few seconds), never the steps.  Needs
# network for 1 and 2 (two small apt-get downloads).  Exit 0 when all pass.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/setup_test.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
FAILS=0
N=0

# copy DIR: a clean copy of the tree, without build/
copy() {
    mkdir -p "$1"
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        # shellcheck disable=SC2016  # the inner shell expands $f
        (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
            xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\n" "$f"; done' sh |
            tar cf - -T -) | tar xf - -C "$1"
    else
        (cd "$ROOT" && tar cf - --exclude=./build .) | tar xf - -C "$1"
    fi
}

# case NAME: start one case; pass / fail LOG WHY: its outcome
case_() { N=$((N + 1)); printf 'setup test %d: %-66s ' "$N" "$1"; }
pass() { echo ok; }
fail() {
    echo "FAILED: $2"
    sed 's/^/    | /' "$1" | tail -n 25
    FAILS=$((FAILS + 1))
}

MK="make --no-print-directory CHECK_SYSTEM=0"

# 1 ---------------------------------------------------------------------------
case_ "bootstrap: make test-runner fetches Check into build/deps"
copy "$W/a"
$MK -C "$W/a" test-runner >"$W/a.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    fail "$W/a.log" "make test-runner exited $rc"
elif ! grep -q '^check: unpacked Debian packages into build/deps' "$W/a.log"; then
    fail "$W/a.log" "no 'check: unpacked Debian packages into build/deps' line"
elif ! grep -q 'build/deps' "$W/a/build/tests/check.flags"; then
    fail "$W/a/build/tests/check.flags" "the runner's flags do not point into build/deps"
elif ! (cd "$W/a" && CK_RUN_SUITE=pipeline_state build/tests/run_tests) >"$W/a.run" 2>&1; then
    fail "$W/a.run" "the runner's pipeline_state suite failed"
elif ! grep -q '^[1-9][0-9]* passed, 0 failed' "$W/a.run"; then
    fail "$W/a.run" "the runner ran no test"
else
    pass
fi

# 2 ---------------------------------------------------------------------------
case_ "make deps: bundles Check, CUTLASS, SASS tools into build/deps"
copy "$W/d"
$MK -C "$W/d" deps >"$W/d.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    fail "$W/d.log" "make deps exited $rc"
elif ! [ -f "$W/d/build/deps/usr/include/check.h" ] ||
    [ -z "$(find "$W/d/build/deps" -name libcheck.a)" ] ||
    [ -z "$(find "$W/d/build/deps" -name libsubunit.a)" ]; then
    find "$W/d/build/deps" >>"$W/d.log"
    fail "$W/d.log" "build/deps lacks check.h, libcheck.a or libsubunit.a"
elif ! [ -f "$W/d/build/deps/cutlass-4.2.0.0/cutlass_library/source/include/cutlass/cutlass.h" ] ||
    [ -z "$(find "$W/d/build/deps" -name cuobjdump -type f)" ] || [ -z "$(find "$W/d/build/deps" -name nvdisasm -type f)" ]; then
    fail "$W/d.log" "build/deps lacks CUTLASS's headers (make peers) or cuobjdump/nvdisasm (make sass)"
else
    pass
fi

# 3 ---------------------------------------------------------------------------
case_ "offline: tree + build/deps, no apt: runner builds, nothing fetched"
copy "$W/g"
mkdir -p "$W/g/build"
[ -d "$W/d/build/deps" ] && cp -R "$W/d/build/deps" "$W/g/build/deps"
$MK -C "$W/g" APT_GET=false test-runner >"$W/g.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    fail "$W/g.log" "make test-runner exited $rc"
elif ! grep -q '^check: using the Debian packages unpacked in build/deps' "$W/g.log"; then
    fail "$W/g.log" "no 'check: using the Debian packages unpacked in build/deps' line"
elif ! $MK -C "$W/g" clean >>"$W/g.log" 2>&1 || ! [ -f "$W/g/build/deps/usr/include/check.h" ] ||
    [ -e "$W/g/build/tests" ]; then
    fail "$W/g.log" "make clean did not keep build/deps (or kept build/tests)"
else
    pass
fi

# 4 ---------------------------------------------------------------------------
case_ "no way to get Check: exit 2 and one message, no compiling"
copy "$W/n"
$MK -C "$W/n" APT_GET=false test >"$W/n.log" 2>&1
rc=$?
if [ $rc -ne 2 ]; then
    fail "$W/n.log" "make test exited $rc, expected 2"
elif ! grep -q 'apt-get install check libsubunit-dev' "$W/n.log" || ! grep -q 'make deps' "$W/n.log"; then
    fail "$W/n.log" "the message does not name the packages and the commands"
elif grep -q -e 'nvcc' -e 'error:' "$W/n.log"; then
    fail "$W/n.log" "it compiled (or failed compiling) before saying so"
else
    pass
fi

if [ "$FAILS" -gt 0 ]; then
    echo "setup test: $FAILS of $N cases FAILED"
    exit 1
fi
echo "setup test: all $N cases passed"

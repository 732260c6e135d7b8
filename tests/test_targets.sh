#!/bin/sh
# test_targets.sh — every make target the README names, in a scratch copy of
# the tree (tracked files only: a fresh clone) on this machine: it either
# works or refuses in one line that says why.  make test runs it.
# Without a GPU the targets that need one must refuse; with one they run.
# An nvidia-smi that records its calls is put first on PATH: only the
# targets that need the GPU's name may call it.
#
# Not run here (listed, with why):
#   make test                  runs this test
#   make bench, make bench BENCH=quick, make plots
#                              rewrite committed files (plots/*.png, READMEs;
#                              tests/test_report.sh runs render.sh on a copy)
#   make sanitize              rewrites plots/results/sanitize.md; needs a GPU
#   make deps, make peers      download from the network (Debian, PyPI)
#   make deps-system           installs packages as root
#   make sass STEP=NN          downloads cuobjdump/nvdisasm from PyPI when the
#                              toolkit lacks them (run when it has them)
set -u
# Each target runs as a learner types it: a top-level make, not a sub-make
# of make test's (which would print "Entering/Leaving directory" lines and
# share make test's flags).
unset MAKELEVEL MAKEFLAGS MFLAGS
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/test_targets.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
# The scratch copy: the files git knows (tracked or untracked, not ignored)
# that exist now (a file deleted but not yet committed is skipped), or, with
# no git (a tarball), everything but build/ and .git.
copy_tree() {
    if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
        (cd "$ROOT" && git ls-files -z -c -o --exclude-standard |
            xargs -0 -n 64 sh -c 'for f do [ -e "$f" ] || continue; cp --parents "$f" "$0" || exit 1; done' "$T")
    else
        (cd "$ROOT" && tar --exclude=./build --exclude=./.git -cf - .) | (cd "$T" && tar -xf -)
    fi
}
copy_tree 2>/dev/null || { echo "targets: cannot copy the tree"; exit 2; }
mkdir -p "$T/fakebin"
printf '#!/bin/sh\necho "$*" >>"%s/nvidia-smi.calls"\nexec %s "$@"\n' "$T" "$(command -v nvidia-smi || echo false)" >"$T/fakebin/nvidia-smi"
chmod +x "$T/fakebin/nvidia-smi"
PATH=$T/fakebin:$PATH
export PATH
GPU=0
nvidia-smi -L >/dev/null 2>&1 && GPU=1
rm -f "$T/nvidia-smi.calls"
fail=0

# t NAME EXPECT CMD...: EXPECT is ok (exit 0), says:TEXT (exit 0 and a line
# containing TEXT: it did nothing and says why, as the last line) or
# refuse:RC:TEXT (exit RC and a line containing TEXT, which says why)
t() {
    name=$1 want=$2; shift 2
    (cd "$T" && "$@") >"$T/out" 2>&1
    rc=$?
    case $want in
    ok) [ $rc = 0 ] && r=ok || r="FAILED: exit $rc" ;;
    says:*)
        text=${want#says:}
        if [ $rc = 0 ] && tail -n1 "$T/out" | grep -q -- "$text"; then r="ok (says: $(tail -n1 "$T/out" | cut -c1-90))"
        else r="FAILED: exit $rc, want 0 and a last line with '$text'"; fi ;;
    refuse:*)
        code=$(echo "$want" | cut -d: -f2); text=$(echo "$want" | cut -d: -f3-)
        if [ $rc = "$code" ] && grep -q -- "$text" "$T/out"; then r="ok (refused: $(grep -m1 -- "$text" "$T/out" | cut -c1-90))"
        else r="FAILED: exit $rc, want $code and a line with '$text'"; fi ;;
    esac
    echo "targets: $name: $r"
    case $r in ok*) ;; *) fail=1; tail -n 5 "$T/out" | sed 's/^/    /' ;; esac
}
smi_calls() { if [ -f "$T/nvidia-smi.calls" ]; then echo "targets: $1: FAILED: nvidia-smi was called"; fail=1; rm -f "$T/nvidia-smi.calls"; else echo "targets: $1: ok (no nvidia-smi call)"; fi; }

t "make help" ok make help
smi_calls "make help"
# make step3 first, in the fresh copy: it must build step 03 itself
t "make step3 (as STEP=3)" ok make step3
if [ -x "$T/build/step03_staged_pipeline" ]; then echo "targets: make step3 built build/step03_staged_pipeline: ok"
else echo "targets: make step3 built build/step03_staged_pipeline: FAILED: it is not there"; fail=1; fi
t "make step03" ok make step03
t "make step05" ok make step05
t "make step11 (no such step)" refuse:2:"no such step (steps: 01" make step11
smi_calls "make step3 / step03 / step05"
t "make diff STEP=03" ok make diff STEP=03
t "make diff STEP=3" ok make diff STEP=3
t "make diff STEP=08 (not octal)" ok make diff STEP=08
t "make diff STEP=9" ok make diff STEP=9
t "make diff STEP=01 (no predecessor)" refuse:2:"has no step before it" make diff STEP=01
t "make diff STEP=42 (no such step)" refuse:2:"names no step folder" make diff STEP=42
if grep -q "ignored" "$T/out"; then echo "targets: make diff: FAILED: 'ignored' in its output"; fail=1; fi
t "make diff-sizes" ok make diff-sizes
t "make ptx STEP=05" ok make ptx STEP=05
smi_calls "make diff / diff-sizes / ptx"
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" ] && [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ]; then
    t "make sass STEP=05" ok make sass STEP=05
else
    echo "targets: make sass STEP=05: not run (the toolkit lacks cuobjdump/nvdisasm: it would download them)"
fi
if [ "$GPU" = 0 ]; then
    t "make run STEP=03 (no GPU)" says:"nothing run: no GPU here" make run STEP=03
    t "make timeline STEP=03 (no GPU)" says:"nothing run: no GPU here" make timeline STEP=03
else
    t "make run STEP=03" ok make run STEP=03
fi
t "make run STEP=x" refuse:2:"names no step folder" make run STEP=x
t "make clean" ok make clean
t "make distclean" ok make distclean
exit $fail

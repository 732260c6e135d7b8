#!/bin/sh
# test_claims.sh — what the READMEs and the tools claim, where a script can
# check it without a GPU; make test runs it.  Each check can fail: it
# compares a claim with the thing it describes.
#   * every step README has the course's section order: What changed, Code
#     tour, Results, Exercises, What's next
#   * every stepNN_name/kernel.cu opens with its own step's header: its name,
#     "What changed from step NN-1", make stepNN, and only its own binary and diff
#   * a README that gives the size of a `make diff STEP=NN` ("(N lines)")
#     gives the size make diff prints
#   * README.md's table of planted bugs lists, per step, exactly the bugs its
#     kernel.cu plants (PLANTED(..plant_bug, BUG_...), numbered in common/debug.cuh)
#   * README.md's count of ptxas C7510 notes in DEBUG builds is two per step
#     that includes wgmma.cuh (the timed and the traced kernel), two per menu
#     configuration in step 10
#   * a bench duration quoted as "N runs in T" is a line "bench: N runs in T"
#     of a log under plots/results/
#   * the run counts plots/bench.sh and plots/README.md give for the whole
#     plan ("gemm N runs, all N runs", with and without the peers) are what
#     BENCH_DRY_RUN=1 counts with a stand-in binary for every step and peer
#   * make sanitize's filter (tests/sanitize.sh --kernels) lets through at
#     least one kernel of each built step, each under the mangled name the
#     filter matches (_Z<len><name>), and not the harness's L2-flush kernel
#     that a GEMM step's binary also holds
# Prints one line per check ("claims: NAME: ok" or "FAILED: why"); exits 1 if
# any failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BUILD=${COURSE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
cd "$ROOT" || exit 2
fail=0
ok() { echo "claims: $1: ok"; }
bad() { echo "claims: $1: FAILED: $2"; fail=1; }

# ---- section order -----------------------------------------------------------
for f in step[0-9]*/README.md; do
    order=$(awk '/^## What changed/ { print "changed" } /^## Code tour/ { print "tour" } /^## Results/ { print "results" }
                 /^## Exercises/ { print "exercises" } /^## What.s next/ { print "next" }' "$f" | tr '\n' ' ')
    if [ "$order" = "changed tour results exercises next " ]; then ok "$f: section order"
    else bad "$f: section order" "found '$order', want 'changed tour results exercises next'"; fi
done

# ---- make diff sizes quoted in the READMEs ---------------------------------------
for f in README.md step[0-9]*/README.md; do
    grep -n 'make diff STEP=[0-9]*.*([0-9][0-9]* lines' "$f" | while IFS= read -r line; do
        s=$(echo "$line" | sed -n 's/.*make diff STEP=\([0-9]*\).*/\1/p')
        claim=$(echo "$line" | sed -n 's/.*(\([0-9][0-9]*\) lines.*/\1/p')
        got=$(make -s --no-print-directory diff STEP="$s" 2>/dev/null | sed -n '1s/.*: \([0-9]*\) lines of kernel.cu changed.*/\1/p')
        if [ "$claim" = "$got" ]; then echo "claims: $f: make diff STEP=$s is $claim lines: ok"
        else echo "claims: $f: make diff STEP=$s: FAILED: the README says $claim lines, make diff says ${got:-nothing}"; fi
    done
done >"${TMPDIR:-/tmp}/claims.diff.$$"
cat "${TMPDIR:-/tmp}/claims.diff.$$"
grep -q FAILED "${TMPDIR:-/tmp}/claims.diff.$$" && fail=1
grep -q . "${TMPDIR:-/tmp}/claims.diff.$$" || ok "no README quotes a make diff size that could go stale"
rm -f "${TMPDIR:-/tmp}/claims.diff.$$"

# ---- each kernel.cu's header is its own step's ---------------------------------------
# The block comment that opens stepNN_name/kernel.cu names that folder, says what changed
# from step NN-1 (step 01: that it is the first), and builds, runs and diffs this step
# (make stepNN; any ./build/[debug/]stepNN_name and make diff STEP=N it names are its
# own): a header copied with its kernel from the step before would name the wrong step.
for d in step[0-9]*_*/; do
    d=${d%/}; s=${d#step}; s=${s%%_*}; n=$(echo "$s" | sed 's/^0*//')
    hdr=$(awk '{ print } /\*\// { exit }' "$d/kernel.cu")
    why=""
    echo "$hdr" | head -n1 | grep -q "^/\* $d — " || why="$why; its first line does not open with '/* $d — '"
    if [ "$n" = 1 ]; then want="What changed from the previous step: this is the first step"
    else want="What changed from step $(printf %02d $((n - 1)))"; fi
    echo "$hdr" | grep -qF "$want" || why="$why; no '$want'"
    echo "$hdr" | grep -q "^ \*   make step$s\( \|\$\)" || why="$why; no ' *   make step$s' line"
    others=$(echo "$hdr" | grep -o 'make diff STEP=[0-9]*' | grep -v "STEP=0*$n\$" | sort -u | tr '\n' ' ')
    [ -z "$others" ] || why="$why; it diffs another step: $others"
    others=$(echo "$hdr" | grep -o '\./build/\(debug/\)\{0,1\}step[0-9][0-9]*_[a-z_]*' | grep -v "/$d\$" | sort -u | tr '\n' ' ')
    [ -z "$others" ] || why="$why; it runs another step's binary: $others"
    others=$(echo "$hdr" | grep -o 'make \(DEBUG=1 \)\{0,1\}step[0-9][0-9]*' | grep -v "step$s\$" | sort -u | tr '\n' ' ')
    [ -z "$others" ] || why="$why; it builds another step: $others"
    if [ -z "$why" ]; then ok "$d/kernel.cu: its header names step $s, what changed and its build lines"
    else bad "$d/kernel.cu: header" "${why#; }"; fi
done

# ---- planted bugs ----------------------------------------------------------------
# bug numbers by name, from common/debug.cuh's enums (BUG_NAME = N)
nums=$(tr ',{}' '\n\n\n' <common/debug.cuh | sed -n 's/.*\(BUG_[A-Z0-9_]*\) *= *\([0-9][0-9]*\).*/\1 \2/p' | sort -u)
# README.md's table: after the line "| step | `--plant-bug` |", rows "| NN | 1, 2, 3 |" (or "none")
table=$(awk '/^ *\| step \| `--plant-bug` \|/ { t = 1; next } t && /^ *\|/ { sub(/^ */, ""); print; next } t { exit }' README.md)
[ -n "$table" ] || bad "README.md: the --plant-bug table" "no table headed '| step | \`--plant-bug\` |'"
for d in step[0-9]*_*/; do
    d=${d%/}; s=${d#step}; s=${s%%_*}
    [ -n "$table" ] || break
    want=$(grep -o 'PLANTED([a-z_>.-]*plant_bug, *BUG_[A-Z0-9_]*' "$d/kernel.cu" 2>/dev/null | sed 's/.*\(BUG_[A-Z0-9_]*\)$/\1/' | sort -u |
           while read -r b; do echo "$nums" | awk -v b="$b" '$1 == b { print $2 }'; done | sort -n | tr '\n' ' ')
    want=${want:-none }
    row=$(echo "$table" | awk -F'|' -v s="$s" '{ c = $2; gsub(/ /, "", c) } c == s { print $3; exit }')
    got=$(echo "$row" | tr -c '0-9\n' ' ' | tr -s ' ' '\n' | grep . | sort -n | tr '\n' ' ')
    echo "$row" | grep -qi none && got="none "
    if [ -z "$row" ]; then bad "README.md: planted bugs of step $s" "no row for step $s (its kernel.cu plants: $want)"
    elif [ "$got" = "$want" ]; then ok "README.md: planted bugs of step $s: $(echo $want)"
    else bad "README.md: planted bugs of step $s" "the table says '$got', $d/kernel.cu plants '$want'"; fi
done

# ---- ptxas's C7510 notes in DEBUG builds: one per WGMMA kernel ------------------------
# (each __global__ of a WGMMA step's kernel.cu; step 10 compiles its kernels once per
# configuration of its menu)
w=0
for f in $(grep -l '#include "wgmma.cuh"' step[0-9]*/kernel.cu); do
    c=$(grep -c '^ *MENU_CONFIG("' "$f"); [ "$c" -gt 0 ] || c=1
    w=$((w + c * $(grep -c '__global__' "$f")))
done
said=$(tr '\n' ' ' <README.md | sed -n 's/.*its timed, lean and traced kernels (\([0-9][0-9]*\) in all.*/\1/p')
if [ "$said" = "$w" ]; then ok "README.md: $said C7510 notes in DEBUG builds, one per WGMMA kernel"
else bad "README.md: C7510 notes in DEBUG builds" "the README says '${said:-nothing}', the WGMMA steps' kernels number $w"; fi

# ---- bench durations quoted ------------------------------------------------------
for f in README.md plots/README.md plots/bench.sh; do
    grep -o '[0-9][0-9]* runs in [0-9][0-9hms]*' "$f" | sort -u | while read -r q; do
        if grep -rqF "bench: $q" plots/results/; then echo "claims: $f: \"$q\" is in a log: ok"
        else echo "claims: $f: \"$q\": FAILED: no log under plots/results/ has 'bench: $q'"; fi
    done
done >"${TMPDIR:-/tmp}/claims.bench.$$"
cat "${TMPDIR:-/tmp}/claims.bench.$$"
grep -q FAILED "${TMPDIR:-/tmp}/claims.bench.$$" && fail=1
rm -f "${TMPDIR:-/tmp}/claims.bench.$$"

# ---- the bench's run counts -------------------------------------------------------
# Stand-ins for every step (build/stepNN_name) and peer (build/peers/cutlass_stepNN):
# a dry run only asks whether they are executable.  Quoted as "gemm N runs, all N
# runs", first with the peers, then without (BENCH_PEERS=0).
SB=$(mktemp -d "${TMPDIR:-/tmp}/claims.bench.XXXXXX") || exit 2
mkdir -p "$SB/peers"
for d in step[0-9]*_*/; do d=${d%/}; printf '#!/bin/sh\nexit 0\n' >"$SB/$d"; chmod +x "$SB/$d"; done
for f in peers/step[0-9]*.cu; do p=$(basename "$f" .cu); printf '#!/bin/sh\nexit 0\n' >"$SB/peers/cutlass_$p"; chmod +x "$SB/peers/cutlass_$p"; done
dry() { # dry PEERS MODE: the plan's count
    env -u STEPS -u SHAPES BENCH_DRY_RUN=1 BENCH_PEERS="$1" sh plots/bench.sh "$SB" "$SB/dry.csv" "$2" | sed -n 's/^bench: \([0-9]*\) runs.*/\1/p'
}
want="gemm $(dry 1 gemm) runs, all $(dry 1 all) runs / gemm $(dry 0 gemm) runs, all $(dry 0 all) runs"
rm -rf "$SB"
for f in plots/bench.sh plots/README.md; do
    said=$(tr '\n' ' ' <"$f" | sed 's/[#`*]//g' | tr -s ' ' | grep -o 'gemm [0-9]* runs, all [0-9]* runs' | head -n2 | tr '\n' '/' | sed 's|/$||; s|/| / |')
    if [ "$said" = "$want" ]; then ok "$f: the bench's run counts ($want)"
    else bad "$f: the bench's run counts" "it says '${said:-nothing}', a dry run with every binary counts '$want' (with the peers / without)"; fi
done

# ---- make sanitize's filter ------------------------------------------------------
built=0
for bin in "$BUILD"/step[0-9]*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    built=$((built + 1))
    name=$(basename "$bin")
    ks=$(sh tests/sanitize.sh --kernels "$bin")
    syms=$(nm "$bin" 2>/dev/null | awk '{ print $NF }')
    miss=""
    for k in $ks; do echo "$syms" | grep -q "^_Z${#k}$k" || miss="$miss $k"; done
    flush=0; echo "$syms" | grep -q '__device_stub__Z15l2_flush_kernel' && flush=1
    if [ -z "$ks" ]; then bad "sanitize filter of $name" "no kernel of the step found: make sanitize would check nothing"
    elif [ -n "$miss" ]; then bad "sanitize filter of $name" "no symbol _Z<len><name> for:$miss (the filter would not match them)"
    elif echo "$ks" | grep -qx l2_flush_kernel; then bad "sanitize filter of $name" "it lets the harness's l2_flush_kernel through"
    else ok "sanitize filter of $name: $(echo $ks | tr ' ' ',')$([ $flush = 1 ] && echo ' (l2_flush_kernel left out)')"; fi
done
[ "$built" -gt 0 ] || bad "sanitize filters" "no step binary in $BUILD (make first)"
exit $fail

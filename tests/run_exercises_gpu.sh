#!/bin/sh
# run_exercises_gpu.sh — every command the step READMEs' exercises (and
# README.md) tell the learner to run, run once for real on a GPU machine (an
# H100 or H200), and what each did: its exit code, its time, and the line of
# its output that matters.  tests/test_exercises.sh checks the same commands
# without a GPU (make test); this is its GPU half, never part of make test.
#   sh tests/run_exercises_gpu.sh BUILD OUT [README ...]
#                                  default READMEs: README.md step*/README.md
# BUILD: a build made beforehand and carried to the GPU machine (make all and
#        make DEBUG=1 all: BUILD/stepNN_* and BUILD/debug/stepNN_*).  Nothing
#        of it is rebuilt (where the sources' copies look newer to make, make
#        -t marks it up to date, and the table says so); the commands that
#        build a variant (make stepNN BUILD=build/NAME, nvcc, make ptx) build
#        it for real, into BUILD/NAME, under a time limit.
# OUT:   OUT/exercises_gpu.md (the table and its counts), OUT/exercises_gpu.tsv
#        (its rows), OUT/logs/*.log (each command, then its output).
#
# The commands are those of tests/exercises_extract.awk, as for
# test_exercises.sh.  Each runs once, through /bin/sh as written, in a scratch
# copy of the tree whose build/ is BUILD (so ./build/... needs no mapping, and
# what the commands write, plots/results/ among it, never reaches this tree):
#   a placeholder      `--work W`: once per value the exercise gives (a for loop)
#   flags alone        `--stages 2`: where every flag has a plain value, the
#                      exercise's last command before it that runs the README's
#                      step, with those flags after its own (the READMEs' "the
#                      same with --stages 8"; a flag given twice, the last
#                      wins); with none before it, the step with those flags
#                      and its other options at their defaults.  In the DEBUG
#                      build for --plant-bug or where that command ran it
#   a source file      whose header holds the command that builds it: that command
#   fit_chooser.py DIR on a copy of step 10's logs less the files the exercise names
# A command that several READMEs name runs once (the table lists each place).
# No code edit an exercise asks for is applied: every command runs the
# lesson's code as committed.  So the expected outcome is exit 0 and no
# "check FAILED" or hang report, but for a planted bug (--plant-bug: a
# non-zero exit and the hang report, as the READMEs say) and a pipe into grep
# (its exit code is grep's: recorded, "expected ?").
# Skipped, each with why (never counted as passed): make test (needs the
# Check library), make deps, make peers (the network), make deps-system
# (root), make clean and make distclean (they remove BUILD), git checkout (it
# undoes an edit this run never made), make sass without cuobjdump/nvdisasm,
# a tool (compute-sanitizer, ncu, python3) this machine lacks; and, unless
# EXERCISES_LONG=1, the commands longer than a GPU call: the whole make bench
# and make sanitize.
#
# Settings (environment):
#   EXERCISES_DRY=1            list what would run (or be skipped, and why), each
#                              with an estimate of its time, the total per README
#                              and groups of READMEs under 7 minutes; run nothing
#                              (no GPU needed; OUT is not written)
#   EXERCISES_ONLY="top 05"    only these READMEs (top: README.md; stepNN or NN:
#                              that step's), to split the run over GPU calls
#   EXERCISES_TIMEOUT=60       seconds allowed to a command that only runs step binaries
#   EXERCISES_BUILD_TIMEOUT=300  to one that runs make, nvcc, a script or a tool
#   EXERCISES_LONG=1           run the long ones too, EXERCISES_LONG_TIMEOUT=3600 each
#   EXERCISES_SKIP='REGEX'     skip the commands REGEX matches (grep -E), each with
#                              that reason in the table: e.g. an experiment's script,
#                              which builds its variants and times them for minutes
#   EXERCISES_APPEND=1         add to OUT's table (a run split over calls) instead
#                              of starting it again (a command run again replaces its row)
# One line per command: "[i/N] FILE:LINE: exit RC, Ns: OUTCOME: what it
# printed -- COMMAND"; then the counts.  Exit 1 if a command failed, else 3
# if one found no GPU it can run on (as the steps do), else 0; 2 for bad use.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[ $# -ge 2 ] || { echo "usage: sh tests/run_exercises_gpu.sh BUILD OUT [README ...] (EXERCISES_DRY=1: list only)" >&2; exit 2; }
BUILD=$1 OUT=$2; shift 2
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
DRY=${EXERCISES_DRY:-0} LONG=${EXERCISES_LONG:-0}
TO_RUN=${EXERCISES_TIMEOUT:-60} TO_BUILD=${EXERCISES_BUILD_TIMEOUT:-300} TO_LONG=${EXERCISES_LONG_TIMEOUT:-3600}
# The commands run as a learner types them: a top-level make.
unset MAKELEVEL MAKEFLAGS MFLAGS
cd "$ROOT" || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/run_exercises_gpu.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
tab=$(printf '\t') us=$(printf '\037')   # us: the plan's separator (read keeps its empty fields)

# ---- the READMEs: the arguments, EXERCISES_ONLY, or all
if [ $# -eq 0 ] && [ -n "${EXERCISES_ONLY:-}" ]; then
    for w in $EXERCISES_ONLY; do
        case $w in
        top|README.md) set -- "$@" README.md ;;
        *) n=$(echo "$w" | sed -n 's/^\(step\)\{0,1\}0*\([0-9][0-9]*\)$/\2/p')
           f=$(ls step"$(printf %02d "${n:-0}")"_*/README.md 2>/dev/null | head -n1)
           [ -n "$n" ] && [ -n "$f" ] || { echo "EXERCISES_ONLY: $w names no README (top, stepNN or NN)" >&2; exit 2; }
           set -- "$@" "$f" ;;
        esac
    done
fi
# shellcheck disable=SC2046  # the step folders have no spaces
[ $# -gt 0 ] || set -- README.md $(ls step[0-9]*/README.md)
for f in "$@"; do [ -f "$f" ] || { echo "no such README: $f" >&2; exit 2; }; done

# ---- the jobs: FILE:LINE TAB TEXT TAB RUN (what the README says, what runs)
# (LINE moved before TEXT: read would join an empty PLACEHOLDERS to it)
awk -v lines=1 -f "$HERE/exercises_extract.awk" "$@" |
    awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, $6, $4, $5 }' >"$T/records"
last_key="" last_cmd="" last_ph="" last_debug=0   # the exercise's last command that runs its step's binary, and its
                                     # placeholders (flags alone extend it)
# with_values RUN PH: RUN once per value of each placeholder PH names ("VAR=v1 v2;...": a for loop)
with_values() {
    r=$1 h=$2
    while [ -n "$h" ]; do
        p=${h%%;*}; h=${h#*;}
        var=${p%%=*}; vals=${p#*=}
        [ -n "$vals" ] || { r="echo 'no values for the placeholder $var'; exit 2"; break; }
        r="for $var in $vals; do $(printf '%s\n' "$r" | sed -E "s/ $var( |\$)/ \$$var\1/g"); done"
    done
    printf '%s\n' "$r"
}
while IFS="$tab" read -r file item kind line text ph; do
    dir=$(basename "$(dirname "$file")")
    case $kind in
    cmd)
        run=$text
        case $text in
        "./build/$dir "*|"./build/debug/$dir "*)
            case $text in *[\;\|\&\$\<\>]*) ;; *)
                last_key="$file:$item" last_ph=$ph last_debug=0
                case $text in ./build/debug/*) last_debug=1 ;; esac
                last_cmd=${text#./build/debug/$dir }; last_cmd=${last_cmd#./build/$dir } ;;
            esac ;;
        esac
        case $text in
        "fit_chooser.py DIR")
            # step 10's refit on a copy of its logs, less the files the exercise names
            rm=$(awk -F'\t' -v f="$file" -v i="$item" '$1 == f && $2 == i && $3 == "file" && $5 ~ /\/.*\.log$/ { printf " fit_logs/%s", $5 }' "$T/records")
            run="rm -rf fit_logs && cp -r step10_autotune/experiments/logs/shareb fit_logs && rm$rm && python3 step10_autotune/experiments/fit_chooser.py fit_logs"   # the folder the exercise copies: fit_chooser.py's default
            ph="" ;;
        esac
        # placeholders: each value the exercise gives (none: the job says so)
        run=$(with_values "$run" "$ph") ;;
    flags)
        # as test_exercises.sh runs them: only when every flag has a plain value
        vals=0 plain=1
        for w in $text; do
            case $w in --*) ;; *) if echo "$w" | grep -Eq '^-?[a-z0-9]+$'; then vals=1; else plain=0; fi ;; esac
        done
        [ $vals = 1 ] && [ $plain = 1 ] || continue
        args=$text h="" debug=0
        [ "$last_key" = "$file:$item" ] && args="$last_cmd $text" h=$last_ph debug=$last_debug
        case " $args " in *" --plant-bug "*) debug=1 ;; esac
        if [ $debug = 1 ]; then run="./build/debug/$dir $args"; else run="./build/$dir $args"; fi
        run=$(with_values "$run" "$h") ;;
    header)
        f=$text; [ -f "$f" ] || f=$dir/$text
        run=$(sed -n '1,/\*\//p' "$f" 2>/dev/null | sed 's/^ *\** *//' | awk '/\\$/ { sub(/\\$/, ""); l = l $0; next } { print l $0; l = "" }' |
              grep '^nvcc ' | head -n1 | tr -s ' ')
        [ -n "$run" ] || run="echo 'no nvcc command in the header of $text'; exit 2" ;;
    *) continue ;;
    esac
    printf '%s:%s\t%s\t%s\n' "$file" "$line" "$text" "$run"
done <"$T/records" >"$T/jobs.all"
# one job per command run: the places of its repeats joined to the first's
awk -F'\t' '{ if ($3 in at) { where[at[$3]] = where[at[$3]] ", " $1; next }
              at[$3] = ++n; where[n] = $1; rest[n] = $2 "\t" $3 }
            END { for (i = 1; i <= n; i++) print where[i] "\t" rest[i] }' "$T/jobs.all" >"$T/jobs"
N=$(wc -l <"$T/jobs" | tr -d ' ')

# ---- per job: why it is skipped, what it is expected to do, its time limit and estimate
have() { command -v "$1" >/dev/null 2>&1; }
# skip_reason RUN: the reason, or nothing (a long one: "long: why")
skip_reason() {
    c=$(printf '%s\n' "$1" | sed -E 's/^([A-Z_][A-Z0-9_]*=("[^"]*"|[^ ]*) +)+//')
    case $c in
    "make test"|"make test "*) echo "needs the Check library, not on this machine (README.md: Running on a GPU machine); make test is a call of its own" ;;
    "make deps-system"*) echo "installs packages as root (apt-get), from the network" ;;
    "make deps"|"make deps "*|"make peers"*) echo "downloads (Debian's Check, PyPI's CUTLASS and SASS tools): no network here" ;;
    "make clean"*|"make distclean"*) echo "removes BUILD, which the other commands run" ;;
    "git "*) echo "undoes a code edit, and this run makes none (the tree is left as it is)" ;;
    "make bench"|"make bench "*)
        case " $1 " in *" BENCH=quick "*|*" STEPS="*|*" SHAPES="*) ;;
        *) echo "long: the whole bench, several 10-minute GPU calls (plots/README.md)" ;; esac ;;
    "make sanitize"*)
        case " $1 " in *" BUILD=build/"*) b=" after building every step into that BUILD" ;; *) b="" ;; esac
        echo "long: four compute-sanitizer tools on every step$b (tests/sanitize.sh splits it over calls: SANITIZE_STEPS)" ;;
    "make sass"*)
        if ! { have cuobjdump || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" ] || ls "$BUILD"/deps/cuobjdump-*/.ok >/dev/null 2>&1; } ||
           ! { have nvdisasm || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ] || ls "$BUILD"/deps/nvdisasm-*/.ok >/dev/null 2>&1; }; then
            echo "needs cuobjdump and nvdisasm: not in the toolkit here nor in BUILD/deps (make deps), and no network"
        fi ;;
    esac
    for t in compute-sanitizer ncu python3; do
        case " $c" in *" $t "*) have "$t" || { echo "no $t on this machine"; return; } ;; esac
    done
}
# expected RUN: 0, hang (a planted bug: non-zero and a hang report) or ? (a pipe into grep)
expected() {
    case $1 in *--plant-bug*) echo hang ;; *"| grep"*) echo "?" ;; *) echo 0 ;; esac
}
# limit RUN: the time limit of a command that only runs step binaries, or of one that builds, or runs a tool
limit() {
    case " $1 " in
    *" make "*|*" nvcc "*|*" sh "*|*" python3 "*|*" compute-sanitizer "*|*" ncu "*) echo "$TO_BUILD" ;;
    *) echo "$TO_RUN" ;;
    esac
}
# estimate RUN: seconds, roughly: a step run 2 s (20 with --tune; times each
# for loop's values), a variant build 75 s, nvcc 60 s, make ptx 30 s, the quick bench
# 150 s, the refit script 90 s, an experiment's script handed a build folder (it builds
# its variants and times them) 300 s, its limit, compute-sanitizer 90 s, ncu 45 s.
# Upper bounds for planning calls: on the H200 machine's 16 cores a variant build took 2-4 s
# (step 10's, five configurations: 26-33 s; plots/results/session_2026-11-29b/)
estimate() {
    printf '%s\n' "$1" | awk '{
        s = $0; mult = 1
        while (match(s, /for [A-Za-z_]+ in [^;]*;/)) { mult *= split(substr(s, RSTART, RLENGTH), w, " ") - 3; s = substr(s, RSTART + RLENGTH) }
        t = 0; n = split($0, part, /[;&|]+/)
        for (i = 1; i <= n; i++) {
            p = part[i]; sub(/^ *((do|then) +)?/, "", p)
            while (p ~ /^[A-Z_][A-Z0-9_]*=("[^"]*"|[^ ]*) /) { sub(/^[A-Z_][A-Z0-9_]*=("[^"]*"|[^ ]*) +/, "", p) }
            split(p, w, " ")
            if (w[1] == "make") {
                if (p ~ / sanitize/) t += 1800; else if (p ~ / bench/) t += (p ~ /BENCH=quick/ ? 150 : (p ~ /STEPS=|SHAPES=/ ? 60 : 3600))
                else if (p ~ / ptx/) t += 30; else if (p ~ / (run|timeline)( |$)/) t += 5; else if (p ~ / sass/) t += 5
                else if (p ~ /BUILD=build\/[A-Za-z0-9_]/ && p !~ /BUILD=build\/debug/ && p ~ / step[0-9]+( |$)/) t += 75
                else t += 2
            } else if (w[1] == "nvcc") t += 60
            else if (w[1] == "sh") t += (p ~ /model_refit/ ? 90 : (p ~ /experiments\/.* build\// ? 300 : 2))
            else if (w[1] == "python3") t += 5
            else if (w[1] == "compute-sanitizer") t += 90
            else if (w[1] == "ncu") t += 45
            else if (w[1] ~ /(^|\/)build\/|^\$/) t += (p ~ / --tune/ ? 20 : 2) * mult
        }
        print t }'
}
: >"$T/plan"
while IFS="$tab" read -r where text run; do
    skip=$(skip_reason "$run")
    if [ -z "$skip" ] && [ -n "${EXERCISES_SKIP:-}" ] && printf '%s\n' "$run" | grep -Eq -- "$EXERCISES_SKIP"; then
        skip="EXERCISES_SKIP matched it: not run in this call"
    fi
    to=$(limit "$run")
    case $skip in long:*)
        if [ "$LONG" = 1 ]; then skip="" to=$TO_LONG; else skip="longer than a GPU call (EXERCISES_LONG=1 runs it): ${skip#long: }"; fi ;;
    esac
    if [ -n "$skip" ]; then est=0; else est=$(estimate "$run"); fi
    printf '%s\037%s\037%s\037%s\037%s\037%s\037%s\n' "$where" "$text" "$run" "$skip" "$(expected "$run")" "$to" "$est" >>"$T/plan"
done <"$T/jobs"

# ---- the dry run: the list, the estimates, groups of READMEs under 7 minutes
if [ "$DRY" = 1 ]; then
    i=0
    while IFS="$us" read -r where text run skip exp to est; do
        i=$((i + 1))
        if [ -n "$skip" ]; then echo "[$i/$N] $where: SKIP: $skip -- $text"
        else
            x=""; [ "$run" = "$text" ] || x=" (as: $run)"
            echo "[$i/$N] $where: run, ~${est}s, limit ${to}s, expected $exp -- $text$x"
        fi
    done <"$T/plan"
    awk -F'\037' '
        function mmss(s) { return sprintf("%dm%02ds", int(s / 60), s % 60) }
        { f = $1; sub(/:.*/, "", f); sub(/\/README\.md$/, "", f); sub(/_.*/, "", f); if (f == "README.md") f = "top"
          if (!(f in t)) o[++k] = f
          if ($4 != "") { sk++; skn[f]++ } else { r++; rn[f]++; t[f] += $7; tot += $7 } t[f] += 0 }
        END {
            printf "exercises-gpu: dry run: %d commands: %d to run (about %s: a step run counted 2 s, a variant build 75 s), %d skipped\n", NR, r, mmss(tot), sk
            printf "exercises-gpu: per README (to run, skipped, estimate):"
            for (i = 1; i <= k; i++) printf " %s %d+%d %s;", o[i], rn[o[i]], skn[o[i]], mmss(t[o[i]])
            printf "\nexercises-gpu: groups under 7 minutes by the estimate (EXERCISES_ONLY=...):"
            g = ""; gt = 0
            for (i = 1; i <= k; i++) {
                if (g != "" && gt + t[o[i]] > 420) { printf " \"%s\" (%s);", g, mmss(gt); g = ""; gt = 0 }
                g = (g == "" ? o[i] : g " " o[i]); gt += t[o[i]]
            }
            if (g != "") printf " \"%s\" (%s)", g, mmss(gt)
            printf "\n"
        }' "$T/plan"
    exit 0
fi

# ---- the real run ----------------------------------------------------------------
# (all of make all's and make DEBUG=1 all's outputs: make -t below would
# create an empty file for one missing)
missing=""
for k in step[0-9]*/kernel.cu common/*.c; do
    case $k in common/*) d=common/$(basename "$k" .c).o ;; *) d=${k%/kernel.cu} ;; esac
    [ -s "$BUILD/$d" ] || missing="$missing $d"
    [ -s "$BUILD/debug/$d" ] || missing="$missing debug/$d"
done
if [ -n "$missing" ]; then
    echo "exercises-gpu: $BUILD lacks$missing: build it first (make all && make DEBUG=1 all) and carry it here" >&2
    exit 2
fi
# The scratch copy of the tree (the files git knows, or all but build/ and
# .git; tar keeps their times, so make compares them as here), build -> BUILD.
W=$T/tree
mkdir -p "$W"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -c -o --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done |
        tar -cf - -T - | tar -C "$W" -xf -
else
    tar --exclude=./build --exclude=./.git -cf - . | tar -C "$W" -xf -
fi
rm -rf "$W/build"; ln -s "$BUILD" "$W/build"
note=""
if ! (cd "$W" && make -q all && make -q DEBUG=1 all) >/dev/null 2>&1; then
    (cd "$W" && make -s -t all && make -s -t DEBUG=1 all) >/dev/null 2>&1
    note="make found the carried build older than its sources (file times), so make -t marked it up to date: it ran as carried."
fi
rev=$(git describe --always --dirty 2>/dev/null || echo "unknown (no git)")
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 2>/dev/null | head -n1)
[ -n "$gpu" ] || gpu="no GPU that nvidia-smi sees"
mkdir -p "$OUT/logs"
if [ "${EXERCISES_APPEND:-0}" != 1 ]; then rm -f "$OUT/exercises_gpu.tsv" "$OUT/exercises_gpu.calls" "$OUT"/logs/*.log; fi
echo "- $(date -u +%Y-%m-%dT%H:%M:%SZ): $gpu; git $rev; BUILD $BUILD; READMEs: $*; limits ${TO_RUN}/${TO_BUILD} s${CUDA_VISIBLE_DEVICES+; CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES}. $note" >>"$OUT/exercises_gpu.calls"
echo "exercises-gpu: $N commands from $*; BUILD $BUILD; logs in $OUT/logs"
[ -z "$note" ] || echo "exercises-gpu: $note"

# what OUTPUT printed that matters: the hang report's or check's failure, then
# the summary lines (one: its shape, time, ratio, check; several: the times
# and ratios), the configuration line (step 10), a script's scores; else its last line
keyline() {
    awk '
    /check FAILED/ && bad == "" { bad = $0 }
    /pipeline hang diagnosed|HANG: / && hang == "" { hang = $0 }
    /no CUDA device|this step needs [0-9]|nothing run: no GPU/ && nogpu == "" { nogpu = $0 }
    /\| ratio [0-9.]+ \|/ {
        n++; split($0, f, / \| /); one = f[1]; ok += ($0 ~ /check ok/); sk += ($0 ~ /check skipped/)
        r = $0; sub(/.*\| ratio /, "", r); sub(/ .*/, "", r); ratios = ratios " " r
        ms = f[1]; sub(/ ms .*/, "", ms); sub(/.* /, "", ms); times = times " " ms
        chk = $0; sub(/.*\| /, "", chk); sub(/:.*/, "", chk); last_r = r
    }
    /^  configuration: / { conf = $0; sub(/^  /, "", conf) }
    /^(fit|held) [0-9]+ \/ [0-9]+/ { score = score (score == "" ? "" : "; ") $0 }
    NF { last = $0 }
    END {
        s = (nogpu != "" ? nogpu : (hang != "" ? hang : bad))
        if (n == 1) t = one " | ratio " last_r " | " chk
        else if (n > 1) t = n " runs: ms" times "; ratio" ratios "; check ok " ok "/" n (sk ? ", skipped " sk : "")
        if (t != "" && conf != "" && n == 1) t = t "; " conf
        if (t == "") t = (score != "" ? score : (last != "" ? last : "(no output)"))
        if (s != "" && s != t) t = s (t != "" && nogpu == "" ? " / " t : "")
        gsub(/\t/, " ", t); print substr(t, 1, 300)
    }' "$1"
}
i=0
while IFS="$us" read -r where text run skip exp to est; do
    i=$((i + 1))
    if [ -n "$skip" ]; then
        echo "[$i/$N] $where: SKIP: $skip -- $text"
        printf '%s\t%s\t%s\t-\t-\t%s\tskipped\t%s\t\n' "$where" "$text" "$run" "$exp" "$skip" >>"$OUT/exercises_gpu.tsv"
        continue
    fi
    tag=$(printf '%03d_%s' "$i" "$(echo "${where%%,*}" | sed 's/^\(.*\/\)\{0,1\}\(step[0-9]*\)_[^/]*\/README\.md:/\2_L/; s/^README\.md:/README_L/; s/[^A-Za-z0-9_]/_/g')")
    log=$OUT/logs/$tag.log
    t0=$(date +%s)
    (cd "$W" && exec timeout -k 10 "$to" /bin/sh -c "$run") </dev/null >"$T/out" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0))
    { echo "# $where: $text"; [ "$run" = "$text" ] || echo "# ran: $run"
      echo "# exit $rc after ${secs}s (limit ${to}s); expected: $exp"; cat "$T/out"; } >"$log"
    key=$(keyline "$T/out" | sed "s#$W/##g")
    if [ $rc = 124 ] || [ $rc = 137 ]; then out="failed"; key="timed out after ${to}s${key:+; $key}"
    elif [ $rc = 3 ] || grep -Eq 'no CUDA device|this step needs [0-9]|nothing run: no GPU' "$T/out"; then out="no GPU"
    elif [ "$exp" = hang ]; then
        if [ $rc = 0 ]; then out="failed"; key="exit 0: the planted bug went unreported${key:+; $key}"
        elif grep -Eq 'pipeline hang diagnosed|HANG: ' "$T/out"; then out="as the README says"
        else out="failed"; key="non-zero, but no hang report${key:+; $key}"; fi
    elif [ "$exp" = "?" ]; then out="expected ?"
    elif [ $rc = 0 ] && ! grep -Eq 'check FAILED|pipeline hang diagnosed|HANG: ' "$T/out"; then out="ok"
    else out="failed"; fi
    echo "[$i/$N] $where: exit $rc, ${secs}s: $out: $key -- $text"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$where" "$text" "$run" "$rc" "$secs" "$exp" "$out" "$key" "logs/$tag.log" >>"$OUT/exercises_gpu.tsv"
done <"$T/plan"

# ---- the table: every row of OUT's tsv (a command run again, same place: its last row)
awk -F'\t' -v calls="$OUT/exercises_gpu.calls" '
    function cell(s) { gsub(/\|/, "\\|", s); gsub(/`/, "'"'"'", s); return s }
    { k = $1 SUBSEP $2; if (!(k in row)) o[++n] = k; row[k] = $0 }
    END {
        print "# The exercises, run once on a GPU"
        print ""
        print "Written by `tests/run_exercises_gpu.sh` (its header says how to run it). The calls:"
        while ((getline l < calls) > 0) print l
        print ""
        print "Every command ran the lesson'"'"'s code as committed: no code edit an exercise asks for was applied, so"
        print "what a README predicts for an edited kernel is not checked here. Expected: exit 0 and no `check FAILED`;"
        print "for a planted bug (`--plant-bug`) a non-zero exit with the hang report; a pipe into grep: its exit is"
        print "grep'"'"'s, recorded (`?`). A command several READMEs name ran once. Variants built here print git"
        print "`unknown`: they were built in a scratch copy of the tree, without .git."
        print ""
        for (i = 1; i <= n; i++) { split(row[o[i]], f, "\t"); c[f[7]]++ }
        printf "**%d commands: %d ran ok (exit 0), %d exited as the README says, %d with no expected exit (recorded), %d failed, %d found no GPU, %d skipped.**\n\n",
            n, c["ok"], c["as the README says"], c["expected ?"], c["failed"], c["no GPU"], c["skipped"]
        print "| # | where | command | exit | s | expected | outcome | what it printed (or why skipped) |"
        print "|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= n; i++) {
            split(row[o[i]], f, "\t")
            cmd = "`" cell(f[2]) "`"; if (f[3] != f[2]) cmd = cmd ", as `" cell(f[3]) "`"
            want = (f[6] == "hang" ? "non-zero, hang report" : f[6])
            what = cell(f[8]); if (f[9] != "") what = what " ([log](" f[9] "))"
            printf "| %d | %s | %s | %s | %s | %s | %s | %s |\n", i, f[1], cmd, f[4], f[5], want, f[7], what
        }
    }' "$OUT/exercises_gpu.tsv" >"$OUT/exercises_gpu.md"
counts=$(sed -n 's/^\*\*\(.*\)\*\*$/\1/p' "$OUT/exercises_gpu.md")
echo "exercises-gpu: $counts (table: $OUT/exercises_gpu.md)"
case $counts in *" 0 failed, 0 found no GPU,"*) exit 0 ;; *" 0 failed,"*) exit 3 ;; *) exit 1 ;; esac

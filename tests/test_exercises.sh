#!/bin/sh
# test_exercises.sh — every command a step README's Exercises section tells
# the learner to run (and every command README.md names) is still valid as
# written: the flags, values, make targets and variables, scripts and files it
# names exist today.  make test runs it; it needs no GPU and leaves the tree
# as it found it.
#   sh tests/test_exercises.sh [README ...]   default: README.md step*/README.md
#
# What is a command: each code span (`...`, also across a line break) and
# each line of a fenced block of an Exercises section (README.md: the whole
# file, its generated blocks left out) that starts with ./build/..., make,
# sh, python3, nvcc, for, git, compute-sanitizer or ncu (after VAR=value
# prefixes).  In an Exercises section also: a span of flags alone
# (`--stages 2`, `--config 64x128`: "the same with ..."), a score the
# exercise quotes from a script it runs without a GPU (`fit 30 / 32`), and a
# source file whose header holds the command that builds it ("the command is
# in its header"); and, checked apart from the commands, a file or folder
# it points to and code it asks to edit (`stage_offset`, `REGS_*`).  Spans
# with NN or ... are patterns, not commands.
#
# How each is checked (the command runs through /bin/sh as written, with
# the programs it calls replaced by checkers; nothing under build/ is
# written but what make builds anyway, variants go to a scratch folder):
#   a step binary     run with its flags on no visible GPU
#                     (CUDA_VISIBLE_DEVICES=-1, so a GPU machine runs nothing
#                     either): it must not exit 2 (a bad flag or value); 3
#                     (no GPU) is the expected outcome, 0 for --help.  Step
#                     10's --config NAME, which the harness checks only on a
#                     GPU, must be on its menu (kernel.cu's MENU_CONFIG).  A
#                     placeholder value (`--work W`) takes each value the
#                     exercise gives ("for W = 0, 16, 32").
#   flags alone       every flag is one the README's step takes (its --help;
#                     the DEBUG build's for --plant-bug); with plain values,
#                     the step runs with them as above.
#   make ...          every VAR= is one the Makefile reads, STEP= names a step
#                     folder (and one before it for diff), every -DNAME in
#                     NVCC_EXTRA is read by an #if/#ifdef/#ifndef of the step
#                     or common/, and make -n succeeds.  A step built into
#                     its own BUILD=build/NAME is built for real into the
#                     scratch folder when NVCC_EXTRA defines a macro (else
#                     the normal build stands in), so that ./build/NAME/...
#                     runs; make run ARGS='...' runs the step with ARGS.
#   nvcc ...          compiles (output into the scratch folder; build/common
#                     objects from the build); the -D macros as for make.
#   sh / python3      the script exists and parses (sh -n, py_compile); the
#                     VAR= prefixes are read by it; it runs where it needs no
#                     GPU (step 10's fit_chooser.py, plots/bench.sh under
#                     BENCH_DRY_RUN=1, tests/sanitize.sh --kernels) and must
#                     exit 0.
#   git checkout P    P is tracked (nothing is checked out).
#   ncu / compute-sanitizer
#                     the kernel name filter matches a kernel of the binary;
#                     the binary runs as above.
#   a file, code      the file or folder exists (from the root, the step's
#                     folder or its experiments/ or experiments/logs/); every
#                     name with an underscore is in the step's sources,
#                     common/ or tests/ (NAME_* as a prefix).
# First a fixture (a README of wrong commands, each must fail, and a right
# one), then the READMEs.
# What it cannot check without a GPU: what the exercises say to observe,
# whether the code edits they ask for build and do what they say, hangs and
# hang reports of DEBUG builds, the timings, and rules a step checks only
# once it has a device (a shape its prepare refuses): tests/run_exercises_gpu.sh
# runs the same commands once on a GPU and records what they did.
# One line per check ("exercises: FILE#ITEM: CMD: ok (...)" or
# "...: FAILED: why"), then a count per README: commands + names and files;
# exit 1 if any failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BUILD=${COURSE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
# The commands run as a learner types them: a top-level make.
unset MAKELEVEL MAKEFLAGS MFLAGS
cd "$ROOT" || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/test_exercises.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
# shellcheck disable=SC2046  # the step folders have no spaces
[ $# -gt 0 ] || set -- README.md $(ls step[0-9]*/README.md)

# The binaries the commands name: the normal build and the DEBUG one (make
# test has built both; up to date, this costs nothing).
if ! make -s --no-print-directory BUILD="$BUILD" all >"$T/build.log" 2>&1 ||
   ! make -s --no-print-directory DEBUG=1 BUILD="$BUILD/debug" all >>"$T/build.log" 2>&1; then
    echo "exercises: building the steps: FAILED: make all (and DEBUG=1) did not succeed:"
    tail -n 5 "$T/build.log" | sed 's/^/    /'
    exit 1
fi

# ---- the checkers: one script, called by the name of the program it stands in for
mkdir -p "$T/bin" "$T/xbuild"
cat >"$T/bin/checker" <<'EOF'
#!/bin/sh
# Stands in for a program a README command calls (see test_exercises.sh).
# Appends "ok WHAT" or "bad WHY" lines to $EX_LOG and returns 0, so that a
# chain (make ... && ./build/...) goes on to its next command.
PATH=$EX_PATH
ok() { echo "ok $*" >>"$EX_LOG"; }
bad() { echo "bad $*" >>"$EX_LOG"; }
cd "$EX_ROOT" || exit 0
# defines NAME FILE...: an #if/#ifdef/#ifndef/#elif of FILE... reads NAME
defines() {
    n=$1; shift
    grep -Eqs "^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif)[^A-Za-z0-9_](.*[^A-Za-z0-9_])?$n([^A-Za-z0-9_]|\$)" "$@"
}
# check_macros SRCDIR WORDS...: each -DNAME among WORDS is read by SRCDIR's sources or common/
check_macros() {
    d=$1 cm=0; shift
    for w in "$@"; do
        case $w in -D*) ;; *) continue ;; esac
        m=${w#-D}; m=${m%%=*}
        defines "$m" "$d"/*.cu "$d"/*.h common/*.h common/*.cuh common/*.c ||
            { bad "-D$m: no #if/#ifdef/#ifndef in $d or common/ reads it (the build would ignore it)"; cm=1; }
    done
    return $cm
}
# step_dir N: the step folder of step number N (03, 3), or nothing
step_dir() {
    n=$(echo "$1" | sed -n 's/^0*\([0-9][0-9]*\)$/\1/p')
    [ -n "$n" ] || return 0
    for d in step$(printf %02d "$n")_*/; do [ -f "$d/kernel.cu" ] && echo "${d%/}" && return 0; done
}
# binary PATH: the file a build/... path of a README stands for
binary() {
    r=${1#./}
    case $r in build/*) r=${r#build/} ;; *) return 1 ;; esac
    if [ -e "$EX_T/xbuild/$r" ]; then echo "$EX_T/xbuild/$r"
    elif [ -x "$EX_BUILD/$r" ]; then echo "$EX_BUILD/$r"
    else return 1; fi
}
runbin() {
    p=$1; shift
    if ! bin=$(binary "$p"); then
        bad "$p: no such binary (make builds build/stepNN_*, make DEBUG=1 build/debug/; a BUILD=build/NAME variant or an nvcc -o output needs its command first)"
        return
    fi
    # step 10's --config: on a GPU the harness checks the name (exit 2); here, its menu
    prev=""
    for a in "$@"; do
        if [ "$prev" = --config ]; then
            src=$(basename "$bin"); src=$src/kernel.cu
            if [ -f "$src" ] && ! grep -q "^ *MENU_CONFIG(\"$a\"" "$src"; then
                bad "$p --config $a: not on the menu ($(sed -n 's/^ *MENU_CONFIG("\([^"]*\)".*/\1/p' "$src" | tr '\n' ' ' | sed 's/ $//'))"
                return
            fi
        fi
        prev=$a
    done
    CUDA_VISIBLE_DEVICES=-1 timeout 60 "$bin" "$@" >"$EX_T/run.out" 2>&1 </dev/null
    rc=$?
    case $rc in
    3) ok "exit 3 (no GPU)" ;;
    0) ok "exit 0" ;;
    2) bad "$p $*: exit 2: $(tail -n1 "$EX_T/run.out")" ;;
    *) bad "$p $*: exit $rc: $(tail -n1 "$EX_T/run.out")" ;;
    esac
}
mk() {
    build="" debug="" extra="" step="" args="" has_args=0 targets=""
    for a in "$@"; do
        case $a in
        -*) ;;
        [A-Za-z_]*=*)
            v=${a%%=*}; val=${a#*=}
            grep -Fq "\$($v)" Makefile || bad "make $v=: the Makefile reads no variable $v"
            case $v in
            BUILD) build=$val ;; DEBUG) debug=$val ;; NVCC_EXTRA) extra=$val ;; STEP) step=$val ;;
            ARGS) args=$val; has_args=1 ;;
            esac ;;
        *) targets="$targets $a" ;;
        esac
    done
    sd=""
    if [ -n "$step" ]; then
        sd=$(step_dir "$step")
        [ -n "$sd" ] || bad "make STEP=$step: no step folder"
    fi
    for t in $targets; do
        case $t in
        run|timeline|diff|sass|ptx) [ -n "$step" ] || bad "make $t: needs STEP=NN" ;;
        esac
        if [ "$t" = diff ] && [ -n "$sd" ]; then
            n=$(echo "$step" | sed 's/^0*//')
            [ -n "$(step_dir $((n - 1)))" ] || bad "make diff STEP=$step: no step before it"
        fi
    done
    if ! make -n --no-print-directory "$@" >"$EX_T/make.out" 2>&1; then
        bad "make -n $*: $(grep -m1 -i 'error\|no rule\|no such\|names no' "$EX_T/make.out" || tail -n1 "$EX_T/make.out")"
        return
    fi
    ok "make -n"
    # The step folders the command builds: its stepNN targets, else STEP=
    dirs=""
    for t in $targets; do
        case $t in step[0-9]*) d=$(step_dir "${t#step}"); [ -n "$d" ] && dirs="$dirs $d" ;; esac
    done
    for d in ${dirs:-$sd}; do
        # shellcheck disable=SC2086  # NVCC_EXTRA is words, as make passes it to nvcc
        check_macros "$d" $extra || return
    done
    # A variant of its own (BUILD=build/NAME): built for real when it defines a
    # macro, else the normal build stands in for it.
    case ${build:-build} in build|./build|build/|"$EX_BUILD") rel="" ;; *) rel=${build#./}; rel=${rel#build/} ;; esac
    if [ -n "$build" ] && [ "$rel" = "$build" ]; then
        bad "make BUILD=$build: only BUILD=build/NAME is mapped by this test"; return
    fi
    [ "$debug" = 1 ] && [ -z "$build" ] && rel=debug
    for d in $dirs; do
        case $rel in ""|debug) continue ;; esac
        mkdir -p "$EX_T/xbuild/$rel"
        if echo " $extra" | grep -q ' -D'; then
            if ! make -s --no-print-directory BUILD="$EX_T/xbuild/$rel" NVCC_EXTRA="$extra" ${debug:+DEBUG=$debug} \
                    "$EX_T/xbuild/$rel/$d" >"$EX_T/variant.out" 2>&1 || [ ! -x "$EX_T/xbuild/$rel/$d" ]; then
                bad "make $d BUILD=build/$rel NVCC_EXTRA='$extra': the build failed: $(grep -m1 'error' "$EX_T/variant.out")"
                continue
            fi
            ok "built build/$rel/$d"
        else
            src=$EX_BUILD/$d; [ "$debug" = 1 ] && src=$EX_BUILD/debug/$d
            ln -sf "$src" "$EX_T/xbuild/$rel/$d"
        fi
    done
    if [ "$has_args" = 1 ] && [ -n "$sd" ]; then
        # shellcheck disable=SC2086  # ARGS is split by make's shell
        runbin "${build:-build}/$sd" $args
    fi
}
nv() {
    out="" prev="" src="" words=""
    for a in "$@"; do
        if [ "$prev" = -o ]; then
            case $a in
            build/*|./build/*) r=${a#./}; r=${r#build/}; out=$EX_T/xbuild/$r; a=$out ;;
            *) bad "nvcc -o $a: only -o build/... is mapped by this test"; return ;;
            esac
        else
            case $a in
            *.cu) src=$a ;;
            build/*|./build/*) r=${a#./}; a=$EX_BUILD/${r#build/} ;;
            esac
        fi
        words="$words $a"; prev=$a
    done
    [ -n "$out" ] || { out=$EX_T/xbuild/a.out; words="$words -o $out"; }
    if [ -n "$src" ]; then check_macros "$(dirname "$src")" "$@" || return; fi
    # every input file there (a glob expands here, as in the learner's shell)
    for a in $words; do
        case $a in -*|"$out") continue ;; esac
        case $a in *.cu|*.o|*.c|*.cpp) [ -e "$a" ] || { bad "nvcc: no input file $a"; return; } ;; esac
    done
    mkdir -p "$(dirname "$out")"
    # shellcheck disable=SC2086  # the words of the README's command
    if nvcc $words >"$EX_T/nvcc.out" 2>&1; then ok "nvcc built ${out#"$EX_T"/xbuild/}"
    else bad "nvcc: exit $?: $(grep -m1 -i 'error\|No such file' "$EX_T/nvcc.out" || tail -n1 "$EX_T/nvcc.out")"; fi
}
# map ARGS: build and build/... become the build folder the test uses
map_args() {
    for a in "$@"; do
        case $a in
        build) printf '%s\n' "$EX_BUILD" ;;
        build/*|./build/*) r=${a#./}; printf '%s\n' "$EX_BUILD/${r#build/}" ;;
        '$OUT'*) mkdir -p "$EX_T/out" && printf '%s\n' "$EX_T/out${a#\$OUT}" ;;   # "any folder": a scratch one
        *) printf '%s\n' "$a" ;;
        esac
    done
}
script() { # script sh|python3 FILE ARGS...
    how=$1 f=$2; shift 2
    [ -f "$f" ] || { bad "$how $f: no such file"; return; }
    if [ "$how" = sh ]; then
        /bin/sh -n "$f" 2>"$EX_T/syntax.out" || { bad "sh -n $f: $(head -n1 "$EX_T/syntax.out")"; return; }
    else
        python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' \
            "$f" "$EX_T/syntax.pyc" 2>"$EX_T/syntax.out" || { bad "py_compile $f: $(tail -n1 "$EX_T/syntax.out")"; return; }
    fi
    run=0
    case "$f $*" in
    "step10_autotune/experiments/fit_chooser.py"*) run=1 ;;
    "tests/sanitize.sh --kernels "*) run=1 ;;
    "plots/bench.sh "*) [ "${BENCH_DRY_RUN:-0}" = 1 ] && run=1 ;;
    "step10_autotune/experiments/sk_cap/judge_variants.sh "*) run=1 ;;   # no GPU: the chooser on logs
    "step10_autotune/experiments/decode/picks_diff.sh "*)               # no GPU, but the revisions' files
        run=1
        for r in $(printf '%s\n' "$1" | tr '.' ' '); do
            git -C "$EX_ROOT" cat-file -e "$r^{commit}" 2>/dev/null || run=2
        done ;;
    esac
    if [ $run = 0 ]; then ok "$how: parses (runs on a GPU)"; return; fi
    if [ $run = 2 ]; then ok "$how: parses (not run: its revisions are not in this clone's history)"; return; fi
    # shellcheck disable=SC2046  # one argument a line
    set -- $(map_args "$@")
    if [ "$how" = sh ]; then /bin/sh "$f" "$@" >"$EX_T/script.out" 2>&1 </dev/null
    else python3 "$f" "$@" >"$EX_T/script.out" 2>&1 </dev/null; fi
    rc=$?
    if [ $rc = 0 ]; then ok "$how: ran, exit 0"; cp "$EX_T/script.out" "$EX_T/last_script.out"
    else bad "$how $f $*: exit $rc: $(tail -n1 "$EX_T/script.out")"; fi
}
tool() { # ncu / compute-sanitizer OPTIONS BINARY ARGS: the filter, then the binary
    name=$1; shift
    filter=""
    while [ $# -gt 0 ]; do
        case $1 in
        ./*|build/*|/*) break ;;
        --kernel-name|-k) filter=$2; shift 2 ;;
        --*) case ${2-} in --*|./*|build/*|/*|"") shift ;; *) shift 2 ;; esac ;;
        *) shift ;;
        esac
    done
    [ $# -gt 0 ] || { bad "$name: no binary to run"; return; }
    if [ -n "$filter" ] && bin=$(binary "$1"); then
        syms=$(nm "$bin" 2>/dev/null | awk '{ print $NF }')
        case $filter in
        kns=*) echo "$syms" | grep -qF "${filter#kns=}" || bad "$name --kernel-name $filter: no kernel of $1 matches" ;;
        regex:*) echo "$syms" | grep -Eq "${filter#regex:}" || bad "$name --kernel-name $filter: no kernel of $1 matches" ;;
        *) echo "$syms" | grep -qF "$filter" || bad "$name --kernel-name $filter: no kernel of $1 matches" ;;
        esac
    fi
    runbin "$@"
}
gt() {
    [ "${1-}" = checkout ] || { ok "git $1 (not run)"; return; }
    shift
    for p in "$@"; do
        case $p in -*) continue ;; esac
        if git rev-parse --git-dir >/dev/null 2>&1; then
            [ -n "$(git ls-files -- "$p" | head -n1)" ] || bad "git checkout $p: nothing tracked there"
        else
            [ -e "$p" ] || bad "git checkout $p: no such path"
        fi
    done
    ok "git checkout: tracked (not run)"
}
case $(basename "$0") in
runbin) runbin "$@" ;;
make) mk "$@" ;;
nvcc) nv "$@" ;;
sh) script sh "$@" ;;
python3) script python3 "$@" ;;
git) gt "$@" ;;
ncu) tool ncu "$@" ;;
compute-sanitizer) tool compute-sanitizer "$@" ;;
esac
exit 0
EOF
chmod +x "$T/bin/checker"
for p in runbin make nvcc sh python3 git ncu compute-sanitizer; do ln -s checker "$T/bin/$p"; done
EX_ROOT=$ROOT EX_BUILD=$BUILD EX_T=$T EX_PATH=$PATH EX_LOG=$T/log
export EX_ROOT EX_BUILD EX_T EX_PATH EX_LOG

# ---- the commands ---------------------------------------------------------------
# The records: tests/exercises_extract.awk (one per candidate: FILE TAB ITEM
# TAB KIND TAB TEXT TAB PLACEHOLDERS; tests/run_exercises_gpu.sh reads the same).
EXTRACT=$HERE/exercises_extract.awk
fail=0 n=0
tab=$(printf '\t')
# run_cmd TEXT: TEXT through /bin/sh with the checkers first on PATH and each
# build/... in a command's place called through runbin; the verdict from $EX_LOG
run_cmd() {
    : >"$T/log"
    c=$(printf '%s\n' "$1" | sed -E 's#(^|[;&|(] *|(^|[ ;])(do|then) +)((\./)?build/[^ ;&|]*|\$[A-Za-z_][A-Za-z0-9_]*/[^ ;&|]*)#\1runbin \4#g')
    (PATH=$T/bin:$PATH timeout 300 /bin/sh -c "$c") </dev/null >"$T/cmd.out" 2>&1
}
verdict() { # verdict LABEL: one line from $EX_LOG
    if grep -q '^bad ' "$T/log"; then
        echo "exercises: $1: FAILED: $(grep -m1 '^bad ' "$T/log" | cut -c5-)"; fail=1
    elif grep -q '^ok ' "$T/log"; then
        echo "exercises: $1: ok ($(sed -n 's/^ok //p' "$T/log" | sort | uniq -c | sed 's/^ *1 //; s/^ *\([0-9]*\) /\1 x /' | tr '\n' ';' | sed 's/;$//; s/;/; /g'))"
    else
        echo "exercises: $1: FAILED: nothing ran ($(tail -n1 "$T/cmd.out"))"; fail=1
    fi
}
# check RECORDS: one line per record of exercises_extract.awk
# shellcheck disable=SC2094  # RECORDS is only read
check() {
last_item=""
while IFS="$tab" read -r file item kind text ph; do
    n=$((n + 1))
    label="$file#$item: $text"
    dir=$(basename "$(dirname "$file")")
    [ "$file#$item" = "${last_item-}" ] || { rm -f "$T/last_script.out" "$T/item_script.out"; last_item=$file#$item; }
    case $kind in
    cmd)
        # VAR=value before a script: the script must read VAR
        s=$text
        while :; do
            case $s in [A-Z_]*=*" "*) ;; *) break ;; esac
            v=${s%%=*}; s=${s#* }
            f=$(echo "$s" | awk '$1 == "sh" || $1 == "python3" { print $2 }')
            if [ -n "$f" ] && [ -f "$f" ] && ! grep -q "$v" "$f"; then
                echo "bad $v=: $f does not read it" >"$T/pre"
            fi
        done
        # step 10's refit on a copy of its logs (exercise 6): DIR is that copy,
        # less the files the exercise names (each must be there to delete)
        case $text in
        fit_chooser.py\ DIR)
            logs=step10_autotune/experiments/logs/shareb   # the folder the exercise copies: fit_chooser.py's default
            rm -rf "$T/dir"; cp -r "$logs" "$T/dir"
            : >"$T/log"
            # shellcheck disable=SC2013,SC2094  # one name a line; the records are only read
            for f in $(awk -F'\t' -v f="$file" -v i="$item" '$1 == f && $2 == i && $3 == "file" { print $4 }' "$1"); do
                case $f in */*.log) ;; *) continue ;; esac
                if [ -f "$T/dir/$f" ]; then rm "$T/dir/$f"; else echo "bad $f: not in $logs" >>"$T/log"; fi
            done
            run_cmd "python3 step10_autotune/experiments/fit_chooser.py $T/dir"
            verdict "$label"; rm -f "$T/pre"; continue ;;
        esac
        # placeholders: each value the exercise gives
        while [ -n "$ph" ]; do
            p=${ph%%;*}; ph=${ph#*;}
            var=${p%%=*}; vals=${p#*=}
            if [ -z "$vals" ]; then echo "bad $var: a placeholder the exercise gives no values for ($var = ...)" >"$T/pre"; break; fi
            text="for $var in $vals; do $(printf '%s\n' "$text" | sed -E "s/ $var( |\$)/ \$$var\1/g"); done"
        done
        run_cmd "$text"
        [ -s "$T/pre" ] && cat "$T/pre" >>"$T/log"
        rm -f "$T/pre"
        [ -f "$T/last_script.out" ] && cp "$T/last_script.out" "$T/item_script.out"
        verdict "$label" ;;
    flags)
        bin=$BUILD/$dir
        case " $text " in *" --plant-bug "*) bin=$BUILD/debug/$dir ;; esac
        CUDA_VISIBLE_DEVICES=-1 "$bin" --help >"$T/help" 2>&1
        : >"$T/log"
        valued=$(grep -o -- '--[a-z-]* [A-Z][A-Z]*' "$T/help" | cut -d' ' -f1 | sort -u | tr '\n' ' ')
        run=1 values=0 prev=""
        for w in $text; do
            case $w in
            --*) grep -Eq -- "(^|[ ,])$w([^a-z-]|\$)" "$T/help" ||
                     echo "bad $w: not a flag of $(basename "$bin") (its --help)" >>"$T/log"
                 case " $valued " in *" $w "*) prev=$w ;; *) prev="" ;; esac ;;
            *) if [ -n "$prev" ] && echo "$w" | grep -Eq '^-?[a-z0-9]+$'; then values=1; else run=0; fi
               prev="" ;;
            esac
        done
        [ -n "$prev" ] && run=0   # a flag without its value: prose names it
        if [ $run = 1 ] && [ $values = 1 ] && ! grep -q '^bad' "$T/log"; then
            run_cmd "./build/${bin#"$BUILD"/} $text"
            grep -q '^bad' "$T/log" || label="$label (on ${bin#"$BUILD"/})"
        else
            echo "ok flags of $(basename "$bin")" >>"$T/log"
        fi
        verdict "$label" ;;
    quote)
        # a score line of the script the exercise runs without a GPU
        if [ ! -f "$T/item_script.out" ]; then echo "exercises: $label: FAILED: no script of this exercise ran to print it"; fail=1
        elif grep -qF "$text" "$T/item_script.out"; then echo "exercises: $label: ok (the script prints it)"
        else echo "exercises: $label: FAILED: the script prints '$(grep -m1 "^${text%% *} " "$T/item_script.out")'"; fail=1; fi ;;
    file)
        if [ -e "$text" ] || [ -e "$dir/$text" ] || [ -e "$dir/experiments/$text" ] || [ -e "$dir/experiments/logs/$text" ]; then
            echo "exercises: $label: ok (exists)"
        else echo "exercises: $label: FAILED: no such file or folder (from the root, $dir/ or its experiments/)"; fail=1; fi ;;
    code)
        # each name with an underscore, in the step's sources, common/ or tests/
        miss=""
        for id in $(printf '%s\n' "$text" | grep -o '[A-Za-z_][A-Za-z0-9_]*\**' | grep '[A-Za-z0-9]_'); do
            case $id in
            *_\*) grep -qs -- "${id%\*}" "$dir"/*.cu "$dir"/*.h common/* tests/*.c tests/*.h || miss="$miss $id" ;;
            *) grep -qsw -- "$id" "$dir"/*.cu "$dir"/*.h common/* tests/*.c tests/*.h || miss="$miss $id" ;;
            esac
        done
        if [ -z "$miss" ]; then echo "exercises: $label: ok (in the sources)"
        else echo "exercises: $label: FAILED: not in $dir/, common/ or tests/:$miss"; fail=1; fi ;;
    header)
        # the command in the source's header comment (lines ending in \ joined)
        f=$text; [ -f "$f" ] || f=$dir/$text
        h=$(sed -n '1,/\*\//p' "$f" 2>/dev/null | sed 's/^ *\** *//' | awk '/\\$/ { sub(/\\$/, ""); l = l $0; next } { print l $0; l = "" }' |
            grep '^nvcc ' | head -n1)
        if [ -z "$h" ]; then echo "exercises: $label: FAILED: no nvcc command in its header"; fail=1; continue; fi
        label="$file#$item: $text's header: $h"
        run_cmd "$h"
        verdict "$label" ;;
    esac
done <"$1"
}

# ---- the fixture: the check itself ------------------------------------------------
# A step README of wrong commands, each of which must fail, and one right one.
mkdir -p "$T/fixture/step10_autotune"
cat >"$T/fixture/step10_autotune/README.md" <<'EOF'
## Exercises

1. A flag no step has: `./build/step01_sync_pc --no-such-flag 1`.
2. A bad value: `./build/step03_staged_pipeline --stages 99`.
3. A configuration not on the menu: `./build/step10_autotune --config 256x256`.
4. Flags alone, one unknown: `--no-such-flag 3`.
5. Flags alone, a bad value: `--mode fast`.
6. A macro no source reads: `make step01 BUILD=build/fx NVCC_EXTRA=-DNO_SUCH_MACRO`.
7. No such step: `make run STEP=42`.
8. No step before it: `make diff STEP=01`.
9. A variable the Makefile does not read: `make NO_SUCH_VAR=1 step01`.
10. No such target: `make no-such-target`.
11. No such script: `sh no/such/script.sh`.
12. A placeholder without values: `./build/step01_sync_pc --work W`.
13. bash's braces: `nvcc -Icommon step09_stream_k/kernel.cu build/common/{args,csv}.o -o build/fx`.
14. Nothing tracked: `git checkout no/such/path`.
15. A variant nothing built: `./build/nosuch/step10_autotune --m 256`.
16. Right: `./build/step10_autotune --m 256 --n 256 --k 256 --config 128x128`.
EOF
awk -f "$EXTRACT" "$T/fixture/step10_autotune/README.md" >"$T/fixture.records"
check "$T/fixture.records" >"$T/fixture.out"
fail=0 n=0
while IFS= read -r line; do
    i=$(echo "$line" | sed -n 's/^exercises: [^#]*#\([0-9]*\): .*/\1/p')
    [ -n "$i" ] || continue
    rest=${line#*#"$i": }
    cmd=$(cut -f4 "$T/fixture.records" | sed -n "${i}p")
    case $i:$rest in
    16:"$cmd: ok"*) echo "exercises: fixture: $cmd passes: ok" ;;
    16:*) echo "exercises: fixture: $cmd passes: FAILED: the check says '${rest#"$cmd": }'"; fail=1 ;;
    *:"$cmd: FAILED: "*) echo "exercises: fixture: $cmd fails: ok (${rest#"$cmd": FAILED: })" | cut -c1-200 ;;
    *) echo "exercises: fixture: $cmd fails: FAILED: the check says '${rest#"$cmd": }'"; fail=1 ;;
    esac
done <"$T/fixture.out"
[ "$(wc -l <"$T/fixture.records")" = 16 ] ||
    { echo "exercises: fixture: 16 commands found: FAILED: exercises_extract.awk found $(wc -l <"$T/fixture.records")"; fail=1; }

# ---- the READMEs ----------------------------------------------------------------
awk -f "$EXTRACT" "$@" >"$T/commands"
n=0
check "$T/commands"
per=$(awk -F'\t' '{ f = $1; sub(/\/README\.md$/, "", f); sub(/_.*/, "", f); if (!(f in seen)) { seen[f] = 1; o[++k] = f }
                     if ($3 == "file" || $3 == "code") r[f]++; else c[f]++ }
                   END { for (i = 1; i <= k; i++) printf "%s%s %d+%d", (i > 1 ? ", " : ""), o[i], c[o[i]], r[o[i]] }' "$T/commands")
echo "exercises: $n checked, commands + names and files ($per)"
exit $fail

# exercises_extract.awk — the commands, flags, files and code names that the
# READMEs' exercises (and README.md) name, one record a line:
#   FILE TAB ITEM TAB KIND TAB TEXT TAB PLACEHOLDERS [TAB LINE]
# ITEM: the exercise's number (a step README) or the section (README.md);
# KIND: cmd, flags, quote, header, file or code (tests/test_exercises.sh says
# what each is); PLACEHOLDERS: "W=0 16 32;", a value the command leaves to the
# reader and the values the exercise gives for it; LINE (only with -v lines=1):
# the README line the span or the fenced line starts on.
#   awk -f tests/exercises_extract.awk [-v lines=1] README.md step*/README.md
# Used by tests/test_exercises.sh (make test, no GPU) and
# tests/run_exercises_gpu.sh (a GPU run of the same commands).
function flush(   rest, i, j, p) {
    gsub(/[ \t]+/, " ", text); rest = text
    while ((i = index(rest, "`")) > 0) {
        rest = substr(rest, i + 1)
        if ((j = index(rest, "`")) == 0) break
        emit(substr(rest, 1, j - 1), text, span_line(++p)); rest = substr(rest, j + 1)
    }
    text = ""; nl = 0
}
# span_line P: the line of text's Pth span, the one its opening backtick (the
# 2P-1th of text) is on
function span_line(p,   k, c) {
    for (k = 1; k <= nl; k++) if ((c += nt[k]) >= 2 * p - 1) return lno[k]
    return lno[nl]
}
function emit(span, ctx, ln,   kind, ph, w, n, k, vals, re) {
    gsub(/[ \t]+/, " ", span); sub(/^ /, "", span); sub(/ $/, "", span)
    if ((kind = classify(span, ctx)) == "" || seen[FILENAME, kind, span]++) return
    ph = ""
    n = split(span, w, " ")
    for (k = 2; k <= n; k++)
        if (w[k] ~ /^([A-Z]|DIR)$/ && w[k - 1] ~ /^--|\.py$/) {
            vals = ""
            re = "(^|[^A-Za-z])" w[k] " = [0-9]+(, [0-9]+)*(,? and [0-9]+)?"
            if (match(ctx, re)) {
                vals = substr(ctx, RSTART, RLENGTH); sub(/^[^=]*= /, "", vals)
                gsub(/,|and/, " ", vals); gsub(/ +/, " ", vals); sub(/ $/, "", vals)
            }
            ph = ph w[k] "=" vals ";"
        }
    printf "%s\t%s\t%s\t%s\t%s%s\n", FILENAME, item, kind, span, ph, (lines ? "\t" ln : "")
}
function classify(s, ctx,   w) {
    if (s ~ /(^|[ =])NN([ ]|$)|\.\.\.|: /) return ""          # a pattern or an output line
    w = s; sub(/ .*/, "", w)
    while (w ~ /^[A-Z_][A-Z0-9_]*=[^ ]* / || (w ~ /^[A-Z_][A-Z0-9_]*=/ && s ~ / /)) {
        s = substr(s, index(s, " ") + 1); w = s; sub(/ .*/, "", w)
    }
    # a make target that needs STEP=, named in prose (README.md: "make sass")
    if (front && s ~ /^make (run|timeline|diff|sass|ptx)$/) return ""
    if (w ~ /^(make|sh|python3|nvcc|for|compute-sanitizer|ncu|git)$/) return "cmd"
    if (w ~ /^\.\/build\/([A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-]+$/) return "cmd"
    if (w ~ /^build\/([A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-]+$/ && s ~ / /) return "cmd"
    if (front) return ""
    if (w ~ /^--[a-z]/) return "flags"
    if (w ~ /^[a-z_]+\.(py|sh)$/ && s ~ / /) return "cmd"
    if (s ~ /^[a-z]+ [0-9]+ \/ [0-9]+$/) return "quote"
    if (s ~ /^[A-Za-z0-9_\/.-]+\.cu$/ && ctx ~ /command is in its header/) return "header"
    # a file or folder the exercise points to (not one it writes: build/, /tmp)
    if (s ~ /^[A-Za-z0-9_.\/-]+(\.(log|csv|png|txt|md|cu|cuh|c|h|sh|py)|\/)$/ && s !~ /^(build\/|\/)/) return "file"
    # code it asks to edit or read: its names with an underscore must exist
    # (not a SASS mnemonic like USETMAXREG.TRY_ALLOC)
    if (s ~ /[A-Za-z0-9]_[A-Za-z0-9*]/ && s !~ /^[A-Z0-9_.]+$/ && s !~ /\//) return "code"
    return ""
}
FNR == 1 { front = (FILENAME !~ /(^|\/)step[0-9][0-9]_[^\/]*\/README\.md$/); on = front; item = front ? "top" : 0; text = ""; nl = 0; fence = 0; gen = 0 }
front && /<!-- BEGIN results/ { gen = 1 }
front && /<!-- END results/ { gen = 0; next }
gen { next }
!front && /^## Exercises/ { on = 1; next }
/^## / {
    if (on) flush()
    if (front) { item = $0; sub(/^## /, "", item); gsub(/ /, "_", item) } else on = 0
    next
}
!on { next }
/^[ \t]*```/ { if (!fence) flush(); fence = !fence; next }
fence { line = $0; sub(/#.*/, "", line); emit(line, text, FNR); next }
!front && /^[0-9]+\. / { flush(); item = $0; sub(/\..*/, "", item) }
{ text = text " " $0; line = $0; lno[++nl] = FNR; nt[nl] = gsub(/`/, "", line) }
END { if (on) flush() }

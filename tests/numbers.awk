# numbers.awk — the quoted-numbers rule (README.md, "Writing your own step",
# rule 5), checked.  tests/test_numbers.sh runs it as
#   awk -f numbers.awk CSV... pass=1 MD... pass=2 MD...
# CSVs (pass 0): the recorded rows a CSV citation must match.
# Pass 1: the generated blocks of each Markdown file (a table citation's target).
# Pass 2: every measured figure outside a generated block, fenced code and
# inline code must be covered by a citation that follows it in its paragraph
# (paragraph: lines up to a blank line, a heading, a list item or a table row).
# Figures (the number as written; a range "0.96-0.99" is two):
#   ratio  a unitless decimal with one digit before the point and two or more
#          after (0.96, 1.005), or a decimal directly followed by x or × (1.4×)
#   time   a number followed by ms, us, µs or ns
#   rate   a number followed by TFLOP/s, GB/s or TB/s
# Not figures: a number glued to a letter, _ . or / before it (sm_90, v1.2),
# a dotted version (4.2.0.0), integers without those units (4096, 227 KiB),
# a decimal with one digit after the point (13.0, 1.4 GHz) or with another
# unit (1.98 GHz, 9.24 M, 1.100 TFLOP), 1e-2, percentages.  A range takes the
# unit of its end ("1.4-1.7 GHz"); "1.31 and 1.45 GHz" is a ratio and a clock.
# Citations (they cover the uncovered figures before them in the paragraph):
#   log: PATH[, PATH ...]   each PATH (backticks allowed) an existing file,
#                           from the repository root
#   code: PATH              a number the code sets (an existing file)
#   CSV: stepNN, MxNxK, VARIANT, rev REV[, COLUMN=VALUE ...]   (up to ")" or ";")
#                           a row of plots/results/*.csv with that step, shape,
#                           variant (optional), git_rev and columns; H100 or
#                           H200 as a field picks the file; the shape may be
#                           "n N" for the streaming steps
#   spec: DOCUMENT          a hardware figure from the vendor's document
#                           (named, not checked: not a measurement)
#   table: KEY              the block <!-- BEGIN results KEY --> of this file
#                           (or of README.md), and each figure it covers
#                           appears in that block as written
# Output: "FIG<TAB>file<TAB>line<TAB>kind<TAB>figure<TAB>verdict" per figure,
# "CITE<TAB>file<TAB>line<TAB>citation<TAB>ok|why" per citation.
function trim(s) { sub(/^[ \t`]+/, "", s); sub(/[ \t`.,]+$/, "", s); return s }
function csvrow(line,    n, i, f) {
    n = split(line, f, ",")
    nrows++
    rfile[nrows] = FILENAME
    for (i = 1; i <= n; i++) cell[nrows, col[i]] = f[i]
}
function flush_block(    st, t, p, q, rest, m, num, kind, after, pre, u, unit, i, ev, c, k) {
    if (btext == "") return
    t = btext
    nev = 0
    # inline code spans: their text is neither figure nor citation, except
    # a backticked path inside a citation (handled by the citation parser)
    # -- so find citations first, on the text as written.
    rest = t; p = 0
    while (match(rest, /(log|logs|code|CSV|table|spec): +/)) {
        st = RSTART
        p += st - 1
        rest = substr(t, p + 1)
        if (in_code(t, p + 1)) { p += RLENGTH; rest = substr(t, p + 1); continue }
        ev_pos[++nev] = p + 1; ev_kind[nev] = "cite"
        ev_text[nev] = cite_text(rest)
        p += length(ev_text[nev])
        rest = substr(t, p + 1)
    }
    # blank out citations and inline code, keeping the positions
    for (i = 1; i <= nev; i++)
        t = substr(t, 1, ev_pos[i] - 1) blanks(length(ev_text[i])) substr(t, ev_pos[i] + length(ev_text[i]))
    while (match(t, /`[^`]*`/)) t = substr(t, 1, RSTART - 1) blanks(RLENGTH) substr(t, RSTART + RLENGTH)
    rest = t; p = 0
    while (match(rest, /[0-9]+(\.[0-9]+)?/)) {
        num = substr(rest, RSTART, RLENGTH)
        pre = (p + RSTART > 1) ? substr(t, p + RSTART - 1, 1) : " "
        after = substr(rest, RSTART + RLENGTH)
        p += RSTART + RLENGTH - 1
        rest = substr(t, p + 1)
        if (pre ~ /[A-Za-z_.\/]/ || after ~ /^\.[0-9]/ || after ~ /^[A-Za-z_]/ && after !~ /^(ms|us|ns|x)([^A-Za-z0-9]|$)/) {
            # glued to a name, a version, or a word: skip the whole run of such characters
            if (match(rest, /^[A-Za-z0-9_.]*/)) { p += RLENGTH; rest = substr(t, p + 1) }
            continue
        }
        # the unit: after the number, or after the range it starts
        u = after
        if (match(u, /^ *(-|–|—) *[0-9]+(\.[0-9]+)?/)) u = substr(u, RLENGTH + 1)
        kind = ""
        if (u ~ /^ ?(ms|us|µs|ns)([^A-Za-z0-9]|$)/) kind = "time"
        else if (u ~ /^ ?(TFLOP\/s|GB\/s|TB\/s)/) kind = "rate"
        else if (num ~ /\./ && after ~ /^(x|×)([^A-Za-z0-9]|$)/) kind = "ratio"
        else if (num ~ /^[0-9]\.[0-9][0-9]+$/ && u !~ /^ ?(%|M|[kMGT]Hz|[kKMGT]i?B|B|W|s|bytes?|[kMGTP]?FLOP)([^A-Za-z0-9\/]|$)/) kind = "ratio"
        if (kind == "") continue
        ev_pos[++nev] = p - length(num) + 1; ev_kind[nev] = kind; ev_text[nev] = num
    }
    # events in position order (insertion sort: paragraphs are short)
    for (i = 2; i <= nev; i++) {
        for (k = i; k > 1 && ev_pos[k - 1] > ev_pos[k]; k--) {
            c = ev_pos[k]; ev_pos[k] = ev_pos[k - 1]; ev_pos[k - 1] = c
            c = ev_kind[k]; ev_kind[k] = ev_kind[k - 1]; ev_kind[k - 1] = c
            c = ev_text[k]; ev_text[k] = ev_text[k - 1]; ev_text[k - 1] = c
        }
    }
    npend = 0
    for (i = 1; i <= nev; i++) {
        if (ev_kind[i] == "cite") {
            c = check_cite(ev_text[i], i)
            printf "CITE\t%s\t%d\t%s\t%s\n", FILENAME, line_of(ev_pos[i]), ev_text[i], c
            for (k = 1; k <= npend; k++)
                printf "FIG\t%s\t%d\t%s\t%s\t%s\n", FILENAME, pend_line[k], pend_kind[k], pend_num[k], (cover[k] != "" ? cover[k] : "cited")
            npend = 0
        } else {
            npend++; pend_line[npend] = line_of(ev_pos[i]); pend_kind[npend] = ev_kind[i]; pend_num[npend] = ev_text[i]; cover[npend] = ""
        }
    }
    for (k = 1; k <= npend; k++)
        printf "FIG\t%s\t%d\t%s\t%s\t%s\n", FILENAME, pend_line[k], pend_kind[k], pend_num[k], "uncited"
    btext = ""; nlines = 0
}
function exists(f,    r, d) { r = (getline d < f); close(f); return r >= 0 }
# is position pos of t inside an inline code span (an odd number of backticks before it)?
function in_code(t, pos,    pre, n) { pre = substr(t, 1, pos - 1); n = gsub(/`/, "", pre); return n % 2 }
function blanks(n,    s) { s = ""; while (n-- > 0) s = s " "; return s }
function line_of(pos,    i) {
    for (i = nlines; i > 1; i--) if (lstart[i] <= pos) return lno[i]
    return lno[1]
}
# the citation at the start of q: "log: a, b" (paths), "CSV: ... " or "table: KEY"
function cite_text(q,    r) {
    if (q ~ /^(logs?|code): /) {
        if (match(q, /^(logs?|code): +`?[A-Za-z0-9_-]*[.\/][A-Za-z0-9_.\/-]*`?((, +| +and +)`?[A-Za-z0-9_-]*[.\/][A-Za-z0-9_.\/-]*`?)*/)) return substr(q, 1, RLENGTH)
        return substr(q, 1, index(q, ":"))
    }
    if (q ~ /^spec: /) { match(q, /^spec: +[^);]*/); return substr(q, 1, RLENGTH) }
    if (q ~ /^table: /) { match(q, /^table: +`?[A-Za-z0-9_]+`?/); return substr(q, 1, RLENGTH) }
    r = q
    if (match(r, /[);]/)) r = substr(r, 1, RSTART - 1)
    return r
}
function check_cite(c,    d, kind, body, n, f, i, s, bad, k) {
    kind = substr(c, 1, index(c, ":") - 1); body = substr(c, index(c, ":") + 1); sub(/^ +/, "", body)
    if (kind ~ /^(log|code)/) {
        gsub(/ +and +/, ",", body); gsub(/ +/, " ", body)
        n = split(body, f, ",")
        if (n == 0 || trim(f[1]) == "") return "no path after log:"
        for (i = 1; i <= n; i++) {
            s = trim(f[i])
            d = FILENAME; if (!sub(/\/[^\/]*$/, "", d)) d = "."
            if (!exists(s) && !exists(d "/" s)) return "no file " s
        }
        return "ok"
    }
    if (kind == "table") return check_table(trim(body))
    if (kind == "spec") return (trim(body) == "" ? "no document named after spec:" : "ok")
    return check_csv(body)
}
# every pending figure must appear, as written, in the block
function check_table(key,    blk, k, why) {
    blk = ""
    if ((FILENAME, key) in gen) blk = gen[FILENAME, key]
    else if (("README.md", key) in gen) blk = gen["README.md", key]
    else return "no generated block '" key "' in " FILENAME " or README.md"
    why = "ok"
    for (k = 1; k <= npend; k++)
        if (index(blk, pend_num[k]) == 0) { cover[k] = "not in table " key; why = "ok (a figure is not in it)" }
    return why
}
function check_csv(body,    n, f, i, s, want, nw, r, ok, w, a, kv, file, k, v, step) {
    n = split(body, f, ",")
    nw = 0; file = ""; step = ""
    for (i = 1; i <= n; i++) {
        s = trim(f[i])
        if (s == "") continue
        if (s ~ /^step[0-9][0-9]$/) { step = substr(s, 5); want[++nw] = "step=" step }
        else if (s ~ /^[0-9]+x[0-9]+x[0-9]+$/) { split(s, a, "x"); want[++nw] = "m=" a[1]; want[++nw] = "n=" a[2]; want[++nw] = "k=" a[3] }
        else if (s ~ /^n [0-9]+$/) want[++nw] = "n_elems=" substr(s, 3)
        else if (s ~ /^rev [0-9a-f]+(-dirty)?$/) want[++nw] = "git_rev=" substr(s, 5)
        else if (s == "H100" || s == "H200") file = s
        else if (s ~ /^[a-z_]+=/) want[++nw] = s
        else if (s ~ /^[^ ]+$/) want[++nw] = "variant=" s
        else return "cannot read field '" s "'"
    }
    if (step == "") return "no stepNN field"
    ok = 0
    for (w = 1; w <= nw; w++) if (want[w] ~ /^git_rev=/) ok = 1
    if (!ok) return "no rev field"
    for (r = 1; r <= nrows; r++) {
        if (file != "" && index(rfile[r], file) == 0) continue
        ok = 1
        for (w = 1; w <= nw && ok; w++) {
            k = substr(want[w], 1, index(want[w], "=") - 1); v = substr(want[w], index(want[w], "=") + 1)
            if (!((r, k) in cell) || cell[r, k] != v) ok = 0
        }
        if (ok) return "ok"
    }
    return "no row of plots/results/*.csv matches"
}
FNR == 1 && pass == 0 && FILENAME ~ /\.csv$/ { ncol = split($0, col, ","); next }
pass == 0 { csvrow($0); next }
FNR == 1 { if (pass == 2 && prevfile != "") flush_block(); fence = 0; inkey = ""; prevfile = FILENAME }
/^ *<!-- BEGIN results [A-Za-z0-9_]+ -->/ { k = $0; sub(/.*BEGIN results /, "", k); sub(/ -->.*/, "", k); if (pass == 2) flush_block(); inkey = k; next }
/^ *<!-- END results / { inkey = ""; next }
inkey != "" { if (pass == 1) gen[FILENAME, inkey] = gen[FILENAME, inkey] "\n" $0; next }
pass == 1 { next }
/^ *(```|~~~)/ { flush_block(); fence = !fence; table = 0; next }
fence { next }
# a table's rows are one paragraph, and the paragraph right after it (its
# caption, after one blank line) joins them: a citation there covers the table
/^ *$/ { if (table == 1) table = 2; else { flush_block(); table = 0 }; next }
/^ *#/ { flush_block(); table = 0; next }
/^ *\|/ { if (table != 1) flush_block(); table = 1 }
!/^ *\|/ && /^ *([*+-]|[0-9]+\.) / { flush_block(); table = 0 }
!/^ *\|/ && table == 1 { flush_block(); table = 0 }
!/^ *\|/ && table == 2 { table = 0 }
{
    nlines++; lstart[nlines] = length(btext) + 1; lno[nlines] = FNR
    btext = btext $0 " "
}
END { if (pass == 2) flush_block() }

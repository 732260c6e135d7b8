# report.awk — one results CSV in, the tables and the plots' data out.
#   awk -v out=DIR -v csv=NAME -v steps=plots/steps.tsv -v shapes="4096x4096x4096 ..." \
#       -f plots/report.awk results/<gpu>.csv
# It reads columns by their header names (an old file without a column reads
# it as empty) and never parses a label.  What the columns mean:
#   impl      course or cutlass (empty: course)
#   repeat    set: one of the bench's repeated runs (1, 2, 3); empty: a
#             single run of a sweep point
#   chooser   who chose the configuration: default (the step itself, e.g.
#             step 09's auto mode) or forced (a flag overrode its choice,
#             e.g. --mode dp); step 10: model (its chooser: a headline
#             like default), cache, tune, forced (comparisons); empty on
#             rows older than the column
#   config    step 10: the configuration of its menu that ran
# A headline row is a repeated run the step chose itself: repeat set and
# chooser default, model or empty.  A forced (tuned, cached) run is a
# comparison, never a headline, whatever its repeat says: it goes to the
# step's table of other configurations.  A configuration is (impl, step, m,
# n, k, n_elems, work, stages, group, cluster, headline or not, mode,
# chooser, config).  Its numbers come
# from its latest set of rows: a row with repeat 1 (or a repeat index
# already in the set) starts a new set, repeats 2, 3, ... join it; a row
# without repeat is a set of its own.  A table shows the median ratio of the
# set and its range; each ratio is the CSV's, rounded once, to 2 decimals, in
# the tables and the plots alike.
# A step's table shows, per shape, only its latest headline configuration: an
# older one (another cluster, group or mode: the step's default changed) stays
# in the CSV, not in the table; and only configurations timed by the harness
# of the step's newest headline row (current).
# One revision: every configuration is also kept per git_rev (configurations
# -1, -2, ...: findrev).  The progression plot and the steps table take the
# newest revision with headline rows of every step they show, else each
# step's newest (pick_revs); step 10's model-against-tune table the newest
# revision with rows its model chose (tune_md).
# Writes into DIR: stream.md gemm.md stepNN.md stepNN_tune.md (table
# fragments), steps.tsv and steps.stamp (render.sh builds the steps table),
# and the data of the .gp scripts: *.dat, *.setup and *.args (the arguments
# after GPU).
BEGIN { FS = ","; OFS = "\t"; ncfg = 0 }
{ sub(/\r$/, "") }
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
/^#/ || NF < 16 { next }
{
    impl = f("impl"); if (impl == "") impl = "course"
    ch = f("chooser"); rset = f("repeat") != ""
    head = rset && (ch == "" || ch == "default" || ch == "model")
    key = impl SUBSEP f("step") SUBSEP f("m") SUBSEP f("n") SUBSEP f("k") SUBSEP f("n_elems") SUBSEP \
          f("work") SUBSEP f("stages") SUBSEP f("group") SUBSEP f("cluster") SUBSEP head SUBSEP f("mode") SUBSEP ch SUBSEP f("config")
    if (!(key in cfg)) { cfg[key] = ++ncfg; K[ncfg] = key }
    addrow(cfg[key], rset, f("repeat") + 0)
    lharn[cfg[key]] = f("harness")   # the harness that timed its latest row
    if (head && NR > hnr[impl, f("step")]) { hnr[impl, f("step")] = NR; hharn[impl, f("step")] = f("harness") }
    # the same configuration pinned to its revision: configurations -1, -2, ...,
    # which the loops over 1..ncfg never see (findrev, pick_revs, tune_md read them)
    rv = f("git_rev"); key = key SUBSEP rv
    if (!(key in pcfg)) { pcfg[key] = -(++npc); K[-npc] = key }
    addrow(pcfg[key], rset, f("repeat") + 0)
    revlast[rv] = NR   # a revision's newest row: the CSV only grows, so its position says how new
}
function addrow(c, rset, r,   i, j) {   # one row into c's latest set (a new set: no repeat, repeat 1, or a repeat already in it)
    if (!rset || r <= 1 || (c, r) in seen) { for (i = 1; i <= n[c]; i++) delete seen[c, rep[c, i]]; n[c] = 0 }
    i = ++n[c]; seen[c, r] = 1; rep[c, i] = r
    for (j = 1; j <= 11; j++) V[c, i, j] = f(fld[j])
    last[c] = NR
}
# ---- reading ---------------------------------------------------------------
function f(name) { return (name in col) ? $(col[name]) : "" }
function med(c, j,   i, a, t, k, m) {   # median of field j over c's set (sorted copy)
    m = 0
    for (i = 1; i <= n[c]; i++) if (V[c, i, j] != "") a[++m] = V[c, i, j] + 0
    for (i = 2; i <= m; i++) { t = a[i]; for (k = i - 1; k >= 1 && a[k] > t; k--) a[k + 1] = a[k]; a[k + 1] = t }
    lo = a[1]; hi = a[m]
    return m == 0 ? "" : (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2)
}
# A step's own table shows only rows timed by the harness that timed its
# newest headline row: once a step is re-recorded under the fair harness
# (harness "fair"), a configuration whose latest row an older harness timed
# (a sweep point no longer run, a default since changed) stays in the CSV,
# not in the table.  Rows without the column (streaming, old files) are all
# one harness.
function current(c,   k) { k = P(c, 1) SUBSEP P(c, 2); return !(k in hharn) || hharn[k] == "" || lharn[c] == hharn[k] }
function P(c, p) { split(K[c], kk, SUBSEP); return kk[p] }   # 1 impl 2 step 3 m 4 n 5 k 6 n_elems 7 work 8 stages 9 group 10 cluster 11 head 12 mode 13 chooser 14 config (15 git_rev: pinned ones)
function shape(c) { return P(c, 3) == P(c, 4) && P(c, 4) == P(c, 5) ? P(c, 3) "³" : P(c, 3) "×" P(c, 4) "×" P(c, 5) }
function shapekey(c) { return P(c, 3) "x" P(c, 4) "x" P(c, 5) }
function ms(v) { return v == "" ? "–" : sprintf(v < 0.1 ? "%.4f" : "%.3f", v) }
function num(v, fm) { return v == "" ? "–" : sprintf(fm, v) }
function ratio(c,   m) {    # "0.97" or "0.97 (0.96–0.98, 3 runs)"
    m = med(c, 3)
    if (m == "") return "–"
    return n[c] > 1 ? sprintf("%.2f (%.2f–%.2f, %d runs)", m, lo, hi, n[c]) : sprintf("%.2f", m)
}
function use(c,   i) {       # note the dates and revisions a table shows
    for (i = 1; i <= n[c]; i++) { d = substr(V[c, i, 9], 1, 10); if (d < d0 || d0 == "") d0 = d; if (d > d1) d1 = d
        if (!(V[c, i, 10] in revseen)) { revseen[V[c, i, 10]] = 1; revs = revs (revs == "" ? "" : ", ") "`" V[c, i, 10] "`" } }
    gpu = V[c, 1, 11]
}
function reset_use() { d0 = d1 = revs = ""; split("", revseen) }
function stamp() { return "**" gpu "** · rows dated " d0 (d1 != d0 ? " to " d1 : "") " · git rev " revs }
function footer(file) { print "\n<sub>generated by make plots from " csv "; do not edit</sub>" > file }
# the latest configuration of (impl, step, head) matching the given m n k (any when "")
function find(impl, step, hd, m, nn, k,   c, best) {
    best = 0
    for (c = 1; c <= ncfg; c++)
        if (P(c, 1) == impl && P(c, 2) == step && P(c, 11) == hd && (m == "" || (P(c, 3) == m && P(c, 4) == nn && P(c, 5) == k)))
            if (!best || last[c] > last[best]) best = c
    return best
}
# the same, among the configurations pinned to revision rev
function findrev(impl, step, hd, m, nn, k, rev,   i, c, best) {
    best = 0
    for (i = 1; i <= npc; i++) { c = -i
        if (P(c, 15) == rev && P(c, 1) == impl && P(c, 2) == step && P(c, 11) == hd && (m == "" || (P(c, 3) == m && P(c, 4) == nn && P(c, 5) == k)))
            if (!best || last[c] > last[best]) best = c }
    return best
}
function sortcfg(a, m,   i, j, t) {   # by shape (squares first, by size), then stages, group, work
    for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && ord(a[j]) > ord(t); j--) a[j + 1] = a[j]; a[j + 1] = t }
}
function ord(c) {
    return sprintf("%d%09d%06d%06d%06d%04d%04d%06d", !(P(c, 3) == P(c, 4) && P(c, 4) == P(c, 5)), P(c, 3), P(c, 4), \
                   P(c, 5), P(c, 7), P(c, 8), P(c, 9), P(c, 6))
}
function name(s) { return s in sname ? sname[s] : "" }
# ---- writing ---------------------------------------------------------------
END {
    while ((getline line < steps) > 0) if (line !~ /^#/) { split(line, tt, "\t"); sname[tt[1]] = tt[4] }
    ns = split(shapes, tshape, " ")
    # steps that have headline rows, in order
    for (c = 1; c <= ncfg; c++) if (P(c, 1) == "course" && P(c, 11) == 1) has[P(c, 2)] = 1
    nst = 0; for (s = 1; s <= 99; s++) { id = sprintf("%02d", s); if (id in has) st[++nst] = id }
    stream_md(); gemm_md(); for (i = 1; i <= nst; i++) { step_md(st[i]); tune_md(st[i]) }
    pick_revs(); progression(); gemm_plots(); stream_plots(); steps_md()
}
function stream_md(   s, c, o, best, b) {
    o = out "/stream.md"; reset_use(); rows = ""
    for (s = 1; s <= 3; s++) {
        c = find("course", sprintf("%02d", s), 1, "", "", ""); if (!c) continue
        use(c); work = P(c, 7); ne = P(c, 6)
        rows = rows sprintf("| step %02d %s | %s | %s | %s | %s | %s |\n", s, name(sprintf("%02d", s)), P(c, 8),
                            ms(med(c, 4)), num(med(c, 6), "%.0f"), num(med(c, 7), "%.0f"), ratio(c))
        if (s == 3) b = c
    }
    if (rows == "") return
    best = 0   # step 03's best stages at the headline work
    for (c = 1; c <= ncfg; c++) if (P(c, 2) == "03" && P(c, 7) == work && (!best || med(c, 3) > med(best, 3))) best = c
    if (best) { use(best); rows = rows sprintf("| step 03, best stages | %s | %s | %s | %s | %s |\n", P(best, 8),
                ms(med(best, 4)), num(med(best, 6), "%.0f"), num(med(best, 7), "%.0f"), ratio(best)) }
    print stamp() " · work = " work " FMAs per element, n = " ne " floats\n" > o
    print "| step | stages | ms | GB/s | copy GB/s | ratio to copy |\n|---|---:|---:|---:|---:|---:|" > o
    printf "%s", rows > o; footer(o)
}
function gemm_row(c, o, lead, md, cf,   p, pr) {   # one GEMM row, the CUTLASS counterpart's ratio beside it
    p = find("cutlass", P(c, 2), P(c, 11), P(c, 3), P(c, 4), P(c, 5)); pr = p ? ratio(p) : "–"
    if (!p && P(c, 14) != "") { p = best_peer(c); menu_row = 1; if (p) pr = "step " P(p, 2) "'s " ratio(p) }
    printf "| %s%s | %s%s%s | %s | %s | %s | %s | %s |\n", lead, shape(c), cf ? dash(P(c, 14)) " | " : "", md ? dash(P(c, 12)) " | " : "", P(c, 8), ms(med(c, 4)), num(med(c, 5), "%.1f"),
           num(med(c, 8), "%.1f"), ratio(c), pr > o
    use(c); if (p) use(p)
}
# A step with a menu of configurations (step 10: its rows name one) has no CUTLASS counterpart: its goal
# is the best of the earlier steps' counterparts, so its rows show that one, the highest median ratio at
# the shape (the lower step on a tie), and whose it is.
function best_peer(c,   s, q, best) {
    best = 0
    for (s = 1; s <= 99; s++) { q = find("cutlass", sprintf("%02d", s), 1, P(c, 3), P(c, 4), P(c, 5))
        if (q && (!best || med(q, 3) > med(best, 3))) best = q }
    return best
}
function gemm_md(   o, s, id, j, c, p, any) {
    o = out "/gemm.md"; reset_use(); any = 0; menu_row = 0
    for (s = 4; s <= 99; s++) for (j = 1; j <= ns; j++) {   # a step measured only as CUTLASS's: its row, "–" for the course
        id = sprintf("%02d", s); split(tshape[j], dd, "x"); c = find("course", id, 1, dd[1], dd[2], dd[3])
        p = c ? 0 : find("cutlass", id, 1, dd[1], dd[2], dd[3]); if (!c && !p) continue
        if (!any++) print "| step | M×N×K | stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio to cuBLAS | CUTLASS's ratio |\n|---|---|---:|---:|---:|---:|---:|---:|" > o
        if (c) gemm_row(c, o, "step " id " " name(id) " | ")
        else { use(p); printf "| step %s %s (not measured yet) | %s | – | – | – | – | – | %s |\n", id, name(id), shape(p), ratio(p) > o }
    }
    if (!any) return
    footer(o); close(o)
    hdr = stamp() " · bf16 in, fp32 accumulate, D = A·Bᵀ (TN) · each ratio: the median of the step's runs " \
          "(each timed interleaved with cuBLAS), its range in brackets; CUTLASS: its counterpart of the step, same shapes, same bench" \
          (menu_row ? " (step 10, which has none: the best counterpart at the shape, its step named, from the counterparts' newest runs)" : "")
    prepend(o, hdr)
}
function prepend(o, h,   l, body) { body = ""; while ((getline l < o) > 0) body = body l "\n"; close(o); printf "%s\n\n%s", h, body > o }
function dash(v) { return v == "" ? "–" : v }
function step_md(s,   o, c, a, m, i, gemm, md, cf, ch) {
    o = out "/step" s ".md"; reset_use(); m = 0; md = 0; cf = 0
    for (c = 1; c <= ncfg; c++) if (P(c, 1) == "course" && P(c, 2) == s && current(c) && (P(c, 11) == 0 || find("course", s, 1, P(c, 3), P(c, 4), P(c, 5)) == c)) {
        a[++m] = c; if (P(c, 12) != "") md = 1; if (P(c, 14) != "") cf = 1 }
    sortcfg(a, m); gemm = P(a[1], 3) != ""
    if (!gemm) {
        print "| work | stages | ms | GB/s | copy GB/s | ratio to copy | SM MHz |\n|---:|---:|---:|---:|---:|---:|---:|" > o
        for (i = 1; i <= m; i++) { c = a[i]; use(c)
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", P(c, 7), P(c, 8), ms(med(c, 4)), num(med(c, 6), "%.0f"),
                   num(med(c, 7), "%.0f"), ratio(c), num(med(c, 2), "%.0f") > o }
    } else {
        print "The step's default configuration (each ratio: the median of its runs, range in brackets" \
              (cf ? "; the best CUTLASS peer: the highest of the earlier steps' CUTLASS counterparts at the shape, " \
                    "its step named, from the counterparts' newest runs" : "") "):\n" > o
        print "| M×N×K | " (cf ? "config | " : "") (md ? "plan | " : "") "stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio to cuBLAS | " (cf ? "best CUTLASS peer" : "CUTLASS's ratio") " |\n|---|" (cf ? "---|" : "") (md ? "---|" : "") "---:|---:|---:|---:|---:|---:|" > o
        for (i = 1; i <= m; i++) if (P(a[i], 11) == 1) gemm_row(a[i], o, "", md, cf)
        any = 0
        for (i = 1; i <= m; i++) { c = a[i]; if (P(c, 11) == 1) continue
            if (!any++) print "\nOther configurations (sweep points, and runs a flag forced: comparisons, not the step's own choice):\n\n| M×N×K | stages | group | cluster | " (cf ? "config | " : "") (md ? "plan | " : "") "ms | TFLOP/s | cuBLAS TFLOP/s | ratio to cuBLAS |\n|---|---:|---:|---:|" (cf ? "---|" : "") (md ? "---|" : "") "---:|---:|---:|---:|" > o
            ch = P(c, 13); ch = (ch == "" || ch == "default" || ch == "model") ? "" : " (" ch ")"   # who chose it, when not the step: forced, tune, cache
            use(c); printf "| %s | %s | %s | %s | %s%s%s | %s | %s | %s |\n", shape(c), P(c, 8), dash(P(c, 9)), dash(P(c, 10)), cf ? dash(P(c, 14)) " | " : "",
                md ? dash(P(c, 12)) ch " | " : "", ms(med(c, 4)), num(med(c, 5), "%.1f"), num(med(c, 8), "%.1f"), ratio(c) > o }
    }
    footer(o); close(o); prepend(o, stamp() (gemm ? "" : " · n = " P(a[1], 6) " floats"))
}
# ---- one revision for the progression plot and the steps table --------------
# A step is shown when some revision has its headline rows (streaming: one;
# GEMM: 4096³ and 8192³).  Both show the newest revision that has them for
# every step shown; when no revision has them all, each step its own newest
# such revision, and the stamp says which.  Sets prev[step] and show[1..nshow].
function complete(s, rv) {
    if (stream[s]) return findrev("course", s, 1, "", "", "", rv) != 0
    return findrev("course", s, 1, 4096, 4096, 4096, rv) && findrev("course", s, 1, 8192, 8192, 8192, rv)
}
function pick_revs(   rv, rl, nr, i, j, t, s, ok) {
    nr = 0; for (rv in revlast) rl[++nr] = rv
    for (i = 2; i <= nr; i++) { t = rl[i]; for (j = i - 1; j >= 1 && revlast[rl[j]] < revlast[t]; j--) rl[j + 1] = rl[j]; rl[j + 1] = t }   # newest first
    nshow = 0; common = ""
    for (i = 1; i <= nst; i++) { s = st[i]; stream[s] = P(find("course", s, 1, "", "", ""), 3) == ""
        for (j = 1; j <= nr; j++) if (complete(s, rl[j])) { prev[s] = rl[j]; show[++nshow] = s; break } }
    for (j = 1; j <= nr && common == ""; j++) {
        ok = nshow > 0; for (i = 1; i <= nshow && ok; i++) ok = complete(show[i], rl[j])
        if (ok) common = rl[j]
    }
    if (common != "") for (i = 1; i <= nshow; i++) prev[show[i]] = common
}
# "git rev R (...)" (one revision), or each revision with the steps it gives
# ("git rev `a` for steps 01–04, `b` for 05, 07"); q quotes a revision
function revnote(q,   i, t, g, ng, rv) {
    if (common != "") return "git rev " q common q " (one revision for every step)"
    t = ""; ng = 0
    for (i = 1; i <= nshow + 1; i++) {
        if (i > 1 && (i > nshow || prev[show[i]] != rv)) {
            t = t (t == "" ? "" : ", ") q rv q " for " (t == "" ? (ng > 1 ? "steps " : "step ") : "") g
            g = ""; ng = 0
        }
        if (i > nshow) break
        rv = prev[show[i]]
        if (ng && show[i] + 0 == show[i - 1] + 1) { sub(/–[0-9]+$/, "", g); g = g "–" show[i] }   # 01–03, not 01–02–03
        else g = g (ng ? ", " : "") show[i]
        ng++
    }
    return "git rev " t ": each step's newest revision with its rows, as no one revision has them all"
}
# progression.dat: x, ratio to the copy, to cuBLAS at 4096³, at 8192³ (NaN: none)
function progression(   o, i, s, c, x, tics, nsm, ngm, h4, h8, ymax, v, sep, note) {
    o = out "/progression.dat"; tics = ""; ymax = 1; nsm = ngm = h4 = h8 = 0; sep = "NaN"; note = ""
    for (i = 1; i <= nshow; i++) {
        s = show[i]; v[1] = v[2] = v[3] = "NaN"
        if (stream[s]) { c = findrev("course", s, 1, "", "", "", prev[s])
            v[1] = sprintf("%.4f", med(c, 3)); nsm++; note = note (note == "" ? "work " P(c, 7) ", stages " : ", ") s ": " P(c, 8) }
        else {
            if ((c = findrev("course", s, 1, 4096, 4096, 4096, prev[s]))) { v[2] = sprintf("%.4f", med(c, 3)); h4 = 1 }
            if ((c = findrev("course", s, 1, 8192, 8192, 8192, prev[s]))) { v[3] = sprintf("%.4f", med(c, 3)); h8 = 1 }
            if (!ngm++ && nsm) sep = x + 0.5
        }
        x++; print x, v[1], v[2], v[3] > o
        for (j = 1; j <= 3; j++) if (v[j] != "NaN" && v[j] + 0 > ymax) ymax = v[j] + 0
        tics = tics (tics == "" ? "" : ", ") "\"step " s "\\n" name(s) "\" " x
    }
    if (!x) return
    o = out "/progression.setup"
    print "set xtics (" tics ")" > o
    printf "nsteps = %d; nstream = %d; ngemm = %d; has4096 = %d; has8192 = %d\nsep = %s; ymax = %s\nstreamnote = \"%s\"\nrevnote = \"%s\"\n", \
           x, nsm, ngm, h4, h8, sep, ymax, note, revnote("") > o
}
function gemm_plots(   o, i, j, s, c, hdr, line, sq, nsq, sz, list, cub, ncub, any, nc, cols, g, p) {
    nsq = split("512 1024 2048 4096 6144 8192", sq, " ")
    hdr = "size"; list = ""
    for (i = 1; i <= nst; i++) if ((c = find("course", st[i], 1, 4096, 4096, 4096)) || (c = find("course", st[i], 1, 8192, 8192, 8192))) {
        gs[++ngs] = st[i]; hdr = hdr "\tstep " st[i] " " name(st[i]) " (" P(c, 8) " stages)"; list = list (list == "" ? "" : " ") st[i] }
    if (!ngs) return
    o = out "/gemm_tflops.dat"; print hdr "\tcuBLAS" > o
    for (j = 1; j <= nsq; j++) {
        sz = sq[j]; line = sz; cub = 0; ncub = 0; any = 0
        for (i = 1; i <= ngs; i++) { c = find("course", gs[i], 1, sz, sz, sz)
            line = line "\t" (c ? sprintf("%.2f", med(c, 5)) : "NaN"); if (c) { cub += med(c, 8); ncub++; any = 1 } }
        if (any) print line "\t" sprintf("%.2f", cub / ncub) > o
    }
    print list > (out "/gemm_tflops.args")
    # ratio bars: each step, each --group point of a step, each CUTLASS counterpart
    nc = 0; cols = ""
    for (j = 4096; j <= 8192; j += 4096) for (c = 1; c <= ncfg; c++) if (P(c, 3) == j && P(c, 4) == j && P(c, 5) == j && !(j in hs)) { hs[j] = 1; hsz[++nc] = j; cols = cols "\t" j "³" }
    o = out "/gemm_ratio.dat"; print "step" cols > o
    for (i = 1; i <= ngs; i++) {
        bar("course", gs[i], 1, "", "step " gs[i], o, nc)
        h = find("course", gs[i], 1, 4096, 4096, 4096); if (!h) h = find("course", gs[i], 1, 8192, 8192, 8192)
        hst = P(h, 8)   # the --group sweep: other groups at the default stages
        for (c = 1; c <= ncfg; c++) if (P(c, 1) == "course" && P(c, 2) == gs[i] && P(c, 11) == 0 && P(c, 9) != "" && P(c, 9) != P(h, 9) && P(c, 8) == hst \
            && (P(c, 3) == 4096 || P(c, 3) == 8192) && P(c, 3) == P(c, 4) && P(c, 4) == P(c, 5) && !((gs[i], P(c, 9)) in gb)) {
            gb[gs[i], P(c, 9)] = 1; bar("course", gs[i], 0, P(c, 9), "step " gs[i] ", group " P(c, 9), o, nc) }
        bar("cutlass", gs[i], 1, "", "CUTLASS " gs[i], o, nc)
    }
    print nc, nbars > (out "/gemm_ratio.args")
}
function bar(impl, s, hd, g, label, o, nc,   j, c, line, any) {
    line = label; any = 0
    for (j = 1; j <= nc; j++) {
        c = find(impl, s, hd, hsz[j], hsz[j], hsz[j])
        if (g != "") for (c = 1; c <= ncfg; c++) if (P(c, 1) == impl && P(c, 2) == s && P(c, 11) == 0 && P(c, 9) == g && P(c, 8) == hst && P(c, 3) == hsz[j] && P(c, 4) == hsz[j] && P(c, 5) == hsz[j]) break
        if (c > ncfg) c = 0
        line = line "\t" (c ? sprintf("%.4f", med(c, 3)) : "NaN"); any += c > 0
    }
    if (any) { print line > o; nbars++ }
}
function stream_plots(   c, o, work, h3, i, a, m, w, line, s, cp, copy, nw, ws) {
    if (!(h3 = find("course", "03", 1, "", "", ""))) return
    work = P(h3, 7); m = 0
    for (c = 1; c <= ncfg; c++) if (P(c, 2) == "03" && P(c, 7) == work && P(c, 3) == "") a[++m] = c
    sortcfg(a, m); o = out "/stream_stages.dat"; copy = ""
    for (i = 1; i <= m; i++) { print P(a[i], 8), sprintf("%.1f", med(a[i], 6)) > o; cp[i] = med(a[i], 7) }
    copy = med_of(cp, m)
    s1 = find("course", "01", 1, "", "", ""); s2 = find("course", "02", 1, "", "", "")
    printf "%s %.1f %s %s %s\n", work, copy, s1 ? sprintf("%.1f", med(s1, 6)) : "NaN", s2 ? sprintf("%.1f", med(s2, 6)) : "NaN", P(h3, 6) > (out "/stream_stages.args")
    # time vs work: 01 and 02 at their stages, 03 at its headline stages
    o = out "/stream_work.dat"; nw = 0
    print "work\tstep 01 " name("01") "\tstep 02 " name("02") "\tstep 03 " name("03") " (" P(h3, 8) " stages)\tD2D copy (same bytes)" > o
    for (c = 1; c <= ncfg; c++) if (P(c, 2) == "03" && P(c, 8) == P(h3, 8) && P(c, 3) == "" && !(P(c, 7) in wseen)) { wseen[P(c, 7)] = 1; ws[++nw] = P(c, 7) + 0 }
    for (i = 2; i <= nw; i++) { t = ws[i]; for (j = i - 1; j >= 1 && ws[j] > t; j--) ws[j + 1] = ws[j]; ws[j + 1] = t }
    for (i = 1; i <= nw; i++) {
        line = ws[i]; cms = "NaN"
        for (s = 1; s <= 3; s++) {
            c = 0; for (k = 1; k <= ncfg; k++) if (P(k, 2) == sprintf("0%d", s) && P(k, 7) == ws[i] && (s < 3 || P(k, 8) == P(h3, 8)) && P(k, 3) == "" && (!c || last[k] > last[c])) c = k
            line = line "\t" (c ? sprintf("%.6f", med(c, 4)) : "NaN")
            if (c && s == 3) cms = sprintf("%.6f", med(c, 4) * med(c, 6) / med(c, 7))
        }
        print line "\t" cms > o
    }
    print "01 02 03" > (out "/stream_work.args")
}
function med_of(a, m,   i, j, t) { for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }; return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
# steps.md: one row per step folder, its headline numbers (render.sh adds concept and link)
function steps_md(   o, i, s, c, c4, c8) {
    o = out "/steps.tsv"; reset_use()
    for (i = 1; i <= nshow; i++) {
        s = show[i]
        if (stream[s]) { c = findrev("course", s, 1, "", "", "", prev[s]); use(c)
            print s, sprintf("%.0f GB/s", med(c, 6)), sprintf("%.2f of the copy", med(c, 3)) > o; continue }
        c4 = findrev("course", s, 1, 4096, 4096, 4096, prev[s]); c8 = findrev("course", s, 1, 8192, 8192, 8192, prev[s])
        use(c4); use(c8)
        print s, sprintf("%.0f · %.0f TFLOP/s", med(c4, 5), med(c8, 5)), sprintf("%.2f · %.2f of cuBLAS", med(c4, 3), med(c8, 3)) > o
    }
    if (nshow) print "**" gpu "** · rows dated " d0 (d1 != d0 ? " to " d1 : "") " · " revnote("`") > (out "/steps.stamp")
}
BEGIN { split("- sm_clock_mhz ratio_to_ref ms_median tflops gbps ref_value ref_value date git_rev gpu", fld, " ") }
# stepNN_tune.md (a step whose chooser is a model, step 10): per shape, the
# model's pick (headline rows, chooser model) against --tune's (chooser tune),
# both from one revision: the newest that has headline rows of the model.  A
# forced or cached run is neither.  Each side: its latest set of rows there.
function tune_md(s,   o, i, c, t, R, best, sk, mdl, tun, shp, a, m, q, same, w, nt, nw, ns, n95, n100, k64, r, odd) {
    R = ""; best = 0
    for (i = 1; i <= npc; i++) { c = -i
        if (P(c, 1) == "course" && P(c, 2) == s && P(c, 11) == 1 && P(c, 13) == "model" && last[c] > best) { best = last[c]; R = P(c, 15) } }
    if (R == "") return
    m = 0
    for (i = 1; i <= npc; i++) { c = -i
        if (P(c, 1) != "course" || P(c, 2) != s || P(c, 15) != R || P(c, 3) == "") continue
        sk = shapekey(c)
        if (P(c, 11) == 1 && P(c, 13) == "model") { if (!(sk in mdl) || last[c] > last[mdl[sk]]) mdl[sk] = c }
        else if (P(c, 13) == "tune") { if (!(sk in tun) || last[c] > last[tun[sk]]) tun[sk] = c }
        else continue
        if (!(sk in shp)) { shp[sk] = 1; a[++m] = c }
    }
    sortcfg(a, m)
    o = out "/step" s "_tune.md"; reset_use()
    print "| M×N×K | model's pick | model's ratio | tune's pick | tune's ratio | model ÷ tune | model within 3% of tune |\n|---|---|---:|---|---:|---:|---|" > o
    nt = nw = ns = n95 = n100 = k64 = odd = 0
    for (i = 1; i <= m; i++) {
        sk = shapekey(a[i]); c = (sk in mdl) ? mdl[sk] : 0; t = (sk in tun) ? tun[sk] : 0
        if (c) { use(c); r = sprintf("%.2f", med(c, 3)) + 0
            if (P(c, 5) % 64) odd++; else { k64++; n95 += r >= 0.95; n100 += r >= 1.00 } }
        if (t) use(t)
        w = "–"; q = "–"
        if (c && t) {
            nt++; same = P(c, 14) == P(t, 14) && P(c, 12) == P(t, 12)
            q = med(c, 3) / med(t, 3)
            w = same ? "yes, the same pick" : (q >= 0.97 ? "yes" : "no"); nw += same || q >= 0.97; ns += same
            q = sprintf("%.3f", q)
        }
        printf "| %s | %s | %s | %s | %s | %s | %s |\n", shape(a[i]), c ? pick(c) : "–", c ? ratio(c) : "–", t ? pick(t) : "–", t ? ratio(t) : "–", q, w > o
    }
    printf "\nThe model's pick is within 3%% of tune's where it is the same (configuration and plan) or its ratio to cuBLAS is at least 0.97 of tune's: at %d of the %d shapes with a tune row (%d the same pick).", nw, nt, ns > o
    printf " Its ratio (as rounded here) is at least 0.95 at %d and at least 1.00 at %d of the %d shapes with K a multiple of 64%s.\n", n95, n100, k64, odd ? sprintf(" (and %d with K %% 64 ≠ 0)", odd) : "" > o
    footer(o); close(o)
    prepend(o, stamp() " (the newest revision with rows the model chose; tune's rows from the same one) · each ratio: the run's median over cuBLAS's, interleaved in one process; the model's: the median of its runs, range in brackets")
}
function pick(c) { return dash(P(c, 14)) "/" dash(P(c, 12)) }

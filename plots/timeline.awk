# timeline.awk — a --trace CSV (plots/results/timeline_stepNN.csv) -> the data of
# plots/timeline.gp (stdout) and a gnuplot setup file (-v setup=FILE): y tics,
# ranges, the phases present.  -v us=N: the window, N µs from CTA 0's first record.
# Data columns: x centre (µs), row, half width, half height, phase id.
BEGIN {
    FS = ","
    np = split("producer_acquire producer_load consumer_wait consumer_compute consumer_release epilogue fixup", pn, " ")
    for (p = 1; p <= np; p++) pid[pn[p]] = p - 1
}
{ sub(/\r$/, "") }
/^[ \t]*#/ || /^[ \t]*$/ || $1 == "cta" || NF < 7 { next }
$6 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ { next }
{
    n++; C[n] = $1 + 0; U[n] = $2 + 0; KIND[n] = $3; PH[n] = ($5 in pid) ? pid[$5] : np
    T0[n] = $6 + 0; T1[n] = $7 + 0
    if (!(C[n] in seenc)) { seenc[C[n]] = 1; cl[++nc] = C[n] }
    if (!((C[n], U[n]) in seenu)) { seenu[C[n], U[n]] = 1; kind[C[n], U[n]] = $3 }
}
function sortnum(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
END {
    if (!n) exit 1
    sortnum(cl, nc)
    c0 = cl[1]
    for (c = 1; c <= nc; c++) if (cl[c] == 0) c0 = 0
    start = -1; last = 0
    for (i = 1; i <= n; i++) {
        if (C[i] == c0 && (start < 0 || T0[i] < start)) start = T0[i]
    }
    wend = start + us * 1000
    for (i = 1; i <= n; i++) if (T1[i] > last) last = T1[i]
    if (last < wend) wend = last
    if (wend <= start) wend = start + 1000
    # rows: CTAs in order, units in order, one empty row between CTAs
    row = 0; tics = ""; seps = ""
    for (c = 1; c <= nc; c++) {
        nu = 0; split("", ul)
        for (k in seenu) { split(k, kk, SUBSEP); if (kk[1] + 0 == cl[c]) ul[++nu] = kk[2] + 0 }
        sortnum(ul, nu)
        if (c > 1) { seps = seps " " (row - 1); }
        for (u = 1; u <= nu; u++) {
            Y[cl[c], ul[u]] = row
            kd = kind[cl[c], ul[u]] == "warpgroup" ? "WG" : kind[cl[c], ul[u]]
            tics = tics (tics == "" ? "" : ", ") "\"CTA " cl[c] " " kd " " ul[u] "\" " row
            row++
        }
        row++
    }
    rows = row - 2      # the last unit's row (row ends one past the gap after it)
    minw = (wend - start) / 1000 / 3000
    for (i = 1; i <= n; i++) {
        a = T0[i]; b = T1[i]
        if (b < start || a > wend) continue
        if (a < start) a = start
        if (b > wend) b = wend
        hw = (b - a) / 2000
        if (hw < minw) hw = minw
        printf "%.4f\t%d\t%.4f\t0.38\t%d\n", (a + b) / 2000 - start / 1000, Y[C[i], U[i]], hw, PH[i]
        has[PH[i]] = 1
    }
    present = ""
    for (p = 0; p <= np; p++) if (p in has) present = present (present == "" ? "" : " ") p
    printf "set ytics (%s)\n", tics > setup
    printf "set yrange [%g:%g]\n", rows + 0.7, -0.7 > setup
    printf "set xrange [0:%g]\n", (wend - start) / 1000 > setup
    printf "rows = %d\n", rows + 1 > setup
    printf "window_us = %g\n", (wend - start) / 1000 > setup
    printf "separators = \"%s\"\n", seps > setup
    printf "present = \"%s\"\n", present > setup
    ctas = ""
    for (c = 1; c <= nc; c++) ctas = ctas (c > 1 ? (c == nc ? " and " : ", ") : "") cl[c]
    printf "ctas = \"%s\"\n", ctas > setup
    close(setup)
}

#!/bin/sh
# migrate_csv.sh — one-time migration (issue 15) of results files written
# before the CSV had the run's columns: appends impl,group,cluster,mode,repeat
# to the header and fills them for the old rows from what those runs were.
# This is the only place a label or a most-common value is ever interpreted,
# once, to record what the old bench knew; render.sh reads the columns only.
#   impl    course (there were no peers)
#   group   steps 06-07: N for a variant ending in _groupN (the label the
#           harness wrote for --group N; the suffix is dropped), else 8, the
#           default then; other steps: empty (no tile scheduler)
#   cluster GEMM rows: 1 (no step before 08 had clusters); streaming: empty
#   mode    empty (no stream-K step before 09)
#   repeat  1 for a run of the step's default configuration, as the bench
#           marks them now; empty for a sweep's other points.  Default
#           configuration: GEMM, the stages most of the step's rows have and
#           group 8 (or none); streaming, the work most of step 03's rows have
#           and, for step 03, the stages most of its rows have.
# A file whose header already has `impl` is left alone.
#   sh plots/tools/migrate_csv.sh plots/results/*.csv
set -eu
for f in "$@"; do
    if head -n1 "$f" | grep -q ',impl,'; then echo "$f: already migrated"; continue; fi
    tmp=$f.migrate.$$
    awk -F, -v OFS=, '
    function mode_of(a,   k, best) { best = ""; for (k in a) if (best == "" || a[k] > a[best]) best = k; return best }
    NR == FNR { if (FNR > 1 && !/^#/) { st[$1, $8]++; if ($1 == "03") w3[$7]++ } ; next }
    FNR == 1 { print $0, "impl,group,cluster,mode,repeat"; next }
    /^#/ { print; next }
    {
        if (!($1 in dstages)) { split("", c); for (k in st) { split(k, kk, SUBSEP); if (kk[1] == $1) c[kk[2]] = st[k] }; dstages[$1] = mode_of(c) }
        group = ""; cluster = ""; rep = ""
        if ($1 == "06" || $1 == "07") {
            group = 8
            if (match($2, /_group[0-9]+/)) {
                group = substr($2, RSTART + 6, RLENGTH - 6)
                $2 = substr($2, 1, RSTART - 1) substr($2, RSTART + RLENGTH)
            }
        }
        if ($3 != "") { cluster = 1; if ($8 == dstages[$1] && (group == "" || group == 8)) rep = 1 }
        else if ($7 == mode_of(w3) && ($1 != "03" || $8 == dstages[$1])) rep = 1
        print $0, "course", group, cluster, "", rep
    }' "$f" "$f" >"$tmp"
    mv "$tmp" "$f"
    echo "$f: migrated ($(wc -l <"$f") lines)"
done

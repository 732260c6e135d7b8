#!/bin/sh
# sk_cap/pair_feed_scan.sh OUT: is the pairs' gap to the model a slower feed?  One SM's feed of a
# pingpong pair (64x128, 128x128, 128x192) multiplied by 1.0-2.5, with sk_cap offered to every
# configuration (OFFER_ALL=1) or as the tree (0), judged (fit_more.c's judge: the model's pick within
# 3% of the best measured) on the sweeps that measured every candidate: logs/first_offer/ and
# logs/rule/ (75 shapes, H200).  No GPU.  Writes OUT.
set -u
OUT=${1:?usage: pair_feed_scan.sh OUT}
HERE=$(dirname "$0")
T=$(mktemp -d)
cp step10_autotune/chooser.h "$T/"
python3 - "$T/chooser.h" <<'PY' || exit 1
import sys
p = sys.argv[1]; s = open(p).read()
def edit(old, new):
    global s
    assert s.count(old) == 1, "chooser.h changed: " + old
    s = s.replace(old, new)
edit("return c->cluster == 1 && e->cluster_tiles", "return (g_offer_all || c->cluster == 1) && e->cluster_tiles")
edit("    const double kt_fed = feed_kt_us > e.kt_us ? feed_kt_us : e.kt_us;",
     "    const double feed_pair = feed_kt_us * (c->cluster == 2 && c->tile_wgs == 1 ? g_pair_f : 1.0);\n"
     "    const double kt_fed = feed_pair > e.kt_us ? feed_pair : e.kt_us;")
edit('#include "stream_k_schedule.h"\n', '#include "stream_k_schedule.h"\nstatic double g_pair_f = 1.0;\nstatic int g_offer_all = 0;\n')
open(p, "w").write(s)
PY
sed 's/^int main(int argc, char \*\*argv)$/static int main_fit(int argc, char **argv)/' "$HERE/../fixup_writers/fit_more.c" > "$T/scan.c"
cat >> "$T/scan.c" <<'C'
int main(int argc, char **argv)
{
    (void)main_fit;
    const chooser_device d = {atoi(argv[1]), atof(argv[2]), atof(argv[3])};
    g_offer_all = atoi(argv[4]);
    static shape sh[512];
    int ns = 0;
    for (int i = 5; i < argc && ns < 512; ++i) ns += read_log(argv[i], &sh[ns]);
    g_more = 2;
    for (int f10 = 10; f10 <= 25; ++f10) {
        g_pair_f = f10 / 10.0;
        int ok = 0;
        double lg = 0;
        char pick[32];
        for (int i = 0; i < ns; ++i) {
            const double q = judge(&sh[i], &d, pick);
            ok += q >= 0.97, lg += log(q > 0 ? q : 1e-3);
        }
        printf("offer to all %d, a pair's feed x%.1f: within 3%% at %d of %d, geometric mean of best / pick %.3f\n",
               g_offer_all, g_pair_f, ok, ns, exp(lg / ns));
    }
    return 0;
}
C
nvcc -O2 -Icommon -I"$T" -I"$HERE/../fixup_writers" "$T/scan.c" -o "$T/scan" || exit 1   # fit_more.c's "../menu_rings.h" from there
{ for a in 0 1; do "$T/scan" 132 62914560 4814.3 $a "$HERE"/logs/first_offer/tune_*/tune_*.log "$HERE"/logs/rule/tune_feed_rule/tune_*.log; done; } > "$OUT"
rm -rf "$T"
cat "$OUT"

/* fit_more.c — which SK_FIXUP_MORE_KT (k-tile times per writer of a stream-K tile past the first)
 * makes chooser.h's model pick within 3% of the best candidate that tune_sweep.sh measured?
 * The model is chooser.h itself, compiled here with SK_FIXUP_MORE_KT a variable; the measured
 * times are the sweep's `tune:` lines, clock-scaled as model_vs_sweep.py does (each candidate by
 * cuBLAS's time beside its configuration's dp plan, to the shape's median of those).
 *   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/fixup_writers/fit_more.c -o build/fit_more
 *   ./fit_more CTAS L2_BYTES DRAM_GBS tune_*.log          every value 0..12, then the picks at the best
 *   FIXUP_MORE=2 ./fit_more ...                           the picks at 2 only
 *   ./fit_more CTAS L2_BYTES DRAM_GBS --picks < LIST       no logs: the model's pick at each "M N K" line
 *                                                          of LIST under the old term (10) and the new (2)
 * CTAS, L2_BYTES, DRAM_GBS: what the binary read from the GPU that ran the sweep (chooser_device;
 * run.sh's gpu.txt and devinfo). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_more;
#define SK_FIXUP_MORE_KT g_more
#include "chooser.h"

#include "../menu_rings.h"   /* kernel.cu's menu, the rings the H100 and H200 fit */

typedef struct { char name[32]; double ms, cublas; } cand;
typedef struct { int m, n, k, nc; cand c[CHOOSER_MAX_CANDIDATES]; const char *file; } shape;

static int read_log(const char *f, shape *s)
{
    const char *b = strrchr(f, '/');
    if (sscanf(b ? b + 1 : f, "tune_%dx%dx%d", &s->m, &s->n, &s->k) != 3) return 0;
    FILE *fp = fopen(f, "r");
    if (!fp) return 0;
    char line[512];
    s->nc = 0;
    s->file = f;
    while (fgets(line, sizeof line, fp) && s->nc < CHOOSER_MAX_CANDIDATES) {
        cand c;
        if (sscanf(line, "tune: %31s %lf ms | cuBLAS %lf ms", c.name, &c.ms, &c.cublas) != 3) continue;
        int dup = 0;   /* the sweep's line, not the head-to-head rounds' */
        for (int i = 0; i < s->nc; ++i) dup |= strcmp(s->c[i].name, c.name) == 0;
        if (!dup) s->c[s->nc++] = c;
    }
    fclose(fp);
    /* clock scaling: each candidate by cuBLAS's time beside its configuration's dp plan */
    double ref[CHOOSER_MAX_CANDIDATES], r;
    int nr = 0;
    for (int i = 0; i < s->nc; ++i)
        if (strstr(s->c[i].name, "/dp")) ref[nr++] = s->c[i].cublas;
    for (int i = 0; i < nr; ++i)   /* the median, as sorted()[n // 2] */
        for (int j = i + 1; j < nr; ++j)
            if (ref[j] < ref[i]) r = ref[i], ref[i] = ref[j], ref[j] = r;
    for (int i = 0; i < s->nc; ++i) {
        char cfg[32];
        snprintf(cfg, sizeof cfg, "%s", s->c[i].name);
        *strchr(cfg, '/') = 0;
        for (int j = 0; j < s->nc; ++j)
            if (strncmp(s->c[j].name, cfg, strlen(cfg)) == 0 && strcmp(s->c[j].name + strlen(cfg), "/dp") == 0)
                s->c[i].ms *= ref[nr / 2] / s->c[j].cublas;
    }
    return s->nc > 0;
}

/* best measured / the model's pick, measured; the pick's name in pick.  The model picks among the
 * candidates the sweep measured (all of them when none was: --picks): a log older than a plan (sk_cap,
 * session 18) is judged as the binary that wrote it chose. */
static double judge(const shape *s, const chooser_device *d, char *pick)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    int n = chooser_candidates(s->m, s->n, s->k, menu, 5, -1, SK_MODE_AUTO, d, e), kept = 0;
    for (int i = 0; i < n; ++i) {
        char name[32];
        int measured = s->nc == 0;
        snprintf(name, sizeof name, "%s/%s", menu[e[i].config].name, chooser_plan_name(&e[i]));
        for (int j = 0; j < s->nc; ++j) measured |= strcmp(s->c[j].name, name) == 0;
        if (measured) e[kept++] = e[i];
    }
    if (!(n = kept)) return snprintf(pick, 32, "none measured"), 0;
    const int p = chooser_pick(e, n);
    snprintf(pick, 32, "%s/%s", menu[e[p].config].name, chooser_plan_name(&e[p]));
    double best = 1e30, at = -1;
    for (int i = 0; i < s->nc; ++i) {
        if (s->c[i].ms < best) best = s->c[i].ms;
        if (strcmp(s->c[i].name, pick) == 0) at = s->c[i].ms;
    }
    return at > 0 ? best / at : 0;   /* 0: the pick was not measured */
}

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: %s CTAS L2_BYTES DRAM_GBS tune_*.log...\n", argv[0]); return 2; }
    const chooser_device d = {atoi(argv[1]), atof(argv[2]), atof(argv[3])};
    if (strcmp(argv[4], "--picks") == 0) {   /* which picks the new term moves (no measurement) */
        char line[256];
        int m, n, k, moved = 0, count = 0;
        while (fgets(line, sizeof line, stdin))
            if (line[0] != '#' && sscanf(line, "%d %d %d", &m, &n, &k) == 3) {
                const shape s = {m, n, k, 0, {{{0}}}, NULL};
                char pick[2][32];
                for (int i = 0; i < 2; ++i) g_more = i ? 2 : 10, judge(&s, &d, pick[i]);
                moved += strcmp(pick[0], pick[1]) != 0, ++count;
                printf("  %5d %5d %6d  old term %-16s new %-16s%s\n", m, n, k, pick[0], pick[1],
                       strcmp(pick[0], pick[1]) ? "  moved" : "");
            }
        printf("%d of %d picks moved\n", moved, count);
        return 0;
    }
    static shape sh[256];
    int ns = 0;
    for (int i = 4; i < argc && ns < 256; ++i) ns += read_log(argv[i], &sh[ns]);
    const char *fixed = getenv("FIXUP_MORE");
    int lo = fixed ? atoi(fixed) : 0, hi = fixed ? atoi(fixed) : 12, best_v = lo, best_ok = -1;
    double best_g = 0;
    for (int v = lo; v <= hi; ++v) {
        g_more = v;
        int ok = 0;
        double lg = 0;
        char pick[32];
        for (int i = 0; i < ns; ++i) {
            const double q = judge(&sh[i], &d, pick);
            ok += q >= 0.97;
            lg += log(q > 0 ? q : 1e-3);
        }
        printf("SK_FIXUP_MORE_KT %2d: within 3%% at %d of %d, geometric mean of best / pick %.3f\n", v, ok, ns,
               exp(lg / ns));
        if (ok > best_ok || (ok == best_ok && lg / ns > log(best_g))) best_ok = ok, best_g = exp(lg / ns), best_v = v;
    }
    g_more = best_v;
    printf("the picks at %d:\n", best_v);
    for (int i = 0; i < ns; ++i) {
        char pick[32];
        const double q = judge(&sh[i], &d, pick);
        printf("  %5d %5d %6d  model %-16s best/pick %.3f\n", sh[i].m, sh[i].n, sh[i].k, pick, q);
    }
    return 0;
}

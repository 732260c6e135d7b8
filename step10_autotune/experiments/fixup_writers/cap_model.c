/* cap_model.c — a plan between auto's two units a tile and sk's all: where every tile streams, over
 * how many units U' does chooser.h's model (SK_FIXUP_MORE_KT included) put the fastest launch, and
 * is that where run.sh's `cap` part measured it?  For each shape of the cap runs, the model's time
 * at each U' measured and its best U' of all.  Plain C, no GPU.
 *   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/fixup_writers/cap_model.c -o build/cap_model
 *   build/cap_model 132 62914560 4814.3      (CTAS L2_BYTES DRAM_GBS: the H200's, logs/final/devinfo.txt) */
#include <stdio.h>
#include <stdlib.h>

#include "chooser.h"

static const chooser_config menu[2] = {   /* kernel.cu's 64x64 and 64x128, the rings they fit */
    {"64x64", 64, 64, CHOOSER_KT_US_64x64, 1, 1, 8}, {"64x128", 64, 128, CHOOSER_KT_US_64x128, 1, 2, 8}};

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: %s CTAS L2_BYTES DRAM_GBS\n", argv[0]); return 2; }
    const chooser_device d = {atoi(argv[1]), atof(argv[2]), atof(argv[3])};
    static const struct { int m, n, k, c, u[7]; } s[] = {   /* run.sh's cap runs; u: the U' measured, 0 ends */
        {128, 128, 32768, 0, {8, 16, 32, 64, 132}}, {64, 64, 16384, 0, {2, 8, 16, 32, 64, 132}},
        {160, 160, 40960, 0, {18, 36, 72, 132}}, {512, 256, 32768, 1, {16, 32, 48, 66}}};
    for (int i = 0; i < 4; ++i) {
        const chooser_estimate sk = chooser_estimate_of(s[i].m, s[i].n, s[i].k, menu, s[i].c, &d, SK_MODE_SK);
        const int T = sk.cluster_tiles, kt = sk.plan.kt, units = d.ctas / menu[s[i].c].cluster;
        printf("%dx%dx%d %s/sk, %d tiles:", s[i].m, s[i].n, s[i].k, menu[s[i].c].name, T);
        int best = units;
        double best_t = 1e30;
        for (int u = 1; u <= units; ++u) {   /* every tile streamed over u units */
            const sk_plan p = sk_plan_split(T, kt, units, T, u);
            const double t = chooser_estimate_with(s[i].m, s[i].n, s[i].k, menu, s[i].c, &d, SK_MODE_SK, &p).t_us;
            if (t < best_t) best_t = t, best = u;
        }
        for (int j = 0; j < 7 && s[i].u[j]; ++j) {
            const sk_plan p = sk_plan_split(T, kt, units, T, s[i].u[j]);
            printf("  U'=%d %.1f us", s[i].u[j],
                   chooser_estimate_with(s[i].m, s[i].n, s[i].k, menu, s[i].c, &d, SK_MODE_SK, &p).t_us);
        }
        printf("  | best U'=%d %.1f us\n", best, best_t);
    }
    return 0;
}

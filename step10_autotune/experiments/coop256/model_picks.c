/* model_picks.c — where would the model send work to the cooperative 128x256c
 * under its provisional k-tile time (chooser.h, CHOOSER_KT_US_128x256c)?  For
 * each shape: the model's pick over the three fitted configurations, its pick
 * over all four, and 128x256c/dp's prediction over the three's pick.  Plain C,
 * no GPU: the H100's device numbers as tests/test_chooser.c gives them.
 *   gcc -O2 -Icommon step10_autotune/experiments/coop256/model_picks.c -o build/model_picks
 *   build/model_picks step10_autotune/experiments/coop256/bench_shapes.txt */
#include <stdio.h>

#include "../../chooser.h"

/* pairs of CTAs, and the ring each fits (cluster and stages joined chooser_config in sessions 15 and 16;
 * the logs beside this file were made with the model of their day, 9513e76) */
static const chooser_config menu[4] = {
    {"64x128", 64, 128, CHOOSER_KT_US_64x128, 1, 2, 8},
    {"128x128", 128, 128, CHOOSER_KT_US_128x128, 1, 2, 6},
    {"128x192", 128, 192, CHOOSER_KT_US_128x192, 1, 2, 5},
    {"128x256c", 128, 256, CHOOSER_KT_US_128x256c, 2, 2, 4},
};
static const chooser_device h100 = {132, 50.0 * 1024 * 1024, 3352.0};   /* resident CTAs, one per SM */

int main(int argc, char **argv)
{
    int coop = 0, shapes = 0;
    for (int a = 1; a < argc; ++a) {
        FILE *f = fopen(argv[a], "r");
        if (!f) { perror(argv[a]); return 2; }
        char line[256];
        int M, N, K;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == '#' || sscanf(line, "%d %d %d", &M, &N, &K) != 3) continue;
            chooser_estimate e[CHOOSER_MAX_CANDIDATES], g[CHOOSER_MAX_CANDIDATES];
            const int n3 = chooser_candidates(M, N, K, menu, 3, -1, SK_MODE_AUTO, &h100, e);
            const int n4 = chooser_candidates(M, N, K, menu, 4, -1, SK_MODE_AUTO, &h100, g);
            const int p3 = chooser_pick(e, n3), p4 = chooser_pick(g, n4);
            const chooser_estimate c = chooser_estimate_of(M, N, K, menu, 3, &h100, SK_MODE_DP);
            printf("%5d x %5d x %5d   3: %8s/%-5s %8.1f us   4: %8s/%-5s %8.1f us   128x256c/dp %8.1f us (%.3f)%s\n",
                   M, N, K, menu[e[p3].config].name, chooser_plan_name(&e[p3]), e[p3].t_us,
                   menu[g[p4].config].name, chooser_plan_name(&g[p4]), g[p4].t_us, c.t_us, c.t_us / e[p3].t_us,
                   g[p4].config == 3 ? "  <- 128x256c" : "");
            coop += g[p4].config == 3;
            ++shapes;
        }
        fclose(f);
    }
    printf("with CHOOSER_KT_US_128x256c = %.3f the model picks 128x256c at %d of %d shapes\n",
           CHOOSER_KT_US_128x256c, coop, shapes);
    return 0;
}

/* picks.c — where does the chooser's fourth plan, sk_cap (every tile streamed over the U' units the model
 * finds fastest; chooser.h), change the model's pick?  For each "M N K" line of a list: the pick among the
 * candidates without sk_cap (the tree before it) and with it, their predicted times and sk_cap's U'.
 * Plain C, no GPU: chooser.h as kernel.cu includes it, with kernel.cu's menu and the rings it fits.
 *   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/sk_cap/picks.c -o build/cap_picks
 *   grep -hv '^#' LIST | build/cap_picks CTAS L2_BYTES DRAM_GBS
 *       H200: 132 62914560 4814.3   H100: 132 52428800 3352.0   (fixup_writers/logs/final/devinfo.txt) */
#include <stdio.h>
#include <stdlib.h>

#include "chooser.h"

#include "../menu_rings.h"   /* kernel.cu's menu, the rings the H100 and H200 fit */

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: %s CTAS L2_BYTES DRAM_GBS < LIST\n", argv[0]); return 2; }
    const chooser_device d = {atoi(argv[1]), atof(argv[2]), atof(argv[3])};
    char line[256];
    int moved = 0, shapes = 0;
    while (fgets(line, sizeof line, stdin)) {
        int m, n, k;
        if (sscanf(line, "%d %d %d", &m, &n, &k) != 3) continue;
        chooser_estimate e[CHOOSER_MAX_CANDIDATES], old[CHOOSER_MAX_CANDIDATES];
        const int ne = chooser_candidates(m, n, k, menu, 5, -1, SK_MODE_AUTO, &d, e);
        int no = 0;
        for (int i = 0; i < ne; ++i) if (e[i].mode != CHOOSER_MODE_CAP) old[no++] = e[i];
        const int p = chooser_pick(e, ne), q = chooser_pick(old, no);
        const int same = e[p].config == old[q].config && chooser_same_plan(&e[p].plan, &old[q].plan);
        moved += !same, ++shapes;
        printf("%6d %6d %6d  before %8s/%-6s %7.1f us   now %8s/%-6s %7.1f us", m, n, k, menu[old[q].config].name,
               chooser_plan_name(&old[q]), old[q].t_us, menu[e[p].config].name, chooser_plan_name(&e[p]), e[p].t_us);
        if (e[p].mode == CHOOSER_MODE_CAP) printf("  U'=%d, %d writers a tile", e[p].plan.sk_units, sk_plan_max_sharing(&e[p].plan));
        printf("%s\n", same ? "" : "  <- moved");
    }
    printf("%d of %d picks moved\n", moved, shapes);
    return 0;
}

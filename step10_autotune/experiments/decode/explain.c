/* explain.c — the chooser's table (what --explain prints) for each "M N K" line of a list, without a GPU:
 * chooser.h as kernel.cu includes it, with kernel.cu's menu and the rings it fits on the H100 and H200.
 * Compiled against another chooser.h (a -I before step10_autotune) it shows what a change to the model
 * does to every candidate's prediction.
 *   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/decode/explain.c -o build/explain
 *   grep -hv '^#' LIST | build/explain CTAS L2_BYTES DRAM_GBS
 *       H200: 132 62914560 4814.3   H100: 132 52428800 3352.0   (decode/logs/devinfo.txt) */
#include <stdio.h>
#include <stdlib.h>

#include "hd.h"
#include "chooser.h"

#include "../menu_rings.h"   /* kernel.cu's menu, the rings the H100 and H200 fit */

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: %s CTAS L2_BYTES DRAM_GBS < LIST\n", argv[0]); return 2; }
    const chooser_device d = {atoi(argv[1]), atof(argv[2]), atof(argv[3])};
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        int m, n, k;
        if (sscanf(line, "%d %d %d", &m, &n, &k) != 3) continue;
        chooser_estimate e[CHOOSER_MAX_CANDIDATES];
        const int ne = chooser_candidates(m, n, k, menu, 5, -1, SK_MODE_AUTO, &d, e), p = chooser_pick(e, ne);
        printf("== %d x %d x %d\n%-17s %6s %6s %5s %6s %8s %8s %8s %8s\n", m, n, k, "candidate", "tiles", "waves",
               "fill", "B/MAC", "busiest", "mma us", "DRAM us", "pred us");
        for (int i = 0; i < ne; ++i)
            printf("%8s/%-8s %6d %6.2f %5.2f %6.4f %8lld %8.1f %8.1f %8.1f%s\n", menu[e[i].config].name,
                   chooser_plan_name(&e[i]), e[i].tiles, e[i].waves, e[i].last_wave_fill, e[i].bytes_per_mac,
                   e[i].busiest_kt, e[i].t_mma_us, e[i].t_dram_us, e[i].t_us, i == p ? "  <- the model's choice" : "");
    }
    return 0;
}

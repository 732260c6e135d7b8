/* raster.h — which output tile a one-tile-per-CTA GEMM grid gives CTA i
 * (steps 04-05): the grouped raster order.
 *
 * The grid has one CTA per output tile.  Numbered row by row, the CTAs that
 * are resident at the same time would span a few tile rows and every tile
 * column: each needs its own panel of B (BN x K) and they share few panels of
 * A (BM x K), so L2 holds many panels used once.  Grouped raster walks down
 * `group_m` tile rows before moving one tile column right:
 *
 *   group_m = 3, 5 x 4 tiles        tile rows 0-2 are group 0,
 *          n=0  1  2  3             rows 3-4 the last (short) group
 *      m=0   0  3  6  9
 *        1   1  4  7 10             CTAs 0..5 share 3 panels of A and
 *        2   2  5  8 11             2 panels of B
 *        3  12 14 16 18
 *        4  13 15 17 19
 *
 * The same mapping as tile_sched_coords(s, tile, ...) with s.group = group_m
 * and s.along_n = 0 (persistent_schedule.h), which steps 06-07 extend with a
 * persistent walk and a choice of direction.
 *
 * Plain C with HD (hd.h): the kernels and the CPU tests can call the same
 * function. */
#ifndef COMMON_RASTER_H
#define COMMON_RASTER_H

#include "hd.h"

#if defined(__CUDACC__)
#define RASTER_FN static HD
#else
#define RASTER_FN static inline HD
#endif

/* Linear tile index -> (tm, tn), tile in [0, tiles_m * tiles_n). */
RASTER_FN void grouped_tile_coords(int tile, int tiles_m, int tiles_n, int group_m, int *tm,
                                   int *tn)
{
    const int per_group = group_m * tiles_n;
    const int group = tile / per_group;
    const int first_m = group * group_m;
    /* the last group may be short */
    const int rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
    const int local = tile - group * per_group;
    *tm = first_m + local % rows;
    *tn = local / rows;
}

#endif

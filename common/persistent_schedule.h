/* persistent_schedule.h — which output tile a persistent CTA (or warpgroup)
 * works on next, and the work unit a schedule hands a GEMM kernel.
 *
 * Used by steps 06-07 directly (their kernels walk it; gemm_launch.cuh plans
 * the raster on the host) and by steps 08-10 through cluster_schedule.h,
 * which deals out cluster tiles with the same raster and walk.  Plain C
 * shared with the CPU tests (HD; tests/test_persistent_schedule.c).
 *
 * A persistent kernel launches one CTA per SM and lets each CTA loop over
 * output tiles.  Two questions need answers, and both are pure arithmetic:
 *
 * 1. Which tile is linear work index i?  (tile_sched_coords)
 *    Tiles are numbered in *grouped raster order*, so the tiles that run at
 *    the same time share rows of A and columns of B in L2:
 *
 *      raster along M, group 3          raster along N, group 3
 *      (m is the fast index)            (n is the fast index)
 *          n=0  1  2  3  4                 n=0  1  2  3  4
 *      m=0   0  3  6  9 12             m=0   0  1  2 15 16
 *        1   1  4  7 10 13               1   3  4  5 17 18
 *        2   2  5  8 11 14               2   6  7  8 19 20
 *        3  15 17 19 21 23               3   9 10 11 21 22
 *        4  16 18 20 22 24               4  12 13 14 23 24
 *
 *    Along M: groups of `group` tile rows; inside a group walk down the rows,
 *    then move one tile column right.  Along N: the same with rows and
 *    columns swapped.  The last group may be narrower (rows 3-4 on the
 *    left, columns 3-4 on the right).
 *    group = 1 is plain row-major order along M (a group is one tile row)
 *    and column-major along N; a group as wide as the grid gives the reverse.
 *
 * 2. Which work indices does this CTA take?  (tile_walk_*)
 *    CTA b of a grid of G starts at index b and strides by G: b, b+G, b+2G...
 *    Every index below num_tiles is taken by exactly one CTA.  Step 07's two
 *    consumer warpgroups split one CTA's walk: the second starts one step
 *    ahead (tile_walk_advance(&w, 1)) and both then advance by 2.
 *
 * Which raster?  (tile_sched_pick_along_n)  A wave of W concurrent tiles
 * touches some tile rows (each needs a BM x K panel of A) and some tile
 * columns (a BN x K panel of B).  The order whose first wave touches fewer
 * bytes of A plus B is the better one for L2; with the course's 128 x 256
 * tiles, B panels are twice as large, so the wave should span fewer tile
 * columns: usually "along N" (few columns, many rows).
 *
 * What the kernel is handed: a work_unit (the end of this file), one tile and
 * the k-tiles of it to compute, whichever schedule made it. */
#ifndef COMMON_PERSISTENT_SCHEDULE_H
#define COMMON_PERSISTENT_SCHEDULE_H

#include "hd.h"
#include "work_unit.h"

/* Every schedule header (this one, cluster_schedule.h, stream_k_schedule.h)
 * declares its functions with SCHED_FN: inlined into the kernel under nvcc,
 * and plain static inline C for the tests under gcc. */
#if defined(__CUDACC__)
#define SCHED_FN static HD
#else
#define SCHED_FN static inline HD
#endif

/* Dividing by a divisor fixed for the whole launch: a multiply-high, a subtract, an add
 * and two shifts (Granlund and Montgomery's method for unsigned 32-bit n; the host finds
 * the multiplier once).  A plain integer division is a float reciprocal and its
 * correction, ~20 dependent instructions, and tile_sched_coords divides twice: the
 * consumers of steps 06-10 ask for every tile's coordinates between two mainloops.
 * Measured: step 10 runs 0.1-1.1% faster with this than with `/`, step 06 the same
 * within 0.3% (step06_persistent/NOTES.md, "The cause, bisected" and "Session 10"). */
typedef struct {
    unsigned int mul;       /* floor(2^32 (2^l - d) / d) + 1, l = ceil(log2 d) */
    int shift1, shift2;     /* min(l, 1) and max(l - 1, 0) */
} tile_divisor;

SCHED_FN tile_divisor tile_divisor_make(int d)   /* d >= 1 */
{
    int l = 0;
    while ((1ll << l) < (long long)d) ++l;
    const tile_divisor t = {(unsigned int)((((1ull << l) - (unsigned long long)d) << 32) / (unsigned long long)d + 1),
                            l < 1 ? l : 1, l > 1 ? l - 1 : 0};
    return t;
}

SCHED_FN int tile_divide(int n, tile_divisor t)   /* n / d for 0 <= n < 2^31 */
{
    const unsigned int hi = (unsigned int)(((unsigned long long)(unsigned int)n * t.mul) >> 32);
    return (int)((hi + (((unsigned int)n - hi) >> t.shift1)) >> t.shift2);
}

typedef struct {
    int tiles_m, tiles_n;   /* output tiles along M and N (edges rounded up) */
    int num_tiles;          /* tiles_m * tiles_n */
    int group;              /* tiles per group across the slow direction, >= 1 */
    int along_n;            /* 1: n is the fast index inside a group; 0: m is */
    int last_first;         /* the first tile (fast index) of the last group */
    tile_divisor per_group, width, last_width;   /* group x slow tiles; group; the last group's width */
} tile_sched;

typedef struct {
    int idx;                /* current linear work index */
    int stride;             /* gridDim.x: how far one step moves */
} tile_walk;

SCHED_FN int tile_sched_div_up(int a, int b) { return (a + b - 1) / b; }

SCHED_FN tile_sched tile_sched_make(int m, int n, int tile_m, int tile_n, int group, int along_n)
{
    tile_sched s;
    s.tiles_m = tile_sched_div_up(m, tile_m);
    s.tiles_n = tile_sched_div_up(n, tile_n);
    s.num_tiles = s.tiles_m * s.tiles_n;
    s.group = group < 1 ? 1 : group;
    s.along_n = along_n ? 1 : 0;
    const int group_tiles = s.along_n ? s.tiles_n : s.tiles_m, slow_tiles = s.along_n ? s.tiles_m : s.tiles_n;
    s.last_first = (group_tiles - 1) / s.group * s.group;
    s.per_group = tile_divisor_make(s.group * slow_tiles);
    s.width = tile_divisor_make(s.group);
    s.last_width = tile_divisor_make(group_tiles - s.last_first);
    return s;
}

/* Linear work index -> tile (tm, tn).  idx must be in [0, num_tiles). */
SCHED_FN void tile_sched_coords(const tile_sched *s, int idx, int *tm, int *tn)
{
    /* Written for "along M"; along N swaps the roles of the two directions. */
    const int slow_tiles = s->along_n ? s->tiles_m : s->tiles_n;    /* across groups' width */
    const int group_tiles = s->along_n ? s->tiles_n : s->tiles_m;   /* split into groups */
    const int per_group = s->group * slow_tiles;
    const int g = tile_divide(idx, s->per_group);
    const int first = g * s->group;
    const int last = first == s->last_first;   /* the last group may be narrower */
    const int width = last ? group_tiles - first : s->group;
    const int local = idx - g * per_group;
    const int slow = tile_divide(local, last ? s->last_width : s->width);   /* across the group */
    const int fast = first + local - slow * width;                          /* inside it */
    if (s->along_n) { *tn = fast; *tm = slow; }
    else            { *tm = fast; *tn = slow; }
}

/* Distinct tile rows and columns touched by work indices [0, W) in one order:
 * A's and B's panels that the first wave pulls through L2. */
SCHED_FN void tile_sched_wave_footprint(int tiles_m, int tiles_n, int group, int along_n,
                                        int W, int *rows, int *cols)
{
    const int group_tiles = along_n ? tiles_n : tiles_m;
    const int slow_tiles = along_n ? tiles_m : tiles_n;
    const int per_group = group * slow_tiles;
    int in_group, across;
    if (W <= 0) { *rows = *cols = 0; return; }
    if (W <= per_group) {                      /* the wave stays in the first group */
        const int width = group_tiles < group ? group_tiles : group;
        in_group = W < width ? W : width;
        across = (W + width - 1) / width;
        if (across > slow_tiles) across = slow_tiles;   /* W past the last tile */
    } else {                                   /* whole groups (and part of the next) */
        const int full = W / per_group, rest = W - full * per_group;
        in_group = full * group + (rest < group ? rest : group);
        if (in_group > group_tiles) in_group = group_tiles;
        across = slow_tiles;
    }
    if (along_n) { *cols = in_group; *rows = across; }
    else         { *rows = in_group; *cols = across; }
}

/* 1 if "along N" loads fewer bytes of A and B in the first wave of `wave`
 * concurrent tiles than "along M" (ties: along M). */
SCHED_FN int tile_sched_pick_along_n(int tiles_m, int tiles_n, int tile_m, int tile_n,
                                     int group, int wave)
{
    const int total = tiles_m * tiles_n;
    const int W = wave < total ? wave : total;
    int rm, cm, rn, cn;
    tile_sched_wave_footprint(tiles_m, tiles_n, group, 0, W, &rm, &cm);
    tile_sched_wave_footprint(tiles_m, tiles_n, group, 1, W, &rn, &cn);
    const long long along_m = (long long)rm * tile_m + (long long)cm * tile_n;
    const long long along_n = (long long)rn * tile_m + (long long)cn * tile_n;
    return along_n < along_m;
}

/* ---- the persistent walk ---------------------------------------------------- */

SCHED_FN tile_walk tile_walk_start(int first, int stride)
{
    tile_walk w;
    w.idx = first;
    w.stride = stride;
    return w;
}

SCHED_FN int tile_walk_valid(const tile_sched *s, const tile_walk *w)
{
    return w->idx < s->num_tiles;
}

/* Skip k of this walker's turns: k = 1 is "my next tile", k = 2 skips the
 * tile a partner warpgroup takes (step 07). */
SCHED_FN void tile_walk_advance(tile_walk *w, int k)
{
    w->idx += k * w->stride;
}

/* ---- the work unit (work_unit.h) ------------------------------------------------ */


/* Work index idx (in [0, num_tiles)) as a whole-tile unit of k_tiles k-tiles. */
SCHED_FN work_unit persistent_unit(const tile_sched *s, int idx, int k_tiles)
{
    work_unit u;
    u.tile = idx;
    tile_sched_coords(s, idx, &u.tile_m, &u.tile_n);
    u.k_begin = 0;
    u.k_end = k_tiles;
    return u;
}

#endif

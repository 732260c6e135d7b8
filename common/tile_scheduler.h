/* tile_scheduler.h — which output tile a persistent CTA (or warpgroup) works
 * on next.  Used by steps 06-07; plain C shared with the CPU tests (HD).
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
 * columns: usually "along N" (few columns, many rows). */
#ifndef COMMON_TILE_SCHEDULER_H
#define COMMON_TILE_SCHEDULER_H

#include "hd.h"

#if defined(__CUDACC__)
#define TILE_SCHED_FN static HD
#else
#define TILE_SCHED_FN static inline HD
#endif

typedef struct {
    int tiles_m, tiles_n;   /* output tiles along M and N (edges rounded up) */
    int num_tiles;          /* tiles_m * tiles_n */
    int group;              /* tiles per group across the slow direction, >= 1 */
    int along_n;            /* 1: n is the fast index inside a group; 0: m is */
} tile_sched;

typedef struct {
    int idx;                /* current linear work index */
    int stride;             /* gridDim.x: how far one step moves */
} tile_walk;

TILE_SCHED_FN int tile_sched_div_up(int a, int b) { return (a + b - 1) / b; }

TILE_SCHED_FN tile_sched tile_sched_make(int m, int n, int tile_m, int tile_n, int group, int along_n)
{
    tile_sched s;
    s.tiles_m = tile_sched_div_up(m, tile_m);
    s.tiles_n = tile_sched_div_up(n, tile_n);
    s.num_tiles = s.tiles_m * s.tiles_n;
    s.group = group < 1 ? 1 : group;
    s.along_n = along_n ? 1 : 0;
    return s;
}

/* Linear work index -> tile (tm, tn).  idx must be in [0, num_tiles). */
TILE_SCHED_FN void tile_sched_coords(const tile_sched *s, int idx, int *tm, int *tn)
{
    /* Written for "along M"; along N swaps the roles of the two directions. */
    const int slow_tiles = s->along_n ? s->tiles_m : s->tiles_n;    /* across groups' width */
    const int group_tiles = s->along_n ? s->tiles_n : s->tiles_m;   /* split into groups */
    const int per_group = s->group * slow_tiles;
    const int g = idx / per_group;
    const int first = g * s->group;
    const int width = group_tiles - first < s->group ? group_tiles - first : s->group;
    const int local = idx - g * per_group;
    const int fast = first + local % width;   /* inside the group */
    const int slow = local / width;           /* then across */
    if (s->along_n) { *tn = fast; *tm = slow; }
    else            { *tm = fast; *tn = slow; }
}

/* Distinct tile rows and columns touched by work indices [0, W) in one order:
 * A's and B's panels that the first wave pulls through L2. */
TILE_SCHED_FN void tile_sched_wave_footprint(int tiles_m, int tiles_n, int group, int along_n,
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
TILE_SCHED_FN int tile_sched_pick_along_n(int tiles_m, int tiles_n, int tile_m, int tile_n,
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

TILE_SCHED_FN tile_walk tile_walk_start(int first, int stride)
{
    tile_walk w;
    w.idx = first;
    w.stride = stride;
    return w;
}

TILE_SCHED_FN int tile_walk_valid(const tile_sched *s, const tile_walk *w)
{
    return w->idx < s->num_tiles;
}

/* Skip k of this walker's turns: k = 1 is "my next tile", k = 2 skips the
 * tile a partner warpgroup takes (step 07). */
TILE_SCHED_FN void tile_walk_advance(tile_walk *w, int k)
{
    w->idx += k * w->stride;
}

/* ---- clusters of CTAs (step 08) -------------------------------------------------
 * A cluster of `size` CTAs (1 or 2 in the course) computes `size` neighbouring
 * tiles that need the same panel of one operand, which it multicasts:
 *
 *   share A (cluster along N)            share B (cluster along M)
 *         n      n+1                          n
 *   m  [rank 0][rank 1]  same A panel    m  [rank 0]  \  same B panel
 *                                        m+1[rank 1]  /
 *
 * The grouped raster (tile_sched_coords) deals out CLUSTER TILES of
 * tile_m x size*tile_n (share A) or size*tile_m x tile_n (share B), and CTA
 * rank r takes tile r of its cluster tile.  A cluster walks like a CTA did
 * (tile_walk_*): start at its walk start, stride by the number of clusters.
 *
 * Raster direction.  Always ACROSS the cluster: fast index m for clusters
 * along N, n for clusters along M, with `group` tiles per group as in steps
 * 06-07.  Consecutive work indices then share the operand that is NOT
 * multicast (each CTA requests all of it), and the multicast one, requested
 * once per cluster, is what neighbouring groups share.  Measured on the
 * H100 (step08 NOTES.md, "tile order"): 0.97-1.05 of cuBLAS across the
 * cluster, 0.79-0.92 along it, with the same walk start.
 *
 * Edges.  When the number of tiles along the cluster's axis is odd, the last
 * cluster tiles' rank-1 tile lies outside the matrix.  That CTA still runs the
 * whole mainloop: its producer must load and multicast its half of the shared
 * box (its partner needs it), and its consumers must release every slot (its
 * partner's producer waits for that).  It computes on zeros (TMA fills boxes
 * outside the matrix with zeros) and must not store: cluster_sched_coords
 * returns 0 for it.
 *
 * Walk start.  Which cluster takes which start index changes only WHERE a
 * tile is computed, never what: consecutive work indices share panels, so
 * they should run on SMs behind the same half of the L2.  A cluster launch
 * does not number clusters that way (step08 NOTES.md, "placement"): the host
 * measures where a plain launch puts each SM (it fills one GPC after
 * another), takes as cluster c's key the position of its rank-0 SM, and
 * gives cluster c the start cluster_walk_rank(keys, n, c).  Any permutation
 * is correct; start = cluster id is the fallback without a table.
 *
 * Size 1 is step 07's schedule exactly (raster direction from
 * tile_sched_pick_along_n), so a kernel can take this path for any size. */
typedef struct {
    tile_sched sched;       /* the raster over cluster tiles */
    int size;               /* CTAs per cluster, >= 1 */
    int along_n;            /* 1: a cluster's tiles lie side by side along N (share A) */
    int tiles_m, tiles_n;   /* real output tiles (edges rounded up) */
} cluster_sched;

/* The schedule of an m x n output in tile_m x tile_n tiles for clusters of
 * `size` CTAs along N (cluster_along_n = 1) or M; `group` in tiles; `wave`
 * = clusters that run at once (used only for size 1's raster choice). */
TILE_SCHED_FN cluster_sched cluster_sched_make(int m, int n, int tile_m, int tile_n, int size,
                                               int cluster_along_n, int group, int wave)
{
    cluster_sched c;
    if (size < 1) size = 1;
    c.size = size;
    c.along_n = cluster_along_n ? 1 : 0;
    c.tiles_m = tile_sched_div_up(m, tile_m);
    c.tiles_n = tile_sched_div_up(n, tile_n);
    const int ctm = c.along_n ? tile_m : size * tile_m;
    const int ctn = c.along_n ? size * tile_n : tile_n;
    const int raster_along_n = size > 1 ? !c.along_n
                                        : tile_sched_pick_along_n(c.tiles_m, c.tiles_n, tile_m, tile_n,
                                                                  group, wave);
    c.sched = tile_sched_make(m, n, ctm, ctn, group, raster_along_n);
    return c;
}

/* Work index idx (a cluster tile) -> the tile of CTA `rank`.  Returns 1 if that
 * tile holds output, 0 for the padding tile past an odd edge (compute, but
 * do not store). */
TILE_SCHED_FN int cluster_sched_coords(const cluster_sched *c, int idx, int rank, int *tm, int *tn)
{
    int ctm, ctn;
    tile_sched_coords(&c->sched, idx, &ctm, &ctn);
    if (c->along_n) { *tm = ctm; *tn = ctn * c->size + rank; }
    else            { *tm = ctm * c->size + rank; *tn = ctn; }
    return *tm < c->tiles_m && *tn < c->tiles_n;
}

/* Walk start of cluster c among n: the rank of keys[c] (ties by index), so
 * clusters with consecutive keys take consecutive work indices.  A
 * permutation of 0 .. n-1 for any keys.  O(n) per call, O(n^2) for a table:
 * n is at most the number of SMs, and the host builds it once per plan. */
TILE_SCHED_FN int cluster_walk_rank(const int *keys, int n, int c)
{
    int r = 0;
    for (int o = 0; o < n; ++o) r += keys[o] < keys[c] || (keys[o] == keys[c] && o < c);
    return r;
}

/* ---- stream-K (step 09) ----------------------------------------------------------
 * A persistent grid of U units (a unit is a CTA, or a cluster whose CTAs take
 * the same k-range of their own tiles) and T work tiles of KT k-tiles each.
 * Data-parallel: unit u takes whole tiles u, u + U, ...; when T % U != 0 the
 * last wave leaves U - T % U units idle for a whole tile.  Stream-K
 * (Osama et al., PPoPP 2023) deals out MAC-loop iterations instead: the
 * (tile, k-tile) pairs of the streamed tiles, in tile-major order, cut into U
 * contiguous ranges whose lengths differ by at most one.
 *
 *   iterations  tile 0            tile 1            tile 2
 *               k0 ............. k0 ............. k0 .............
 *   unit 0      [=========)                              unit 0 owns tile 0
 *   unit 1                [========|=)                   writes tile 0's tail,
 *   unit 2                           [========|==)       owns tile 1 ...
 *
 * Which tiles, on how many units (sk_plan_make).  --mode sk is the
 * textbook hybrid: the partial wave plus one full wave (when there is one),
 * S = T % U + U tiles, come FIRST in the walk and are dealt out over all U
 * units; the other (waves - 1) x U tiles stay data-parallel, exactly
 * waves - 1 per unit.  Its weakness shows at large K: unit u starts at
 * k-offset (u x S x KT / U) mod KT, which takes U / gcd(S, U) distinct values
 * (33 for 64 tiles on 132 SMs), so units that share a row of A or a column
 * of B read it at different k and the L2 must hold whole panels, not one
 * k-slice (measured: 2.3x slower per k-tile at 1024 x 1024 x 14336,
 * step09 NOTES.md).  --mode auto therefore also tries fewer stream-K units
 * U' <= U such that the start offsets take at most SK_MAX_K_OFFSETS values
 * (U' / gcd(S, U'), e.g. 128 units = 2 per tile of 64 tiles), and picks the
 * plan with the smallest predicted busiest unit, in k-tile times:
 *
 *   data-parallel: KT x ceil(T / U)
 *   stream-K:      max(r x ceil(S x KT / U') + dp' x KT + SK_FIXUP_KT x (n - 1),
 *                      dp'' x KT)
 *
 * with dp' / dp'' the data-parallel tiles of a stream-K unit / of another
 * unit (the others take the odd ones first), n the most units that share a
 * tile (its owner reads n - 1 partials), SK_FIXUP_KT the time to write and
 * read one partial tile, and r = SK_RATE_PCT / 100 what a streamed k-tile
 * costs against a data-parallel one.  Both are fitted to step 09's H100 rows
 * (NOTES.md, "The model refitted"): with clusters of two CTAs sharing A, a
 * two-offset streamed k-tile cost 1.06-1.11x a data-parallel one and a
 * split tile ~10 k-tile times more (2.8 us); the one-CTA build before it
 * paid 1.5x, its loads limited by the L2.  Auto streams only when the
 * model predicts a gain of SK_MIN_GAIN_PCT or more.
 *
 * The ordering, and why no unit waits on a unit that waits.  A unit walks its
 * range forwards (k ascending), then its data-parallel tiles.  Only its FIRST
 * segment can start inside a tile (k_begin > 0): that segment's partial goes
 * to the workspace and a flag is raised (the unit "writes").  Only its LAST
 * stream-K segment can start at k = 0 and stop short of KT: that unit holds
 * the tile's first k-tile and OWNS the tile: it waits for the partials of the
 * units after it (in k order), adds them and runs the epilogue.  So a wait is
 * always the last stream-K step of a unit, and what it waits for is the first
 * step of other units, which nothing precedes: the wait graph has depth one.
 * tests/test_stream_k_schedule.c checks this by simulation. */

enum { SK_MODE_AUTO = 0, SK_MODE_DP = 1, SK_MODE_SK = 2 };

#ifndef SK_FIXUP_KT
#define SK_FIXUP_KT 10       /* k-tile times to write + read one partial tile (NOTES.md) */
#endif
#ifndef SK_RATE_PCT
#define SK_RATE_PCT 115      /* a streamed k-tile costs 115% of a data-parallel one (NOTES.md) */
#endif
#ifndef SK_MIN_GAIN_PCT
#define SK_MIN_GAIN_PCT 5    /* auto streams only for a predicted gain of 5% or more */
#endif
#ifndef SK_MAX_K_OFFSETS
#define SK_MAX_K_OFFSETS 2   /* distinct start k-offsets auto allows (NOTES.md) */
#endif

typedef struct {
    int tiles;              /* work tiles T */
    int kt;                 /* k-tiles per tile KT */
    int units;              /* units launched */
    int sk_tiles;           /* tiles [0, sk_tiles) streamed, [sk_tiles, tiles) data-parallel */
    int sk_units;           /* units [0, sk_units) share the streamed iterations */
    int sk_base;            /* iterations per stream-K unit ... */
    int sk_extra;           /* ... plus one for units [0, sk_extra) */
} sk_plan;

typedef struct {
    int tile;               /* work tile (the raster index of tile_sched_coords) */
    int k_begin, k_end;     /* k-tiles [k_begin, k_end) of it */
} sk_work;

typedef struct {
    int iter, iter_end;     /* stream-K iterations still to walk: [iter, iter_end) */
    int dp;                 /* next data-parallel tile */
    int stride;             /* units: the data-parallel walk's step */
} sk_walk;

TILE_SCHED_FN int sk_gcd(int a, int b)
{
    while (b) {
        const int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Distinct k-offsets (mod KT) at which sk_units units start on S streamed
 * tiles: 1 means every unit starts on a tile boundary (nothing is split). */
TILE_SCHED_FN int sk_k_offsets(int sk_tiles, int sk_units)
{
    return sk_units / sk_gcd(sk_tiles, sk_units);
}

/* The plan for S streamed tiles on U' stream-K units out of U (the
 * mechanics; sk_plan_make chooses S and U'). */
TILE_SCHED_FN sk_plan sk_plan_split(int tiles, int kt, int units, int S, int Up)
{
    sk_plan p;
    p.tiles = tiles;
    p.kt = kt;
    p.sk_tiles = S;
    if (S > 0) {
        const long long iters = (long long)S * kt;
        p.sk_units = Up < iters ? Up : (int)iters;
        p.sk_base = (int)(iters / p.sk_units);
        p.sk_extra = (int)(iters % p.sk_units);
        p.units = S < tiles ? units : p.sk_units;   /* data-parallel tiles go to all */
    } else {
        p.sk_units = p.sk_base = p.sk_extra = 0;
        p.units = tiles < units ? tiles : units;
    }
    return p;
}

/* The unit whose range holds iteration i (0 <= i < sk_tiles * kt). */
TILE_SCHED_FN int sk_unit_of_iter(const sk_plan *p, int i)
{
    const int big = p->sk_extra * (p->sk_base + 1);
    return i < big ? i / (p->sk_base + 1) : p->sk_extra + (i - big) / p->sk_base;
}

/* The units that share streamed tile t: owner = the one holding k-tile 0,
 * then owner + 1 .. last in k order (the writers). */
TILE_SCHED_FN int sk_tile_owner(const sk_plan *p, int t) { return sk_unit_of_iter(p, t * p->kt); }
TILE_SCHED_FN int sk_tile_last_unit(const sk_plan *p, int t)
{
    return sk_unit_of_iter(p, t * p->kt + p->kt - 1);
}

/* The most units that share one streamed tile (its owner reads n - 1
 * partials): 1 when every range covers whole tiles. */
TILE_SCHED_FN int sk_plan_max_sharing(const sk_plan *p)
{
    int n = p->sk_tiles > 0 ? 1 : 0;
    for (int t = 0; t < p->sk_tiles; t++) {
        const int m = sk_tile_last_unit(p, t) - sk_tile_owner(p, t) + 1;
        if (m > n) n = m;
    }
    return n;
}

/* Predicted time of the busiest unit, in k-tile times (the model above). */
TILE_SCHED_FN long long sk_plan_time(const sk_plan *p)
{
    const int dp = p->tiles - p->sk_tiles, U = p->units;
    if (p->sk_tiles == 0) return (long long)p->kt * ((dp + U - 1) / U);
    const int others = U - p->sk_units;   /* units without stream-K work take dp tiles first */
    const int dp_sk = dp > others ? (dp - others + U - 1) / U : 0;
    const int dp_other = others > 0 ? (dp + U - 1) / U : 0;
    const long long t_sk = ((long long)(p->sk_base + (p->sk_extra > 0)) * SK_RATE_PCT + 99) / 100 +
                           (long long)dp_sk * p->kt + (long long)SK_FIXUP_KT * (sk_plan_max_sharing(p) - 1);
    const long long t_other = (long long)dp_other * p->kt;
    return t_sk > t_other ? t_sk : t_other;
}

/* --mode dp: whole tiles.  sk: the textbook hybrid on all units.  auto: the
 * fastest predicted of data-parallel and the hybrid on U' units whose start
 * offsets take at most SK_MAX_K_OFFSETS values. */
TILE_SCHED_FN sk_plan sk_plan_make(int tiles, int kt, int units, int mode)
{
    const sk_plan dp = sk_plan_split(tiles, kt, units, 0, 0);
    if (mode == SK_MODE_DP || tiles <= 0 || units <= 0) return dp;
    const int waves = tiles / units, rem = tiles % units;
    const int S = rem + (waves >= 1 ? units : 0);
    if (mode == SK_MODE_SK) return sk_plan_split(tiles, kt, units, S, units);
    sk_plan best = dp;
    long long best_t = -1;
    for (int Up = units; Up >= 1; --Up) {
        if (sk_k_offsets(S, Up) > SK_MAX_K_OFFSETS) continue;
        const sk_plan c = sk_plan_split(tiles, kt, units, S, Up);
        const long long t = sk_plan_time(&c);
        if (best_t < 0 || t < best_t) {
            best = c;
            best_t = t;
        }
    }
    /* stream only for a predicted gain of SK_MIN_GAIN_PCT or more */
    if (best_t < 0 || best_t * 100 > sk_plan_time(&dp) * (100 - SK_MIN_GAIN_PCT)) return dp;
    return best;
}

/* First stream-K iteration of unit u (u may be sk_units: the end). */
TILE_SCHED_FN int sk_unit_begin(const sk_plan *p, int u)
{
    if (u >= p->sk_units) return p->sk_tiles * p->kt;
    return u * p->sk_base + (u < p->sk_extra ? u : p->sk_extra);
}

/* Does this piece of a streamed tile end in a partial (write) or in a wait
 * for partials (owner)?  A whole tile does neither. */
TILE_SCHED_FN int sk_work_writes(const sk_plan *p, const sk_work *w)
{
    (void)p;
    return w->k_begin > 0;
}
TILE_SCHED_FN int sk_work_waits(const sk_plan *p, const sk_work *w)
{
    return w->k_begin == 0 && w->k_end < p->kt;
}

TILE_SCHED_FN sk_walk sk_walk_start(const sk_plan *p, int unit)
{
    sk_walk w;
    w.iter = sk_unit_begin(p, unit);
    w.iter_end = sk_unit_begin(p, unit + 1);
    if (unit >= p->sk_units) w.iter = w.iter_end = 0;
    /* units without stream-K work take the first data-parallel tiles */
    w.dp = p->sk_tiles + (unit >= p->sk_units ? unit - p->sk_units : unit + p->units - p->sk_units);
    w.stride = p->units;
    return w;
}

TILE_SCHED_FN int sk_walk_valid(const sk_plan *p, const sk_walk *w)
{
    return w->iter < w->iter_end || w->dp < p->tiles;
}

/* The piece of work the walk stands on (sk_walk_valid must hold). */
TILE_SCHED_FN sk_work sk_walk_work(const sk_plan *p, const sk_walk *w)
{
    sk_work r;
    if (w->iter < w->iter_end) {
        r.tile = w->iter / p->kt;
        r.k_begin = w->iter - r.tile * p->kt;
        const int left = w->iter_end - w->iter;
        r.k_end = p->kt - r.k_begin < left ? p->kt : r.k_begin + left;
    } else {
        r.tile = w->dp;
        r.k_begin = 0;
        r.k_end = p->kt;
    }
    return r;
}

TILE_SCHED_FN void sk_walk_next(const sk_plan *p, sk_walk *w)
{
    if (w->iter < w->iter_end) {
        const sk_work r = sk_walk_work(p, w);
        w->iter += r.k_end - r.k_begin;
    } else {
        w->dp += w->stride;
    }
}

/* Stream-K on clusters (step 09).  The unit is a cluster of `size` CTAs and
 * the plan's tiles are cluster tiles (cluster_sched): every CTA of unit u
 * walks sk_walk_start(p, u), the same pieces, and CTA `rank` computes tile
 * `rank` of each piece's cluster tile (cluster_sched_coords) over the same
 * k-range, so the CTAs still share the multicast operand.  A unit writes at
 * most one partial (its first piece), so each CTA needs one workspace slot
 * and one flag: this index.  The owner's CTA r reads the writers' CTA r:
 * the same tile. */
TILE_SCHED_FN int sk_cluster_slot(int unit, int rank, int size) { return unit * size + rank; }

/* The k-tiles of streamed tile t that unit u computes (an empty range if none). */
TILE_SCHED_FN void sk_unit_tile_range(const sk_plan *p, int u, int t, int *k_begin, int *k_end)
{
    const int lo = sk_unit_begin(p, u), hi = sk_unit_begin(p, u + 1);
    const int t0 = t * p->kt, t1 = t0 + p->kt;
    const int a = lo > t0 ? lo : t0, b = hi < t1 ? hi : t1;
    *k_begin = a - t0;
    *k_end = b > a ? b - t0 : a - t0;
}

#endif

/* stream_k_schedule.h — stream-K: a GEMM's MAC-loop iterations dealt out
 * evenly over a persistent grid, so that no SM sits out a partial last wave.
 * Which plan (data-parallel, textbook stream-K, or the model's choice), which
 * pieces each unit walks, and which piece writes a partial tile or waits to
 * add the others'.
 *
 * Used by step 09: the host makes the plan from --mode (sk_plan_make) over
 * the cluster tiles of cluster_schedule.h, and every CTA walks it; the
 * partials travel through fixup.cuh.  Plain C shared with the CPU tests (HD;
 * tests/test_stream_k_schedule.c, which also simulates the wait graph).
 *
 * Two kinds of "unit".  Below, as in the stream-K paper, a unit is a WORKER
 * (a CTA, or a cluster of them: sk_unit_begin, sk_unit_of_iter,
 * sk_unit_tile_range take its number).  A work_unit (persistent_schedule.h)
 * is a piece of WORK handed to a CTA: sk_walk_unit makes one from the piece
 * a worker's walk stands on, and sk_unit_writes / sk_unit_waits ask what it
 * ends in. */
#ifndef COMMON_STREAM_K_SCHEDULE_H
#define COMMON_STREAM_K_SCHEDULE_H

#include "cluster_schedule.h"

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
 * read one partial tile (SK_FIXUP_MORE_KT each partial past the first, where
 * a step sets it: sk_plan_fixup_kt), and r = SK_RATE_PCT / 100 what a streamed k-tile
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
#ifndef SK_FIXUP_MORE_KT
#define SK_FIXUP_MORE_KT SK_FIXUP_KT   /* each further writer of a tile (step 10's owner waits on all at once) */
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

SCHED_FN int sk_gcd(int a, int b)
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
SCHED_FN int sk_k_offsets(int sk_tiles, int sk_units)
{
    return sk_units / sk_gcd(sk_tiles, sk_units);
}

/* The plan for S streamed tiles on U' stream-K units out of U (the
 * mechanics; sk_plan_make chooses S and U'). */
SCHED_FN sk_plan sk_plan_split(int tiles, int kt, int units, int S, int Up)
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
SCHED_FN int sk_unit_of_iter(const sk_plan *p, int i)
{
    const int big = p->sk_extra * (p->sk_base + 1);
    return i < big ? i / (p->sk_base + 1) : p->sk_extra + (i - big) / p->sk_base;
}

/* The units that share streamed tile t: owner = the one holding k-tile 0,
 * then owner + 1 .. last in k order (the writers). */
SCHED_FN int sk_tile_owner(const sk_plan *p, int t) { return sk_unit_of_iter(p, t * p->kt); }
SCHED_FN int sk_tile_last_unit(const sk_plan *p, int t)
{
    return sk_unit_of_iter(p, t * p->kt + p->kt - 1);
}

/* The most units that share one streamed tile (its owner reads n - 1
 * partials): 1 when every range covers whole tiles. */
SCHED_FN int sk_plan_max_sharing(const sk_plan *p)
{
    int n = p->sk_tiles > 0 ? 1 : 0;
    for (int t = 0; t < p->sk_tiles; t++) {
        const int m = sk_tile_last_unit(p, t) - sk_tile_owner(p, t) + 1;
        if (m > n) n = m;
    }
    return n;
}

/* The busiest owner's fixup, in k-tile times: SK_FIXUP_KT for its first writer, SK_FIXUP_MORE_KT
 * for each further one (the same in step 09, whose owner waits writer by writer). */
SCHED_FN long long sk_plan_fixup_kt(const sk_plan *p)
{
    const int n = sk_plan_max_sharing(p);
    return n > 1 ? SK_FIXUP_KT + (long long)SK_FIXUP_MORE_KT * (n - 2) : 0;
}

/* A stream-K unit's streamed k-tiles at most, in k-tile times: r x ceil(S x KT / U') of the model above. */
SCHED_FN long long sk_plan_streamed_kt(const sk_plan *p)
{
    return ((long long)(p->sk_base + (p->sk_extra > 0)) * SK_RATE_PCT + 99) / 100;
}

/* Predicted time of the busiest unit, in k-tile times (the model above). */
SCHED_FN long long sk_plan_time(const sk_plan *p)
{
    const int dp = p->tiles - p->sk_tiles, U = p->units;
    if (p->sk_tiles == 0) return (long long)p->kt * ((dp + U - 1) / U);
    const int others = U - p->sk_units;   /* units without stream-K work take dp tiles first */
    const int dp_sk = dp > others ? (dp - others + U - 1) / U : 0;
    const int dp_other = others > 0 ? (dp + U - 1) / U : 0;
    const long long t_sk = sk_plan_streamed_kt(p) + (long long)dp_sk * p->kt + sk_plan_fixup_kt(p);
    const long long t_other = (long long)dp_other * p->kt;
    return t_sk > t_other ? t_sk : t_other;
}

/* --mode dp: whole tiles.  sk: the textbook hybrid on all units.  auto: the
 * fastest predicted of data-parallel and the hybrid on U' units whose start
 * offsets take at most SK_MAX_K_OFFSETS values. */
SCHED_FN sk_plan sk_plan_make(int tiles, int kt, int units, int mode)
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
SCHED_FN int sk_unit_begin(const sk_plan *p, int u)
{
    if (u >= p->sk_units) return p->sk_tiles * p->kt;
    return u * p->sk_base + (u < p->sk_extra ? u : p->sk_extra);
}

/* Does this piece of a streamed tile end in a partial (write) or in a wait
 * for partials (owner)?  A whole tile does neither. */
SCHED_FN int sk_work_writes(const sk_plan *p, const sk_work *w)
{
    (void)p;
    return w->k_begin > 0;
}
SCHED_FN int sk_work_waits(const sk_plan *p, const sk_work *w)
{
    return w->k_begin == 0 && w->k_end < p->kt;
}

SCHED_FN sk_walk sk_walk_start(const sk_plan *p, int unit)
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

SCHED_FN int sk_walk_valid(const sk_plan *p, const sk_walk *w)
{
    return w->iter < w->iter_end || w->dp < p->tiles;
}

/* The piece of work the walk stands on (sk_walk_valid must hold). */
SCHED_FN sk_work sk_walk_work(const sk_plan *p, const sk_walk *w)
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

SCHED_FN void sk_walk_next(const sk_plan *p, sk_walk *w)
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
SCHED_FN int sk_cluster_slot(int unit, int rank, int size) { return unit * size + rank; }

/* A cooperative CTA (step 10's 128 x 256 configuration) computes its tile
 * with `parts` consumer warpgroups, one band of rows each.  Each warpgroup
 * hands its band over as a pingpong warpgroup hands its whole tile: its own
 * partial and its own flag, so no warpgroup waits for the other (CUTLASS's
 * stream-K scheduler also keeps one lock per consumer warpgroup).  The CTA's
 * slot sk_cluster_slot(unit, rank, size) is split into `parts` consecutive
 * ones; with parts = 1 this is the CTA's slot.  The owner's warpgroup p reads
 * the writers' warpgroup p: the same rows of the same tile. */
SCHED_FN int sk_part_slot(int unit, int rank, int size, int part, int parts)
{
    return sk_cluster_slot(unit, rank, size) * parts + part;
}

/* The k-tiles of streamed tile t that unit u computes (an empty range if none). */
SCHED_FN void sk_unit_tile_range(const sk_plan *p, int u, int t, int *k_begin, int *k_end)
{
    const int lo = sk_unit_begin(p, u), hi = sk_unit_begin(p, u + 1);
    const int t0 = t * p->kt, t1 = t0 + p->kt;
    const int a = lo > t0 ? lo : t0, b = hi < t1 ? hi : t1;
    *k_begin = a - t0;
    *k_end = b > a ? b - t0 : a - t0;
}

/* ---- stream-K's work unit ---------------------------------------------------- */

/* The piece the walk stands on (sk_walk_valid must hold) as CTA `rank`'s work
 * unit on the cluster schedule c the plan was made over: `tile` is the
 * piece's cluster-tile index (the plan's tile, which sk_tile_owner and
 * sk_tile_last_unit take), the coordinates rank's tile of it, the k-range
 * the piece's.  With clusters of 1 it is the CTA's own tile. */
SCHED_FN work_unit sk_walk_unit(const sk_plan *p, const sk_walk *w, const cluster_sched *c, int rank)
{
    const sk_work piece = sk_walk_work(p, w);
    work_unit u = cluster_unit(c, piece.tile, rank, p->kt);
    u.k_begin = piece.k_begin;
    u.k_end = piece.k_end;
    return u;
}

/* sk_work_writes / sk_work_waits asked of a work unit (the kernel asks
 * these; they answer through the two above, which the CPU tests' role and
 * wait-graph checks exercise): a piece that starts inside its tile ends in a
 * partial (write); the piece holding k-tile 0 of a split tile ends in a wait
 * for the others' partials (owner).  A whole tile does neither, so every
 * unit of steps 06-08 and every data-parallel unit of step 09 goes straight
 * to the epilogue. */
SCHED_FN int sk_unit_writes(const sk_plan *p, const work_unit *u)
{
    sk_work w;
    w.tile = u->tile; w.k_begin = u->k_begin; w.k_end = u->k_end;
    return sk_work_writes(p, &w);
}
SCHED_FN int sk_unit_waits(const sk_plan *p, const work_unit *u)
{
    sk_work w;
    w.tile = u->tile; w.k_begin = u->k_begin; w.k_end = u->k_end;
    return sk_work_waits(p, &w);
}

#endif

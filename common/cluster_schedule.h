/* cluster_schedule.h — the persistent schedule for clusters of CTAs that share
 * one operand by TMA multicast: which tile each CTA of a cluster computes,
 * which tiles past an odd edge it computes but must not store, and where
 * each cluster starts its walk.
 *
 * Used by step 08 (clusters of 2 along N) and step 09, whose stream-K plan
 * (stream_k_schedule.h) deals out this schedule's cluster tiles; the host
 * glue that makes one is cluster_launch.cuh.  Built on persistent_schedule.h:
 * a cluster tile is a tile of its grouped raster, and a cluster walks it as
 * a CTA does.  Plain C shared with the CPU tests (HD;
 * tests/test_cluster_schedule.c). */
#ifndef COMMON_CLUSTER_SCHEDULE_H
#define COMMON_CLUSTER_SCHEDULE_H

#include "persistent_schedule.h"

/* ---- clusters of CTAs (steps 08-09) --------------------------------------------
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
SCHED_FN cluster_sched cluster_sched_make(int m, int n, int tile_m, int tile_n, int size,
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
SCHED_FN int cluster_sched_coords(const cluster_sched *c, int idx, int rank, int *tm, int *tn)
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
SCHED_FN int cluster_walk_rank(const int *keys, int n, int c)
{
    int r = 0;
    for (int o = 0; o < n; ++o) r += keys[o] < keys[c] || (keys[o] == keys[c] && o < c);
    return r;
}

/* ---- the cluster's work unit ------------------------------------------------- */

/* Work index idx (a cluster tile) as CTA `rank`'s whole-tile unit: `tile` is
 * the cluster-tile index (what the walk and a stream-K plan count), the
 * coordinates are rank's tile of it (cluster_sched_coords). */
SCHED_FN work_unit cluster_unit(const cluster_sched *c, int idx, int rank, int k_tiles)
{
    work_unit u;
    u.tile = idx;
    cluster_sched_coords(c, idx, rank, &u.tile_m, &u.tile_n);
    u.k_begin = 0;
    u.k_end = k_tiles;
    return u;
}

/* 1 if the unit's tile holds output; 0 for the padding tile past an odd edge,
 * which the CTA computes (its partner needs its loads and its releases) but
 * must not store.  The answer cluster_sched_coords returns. */
SCHED_FN int cluster_unit_stores(const cluster_sched *c, const work_unit *u)
{
    return u->tile_m < c->tiles_m && u->tile_n < c->tiles_n;
}

#endif

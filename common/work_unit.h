/* work_unit.h — what a GEMM kernel's roles are handed: one output tile and the
 * k-tiles of it to compute.  Step 05 makes one per CTA (its tile, all its
 * k-tiles); from step 06 on a schedule hands each CTA a sequence of them.
 * Plain C, shared with the CPU tests.
 *
 * From step 06 on the GEMM kernels share one shape (the producer loads, the
 * consumers multiply, the epilogue stores, one unit at a time) and only the
 * schedule that makes the units changes:
 *
 *   steps 06-07  persistent_unit   tile idx of the raster, k-tiles [0, k_tiles)
 *   step 08      cluster_unit      this CTA's tile of cluster tile idx, whole
 *                                  (cluster_schedule.h)
 *   step 09      sk_walk_unit      a stream-K piece: a k-range of a tile
 *                                  (stream_k_schedule.h)
 *
 * so that the roles, written against [k_begin, k_end), need not change when
 * the schedule does.  In steps 06-08 the range is [0, k_tiles): the k-tiles
 * a whole tile always had.  `tile` keeps the linear work index beside the
 * coordinates because stream-K's plan counts tiles by it: sk_tile_owner and
 * sk_tile_last_unit (stream_k_schedule.h) take it, and say whose flags and
 * workspace slots a tile's owner reads. */
#ifndef COMMON_WORK_UNIT_H
#define COMMON_WORK_UNIT_H

typedef struct {
    int tile;             /* the linear work index (raster order); stream-K finds a tile's writers by it */
    int tile_m, tile_n;   /* the tile's coordinates in tiles (this CTA's tile of a cluster tile) */
    int k_begin, k_end;   /* the k-tiles [k_begin, k_end) this unit computes */
} work_unit;

#endif

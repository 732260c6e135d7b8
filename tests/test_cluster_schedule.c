/* test_cluster_schedule.c — common/cluster_schedule.h (steps 08-09):
 * every tile exactly once, the CTAs of a cluster on tiles that share the
 * multicast panel, the grouped raster kept in tile units, odd edges padded,
 * the walk-start table a permutation, and the work units a cluster's walk
 * hands its CTAs: every (tile, k-tile) pair once, padding units never stored. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "cluster_schedule.h"
#include "work_cover.h"

static const int dims[] = {1, 7, 127, 128, 129, 255, 256, 257, 1000, 4096, 4100, 8192};
static const int groups[] = {1, 2, 3, 4, 5, 8, 9, 16};
#define MAX_TILES (64 * 64 + 64)   /* 8192 / 128 squared, plus padding tiles */

/* ---- every tile exactly once, partners share the panel, padding only past an odd edge */
START_TEST(test_cluster_tiles_once)
{
    static int seen[MAX_TILES];
    int combos = 0;
    for (int a = 0; a < NELEMS(dims); ++a)
    for (int b = 0; b < NELEMS(dims); ++b)
    for (int size = 1; size <= 2; ++size)
    for (int along = 0; along < 2; ++along)
    for (int g = 0; g < NELEMS(groups); ++g) {
        const int M = dims[a], N = dims[b];
        const cluster_sched c = cluster_sched_make(M, N, 128, 128, size, along, groups[g], 66);
        const int tiles_m = (M + 127) / 128, tiles_n = (N + 127) / 128;
        EXPECT(c.tiles_m == tiles_m && c.tiles_n == tiles_n, "%dx%d: tiles %dx%d", M, N, c.tiles_m, c.tiles_n);
        memset(seen, 0, sizeof seen);
        int padding = 0;
        for (int idx = 0; idx < c.sched.num_tiles; ++idx) {
            int tm0 = -1, tn0 = -1;
            for (int r = 0; r < size; ++r) {
                int tm, tn;
                const int real = cluster_sched_coords(&c, idx, r, &tm, &tn);
                EXPECT(real == (tm < tiles_m && tn < tiles_n), "%dx%d idx %d rank %d: real flag", M, N, idx, r);
                if (r == 0) {
                    EXPECT(real, "%dx%d size %d: rank 0 of cluster tile %d is padding", M, N, size, idx);
                    tm0 = tm;
                    tn0 = tn;
                } else if (along) {   /* share A: same tile row, next column */
                    EXPECT(tm == tm0 && tn == tn0 + r, "%dx%d: rank %d at (%d,%d), rank 0 at (%d,%d)",
                           M, N, r, tm, tn, tm0, tn0);
                } else {              /* share B: same tile column, next row */
                    EXPECT(tn == tn0 && tm == tm0 + r, "%dx%d: rank %d at (%d,%d), rank 0 at (%d,%d)",
                           M, N, r, tm, tn, tm0, tn0);
                }
                if (!real) {
                    /* only past an odd edge, and only just past it */
                    EXPECT(size == 2 && (along ? tn == tiles_n && tiles_n % 2 : tm == tiles_m && tiles_m % 2),
                           "%dx%d size %d along %d: padding tile (%d,%d)", M, N, size, along, tm, tn);
                    ++padding;
                    continue;
                }
                ++seen[tm * tiles_n + tn];
            }
        }
        for (int t = 0; t < tiles_m * tiles_n; ++t)
            EXPECT(seen[t] == 1, "%dx%d size %d along %d group %d: tile (%d,%d) computed %d times", M, N,
                   size, along, groups[g], t / tiles_n, t % tiles_n, seen[t]);
        const int expect_pad = size == 2 ? (along ? (tiles_n % 2) * tiles_m : (tiles_m % 2) * tiles_n) : 0;
        EXPECT(padding == expect_pad, "%dx%d size %d along %d: %d padding tiles, expected %d", M, N, size,
               along, padding, expect_pad);
        ++combos;
    }
    ck_assert_int_eq(combos, NELEMS(dims) * NELEMS(dims) * 2 * 2 * NELEMS(groups));
}
END_TEST

/* ---- clusters of 1 are the plain schedule --------------------------------------- */
START_TEST(test_cluster_size1_is_plain)
{
    for (int a = 0; a < NELEMS(dims); ++a)
    for (int b = 0; b < NELEMS(dims); ++b)
    for (int g = 0; g < NELEMS(groups); ++g) {
        const int M = dims[a], N = dims[b];
        const cluster_sched c = cluster_sched_make(M, N, 128, 128, 1, 0, groups[g], 132);
        const int tiles_m = (M + 127) / 128, tiles_n = (N + 127) / 128;
        const int along_n = tile_sched_pick_along_n(tiles_m, tiles_n, 128, 128, groups[g], 132);
        const tile_sched s = tile_sched_make(M, N, 128, 128, groups[g], along_n);
        EXPECT(c.sched.num_tiles == s.num_tiles && c.sched.along_n == s.along_n && c.sched.group == s.group,
               "%dx%d group %d: cluster_sched of 1 differs from tile_sched", M, N, groups[g]);
        for (int idx = 0; idx < s.num_tiles; ++idx) {
            int tm, tn, um, un;
            cluster_sched_coords(&c, idx, 0, &tm, &tn);
            tile_sched_coords(&s, idx, &um, &un);
            EXPECT(tm == um && tn == un, "%dx%d idx %d: (%d,%d) vs (%d,%d)", M, N, idx, tm, tn, um, un);
        }
    }
}
END_TEST

/* ---- the grouped raster, across the cluster ---------------------------------------
 * Clusters of 2 raster across their axis with `group` tiles per group: group k
 * covers tiles k*G .. k*G+G-1 along the fast direction, and inside a group the
 * fast index runs first, exactly as tile_sched_coords does for plain tiles. */
START_TEST(test_cluster_raster_across)
{
    for (int along = 0; along < 2; ++along)
        for (int G = 1; G <= 16; ++G) {
            const int M = 4100, N = 8000;
            const cluster_sched c = cluster_sched_make(M, N, 128, 128, 2, along, G, 66);
            EXPECT(c.sched.along_n == !along, "cluster along %s: raster along %s", along ? "N" : "M",
                   c.sched.along_n ? "N" : "M");
            EXPECT(c.sched.group == G, "group %d became %d", G, c.sched.group);
            const int fast_tiles = along ? c.tiles_m : c.tiles_n;        /* across the cluster */
            const int slow_tiles = along ? c.sched.tiles_n : c.sched.tiles_m;   /* cluster tiles */
            int idx = 0;
            for (int first = 0; first < fast_tiles; first += G)
                for (int slow = 0; slow < slow_tiles; ++slow)
                    for (int fast = first; fast < first + G && fast < fast_tiles; ++fast, ++idx) {
                        int tm, tn;
                        cluster_sched_coords(&c, idx, 0, &tm, &tn);
                        const int got_fast = along ? tm : tn, got_slow = (along ? tn : tm) / 2;
                        EXPECT(got_fast == fast && got_slow == slow,
                               "along %d group %d index %d: (fast %d, cluster %d), expected (%d, %d)", along,
                               G, idx, got_fast, got_slow, fast, slow);
                    }
            EXPECT(idx == c.sched.num_tiles, "along %d group %d: %d indices, %d cluster tiles", along, G, idx,
                   c.sched.num_tiles);
        }
}
END_TEST

/* ---- odd edges: the padding tile is rank 1's, past the matrix ------------------- */
START_TEST(test_cluster_odd_edges)
{
    /* 3 x 2 tiles, share B: cluster tiles 2 x 2, the second cluster row's rank 1 pads */
    cluster_sched c = cluster_sched_make(300, 200, 128, 128, 2, 0, 8, 66);
    ck_assert_int_eq(c.sched.num_tiles, 4);
    int pads = 0;
    for (int idx = 0; idx < 4; ++idx) {
        int tm, tn;
        ck_assert_int_eq(cluster_sched_coords(&c, idx, 0, &tm, &tn), 1);
        if (!cluster_sched_coords(&c, idx, 1, &tm, &tn)) {
            ck_assert_int_eq(tm, 3);
            ++pads;
        }
    }
    ck_assert_int_eq(pads, 2);
    /* one tile in all: one cluster, rank 1 pads */
    c = cluster_sched_make(1, 1, 128, 128, 2, 1, 8, 66);
    ck_assert_int_eq(c.sched.num_tiles, 1);
    int tm, tn;
    ck_assert_int_eq(cluster_sched_coords(&c, 0, 0, &tm, &tn), 1);
    ck_assert_int_eq(tm, 0);
    ck_assert_int_eq(tn, 0);
    ck_assert_int_eq(cluster_sched_coords(&c, 0, 1, &tm, &tn), 0);
    ck_assert_int_eq(tn, 1);
}
END_TEST

/* ---- the persistent walk over clusters -------------------------------------------- */
START_TEST(test_cluster_walk_covers_once)
{
    static int seen[MAX_TILES];
    static const int shapes[][2] = {{4096, 4096}, {4100, 300}, {300, 4100}, {129, 129}, {8192, 14336 / 4}};
    for (int s = 0; s < NELEMS(shapes); ++s)
        for (int along = 0; along < 2; ++along)
            for (int clusters = 1; clusters <= 70; clusters += 3) {
                const cluster_sched c = cluster_sched_make(shapes[s][0], shapes[s][1], 128, 128, 2, along, 8, clusters);
                memset(seen, 0, sizeof seen);
                for (int cl = 0; cl < clusters; ++cl)
                    for (tile_walk w = tile_walk_start(cl, clusters); tile_walk_valid(&c.sched, &w);
                         tile_walk_advance(&w, 1))
                        for (int r = 0; r < 2; ++r) {
                            int tm, tn;
                            if (cluster_sched_coords(&c, w.idx, r, &tm, &tn)) ++seen[tm * c.tiles_n + tn];
                        }
                for (int t = 0; t < c.tiles_m * c.tiles_n; ++t)
                    EXPECT(seen[t] == 1, "%dx%d, %d clusters: tile %d seen %d times", shapes[s][0],
                           shapes[s][1], clusters, t, seen[t]);
            }
}
END_TEST

/* ---- walk-start table: a permutation that follows the keys ------------------------ */
START_TEST(test_cluster_walk_rank)
{
    int keys[132], start[132], hit[132];
    uint64_t x = 12345;
    for (int n = 1; n <= 132; ++n)
        for (int trial = 0; trial < 8; ++trial) {
            for (int i = 0; i < n; ++i) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                keys[i] = (int)((x >> 33) % (trial < 4 ? 1000u : 5u));   /* trials 4..7: many ties */
            }
            memset(hit, 0, sizeof hit);
            for (int c = 0; c < n; ++c) {
                start[c] = cluster_walk_rank(keys, n, c);
                EXPECT(start[c] >= 0 && start[c] < n, "n %d: start %d out of range", n, start[c]);
                ++hit[start[c]];
            }
            for (int i = 0; i < n; ++i) EXPECT(hit[i] == 1, "n %d: start %d taken %d times", n, i, hit[i]);
            for (int c = 0; c < n; ++c)
                for (int o = 0; o < n; ++o)
                    if (keys[o] < keys[c]) EXPECT(start[o] < start[c], "n %d: smaller key, later start", n);
        }
    /* identity keys give the identity */
    for (int i = 0; i < 66; ++i) keys[i] = i;
    for (int i = 0; i < 66; ++i) ck_assert_int_eq(cluster_walk_rank(keys, 66, i), i);
}
END_TEST

/* ---- the work units of the cluster walk --------------------------------------------
 * What the kernels of steps 08-09 are handed: cluster_unit(c, idx, rank,
 * k_tiles) for each cluster tile idx of a cluster's walk, one per CTA rank.
 * Walk starts permuted as cluster_walk_table permutes them (any permutation
 * must do), every rank's units entered into the ledger unless
 * cluster_unit_stores says they are padding: every real (tile, k-tile) pair
 * exactly once, the padding units exactly the odd edge's. */
static const int unit_dims[] = {1, 127, 129, 255, 256, 257, 1000, 4100};
static const int unit_kts[] = {1, 4};
static unsigned char cover_buf[MAX_TILES * 4];

/* The ledger's faults after a whole launch of `clusters` clusters walking
 * from starts[]; *padding gets the units that do not store.  The controls:
 * store_padding enters padding units too, same_rank has every CTA ask for
 * rank 0's tile. */
static long cluster_launch_faults(const cluster_sched *c, int clusters, int kt, const int *starts,
                                  int store_padding, int same_rank, int *padding)
{
    work_cover cov;
    EXPECT(cover_init(&cov, cover_buf, sizeof cover_buf, c->tiles_m, c->tiles_n, kt), "ledger too small");
    *padding = 0;
    for (int cl = 0; cl < clusters; ++cl)
        for (tile_walk w = tile_walk_start(starts[cl], clusters); tile_walk_valid(&c->sched, &w);
             tile_walk_advance(&w, 1))
            for (int r = 0; r < c->size; ++r) {
                const work_unit u = cluster_unit(c, w.idx, same_rank ? 0 : r, kt);
                if (cluster_unit_stores(c, &u) || store_padding) cover_add(&cov, &u);
                if (!cluster_unit_stores(c, &u)) ++*padding;
            }
    return cover_faults(&cov, NULL);
}

START_TEST(test_cluster_units_cover_once)
{
    int starts[MAX_TILES], keys[MAX_TILES];
    uint64_t x = 777;
    int combos = 0;
    for (int a = 0; a < NELEMS(unit_dims); ++a)
    for (int b = 0; b < NELEMS(unit_dims); ++b)
    for (int size = 1; size <= 2; ++size)
    for (int along = 0; along < 2; ++along)
    for (int ki = 0; ki < NELEMS(unit_kts); ++ki) {
        const int M = unit_dims[a], N = unit_dims[b], kt = unit_kts[ki];
        const cluster_sched c = cluster_sched_make(M, N, 128, 128, size, along, 8, 66);
        const int counts[] = {1, 7, 66, c.sched.num_tiles + 1};
        for (int ci = 0; ci < NELEMS(counts); ++ci) {
            const int clusters = counts[ci];
            for (int i = 0; i < clusters; ++i) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                keys[i] = (int)((x >> 33) % 1000u);
            }
            for (int i = 0; i < clusters; ++i) starts[i] = cluster_walk_rank(keys, clusters, i);
            /* field by field: the cluster tile, rank's tile of it, the whole k-range,
             * stores exactly when cluster_sched_coords says the tile is real */
            int padding = 0;
            for (int idx = 0; idx < c.sched.num_tiles; ++idx)
                for (int r = 0; r < size; ++r) {
                    int tm, tn;
                    const int real = cluster_sched_coords(&c, idx, r, &tm, &tn);
                    const work_unit u = cluster_unit(&c, idx, r, kt);
                    const int stores = cluster_unit_stores(&c, &u);
                    EXPECT(u.tile == idx && u.tile_m == tm && u.tile_n == tn && u.k_begin == 0 && u.k_end == kt,
                           "%dx%d size %d along %d: rank %d's unit of cluster tile %d is {%d, (%d, %d), [%d, %d)}",
                           M, N, size, along, r, idx, u.tile, u.tile_m, u.tile_n, u.k_begin, u.k_end);
                    EXPECT(stores == real, "%dx%d size %d along %d: rank %d of %d: stores %d, coords say %d", M,
                           N, size, along, r, idx, stores, real);
                    EXPECT(stores || (r == 1 && (along ? tn == c.tiles_n : tm == c.tiles_m)),
                           "%dx%d size %d along %d: rank %d of %d at (%d, %d) does not store", M, N, size,
                           along, r, idx, tm, tn);
                    padding += !stores;
                }
            int walked_padding;
            const long bad = cluster_launch_faults(&c, clusters, kt, starts, 0, 0, &walked_padding);
            EXPECT(bad == 0, "%dx%d size %d along %d, %d k-tiles, %d clusters: %ld faults", M, N, size,
                   along, kt, clusters, bad);
            const int expect_pad = size == 2 ? (along ? (c.tiles_n % 2) * c.tiles_m : (c.tiles_m % 2) * c.tiles_n) : 0;
            EXPECT(padding == expect_pad && walked_padding == expect_pad,
                   "%dx%d size %d along %d, %d clusters: %d padding units (%d walked), expected %d", M, N,
                   size, along, clusters, padding, walked_padding, expect_pad);
            ++combos;
        }
    }
    ck_assert_int_eq(combos, NELEMS(unit_dims) * NELEMS(unit_dims) * 2 * 2 * NELEMS(unit_kts) * 4);
}
END_TEST

/* The ledger notices a broken cluster walk: padding units stored (each adds
 * kt k-tiles outside the matrix) and both CTAs of a cluster on rank 0's tile
 * (rank 1's tiles never computed, rank 0's twice). */
START_TEST(test_cluster_units_control)
{
    int starts[66];
    for (int i = 0; i < 66; ++i) starts[i] = i;
    const int kt = 4;
    /* 1000 x 1000: 8 x 8 tiles; 1000 x 1100 has 9 tile columns: 8 padding
     * tiles for clusters along N */
    const cluster_sched c = cluster_sched_make(1000, 1100, 128, 128, 2, 1, 8, 66);
    ck_assert_int_eq(c.tiles_n, 9);
    int pad;
    ck_assert_int_eq(cluster_launch_faults(&c, 66, kt, starts, 0, 0, &pad), 0);
    ck_assert_int_eq(pad, 8);
    ck_assert_int_eq(cluster_launch_faults(&c, 66, kt, starts, 1, 0, &pad), 8 * kt);
    /* rank 1 asking for rank 0's tile: of 8 x 9 tiles, the 8 x 5 that rank 0
     * holds are computed twice and the 8 x 4 of rank 1 never */
    ck_assert_int_eq(cluster_launch_faults(&c, 66, kt, starts, 0, 1, &pad), 8 * 9 * kt);
    ck_assert_int_eq(pad, 0);
}
END_TEST

Suite *cluster_schedule_suite(void)
{
    Suite *s = suite_create("cluster_schedule");
    TCase *t = tcase_create("cluster_schedule");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_cluster_tiles_once);
    tcase_add_test(t, test_cluster_size1_is_plain);
    tcase_add_test(t, test_cluster_raster_across);
    tcase_add_test(t, test_cluster_odd_edges);
    tcase_add_test(t, test_cluster_walk_covers_once);
    tcase_add_test(t, test_cluster_walk_rank);
    tcase_add_test(t, test_cluster_units_cover_once);
    tcase_add_test(t, test_cluster_units_control);
    suite_add_tcase(s, t);
    return s;
}

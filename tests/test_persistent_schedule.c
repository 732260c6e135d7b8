/* test_persistent_schedule.c — common/persistent_schedule.h: raster order, persistent walk, wave
 * footprint, and the work units the walk hands out. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "expect.h"
#include "persistent_schedule.h"
#include "work_cover.h"

static const int dims[] = {1, 7, 127, 128, 129, 1000, 4096, 4100, 8192};
static const struct { int m, n; } tiles[] = {{128, 256}, {128, 128}, {128, 192}};
static const int groups[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 64};

#define MAX_TILES (64 * 64)   /* 8192 / 128 squared: the largest grid above */

/* ceil(x / t) by counting, not by the header's (a + b - 1) / b. */
static int tiles_along(int x, int t)
{
    int k = 0;
    while (k * t < x) ++k;
    return k;
}

/* The grouped raster order written out as nested loops: groups of `group`
 * tiles across the fast direction; inside one, the fast index runs first. */
static int enumerate_order(int tiles_m, int tiles_n, int group, int along_n, int *om, int *on)
{
    const int fast_tiles = along_n ? tiles_n : tiles_m;
    const int slow_tiles = along_n ? tiles_m : tiles_n;
    int k = 0;
    for (int first = 0; first < fast_tiles; first += group)
        for (int slow = 0; slow < slow_tiles; ++slow)
            for (int fast = first; fast < first + group && fast < fast_tiles; ++fast) {
                om[k] = along_n ? slow : fast;
                on[k] = along_n ? fast : slow;
                ++k;
            }
    return k;
}

/* ---- tile_divide: a multiply and shifts for n / d ----------------------------- */

START_TEST(test_tile_divide)
{
    /* every divisor a schedule can meet here (group x tiles stays far below 2^20), small
     * quotients all the way through, and dividends up to the largest the contract allows */
    uint32_t x = 12345u;
    for (int d = 1; d <= 1 << 13; ++d) {
        const tile_divisor t = tile_divisor_make(d);
        for (int n = 0; n < 3 * d + 40; ++n)
            EXPECT(tile_divide(n, t) == n / d, "%d / %d: %d, expected %d", n, d, tile_divide(n, t), n / d);
        for (int k = 0; k < 64; ++k) {
            x = x * 1664525u + 1013904223u;   /* LCG: any 31-bit dividend */
            const int n = k == 0 ? 2147483647 : (int)(x >> 1);
            EXPECT(tile_divide(n, t) == n / d, "%d / %d: %d, expected %d", n, d, tile_divide(n, t), n / d);
        }
    }
    const int big[] = {65535, 65536, 1 << 20, (1 << 20) + 1, 1000003, 1 << 30, (1 << 30) + 7, 2147483647};
    for (int i = 0; i < NELEMS(big); ++i) {
        const tile_divisor t = tile_divisor_make(big[i]);
        const int ns[] = {0, 1, big[i] - 1, big[i], big[i] + 1, 2147483647, 2147483646, 123456789};
        for (int j = 0; j < NELEMS(ns); ++j)
            if (ns[j] >= 0)
                EXPECT(tile_divide(ns[j], t) == ns[j] / big[i], "%d / %d: %d, expected %d", ns[j], big[i],
                       tile_divide(ns[j], t), ns[j] / big[i]);
    }
}
END_TEST

/* ---- tile_sched_make / tile_sched_coords ------------------------------------- */

START_TEST(test_sched_make)
{
    tile_sched s = tile_sched_make(4096, 4096, 128, 256, 8, 1);
    ck_assert_int_eq(s.tiles_m, 32);
    ck_assert_int_eq(s.tiles_n, 16);
    ck_assert_int_eq(s.num_tiles, 512);
    ck_assert_int_eq(s.group, 8);
    ck_assert_int_eq(s.along_n, 1);
    s = tile_sched_make(129, 1, 128, 256, 0, 5);   /* partial edge tiles; group 0 -> 1 */
    ck_assert_int_eq(s.tiles_m, 2);
    ck_assert_int_eq(s.tiles_n, 1);
    ck_assert_int_eq(s.num_tiles, 2);
    ck_assert_int_eq(s.group, 1);
    ck_assert_int_eq(s.along_n, 1);
    s = tile_sched_make(4100, 8192, 128, 192, -3, 0);
    ck_assert_int_eq(s.tiles_m, 33);
    ck_assert_int_eq(s.tiles_n, 43);
    ck_assert_int_eq(s.num_tiles, 33 * 43);
    ck_assert_int_eq(s.group, 1);
    ck_assert_int_eq(s.along_n, 0);
}
END_TEST

START_TEST(test_sched_coords_bijection)
{
    static int seen[MAX_TILES], om[MAX_TILES], on[MAX_TILES];
    int combos = 0;
    for (int a = 0; a < NELEMS(dims); ++a)
    for (int b = 0; b < NELEMS(dims); ++b)
    for (int t = 0; t < NELEMS(tiles); ++t)
    for (int g = 0; g < NELEMS(groups); ++g)
    for (int along = 0; along < 2; ++along) {
        const int M = dims[a], N = dims[b], tm_ = tiles[t].m, tn_ = tiles[t].n, G = groups[g];
        const tile_sched s = tile_sched_make(M, N, tm_, tn_, G, along);
        const int rows = tiles_along(M, tm_), cols = tiles_along(N, tn_);
        EXPECT(s.tiles_m == rows && s.tiles_n == cols && s.num_tiles == rows * cols,
               "%dx%d tiles %dx%d: grid %dx%d (%d), expected %dx%d", M, N, tm_, tn_,
               s.tiles_m, s.tiles_n, s.num_tiles, rows, cols);
        const int n = enumerate_order(rows, cols, G, along, om, on);
        EXPECT(n == s.num_tiles, "enumeration %d != %d", n, s.num_tiles);
        memset(seen, 0, sizeof(int) * (size_t)s.num_tiles);
        for (int idx = 0; idx < s.num_tiles; ++idx) {
            int tm = -1, tn = -1;
            tile_sched_coords(&s, idx, &tm, &tn);
            EXPECT(tm >= 0 && tm < rows && tn >= 0 && tn < cols,
                   "%dx%d tiles %dx%d group %d along_n %d: idx %d -> (%d, %d) outside %dx%d",
                   M, N, tm_, tn_, G, along, idx, tm, tn, rows, cols);
            EXPECT(tm == om[idx] && tn == on[idx],
                   "%dx%d tiles %dx%d group %d along_n %d: idx %d -> (%d, %d), expected (%d, %d)",
                   M, N, tm_, tn_, G, along, idx, tm, tn, om[idx], on[idx]);
            ++seen[tm * cols + tn];
        }
        for (int k = 0; k < s.num_tiles; ++k)
            EXPECT(seen[k] == 1, "%dx%d tiles %dx%d group %d along_n %d: tile (%d, %d) produced %d times",
                   M, N, tm_, tn_, G, along, k / cols, k % cols, seen[k]);
        ++combos;
    }
    ck_assert_int_eq(combos, 9 * 9 * 3 * 11 * 2);
}
END_TEST

/* The two tables of the header comment, 5 x 5 tiles, group 3: [m][n] = idx. */
static const int table_along_m[5][5] = {
    {0, 3, 6, 9, 12}, {1, 4, 7, 10, 13}, {2, 5, 8, 11, 14},
    {15, 17, 19, 21, 23}, {16, 18, 20, 22, 24}};
static const int table_along_n[5][5] = {
    {0, 1, 2, 15, 16}, {3, 4, 5, 17, 18}, {6, 7, 8, 19, 20},
    {9, 10, 11, 21, 22}, {12, 13, 14, 23, 24}};

START_TEST(test_sched_group3_tables)
{
    /* 640 x 1280 is exactly 5 x 5 tiles of 128 x 256; 600 x 1100 rounds up to it. */
    static const int shapes[][2] = {{640, 1280}, {600, 1100}};
    for (int k = 0; k < 2; ++k)
        for (int along = 0; along < 2; ++along) {
            const tile_sched s = tile_sched_make(shapes[k][0], shapes[k][1], 128, 256, 3, along);
            ck_assert_int_eq(s.num_tiles, 25);
            const int (*tab)[5] = along ? table_along_n : table_along_m;
            for (int m = 0; m < 5; ++m)
                for (int n = 0; n < 5; ++n) {
                    int tm = -1, tn = -1;
                    tile_sched_coords(&s, tab[m][n], &tm, &tn);
                    ck_assert_msg(tm == m && tn == n, "along_n %d: idx %d -> (%d, %d), the table says (%d, %d)",
                                  along, tab[m][n], tm, tn, m, n);
                }
        }
}
END_TEST

START_TEST(test_sched_group1_orders)
{
    /* Group 1 along M: each group is ONE tile row, walked left to right, so
     * the order is row-major (tn fastest); along N each group is one tile
     * column: column-major, as the header's tables and prose say (and as
     * Triton's GROUP_SIZE_M = 1 does).  Plain column-major along M (tm
     * fastest) is a group as wide as the grid. */
    for (int a = 0; a < NELEMS(dims); ++a)
        for (int b = 0; b < NELEMS(dims); ++b)
            for (int along = 0; along < 2; ++along) {
                const tile_sched s1 = tile_sched_make(dims[a], dims[b], 128, 128, 1, along);
                const tile_sched sw = tile_sched_make(dims[a], dims[b], 128, 128, 64, along);
                for (int idx = 0; idx < s1.num_tiles; ++idx) {
                    int tm, tn;
                    tile_sched_coords(&s1, idx, &tm, &tn);
                    int em = along ? idx % s1.tiles_m : idx / s1.tiles_n;
                    int en = along ? idx / s1.tiles_m : idx % s1.tiles_n;
                    EXPECT(tm == em && tn == en, "%dx%d group 1 along_n %d: idx %d -> (%d, %d), expected (%d, %d)",
                           dims[a], dims[b], along, idx, tm, tn, em, en);
                    /* group 64 >= 64 tiles: one group, the fast index runs over the whole grid */
                    tile_sched_coords(&sw, idx, &tm, &tn);
                    em = along ? idx / sw.tiles_n : idx % sw.tiles_m;
                    en = along ? idx % sw.tiles_n : idx / sw.tiles_m;
                    EXPECT(tm == em && tn == en, "%dx%d group 64 along_n %d: idx %d -> (%d, %d), expected (%d, %d)",
                           dims[a], dims[b], along, idx, tm, tn, em, en);
                }
            }
    /* A concrete one: 3 x 2 tiles, group 1. */
    const tile_sched am = tile_sched_make(3, 2, 1, 1, 1, 0), an = tile_sched_make(3, 2, 1, 1, 1, 1);
    int tm, tn;
    tile_sched_coords(&am, 1, &tm, &tn);   /* along M: 0:(0,0) 1:(0,1) 2:(1,0) 3:(1,1) */
    ck_assert(tm == 0 && tn == 1);
    tile_sched_coords(&am, 2, &tm, &tn);
    ck_assert(tm == 1 && tn == 0);
    tile_sched_coords(&an, 1, &tm, &tn);   /* along N: 0:(0,0) 1:(1,0) 2:(2,0) 3:(0,1) */
    ck_assert(tm == 1 && tn == 0);
    tile_sched_coords(&an, 3, &tm, &tn);
    ck_assert(tm == 0 && tn == 1);
}
END_TEST

/* ---- the persistent walk ----------------------------------------------------- */

/* Grids (tiles_m x tiles_n, tile 1 x 1) with 1, 7, 131, 132, 133, 264, 512,
 * 561 and 4096 tiles. */
static const int walk_grids[][2] = {{1, 1}, {7, 1}, {131, 1}, {12, 11}, {7, 19},
                                    {24, 11}, {32, 16}, {33, 17}, {64, 64}};

static int walk_grid_sizes(int num_tiles, int *gs)
{
    static const int fixed[] = {1, 2, 3, 7, 131, 132, 133, 264};
    int n = 0;
    for (int k = 0; k < NELEMS(fixed); ++k) gs[n++] = fixed[k];
    gs[n++] = num_tiles + 1;
    gs[n++] = 2 * num_tiles + 3;
    return n;
}

START_TEST(test_walk_covers_each_index_once)
{
    static int seen[MAX_TILES], expect_count[2 * MAX_TILES + 8];
    for (int k = 0; k < NELEMS(walk_grids); ++k) {
        const tile_sched s = tile_sched_make(walk_grids[k][0], walk_grids[k][1], 1, 1, 8, 1);
        int gs[16];
        const int ng = walk_grid_sizes(s.num_tiles, gs);
        for (int j = 0; j < ng; ++j) {
            const int G = gs[j];
            memset(seen, 0, sizeof seen);
            memset(expect_count, 0, sizeof expect_count);
            for (int i = 0; i < s.num_tiles; ++i) ++expect_count[i % G];
            for (int b = 0; b < G; ++b) {
                int steps = 0;
                for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 1)) {
                    EXPECT(w.idx == b + steps * G, "tiles %d grid %d CTA %d: step %d at idx %d",
                           s.num_tiles, G, b, steps, w.idx);
                    EXPECT(w.idx >= 0 && w.idx < s.num_tiles, "tiles %d grid %d CTA %d: idx %d",
                           s.num_tiles, G, b, w.idx);
                    ++seen[w.idx];
                    ++steps;
                }
                EXPECT(steps == expect_count[b], "tiles %d grid %d CTA %d: %d tiles, expected %d",
                       s.num_tiles, G, b, steps, expect_count[b]);
            }
            for (int i = 0; i < s.num_tiles; ++i)
                EXPECT(seen[i] == 1, "tiles %d grid %d: idx %d taken %d times", s.num_tiles, G, i, seen[i]);
        }
    }
    /* Hand case: 512 tiles over 132 CTAs: CTA 5 takes 5, 137, 269, 401. */
    const tile_sched s = tile_sched_make(32, 16, 1, 1, 8, 1);
    tile_walk w = tile_walk_start(5, 132);
    static const int want[] = {5, 137, 269, 401};
    for (int i = 0; i < 4; ++i) {
        ck_assert(tile_walk_valid(&s, &w));
        ck_assert_int_eq(w.idx, want[i]);
        tile_walk_advance(&w, 1);
    }
    ck_assert(!tile_walk_valid(&s, &w));
    ck_assert_int_eq(w.idx, 533);
    ck_assert_int_eq(w.stride, 132);
}
END_TEST

START_TEST(test_walk_two_warpgroups)
{
    static int seen[MAX_TILES], cta[MAX_TILES], wg[2][MAX_TILES];
    for (int k = 0; k < NELEMS(walk_grids); ++k) {
        const tile_sched s = tile_sched_make(walk_grids[k][0], walk_grids[k][1], 1, 1, 8, 0);
        int gs[16];
        const int ng = walk_grid_sizes(s.num_tiles, gs);
        for (int j = 0; j < ng; ++j) {
            const int G = gs[j];
            memset(seen, 0, sizeof seen);
            for (int b = 0; b < G; ++b) {
                int n = 0, nw[2] = {0, 0};
                for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 1))
                    cta[n++] = w.idx;
                /* Step 07: warpgroup c starts c turns ahead, then skips its partner's. */
                for (int c = 0; c < 2; ++c) {
                    tile_walk w = tile_walk_start(b, G);
                    tile_walk_advance(&w, c);
                    for (; tile_walk_valid(&s, &w); tile_walk_advance(&w, 2)) {
                        EXPECT(nw[c] < MAX_TILES, "runaway walk");
                        wg[c][nw[c]++] = w.idx;
                        ++seen[w.idx];
                    }
                }
                EXPECT(nw[0] == (n + 1) / 2 && nw[1] == n / 2,
                       "tiles %d grid %d CTA %d: %d tiles split %d / %d", s.num_tiles, G, b, n, nw[0], nw[1]);
                for (int i = 0; i < n; ++i)
                    EXPECT(wg[i % 2][i / 2] == cta[i],
                           "tiles %d grid %d CTA %d: its tile %d (idx %d) is not WG%d's tile %d (%d)",
                           s.num_tiles, G, b, i, cta[i], i % 2, i / 2, wg[i % 2][i / 2]);
            }
            for (int i = 0; i < s.num_tiles; ++i)
                EXPECT(seen[i] == 1, "tiles %d grid %d: idx %d taken %d times by the warpgroups",
                       s.num_tiles, G, i, seen[i]);
        }
    }
    /* Hand case: 7 tiles, grid 2: CTA 0 has 0 2 4 6 -> WG0 0 4, WG1 2 6;
     * CTA 1 has 1 3 5 -> WG0 1 5, WG1 3 (odd count: WG0 one more). */
    const tile_sched s = tile_sched_make(7, 1, 1, 1, 1, 0);
    tile_walk w = tile_walk_start(1, 2);
    tile_walk_advance(&w, 1);
    ck_assert_int_eq(w.idx, 3);
    tile_walk_advance(&w, 2);
    ck_assert_int_eq(w.idx, 7);
    ck_assert(!tile_walk_valid(&s, &w));
}
END_TEST

/* ---- first-wave footprint and the raster choice ------------------------------ */

/* Distinct tile rows and columns among work indices [0, W) of s, by counting. */
static void brute_footprint(const tile_sched *s, int W, int *rows, int *cols)
{
    static unsigned char rseen[MAX_TILES], cseen[MAX_TILES];
    memset(rseen, 0, (size_t)s->tiles_m);
    memset(cseen, 0, (size_t)s->tiles_n);
    *rows = *cols = 0;
    for (int idx = 0; idx < W && idx < s->num_tiles; ++idx) {
        int tm, tn;
        tile_sched_coords(s, idx, &tm, &tn);
        if (!rseen[tm]) { rseen[tm] = 1; ++*rows; }
        if (!cseen[tn]) { cseen[tn] = 1; ++*cols; }
    }
}

static const int fp_groups[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 64};

START_TEST(test_wave_footprint_brute_force)
{
    static unsigned char rseen[MAX_TILES], cseen[MAX_TILES];
    for (int a = 0; a < NELEMS(dims); ++a)
    for (int b = 0; b < NELEMS(dims); ++b)
    for (int t = 0; t < NELEMS(tiles); ++t)
    for (int g = 0; g < NELEMS(fp_groups); ++g)
    for (int along = 0; along < 2; ++along) {
        const tile_sched s = tile_sched_make(dims[a], dims[b], tiles[t].m, tiles[t].n, fp_groups[g], along);
        memset(rseen, 0, (size_t)s.tiles_m);
        memset(cseen, 0, (size_t)s.tiles_n);
        int rows = 0, cols = 0;
        /* W = 1 .. num_tiles.  (Beyond num_tiles there are no more indices;
         * tile_sched_pick_along_n clamps the wave before it asks.) */
        for (int W = 1; W <= s.num_tiles; ++W) {
            int tm, tn, fr = -1, fc = -1;
            tile_sched_coords(&s, W - 1, &tm, &tn);
            if (!rseen[tm]) { rseen[tm] = 1; ++rows; }
            if (!cseen[tn]) { cseen[tn] = 1; ++cols; }
            tile_sched_wave_footprint(s.tiles_m, s.tiles_n, s.group, along, W, &fr, &fc);
            EXPECT(fr == rows && fc == cols,
                   "grid %dx%d group %d along_n %d W %d: footprint %d rows %d cols, counted %d rows %d cols",
                   s.tiles_m, s.tiles_n, s.group, along, W, fr, fc, rows, cols);
        }
    }
}
END_TEST

START_TEST(test_wave_footprint_hand)
{
    int r, c;
    /* 4096^2, 128 x 256 tiles: 32 x 16 tiles, group 8, wave 132.
     * Along M: 128 tiles per group (8 rows x 16 columns), then 4 of the next
     * group: 12 rows, 16 columns.  Along N: 8 columns, ceil(132 / 8) = 17 rows. */
    tile_sched_wave_footprint(32, 16, 8, 0, 132, &r, &c);
    ck_assert_int_eq(r, 12);
    ck_assert_int_eq(c, 16);
    tile_sched_wave_footprint(32, 16, 8, 1, 132, &r, &c);
    ck_assert_int_eq(r, 17);
    ck_assert_int_eq(c, 8);
    /* The 5 x 5 group-3 table: indices 0..15 along M cover rows 0-3, all columns. */
    tile_sched_wave_footprint(5, 5, 3, 0, 16, &r, &c);
    ck_assert_int_eq(r, 4);
    ck_assert_int_eq(c, 5);
    tile_sched_wave_footprint(5, 5, 3, 0, 4, &r, &c);
    ck_assert_int_eq(r, 3);
    ck_assert_int_eq(c, 2);
    tile_sched_wave_footprint(5, 5, 3, 1, 7, &r, &c);   /* 0..6 along N: rows 0-2, cols 0-2 */
    ck_assert_int_eq(r, 3);
    ck_assert_int_eq(c, 3);
    tile_sched_wave_footprint(5, 5, 3, 1, 0, &r, &c);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(c, 0);
}
END_TEST

START_TEST(test_pick_along_n)
{
    /* Hand case (see test_wave_footprint_hand): along N 17*128 + 8*256 = 4224
     * < along M 12*128 + 16*256 = 5632. */
    ck_assert_int_eq(tile_sched_pick_along_n(32, 16, 128, 256, 8, 132), 1);
    /* A single tile: a tie, which goes to along M. */
    ck_assert_int_eq(tile_sched_pick_along_n(1, 1, 128, 256, 8, 132), 0);

    int picked_n = 0, picked_m = 0;
    for (int a = 0; a < NELEMS(dims); ++a)
    for (int b = 0; b < NELEMS(dims); ++b)
    for (int t = 0; t < NELEMS(tiles); ++t)
    for (int g = 0; g < NELEMS(fp_groups); ++g) {
        const int tm_ = tiles[t].m, tn_ = tiles[t].n, G = fp_groups[g];
        const tile_sched sm = tile_sched_make(dims[a], dims[b], tm_, tn_, G, 0);
        const tile_sched sn = tile_sched_make(dims[a], dims[b], tm_, tn_, G, 1);
        const int total = sm.num_tiles;
        const int waves[] = {1, 2, 7, 66, 114, 132, 133, 264, total - 1, total, total + 5};
        for (int k = 0; k < NELEMS(waves); ++k) {
            const int wave = waves[k];
            if (wave < 1) continue;
            int rm, cm, rn, cn;
            brute_footprint(&sm, wave, &rm, &cm);
            brute_footprint(&sn, wave, &rn, &cn);
            const long long bytes_m = (long long)rm * tm_ + (long long)cm * tn_;
            const long long bytes_n = (long long)rn * tm_ + (long long)cn * tn_;
            const int want = bytes_n < bytes_m;
            const int got = tile_sched_pick_along_n(sm.tiles_m, sm.tiles_n, tm_, tn_, G, wave);
            EXPECT(got == want, "grid %dx%d tiles %dx%d group %d wave %d: picked along_n %d, "
                   "bytes along M %lld along N %lld", sm.tiles_m, sm.tiles_n, tm_, tn_, G, wave,
                   got, bytes_m, bytes_n);
            if (got) ++picked_n; else ++picked_m;
        }
    }
    /* Both answers occur, so the comparison is not vacuous. */
    ck_assert_int_gt(picked_n, 0);
    ck_assert_int_gt(picked_m, 0);
}
END_TEST

/* ---- the work units of the walk ---------------------------------------------
 * What the kernels are handed: persistent_unit(s, idx, k_tiles) for each index
 * of a CTA's walk (step 06), or of a warpgroup's half of it (step 07).  Real
 * shapes in 128 x 256 tiles, 1 to 64 k-tiles, every grid size of the walk
 * tests: every (tile, k-tile) pair of the matrix exactly once. */
static const int unit_shapes[][2] = {{1, 8}, {127, 129}, {300, 4100}, {1000, 1000}, {4096, 4096}, {4100, 8192}};
static const int unit_kts[] = {1, 3, 64};
static const int unit_groups[] = {1, 8};
static unsigned char cover_buf[MAX_TILES * 64];

/* The unit of index idx, field by field against the raster. */
static void expect_unit(const tile_sched *s, const work_unit *u, int idx, int kt)
{
    int tm, tn;
    tile_sched_coords(s, idx, &tm, &tn);
    EXPECT(u->tile == idx && u->tile_m == tm && u->tile_n == tn && u->k_begin == 0 && u->k_end == kt,
           "grid %dx%d group %d along_n %d: unit of idx %d is {%d, (%d, %d), [%d, %d)}, expected "
           "{%d, (%d, %d), [0, %d)}", s->tiles_m, s->tiles_n, s->group, s->along_n, idx, u->tile, u->tile_m,
           u->tile_n, u->k_begin, u->k_end, idx, tm, tn, kt);
}

START_TEST(test_units_cover_each_pair_once)
{
    int combos = 0;
    for (int sh = 0; sh < NELEMS(unit_shapes); ++sh)
    for (int g = 0; g < NELEMS(unit_groups); ++g)
    for (int along = 0; along < 2; ++along)
    for (int ki = 0; ki < NELEMS(unit_kts); ++ki) {
        const int M = unit_shapes[sh][0], N = unit_shapes[sh][1], kt = unit_kts[ki];
        const tile_sched s = tile_sched_make(M, N, 128, 256, unit_groups[g], along);
        int gs[16];
        const int ng = walk_grid_sizes(s.num_tiles, gs);
        for (int j = 0; j < ng; ++j) {
            const int G = gs[j];
            work_cover c;
            EXPECT(cover_init(&c, cover_buf, sizeof cover_buf, s.tiles_m, s.tiles_n, kt), "ledger too small");
            for (int b = 0; b < G; ++b)
                for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 1)) {
                    const work_unit u = persistent_unit(&s, w.idx, kt);
                    expect_unit(&s, &u, w.idx, kt);
                    cover_add(&c, &u);
                }
            long first;
            const long bad = cover_faults(&c, &first);
            EXPECT(bad == 0, "%dx%d group %d along_n %d, %d k-tiles, grid %d: %ld faults, the first at "
                   "tile (%ld, %ld) k-tile %ld", M, N, unit_groups[g], along, kt, G, bad,
                   first / kt / s.tiles_n, first / kt % s.tiles_n, first % kt);
            ++combos;
        }
    }
    ck_assert_int_eq(combos, NELEMS(unit_shapes) * NELEMS(unit_groups) * 2 * NELEMS(unit_kts) * 10);
}
END_TEST

/* Step 07: the CTA's units, dealt alternately to its two consumer warpgroups
 * (warpgroup c starts c turns ahead, then skips its partner's turn). */
START_TEST(test_units_two_warpgroups)
{
    static work_unit cta[MAX_TILES];
    for (int sh = 0; sh < NELEMS(unit_shapes); ++sh)
    for (int along = 0; along < 2; ++along)
    for (int ki = 0; ki < NELEMS(unit_kts); ++ki) {
        const int M = unit_shapes[sh][0], N = unit_shapes[sh][1], kt = unit_kts[ki];
        const tile_sched s = tile_sched_make(M, N, 128, 256, 8, along);
        int gs[16];
        const int ng = walk_grid_sizes(s.num_tiles, gs);
        for (int j = 0; j < ng; ++j) {
            const int G = gs[j];
            work_cover c;
            EXPECT(cover_init(&c, cover_buf, sizeof cover_buf, s.tiles_m, s.tiles_n, kt), "ledger too small");
            for (int b = 0; b < G; ++b) {
                int n = 0;
                for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 1))
                    cta[n++] = persistent_unit(&s, w.idx, kt);
                int nw[2] = {0, 0};
                for (int wg = 0; wg < 2; ++wg) {
                    tile_walk w = tile_walk_start(b, G);
                    tile_walk_advance(&w, wg);
                    for (; tile_walk_valid(&s, &w); tile_walk_advance(&w, 2)) {
                        const work_unit u = persistent_unit(&s, w.idx, kt);
                        const int turn = 2 * nw[wg] + wg;   /* its place in the CTA's walk */
                        EXPECT(turn < n && memcmp(&u, &cta[turn], sizeof u) == 0,
                               "%dx%d grid %d CTA %d: WG%d's unit %d (tile %d) is not the CTA's unit %d",
                               M, N, G, b, wg, nw[wg], u.tile, turn);
                        ++nw[wg];
                        cover_add(&c, &u);
                    }
                }
                EXPECT(nw[0] == (n + 1) / 2 && nw[1] == n / 2, "%dx%d grid %d CTA %d: %d units split %d / %d",
                       M, N, G, b, n, nw[0], nw[1]);
            }
            const long bad = cover_faults(&c, NULL);
            EXPECT(bad == 0, "%dx%d along_n %d, %d k-tiles, grid %d: the warpgroups' units have %ld faults",
                   M, N, along, kt, G, bad);
        }
    }
}
END_TEST

/* The ledger notices a broken walk, by the exact number of pairs it breaks:
 * a grid that forgets its last CTA, warpgroups that both start at turn 0
 * (step 07 without tile_walk_advance(&w, 1)), and a k-range one too long. */
START_TEST(test_units_cover_control)
{
    const int kt = 3;
    const tile_sched s = tile_sched_make(4096, 4096, 128, 256, 8, 1);   /* 512 tiles */
    const int G = 132;
    work_cover c;
    ck_assert(cover_init(&c, cover_buf, sizeof cover_buf, s.tiles_m, s.tiles_n, kt));
    for (int b = 0; b < G - 1; ++b)
        for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 1)) {
            const work_unit u = persistent_unit(&s, w.idx, kt);
            cover_add(&c, &u);
        }
    ck_assert_int_eq(cover_faults(&c, NULL), 3 * kt);   /* 512 = 3 x 132 + 116: CTA 131 has 3 tiles */
    /* both warpgroups at turn 0: even turns twice, odd turns never */
    ck_assert(cover_init(&c, cover_buf, sizeof cover_buf, s.tiles_m, s.tiles_n, kt));
    for (int b = 0; b < G; ++b)
        for (int wg = 0; wg < 2; ++wg)
            for (tile_walk w = tile_walk_start(b, G); tile_walk_valid(&s, &w); tile_walk_advance(&w, 2)) {
                const work_unit u = persistent_unit(&s, w.idx, kt);
                cover_add(&c, &u);
            }
    ck_assert_int_eq(cover_faults(&c, NULL), (long)s.num_tiles * kt);
    /* every unit one k-tile too long: each adds one k-tile outside [0, kt) */
    ck_assert(cover_init(&c, cover_buf, sizeof cover_buf, s.tiles_m, s.tiles_n, kt));
    for (int idx = 0; idx < s.num_tiles; ++idx) {
        work_unit u = persistent_unit(&s, idx, kt);
        ++u.k_end;
        cover_add(&c, &u);
    }
    ck_assert_int_eq(c.outside, s.num_tiles);
    ck_assert_int_eq(cover_faults(&c, NULL), s.num_tiles);
}
END_TEST

Suite *persistent_schedule_suite(void)
{
    Suite *s = suite_create("persistent_schedule");
    TCase *ts = tcase_create("persistent_schedule");
    tcase_set_timeout(ts, 60);
    tcase_add_test(ts, test_tile_divide);
    tcase_add_test(ts, test_sched_make);
    tcase_add_test(ts, test_sched_coords_bijection);
    tcase_add_test(ts, test_sched_group3_tables);
    tcase_add_test(ts, test_sched_group1_orders);
    tcase_add_test(ts, test_walk_covers_each_index_once);
    tcase_add_test(ts, test_walk_two_warpgroups);
    tcase_add_test(ts, test_wave_footprint_brute_force);
    tcase_add_test(ts, test_wave_footprint_hand);
    tcase_add_test(ts, test_pick_along_n);
    tcase_add_test(ts, test_units_cover_each_pair_once);
    tcase_add_test(ts, test_units_two_warpgroups);
    tcase_add_test(ts, test_units_cover_control);
    suite_add_tcase(s, ts);
    return s;
}

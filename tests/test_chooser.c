/* test_chooser.c — step 10's chooser (step10_autotune/chooser.h) on the CPU:
 * the candidates a shape gets, that the model picks its fastest predicted,
 * and the reasons it gives (the tuning cache: test_tune_cache.c).  The model's
 * ACCURACY is measured on the GPU (step10_autotune/NOTES.md); here, that it
 * behaves as documented. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../step10_autotune/chooser.h"

#define MENU_N 5   /* kernel.cu's menu, in its order */
static const chooser_config menu[MENU_N] = {
    {"64x64", 64, 64, CHOOSER_KT_US_64x64, 1, 1, 13},   /* alone: no cluster; 13 slots fit (16 KiB) */
    {"64x128", 64, 128, CHOOSER_KT_US_64x128, 1, 2, 8},
    {"128x128", 128, 128, CHOOSER_KT_US_128x128, 1, 2, 6},
    {"128x192", 128, 192, CHOOSER_KT_US_128x192, 1, 2, 5},
    {"128x256c", 128, 256, CHOOSER_KT_US_128x256c, 2, 2, 4},   /* cooperative: the CTA's tile */
};
static const chooser_device h100 = {132, 50.0 * 1024 * 1024, 3352.0};

/* Every plan once per configuration; all three modes where auto streams. */
START_TEST(test_chooser_candidates)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    const int n = chooser_candidates(1024, 1024, 14336, menu, MENU_N, -1, SK_MODE_AUTO, &h100, e);
    ck_assert_int_ge(n, 3);
    ck_assert_int_le(n, 4 * MENU_N);
    /* sk_cap is not offered here: A and B, 58.7 MB, are more than half the L2 */
    for (int i = 0; i < n; ++i) ck_assert_int_ne(e[i].mode, CHOOSER_MODE_CAP);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            ck_assert(!(e[i].config == e[j].config && chooser_same_plan(&e[i].plan, &e[j].plan)));
    /* --config narrows to one configuration, --mode to one plan */
    const int one = chooser_candidates(1024, 1024, 14336, menu, MENU_N, 2, SK_MODE_AUTO, &h100, e);
    for (int i = 0; i < one; ++i) ck_assert_int_eq(e[i].config, 2);
    ck_assert_int_eq(chooser_candidates(1024, 1024, 14336, menu, MENU_N, 2, SK_MODE_DP, &h100, e), 1);
    ck_assert_str_eq(chooser_plan_name(&e[0]), "dp");
    /* --mode cap forces it anywhere: every tile streamed, over the units the model prefers (1 to all) */
    ck_assert_int_eq(chooser_candidates(1024, 1024, 14336, menu, MENU_N, 2, CHOOSER_MODE_CAP, &h100, e), 1);
    ck_assert_str_eq(chooser_plan_name(&e[0]), "sk_cap");
    ck_assert_int_eq(e[0].plan.sk_tiles, e[0].plan.tiles);
    ck_assert(e[0].plan.units >= 1 && e[0].plan.units <= 66);
    for (int u = 1; u <= 66; ++u) {   /* ... the fastest predicted u */
        const sk_plan p = sk_plan_split(e[0].plan.tiles, e[0].plan.kt, 66, e[0].plan.tiles, u);
        ck_assert(chooser_estimate_with(1024, 1024, 14336, menu, 2, &h100, CHOOSER_MODE_CAP, &p).t_us >= e[0].t_us);
    }
    /* offered where every tile streams anyway (fewer tiles than units), A and B fit in half the L2, and for the
     * tile that runs alone, 64x64 (64x128's streamed k loop ran over the model, NOTES.md "Session 18") */
    int cap = 0;
    const int k = chooser_candidates(128, 1024, 8192, menu, MENU_N, -1, SK_MODE_AUTO, &h100, e);
    for (int i = 0; i < k; ++i)
        if (e[i].mode == CHOOSER_MODE_CAP) {
            ck_assert_str_eq(menu[e[i].config].name, "64x64");
            ++cap;
        }
    ck_assert_int_eq(cap, 1);
    const int w = chooser_candidates(4096, 4096, 4096, menu, MENU_N, -1, SK_MODE_AUTO, &h100, e);   /* 4096 tiles */
    for (int i = 0; i < w; ++i) ck_assert_int_ne(e[i].mode, CHOOSER_MODE_CAP);
    const int l = chooser_candidates(64, 64, 131072, menu, MENU_N, -1, SK_MODE_AUTO, &h100, e);   /* one tile, 33.6 MB */
    for (int i = 0; i < l; ++i) ck_assert_int_ne(e[i].mode, CHOOSER_MODE_CAP);
}
END_TEST

/* The pick is the smallest predicted time; the reasons are consistent. */
START_TEST(test_chooser_pick_and_reasons)
{
    static const int shapes[][3] = {{512, 512, 512}, {1024, 1024, 1024}, {4096, 4096, 4096},
                                    {8192, 8192, 8192}, {4096, 4096, 4168}, {128, 14336, 4096}};
    for (int s = 0; s < 6; ++s) {
        chooser_estimate e[CHOOSER_MAX_CANDIDATES];
        const int n = chooser_candidates(shapes[s][0], shapes[s][1], shapes[s][2], menu, MENU_N, -1, SK_MODE_AUTO,
                                         &h100, e);
        const int p = chooser_pick(e, n);
        int under = 0;   /* candidates the DRAM floor bounds */
        for (int i = 0; i < n; ++i) {
            ck_assert(e[p].t_us <= e[i].t_us);
            under += e[i].t_dram_us > e[i].t_mma_us;
            ck_assert(e[i].t_us >= CHOOSER_T0_US + e[i].t_dram_us - 1e-9);
            ck_assert(e[i].last_wave_fill > 0 && e[i].last_wave_fill <= 1);
            ck_assert(e[i].busiest_kt > 0);
        }
        /* 128 x 14336 x 4096: B's 117 MB bound most, with floors that nearly tie; the mainloop furthest
         * under it wins (128 x 128: no MMAs on padding rows, the fewest k-tiles per CTA; session 15's tie
         * rule did this, now the mainloop's share above the floor does) */
        if (shapes[s][0] == 128) ck_assert(under >= n / 2 && e[p].config == 2 && e[p].t_dram_us > e[p].t_mma_us);
    }
    /* few tiles: 64 x 128 halves the tile, doubles the tiles that fill the SMs; 64 x 64 again */
    for (int c = 0; c < 2; ++c) {
        chooser_estimate e = chooser_estimate_of(1024, 1024, 1024, menu, c, &h100, SK_MODE_DP);
        chooser_estimate f = chooser_estimate_of(1024, 1024, 1024, menu, c + 1, &h100, SK_MODE_DP);
        ck_assert_int_eq(e.tiles, 2 * f.tiles);
        ck_assert(e.bytes_per_mac > f.bytes_per_mac);
    }
    /* whole tiles in one wave, K aligned: the tile's own k-tile time, not the L2 feed; misaligned: the L2's */
    ck_assert(chooser_estimate_of(1024, 1024, 1024, menu, 1, &h100, SK_MODE_DP).kt_us == CHOOSER_KT_US_64x128);
    ck_assert(chooser_estimate_of(1024, 1024, 1000, menu, 1, &h100, SK_MODE_DP).kt_us > CHOOSER_KT_US_64x128);
    ck_assert(chooser_estimate_of(2048, 2048, 2048, menu, 1, &h100, SK_MODE_DP).kt_us > CHOOSER_KT_US_64x128);
    /* 64 x 64 runs alone: its cluster tiles are its tiles, and it loads its whole A and B boxes */
    chooser_estimate a64 = chooser_estimate_of(1024, 1024, 1024, menu, 0, &h100, SK_MODE_DP);
    ck_assert_int_eq(a64.cluster_tiles, a64.tiles);
    ck_assert(fabs(a64.bytes_per_mac - (64 + 64) * 2.0 / (64 * 64)) < 1e-12);
    /* ... except under 64 rows of M, where it asks for M's rounded up to 8 (kernel.cu, c36827a); a pair
     * where M fits in rank 0's half likewise, and its rank 1 loads no A (session 20): a CTA of the pair
     * half of rank 0's rows on average.  Past the half, the halves stay whole */
    ck_assert(fabs(chooser_estimate_of(8, 65536, 8192, menu, 0, &h100, SK_MODE_DP).bytes_per_mac -
                   (8 + 64) * 2.0 / (64 * 64)) < 1e-12);
    ck_assert(fabs(chooser_estimate_of(8, 65536, 8192, menu, 1, &h100, SK_MODE_DP).bytes_per_mac -
                   (8 / 2 + 128) * 2.0 / (64 * 128)) < 1e-12);
    ck_assert(fabs(chooser_estimate_of(40, 65536, 8192, menu, 1, &h100, SK_MODE_DP).bytes_per_mac -
                   (32 + 128) * 2.0 / (64 * 128)) < 1e-12);
    ck_assert(fabs(chooser_estimate_of(40, 65536, 8192, menu, 2, &h100, SK_MODE_DP).bytes_per_mac -
                   (40 / 2 + 128) * 2.0 / (128 * 128)) < 1e-12);
    /* 64 x 64 alone cuts B's box to N too (kernel.cu's map_edge, the last column's box), and the model counts B whole: counting
     * the cut picked worse on a list drawn before its run (chooser.h says why) */
    ck_assert(fabs(chooser_estimate_of(65536, 20, 8192, menu, 0, &h100, SK_MODE_DP).bytes_per_mac -
                   (64 + 64) * 2.0 / (64 * 64)) < 1e-12);
    ck_assert(fabs(chooser_estimate_of(20, 20, 8192, menu, 0, &h100, SK_MODE_DP).bytes_per_mac -
                   (24 + 64) * 2.0 / (64 * 64)) < 1e-12);
    /* 64 x 64 where 64 x 128 leaves most clusters idle (512^3: 16 cluster tiles of 66), and not
     * once its own tiles pass a wave (768^3: 144 on 132 SMs, alone) */
    chooser_estimate p[CHOOSER_MAX_CANDIDATES];
    int n = chooser_candidates(512, 512, 512, menu, MENU_N, -1, SK_MODE_AUTO, &h100, p);
    ck_assert_str_eq(menu[p[chooser_pick(p, n)].config].name, "64x64");
    n = chooser_candidates(768, 768, 768, menu, MENU_N, -1, SK_MODE_AUTO, &h100, p);
    ck_assert_str_ne(menu[p[chooser_pick(p, n)].config].name, "64x64");
    /* few tiles, K-heavy (256 x 256 x 8192: 16 tiles of 64 x 64): auto's stream-K plan runs on U' < 132
     * units, and only those CTAs load, so the L2 does not bind it; it beats one CTA per tile streaming K.
     * Since the owner waits on all its writers at once, streaming on more units beats it: sk (9-10 writers
     * a tile) read 0.929 of cuBLAS on the H200 against sk_l2's 0.804 (NOTES.md, "Session 17"); the pick is
     * sk_cap, every tile over the units the model prefers (within 1.5% of sk there, session 18) */
    chooser_estimate k = chooser_estimate_of(256, 256, 8192, menu, 0, &h100, SK_MODE_AUTO);
    ck_assert(k.plan.sk_tiles == k.tiles && k.plan.units < 132);
    ck_assert(k.kt_us == CHOOSER_KT_US_64x64);
    n = chooser_candidates(256, 256, 8192, menu, MENU_N, -1, SK_MODE_AUTO, &h100, p);
    ck_assert_str_eq(menu[p[chooser_pick(p, n)].config].name, "64x64");
    ck_assert_str_eq(chooser_plan_name(&p[chooser_pick(p, n)]), "sk_cap");
    ck_assert_int_gt(p[chooser_pick(p, n)].plan.units, k.plan.units);
    /* one tile of a long K (64 x 64 x 16384): auto's two units a tile read 0.45 of cuBLAS, every unit (sk)
     * 0.31; streamed over U' = 8 or 16 units 0.80-0.82, 32 0.71 (NOTES.md, "Session 17") */
    n = chooser_candidates(64, 64, 16384, menu, MENU_N, -1, SK_MODE_AUTO, &h100, p);
    ck_assert_str_eq(chooser_plan_name(&p[chooser_pick(p, n)]), "sk_cap");
    ck_assert(p[chooser_pick(p, n)].plan.units >= 8 && p[chooser_pick(p, n)].plan.units <= 24);
    /* many writers a tile (128 x 128 x 32768: 4 tiles of 64 x 64 on 132 units, 33-35 a tile): the owner
     * waits on all their flags at once, so each writer past the first costs SK_FIXUP_MORE_KT, not
     * SK_FIXUP_KT, and streaming on many units beats auto's two units a tile (session 17): sk_cap's 64 (0.77-0.78
     * of cuBLAS on the H200) over sk's 132 (0.67-0.69) */
    chooser_estimate m = chooser_estimate_of(128, 128, 32768, menu, 0, &h100, SK_MODE_SK);
    const int sharers = sk_plan_max_sharing(&m.plan);
    ck_assert_int_gt(sharers, 32);
    ck_assert_int_eq(sk_plan_fixup_kt(&m.plan), SK_FIXUP_KT + (long long)SK_FIXUP_MORE_KT * (sharers - 2));
    ck_assert_int_lt(SK_FIXUP_MORE_KT, SK_FIXUP_KT);
    n = chooser_candidates(128, 128, 32768, menu, MENU_N, -1, SK_MODE_AUTO, &h100, p);
    ck_assert_str_eq(menu[p[chooser_pick(p, n)].config].name, "64x64");
    ck_assert_str_eq(chooser_plan_name(&p[chooser_pick(p, n)]), "sk_cap");
    ck_assert(p[chooser_pick(p, n)].plan.units >= 32 && p[chooser_pick(p, n)].plan.units < 132);
    /* an estimate for a plan given (experiments): the mode's own plan gives the mode's estimate */
    const chooser_estimate w = chooser_estimate_with(128, 128, 32768, menu, 0, &h100, SK_MODE_SK, &m.plan);
    ck_assert(w.t_us == m.t_us && w.busiest_kt == m.busiest_kt);
    /* one SM's feed: past its ring of k-tiles a lone CTA waits for its own bytes (64 x 64: 128 box rows of
     * 128 B a k-tile, past its 13 slots: chooser_ring); a k loop that fits in the ring (512^3: 8 k-tiles,
     * 8 slots) does not */
    chooser_estimate r = chooser_estimate_of(512, 512, 512, menu, 0, &h100, SK_MODE_DP);
    ck_assert(fabs(r.t_mma_us - 8 * CHOOSER_KT_US_64x64 * r.power) < 1e-9);
    chooser_estimate l = chooser_estimate_of(256, 256, 8192, menu, 0, &h100, SK_MODE_DP);
    ck_assert(fabs(l.t_mma_us - (13 * CHOOSER_KT_US_64x64 + 115 * 128 * 128.0 / (CHOOSER_SM_GBS * 1e3)) * l.power) < 1e-9);
    /* K % 64 != 0 never predicts faster than the next multiple of 64 */
    chooser_estimate a = chooser_estimate_of(4096, 4096, 4160, menu, 2, &h100, SK_MODE_DP);
    chooser_estimate b = chooser_estimate_of(4096, 4096, 4168, menu, 2, &h100, SK_MODE_DP);
    ck_assert(b.t_us >= a.t_us);
    /* the cooperative 128 x 256: half of 128 x 128's tiles, the fewest L2 bytes per MAC */
    chooser_estimate c = chooser_estimate_of(4096, 4096, 4096, menu, 4, &h100, SK_MODE_DP);
    chooser_estimate d = chooser_estimate_of(4096, 4096, 4096, menu, 2, &h100, SK_MODE_DP);
    ck_assert_int_eq(2 * c.tiles, d.tiles);
    for (int i = 0; i < 4; ++i)
        ck_assert(c.bytes_per_mac < chooser_estimate_of(4096, 4096, 4096, menu, i, &h100, SK_MODE_DP).bytes_per_mac);
    /* ... in pairs along M that share B: 128 + 128 rows per k-tile, and ceil(tm/2) x tn cluster tiles */
    ck_assert(fabs(c.bytes_per_mac - (128 + 128) * 2.0 / (128 * 256)) < 1e-12);
    ck_assert_int_eq(chooser_estimate_of(1100, 4096, 4096, menu, 4, &h100, SK_MODE_DP).cluster_tiles, 5 * 16);
    ck_assert_int_eq(chooser_estimate_of(1100, 4096, 4096, menu, 2, &h100, SK_MODE_DP).cluster_tiles, 9 * 16);
    /* its DRAM floor is a pingpong 256 x 128 pair's (along N) on the transposed problem */
    const chooser_config t = {"256x128", 256, 128, CHOOSER_KT_US_128x256c, 1, 2, 4};
    for (int w = 1; w <= 9; w += 4)
        ck_assert(fabs(chooser_dram_us(3000, 20000, 8192, &menu[4], &h100, w) -
                       chooser_dram_us(20000, 3000, 8192, &t, &h100, w)) < 1e-9);
    /* past the L2 each wave reads its panels once: where the waves split B (M in one row of tiles), B is
     * read once, not once plus every wave after the first (session 19; 1.9x that before) */
    const chooser_estimate v = chooser_estimate_of(64, 128256, 4096, menu, 1, &h100, SK_MODE_DP);
    const double once = (2.0 * (64.0 + 128256) * 4096 + 2.0 * 64 * 128256) / (h100.dram_gbs * 1e3);
    ck_assert_msg(v.waves > 7 && v.t_dram_us >= once && v.t_dram_us < 1.01 * once, "%f against %f", v.t_dram_us, once);
    /* under the floor the mainloop still shows, CHOOSER_DRAM_MMA of it; a mainloop far above the floor alone */
    ck_assert(v.t_dram_us > v.t_mma_us && fabs(v.t_us - (CHOOSER_T0_US + v.t_dram_us + CHOOSER_DRAM_MMA * v.t_mma_us)) < 1e-9);
    const chooser_estimate big = chooser_estimate_of(4096, 4096, 4096, menu, 2, &h100, SK_MODE_DP);
    ck_assert(fabs(big.t_us - (CHOOSER_T0_US + big.t_mma_us)) < 1e-9);
    /* so at M <= 64 under the floor a 64-row tile wins: a 128-row one spends twice the MMAs or more
     * (32 x 128256 x 4096: 128x192/sk without the share, 0.92 of the best measured; session 19) */
    chooser_estimate all[CHOOSER_MAX_CANDIDATES];
    const int na = chooser_candidates(32, 128256, 4096, menu, 5, -1, SK_MODE_AUTO, &h100, all);
    ck_assert_int_eq(all[chooser_pick(all, na)].config, 1);
    /* and with both cuts priced, 64x128 at 4 x 28672 x 3584: measured the best there, 64x64/dp 0.94 of it
     * (H200, session 20), which the model picked with the pair counted whole */
    const int n4 = chooser_candidates(4, 28672, 3584, menu, 5, -1, SK_MODE_AUTO, &h100, all);
    ck_assert_str_eq(menu[all[chooser_pick(all, n4)].config].name, "64x128");
}
END_TEST

/* Textbook stream-K's price (chooser_sk_price): CHOOSER_SK_SCATTER on the busiest unit's streamed k-tiles, not on
 * the whole tiles it runs first, so a shape just past a whole wave streams: 2560 x 5120 x 1536, 6.06 waves of
 * 128 x 128 pairs, ran 4% faster as 128x128/sk than as dp head to head on the H200 (NOTES.md, "Session 27").  And
 * the re-read (chooser_sk_reread_bytes): where a stream-K plan's panels outgrow half the L2, each phase of the
 * tiles that share a panel brings it from DRAM again, so 512 x 14336 x 4096 keeps whole tiles (128x128/sk ran 7%
 * behind there, session 25's sweep; ncu: NOTES.md, "Session 26"). */
START_TEST(test_chooser_stream_k_price)
{
    static const chooser_device h200 = {132, 60.0 * 1024 * 1024, 4814.3};
    const sk_plan all = sk_plan_split(66, 64, 66, 66, 66);   /* 66 tiles of 64 k-tiles over 66 units: 64 each */
    const long long streamed = (64LL * SK_RATE_PCT + 99) / 100;
    ck_assert(fabs(chooser_sk_price(&all, streamed) - CHOOSER_SK_SCATTER) < 1e-12);   /* all it runs streams */
    ck_assert(fabs(chooser_sk_price(&all, 2 * streamed) - (1 + (CHOOSER_SK_SCATTER - 1) / 2)) < 1e-12);
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    int n = chooser_candidates(2560, 5120, 1536, menu, MENU_N, -1, SK_MODE_AUTO, &h200, e);
    const chooser_estimate *p = &e[chooser_pick(e, n)];
    ck_assert_str_eq(menu[p->config].name, "128x128");
    ck_assert_str_eq(chooser_plan_name(p), "sk");
    ck_assert(p->waves > 6 && p->waves < 6.1);
    ck_assert(chooser_sk_price(&p->plan, p->busiest_kt) < 1 + (CHOOSER_SK_SCATTER - 1) / 4);   /* 6 waves whole first */
    n = chooser_candidates(512, 14336, 4096, menu, MENU_N, -1, SK_MODE_AUTO, &h200, e);
    ck_assert_str_eq(menu[e[chooser_pick(e, n)].config].name, "128x256c");
    ck_assert_str_eq(chooser_plan_name(&e[chooser_pick(e, n)]), "dp");
    const chooser_estimate sk = chooser_estimate_of(512, 14336, 4096, menu, 2, &h200, SK_MODE_SK);
    const chooser_estimate dp = chooser_estimate_of(512, 14336, 4096, menu, 2, &h200, SK_MODE_DP);
    ck_assert(chooser_sk_reread_bytes(512, 14336, 4096, &menu[2], &sk.plan, &h200) > 0);
    ck_assert(chooser_sk_reread_bytes(512, 14336, 4096, &menu[2], &dp.plan, &h200) == 0);   /* whole tiles: none */
    ck_assert(sk.t_dram_us > dp.t_dram_us);
    /* where the streamed panels fit in half the L2, no re-read: 512 x 2048 x 4096's B is 16.8 MB */
    const chooser_estimate fits = chooser_estimate_of(512, 2048, 4096, menu, 2, &h200, SK_MODE_SK);
    ck_assert(chooser_sk_reread_bytes(512, 2048, 4096, &menu[2], &fits.plan, &h200) == 0);
    /* A fixup's round trip (CHOOSER_FIXUP_US) on every plan that streams, whatever the tile: at 7 x 3072 x 3072
     * 64x64/sk_l2 saves 10 of its k-tiles (0.6 us) over 64x64/dp, less than the round trip, so whole tiles win
     * (without it the model picked sk_l2 there and measured 7% slower: NOTES.md, "Session 29") */
    n = chooser_candidates(7, 3072, 3072, menu, MENU_N, 0, SK_MODE_AUTO, &h200, e);
    const chooser_estimate *whole = NULL, *split = NULL;
    for (int i = 0; i < n; ++i) {
        if (e[i].plan.sk_tiles == 0) whole = &e[i];
        if (e[i].mode == SK_MODE_AUTO && e[i].plan.sk_tiles) split = &e[i];
    }
    ck_assert(whole != NULL && split != NULL);
    ck_assert(split->busiest_kt < whole->busiest_kt);   /* the split runs fewer k-tiles ... */
    ck_assert(split->t_us > whole->t_us);               /* ... and still loses to its round trip */
    ck_assert(fabs(split->t_mma_us - CHOOSER_FIXUP_US - split->busiest_kt * split->kt_us * split->power) < 1e-9);
    ck_assert_str_eq(chooser_plan_name(&e[chooser_pick(e, n)]), "dp");
    /* ... and only where a tile is shared: textbook sk over 66 cluster tiles on 66 clusters gives each unit a
     * whole tile, no owner reads a partial, and there is no round trip to pay */
    const chooser_estimate unshared = chooser_estimate_of(768, 2816, 4096, menu, 2, &h200, SK_MODE_SK);
    ck_assert(unshared.plan.sk_tiles > 0 && sk_plan_fixup_kt(&unshared.plan) == 0);
    ck_assert(fabs(unshared.t_mma_us - unshared.busiest_kt * unshared.kt_us * unshared.power *
                   chooser_sk_price(&unshared.plan, unshared.busiest_kt)) < 1e-9);
}
END_TEST

/* Reads "M N K" lines (# comments) from a file of the step folder. */
static int read_shapes(const char *path, int (*out)[3], int cap)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < cap)
        if (line[0] != '#' && sscanf(line, "%d %d %d", &out[n][0], &out[n][1], &out[n][2]) == 3) ++n;
    fclose(f);
    return n;
}

/* The held-out shapes were never in the fit's training list. */
/* The ring a launch takes (chooser_ring): past 8 slots only 64x64 fits, and only with whole tiles and as
 * deep as the k-tiles its busiest CTA runs; every other configuration takes what it fits. */
START_TEST(test_chooser_ring)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    int n = chooser_candidates(16, 4096, 14336, menu, MENU_N, 0, SK_MODE_DP, &h100, e);   /* 224 k-tiles a CTA */
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(chooser_ring(&menu[0], &e[0]), 13);
    n = chooser_candidates(16, 4096, 14336, menu, MENU_N, 0, SK_MODE_SK, &h100, e);   /* streamed: 8 */
    ck_assert_int_eq(n, 1);
    ck_assert_int_gt(e[0].plan.sk_tiles, 0);
    ck_assert_int_eq(chooser_ring(&menu[0], &e[0]), 8);
    n = chooser_candidates(512, 512, 512, menu, MENU_N, 0, SK_MODE_DP, &h100, e);   /* 8 k-tiles a CTA: 8 */
    ck_assert_int_eq(chooser_ring(&menu[0], &e[0]), 8);
    n = chooser_candidates(512, 512, 640, menu, MENU_N, 0, SK_MODE_DP, &h100, e);   /* 10 k-tiles: 10 */
    ck_assert_int_eq(e[0].busiest_kt, 10);
    ck_assert_int_eq(chooser_ring(&menu[0], &e[0]), 10);
    n = chooser_candidates(512, 512, 128, menu, MENU_N, 2, SK_MODE_DP, &h100, e);   /* 128x128: its 6, never fewer */
    ck_assert_int_eq(chooser_ring(&menu[2], &e[0]), 6);
}
END_TEST

/* A pair along N goes alone where N leaves it 1, 3, 5 or 7 tiles (chooser_cluster): its partner would walk a
 * padding tile.  With two tiles, or more than seven, it stays a pair; 64x64 is alone and 128x256c (a pair along
 * M) a pair everywhere.  Alone, its cluster tiles are its tiles and it loads its whole A box. */
START_TEST(test_chooser_cluster)
{
    for (int c = 1; c <= 3; ++c) {
        const int bn = menu[c].bn;
        ck_assert_int_eq(chooser_cluster(&menu[c], 1), 1);
        ck_assert_int_eq(chooser_cluster(&menu[c], bn), 1);
        ck_assert_int_eq(chooser_cluster(&menu[c], bn + 1), 2);
        ck_assert_int_eq(chooser_cluster(&menu[c], 2 * bn), 2);
        ck_assert_int_eq(chooser_cluster(&menu[c], 2 * bn + 8), 1);
        ck_assert_int_eq(chooser_cluster(&menu[c], 3 * bn), 1);
        ck_assert_int_eq(chooser_cluster(&menu[c], 4 * bn), 2);
        ck_assert_int_eq(chooser_cluster(&menu[c], 7 * bn), 1);
        ck_assert_int_eq(chooser_cluster(&menu[c], 9 * bn), 2);
        const chooser_estimate e = chooser_estimate_of(11008, 96, 4096, menu, c, &h100, SK_MODE_DP);
        ck_assert_int_eq(e.cluster, 1);
        ck_assert_int_eq(e.cluster_tiles, e.tiles);
        ck_assert_int_eq(e.plan.units <= h100.ctas && e.plan.units > h100.ctas / 2, 1);   /* 86-172 tiles, 132 units */
        ck_assert(fabs(e.bytes_per_mac - (menu[c].bm + bn) * 2.0 / (menu[c].bm * bn)) < 1e-12);
        ck_assert_int_eq(chooser_estimate_of(11008, 4096, 4096, menu, c, &h100, SK_MODE_DP).cluster, 2);
    }
    ck_assert_int_eq(chooser_cluster(&menu[0], 96), 1);
    ck_assert_int_eq(chooser_cluster(&menu[4], 96), 2);
    ck_assert_int_eq(chooser_estimate_of(11008, 96, 4096, menu, 4, &h100, SK_MODE_DP).cluster, 2);
}
END_TEST

START_TEST(test_chooser_heldout_not_fitted)
{
    static int held[64][3], fit[256][3];
    const int nh = read_shapes("step10_autotune/heldout_shapes.txt", held, 64);
    const int nf = read_shapes("step10_autotune/chooser_fit.txt", fit, 256);
    ck_assert_int_ge(nh, 10);
    ck_assert_int_ge(nf, 10);
    for (int i = 0; i < nh; ++i)
        for (int j = 0; j < nf; ++j)
            ck_assert_msg(!(held[i][0] == fit[j][0] && held[i][1] == fit[j][1] && held[i][2] == fit[j][2]),
                          "held-out shape %dx%dx%d is in the fit's list", held[i][0], held[i][1], held[i][2]);
}
END_TEST

Suite *chooser_suite(void)
{
    Suite *s = suite_create("chooser");
    TCase *tc = tcase_create("chooser");
    tcase_add_test(tc, test_chooser_candidates);
    tcase_add_test(tc, test_chooser_pick_and_reasons);
    tcase_add_test(tc, test_chooser_stream_k_price);
    tcase_add_test(tc, test_chooser_ring);
    tcase_add_test(tc, test_chooser_cluster);
    tcase_add_test(tc, test_chooser_heldout_not_fitted);
    suite_add_tcase(s, tc);
    return s;
}

/* chooser.h — step 10's chooser: which configuration of the menu, with which plan, for M x N x K on this GPU
 * (--tune's cache: common/tune_cache.h).  Plain C (HD): tests/test_chooser.c runs it on the CPU.  kernel.cu
 * describes its menu (chooser_config: one CTA's tile), asks for every candidate's estimate, takes the fastest.
 *
 * The model, per candidate (configuration c, plan p), in us (its terms: NOTES.md, "The model"):
 *   t = T0 + max(mainloop = busiest x t_ktile x sk x power + exposed epilogues + a fixup's round trip,
 *                DRAM floor + 0.5 x mainloop)
 * where t_ktile is the slowest of the tensor cores, the L2's feed to all busy CTAs and (past the
 * first ring of k-tiles) one SM's own feed; sk is textbook stream-K's price on its streamed share, and the
 * DRAM floor counts a stream-K plan's re-reads. */
#ifndef STEP10_CHOOSER_H
#define STEP10_CHOOSER_H

/* Step 10's owner waits on its writers 32 at once (kernel.cu): each writer past the first costs
 * SK_FIXUP_MORE_KT, not step 09's SK_FIXUP_KT (common/stream_k_schedule.h, which it must precede). */
#ifdef COMMON_STREAM_K_SCHEDULE_H
#error "include chooser.h before stream_k_schedule.h: it sets SK_FIXUP_MORE_KT"
#endif
#ifndef SK_FIXUP_MORE_KT   /* k-tile times: the fourteenth constant, fitted alone on the H200 (NOTES.md) */
#define SK_FIXUP_MORE_KT 2
#endif
#include "stream_k_schedule.h"

/* ---- the fitted constants, thirteen, on the H100 (experiments/fit_chooser.py; NOTES.md, "The model") */
#define CHOOSER_T0_US 7.98             /* launch, pipeline fill, the last tile's epilogue */
#define CHOOSER_L2_GBS 13201.0         /* L2 -> SM bandwidth, all SMs together, GB/s (x 1e3: bytes per us) */
#define CHOOSER_MISALIGNED 1.876       /* L2 cost of a k-tile when K % 64 != 0 */
#define CHOOSER_SK_SCATTER 1.067       /* textbook stream-K's streamed k-tile, against a whole tile's */
#define CHOOSER_POWER 0.193            /* k-tile time lost at the power cap ... */
#define CHOOSER_POWER_GFLOP 265.5      /* ... reached at this many GFLOPs and above */
/* Tensor-core time of one k-tile (BM x BN x 64) per tile, us, at boost clock. */
#define CHOOSER_KT_US_64x64 0.0611     /* fitted alone, the other eleven held (NOTES.md, "Session 15") */
#define CHOOSER_KT_US_64x128 0.1163
#define CHOOSER_KT_US_128x128 0.3134
#define CHOOSER_KT_US_128x192 0.4599
#define CHOOSER_KT_US_128x256c 0.5953
#define CHOOSER_EPI_US_COOP 1.04       /* the cooperative tile's epilogue, not hidden */
#define CHOOSER_SM_GBS 138.3           /* one SM's feed once its ring is drained, GB/s (NOTES.md, "Session 16") */
/* ---- and a fourteenth, fitted alone on the H200's decode sweeps, the others held (experiments/decode/fit_share.py) */
#define CHOOSER_DRAM_MMA 0.5           /* the mainloop's share that shows above the DRAM floor ("Session 19") */
/* ---- not fitted: a stream-K plan re-reads its streamed panels once they outgrow this share of the L2 (ncu
 * read B 2.2 times where it fit in the whole L2: NOTES.md, "Session 26"; chooser_sk_reread_bytes) */
#define CHOOSER_REREAD_L2_SHARE 0.5
/* ---- nor this: a stream-K plan's fixup (a partial's store, its flag, the owner's wait and read) is a round trip
 * through the L2 whatever the tile, on top of SK_FIXUP_KT's k-tile times (0.6 us of 64x64's), where the plan has
 * one (sk_plan_fixup_kt: a tile shared by units).  At three decode
 * shapes the model priced 64x64/sk_l2 0.3 us ahead of 64x64/dp and measured it 0.7-0.8 us behind; with 1 us,
 * within 3% of the best at 11 of 12 shapes drawn where it moves the pick, against 4 (NOTES.md, "Session 29") */
#define CHOOSER_FIXUP_US 1.0

#define CHOOSER_MAX_CANDIDATES 24
#define CHOOSER_BK 64                  /* k-tile: 64 bf16, one 128-byte row */

typedef struct {
    const char *name;    /* "128x128": the tile of ONE CTA (one consumer warpgroup's, or both's: "c") */
    int bm, bn;          /* its rows and columns */
    double kt_us;        /* fitted tensor-core time of one k-tile (CHOOSER_KT_US_*) */
    int tile_wgs;        /* consumer warpgroups on one tile: 1 pingpong, 2 cooperative */
    int cluster;         /* CTAs per cluster: 2 along N (cooperative: along M), 1 for 64x64 */
    int stages;          /* its ring's slots (the most it fits, or --stages) */
} chooser_config;

typedef struct {         /* read from the device, so an H200 gets its own answers */
    int ctas;            /* CTAs resident at once, one per SM (occupancy query); a configuration's units: ctas / cluster */
    double l2_bytes;     /* L2 size (device attribute) */
    double dram_gbs;     /* memory bandwidth, GB/s (memory clock x bus width) */
} chooser_device;

/* Step 10's own plan, sk_cap (--mode cap): every tile streamed, over the U' units this model finds fastest.
 * Step 09's auto allows SK_MAX_K_OFFSETS start offsets, so one tile of a long K gets two units: 64x64x16384
 * 0.45 of cuBLAS, 0.81 on 16 (NOTES.md, "Session 17"); textbook sk, all 132 units, 0.31. */
enum { CHOOSER_MODE_CAP = SK_MODE_SK + 1 };

/* One candidate's estimate: the plan it would run and why it costs what it does. */
typedef struct {
    int config, mode;            /* index into the menu; SK_MODE_DP / _SK / _AUTO, CHOOSER_MODE_CAP */
    int cluster;                 /* CTAs per cluster it launches: its configuration's, or 1 (chooser_cluster) */
    sk_plan plan;                /* the plan that mode makes here */
    int tiles, cluster_tiles;    /* tiles of this configuration, and in pairs */
    double waves;                /* cluster tiles / clusters */
    double last_wave_fill;       /* busy clusters in the last wave / clusters */
    double bytes_per_mac;        /* L2 -> SM bytes per multiply-add: chooser_box_rows x 128 / (BM x BN x 64) */
    long long busiest_kt;        /* the busiest cluster's k-tile times */
    double power;                /* the power-cap factor on the k-tile time */
    double kt_us, t_mma_us, t_dram_us, t_us;   /* k-tile time; mainloop; DRAM floor; total */
} chooser_estimate;

/* Rows of A and B one CTA loads per k-tile, on average over its cluster.  The kernel cuts every box at the
 * matrix's edges (kernel.cu's config_prepare); the model counts one cut only: where M fits in the rows of A
 * rank 0 loads (a CTA alone: 64; a pair: its half), M's rows rounded up to 8, and none for a pair's rank 1.
 * Counted whole, 64x64's A had the model pick 64x128 at 16 shapes drawn before their run, within 3% of the
 * best at none of them.  Counting the other cuts (B's last tile column, A's partial last row) made smaller
 * tiles look cheaper than they ran, on lists drawn before their runs (NOTES.md, sessions 20, 22 and 25). */
SCHED_FN double chooser_box_rows(const chooser_config *c, int M)
{
    if (c->tile_wgs == 1 && M <= c->bm / c->cluster) return (M + 7) / 8 * 8 / (double)c->cluster + c->bn;   /* A cut to M; B */
    return c->tile_wgs > 1 ? c->bm + (double)c->bn / c->cluster : (double)c->bm / c->cluster + c->bn;   /* B; A */
}

/* The ring a candidate's launch uses (kernel.cu's step_prepare takes it from here): the slots its
 * configuration fits (c->stages: 13 for 64x64, at most 8 for the others), but past 8 only for whole tiles
 * and only as deep as the k-tiles its busiest CTA runs.  A deeper ring keeps more bytes in flight for a CTA
 * streaming B (64x64/dp: up to 17% faster at 13 slots), but slots never filled still cost (512^3: 2% slower
 * at 13) and streamed k-ranges lost up to 10% (NOTES.md, sessions 19 and 22).  --stages forces every
 * launch's ring; the model still prices this one. */
SCHED_FN int chooser_ring(const chooser_config *c, const chooser_estimate *e)
{
    const long long deep = e->plan.sk_tiles ? 8 : e->busiest_kt > 8 ? e->busiest_kt : 8;
    return c->stages < deep ? c->stages : (int)deep;
}

/* A pair along N goes alone where N leaves it an odd number of tiles, at most CHOOSER_ALONE_TILES_N: the last
 * pair's second CTA would walk a padding tile (computed, not stored; common/cluster_schedule.h), at one tile
 * across N half the pair's CTAs.  Alone, every pingpong tile was faster or level at one to seven tiles across
 * N (8192 x 96 x 4096: 0.59 -> 0.98 of cuBLAS); at two tiles and at nine the pair was ahead, and past seven
 * the padding is under an eighth of its CTAs (NOTES.md, sessions 23 and 24: experiments/pair_alone, padding_box). */
#ifndef CHOOSER_ALONE_TILES_N
#define CHOOSER_ALONE_TILES_N 7
#endif
SCHED_FN int chooser_cluster(const chooser_config *c, int N)
{
    const int tn = (N + c->bn - 1) / c->bn;
    return c->cluster > 1 && c->tile_wgs == 1 && tn % 2 && tn <= CHOOSER_ALONE_TILES_N ? 1 : c->cluster;
}

/* The DRAM floor, us; a wave's panels: its busy clusters' rows of A and columns of B, K deep. */
SCHED_FN double chooser_dram_us(int M, int N, int K, const chooser_config *c, const chooser_device *d,
                                double waves)
{
    const chooser_config t = {c->name, c->bn, c->bm, c->kt_us, 1, c->cluster, c->stages};   /* a pair along M: transposed */
    if (c->tile_wgs > 1) return chooser_dram_us(N, M, K, &t, d, waves);
    const int tm = (M + c->bm - 1) / c->bm, units = d->ctas / c->cluster;
    const double busy = waves < 1 ? waves * units : units;
    /* the grouped raster walks a wave's cluster tiles across M first (groups of 8): up to 8 tile rows */
    const double rows = (tm < 8 ? tm : 8) * (double)c->bm;
    const double cols = busy / (tm < 8 ? tm : 8) * c->cluster * c->bn;
    const double wave_bytes = ((rows < M ? rows : M) + (cols < N ? cols : N)) * K * 2.0;   /* no padding */
    const double ab = 2.0 * ((double)M + N) * K;
    /* past the L2, every wave reads its own panels; and every byte at least once */
    const double reads = wave_bytes > d->l2_bytes && waves > 1 && wave_bytes * waves > ab ? wave_bytes * waves : ab;
    return (reads + 2.0 * M * (double)N) / (d->dram_gbs * 1e3);
}

/* Textbook stream-K's price on the busiest unit's mainloop (sk, sk_cap): CHOOSER_SK_SCATTER on the k-tiles
 * that stream (sk_plan_streamed_kt, as sk_plan_time counts them), not on the whole tiles that unit runs first.  Charged on
 * everything, it kept shapes just past a whole wave on whole tiles: 2560 x 5120 x 1536, 6.06 waves of
 * 128 x 128, ran 4% faster as 128x128/sk head to head (NOTES.md, "Session 27"). */
SCHED_FN double chooser_sk_price(const sk_plan *p, long long busiest)
{
    const double streamed = (double)sk_plan_streamed_kt(p);
    return 1.0 + (CHOOSER_SK_SCATTER - 1.0) * (busiest > 0 && streamed < busiest ? streamed / busiest : 1.0);
}

/* DRAM bytes a stream-K plan reads again (experiments/sk_reread): each unit takes S x KT / U' k-tiles, so the
 * streamed tiles run in S / gcd(S, U') phases, and the (up to 8) tiles of the raster's run that share a panel
 * (B's columns for a pair along N, the cooperative pair's rows of A) read it out of phase.  Where the streamed
 * panels outgrow the L2's share, each phase brings its panel from DRAM: 128x128/sk at 512 x 14336 x 8192 read
 * 602 MB where whole tiles read 276 (ncu; NOTES.md, "Session 26"). */
SCHED_FN double chooser_sk_reread_bytes(int M, int N, int K, const chooser_config *c, const sk_plan *p,
                                       const chooser_device *d)
{
    if (!p->sk_tiles || p->sk_units < 1) return 0;
    const int coop = c->tile_wgs > 1;   /* its raster runs across N: consecutive tiles share the pair's rows of A */
    const int run = coop ? (N + c->bn - 1) / c->bn : (M + c->bm - 1) / c->bm;
    const int g = run < 8 ? run : 8, phases = p->sk_tiles / sk_gcd(p->sk_tiles, p->sk_units);
    const int copies = g < phases ? g : phases;
    if (copies <= 1) return 0;
    const double panel = (coop ? (double)c->bm : (double)c->bn) * c->cluster * K * 2.0;
    const double whole = (coop ? (double)M : (double)N) * K * 2.0;
    const double bytes = (double)((p->sk_tiles + g - 1) / g) * panel;
    const double streamed = bytes < whole ? bytes : whole;
    return streamed > d->l2_bytes * CHOOSER_REREAD_L2_SHARE ? (copies - 1) * streamed : 0;
}

/* One candidate's estimate: the plan its mode makes here, or `plan` when given (an experiment's, e.g.
 * experiments/fixup_writers/cap_model.c: every tile streamed over U' units of its choosing). */
SCHED_FN chooser_estimate chooser_estimate_with(int M, int N, int K, const chooser_config *menu, int config,
                                                const chooser_device *d, int mode, const sk_plan *plan)
{
    chooser_config launched = menu[config];   /* the cluster it launches in */
    launched.cluster = chooser_cluster(&menu[config], N);
    const chooser_config *c = &launched;
    chooser_estimate e = {.config = config, .mode = mode, .cluster = c->cluster};   /* the rest zero */
    /* the plan this mode makes over the cluster tiles of this tile (sk_plan_make) */
    const int tm = (M + c->bm - 1) / c->bm, tn = (N + c->bn - 1) / c->bn, kt = (K + CHOOSER_BK - 1) / CHOOSER_BK;
    const int cl = c->cluster, units = d->ctas / cl;
    e.tiles = tm * tn;
    e.cluster_tiles = c->tile_wgs > 1 ? (tm + cl - 1) / cl * tn : tm * ((tn + cl - 1) / cl);
    e.plan = plan ? *plan : sk_plan_make(e.cluster_tiles, kt, units, mode);
    e.waves = (double)e.cluster_tiles / units;
    const int rem = e.cluster_tiles % units;
    e.last_wave_fill = rem ? (double)rem / units : 1.0;
    e.bytes_per_mac = chooser_box_rows(c, M) * 2.0 / ((double)c->bm * c->bn);
    e.busiest_kt = sk_plan_time(&e.plan);
    /* the CTAs the plan launches load: up to the tiles for whole tiles, and a stream-K plan over fewer
     * tiles than units runs on fewer units (auto's U', session 16) */
    const int busy = e.plan.units * cl;
    const double l2_kt_us = busy * chooser_box_rows(c, M) * 128.0 / (CHOOSER_L2_GBS * 1e3) *
                            (K % CHOOSER_BK ? CHOOSER_MISALIGNED : 1.0);
    const double gflop = 2.0 * M * (double)N * K / 1e9;
    e.power = 1.0 + CHOOSER_POWER * (gflop < CHOOSER_POWER_GFLOP ? gflop / CHOOSER_POWER_GFLOP : 1.0);
    /* Whole tiles that all fit in one wave, K aligned: the L2 feed is not what they wait for (session 15; the
     * eleven constants were fitted charging it there too: NOTES.md, "Session 15") */
    const int one_wave = !e.plan.sk_tiles && e.cluster_tiles <= units && K % CHOOSER_BK == 0;
    e.kt_us = c->kt_us > l2_kt_us || one_wave ? c->kt_us : l2_kt_us;
    /* One SM's feed: the producer issues a whole ring of loads at once, and the first `stages` k-tiles arrive
     * under the launch's fixed cost; after them each k-tile waits for its own bytes, at what one SM can pull
     * (session 16: a lone 64x64 CTA streaming K takes ~0.1 us a k-tile, not its tensor cores' 0.06) */
    const double feed_kt_us = chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *
                              (K % CHOOSER_BK ? CHOOSER_MISALIGNED : 1.0);
    const long long slots = chooser_ring(c, &e), ring = slots < e.busiest_kt ? slots : e.busiest_kt;
    const double kt_fed = feed_kt_us > e.kt_us ? feed_kt_us : e.kt_us;
    e.t_mma_us = (ring * e.kt_us + (e.busiest_kt - ring) * kt_fed) * e.power *
                 (mode != SK_MODE_AUTO && e.plan.sk_tiles ? chooser_sk_price(&e.plan, e.busiest_kt) : 1.0);   /* sk, sk_cap */
    if (c->tile_wgs > 1) e.t_mma_us += (e.busiest_kt + kt - 1) / kt * CHOOSER_EPI_US_COOP;
    if (sk_plan_fixup_kt(&e.plan) > 0) e.t_mma_us += CHOOSER_FIXUP_US;   /* where a tile is shared: its owner reads partials */
    e.t_dram_us = chooser_dram_us(M, N, K, c, d, e.waves) + chooser_sk_reread_bytes(M, N, K, c, &e.plan, d) / (d->dram_gbs * 1e3);
    /* the floor is reached only while the mainloop keeps up: part of its time shows above it (session 19) */
    const double floor_us = e.t_dram_us + CHOOSER_DRAM_MMA * e.t_mma_us;
    e.t_us = CHOOSER_T0_US + (e.t_mma_us > floor_us ? e.t_mma_us : floor_us);
    return e;
}

SCHED_FN chooser_estimate chooser_estimate_of(int M, int N, int K, const chooser_config *menu, int config,
                                              const chooser_device *d, int mode)
{
    if (mode != CHOOSER_MODE_CAP) return chooser_estimate_with(M, N, K, menu, config, d, mode, 0);
    const chooser_estimate dp = chooser_estimate_with(M, N, K, menu, config, d, SK_MODE_DP, 0);   /* T, kt */
    const int T = dp.cluster_tiles, units = d->ctas / dp.cluster;
    chooser_estimate best = dp;
    for (int u = 1; u <= units; ++u) {   /* sk_cap: all T tiles over u units, the fastest u */
        const sk_plan p = sk_plan_split(T, dp.plan.kt, units, T, u);
        const chooser_estimate e = chooser_estimate_with(M, N, K, menu, config, d, mode, &p);
        if (u == 1 || e.t_us < best.t_us) best = e;
    }
    return best;
}

/* sk_cap is a candidate where every tile streams anyway (fewer tiles than units), A and B fit in half the L2 (its
 * units read every k-offset at once, and an SM's lines may be held in both halves of the L2), and for 64x64 only:
 * 64x128/sk_cap ran over this model's time by more than 1 us at 19 of 39 shapes, up to 13 us, 64x64/sk_cap at 3
 * of 35 (NOTES.md, "Session 18"). */
SCHED_FN int chooser_cap_offered(int M, int N, int K, const chooser_estimate *e, const chooser_config *c,
                                 const chooser_device *d)
{
    return c->cluster == 1 && e->cluster_tiles < d->ctas && 2.0 * ((double)M + N) * K <= d->l2_bytes / 2;
}

/* Two plans the same? (auto often makes the whole-tile plan.) */
SCHED_FN int chooser_same_plan(const sk_plan *a, const sk_plan *b)
{
    return a->sk_tiles == b->sk_tiles && a->sk_units == b->sk_units && a->units == b->units;
}

/* The candidates at this shape: every configuration (or only `only`, when >= 0) with every plan its mode can
 * make (only `mode` when it is not auto), each plan once: dp; sk, the textbook hybrid; auto's own stream-K
 * plan (sk_l2) where it differs from both; sk_cap where offered (or forced).  Returns how many. */
SCHED_FN int chooser_candidates(int M, int N, int K, const chooser_config *menu, int n_menu, int only,
                                int mode, const chooser_device *d, chooser_estimate *out)
{
    int n = 0;
    for (int c = 0; c < n_menu; ++c) {
        if (only >= 0 && c != only) continue;
        const int first = n;
        const int modes[4] = {SK_MODE_DP, SK_MODE_SK, SK_MODE_AUTO, CHOOSER_MODE_CAP};
        for (int i = 0; i < 4 && n < CHOOSER_MAX_CANDIDATES; ++i) {
            if (mode != SK_MODE_AUTO && modes[i] != mode) continue;
            if (modes[i] == CHOOSER_MODE_CAP && mode == SK_MODE_AUTO && !chooser_cap_offered(M, N, K, &out[first], &menu[c], d))
                continue;
            const chooser_estimate e = chooser_estimate_of(M, N, K, menu, c, d, modes[i]);
            int dup = 0;
            for (int j = first; j < n; ++j) dup |= chooser_same_plan(&out[j].plan, &e.plan);
            if (!dup) out[n++] = e;
        }
    }
    return n;
}

/* The fastest predicted candidate; no rule for ties (where the DRAM floor bounds several alike, the mainloop's
 * share above it decides: session 15's tie rule, which it replaced, decided no pick of 4160 shapes since) */
SCHED_FN int chooser_pick(const chooser_estimate *e, int n)
{
    int best = 0;
    for (int i = 1; i < n; ++i)
        if (e[i].t_us < e[best].t_us) best = i;
    return best;
}

/* The plan's name as the CSV's mode column writes it. */
SCHED_FN const char *chooser_plan_name(const chooser_estimate *e)
{
    return e->plan.sk_tiles == 0 ? "dp" : e->mode == SK_MODE_SK ? "sk" : e->mode == CHOOSER_MODE_CAP ? "sk_cap" : "sk_l2";
}

#endif

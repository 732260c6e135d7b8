/* test_steps_gpu.c — the step binaries: every step run the way a learner runs it.
 *
 * Without a CUDA device (or, for the sm_90a steps, without a compute 9.0
 * device) these tests are not registered at all: test_main prints them as
 * SKIP and they count neither as passed nor as failed.  The argument tests at
 * the bottom need no GPU (flags are parsed before the device is touched). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"   /* STREAM_DEFAULT_WORK */
#include "proc.h"

#define QUICK "--iters 2 --warmup 1"

static int exists(const char *path) { return access(path, X_OK) == 0; }

/* 1 if the step's source folder is absent (a later step not written yet). */
static int step_folder_missing(const char *bin)
{
    char src[512];
    snprintf(src, sizeof src, "%s/kernel.cu", bin);
    return access(src, R_OK) != 0;
}

static void run_expect(const char *bin, const char *args, int want_exit, int timeout_s,
                       const char *want_text)
{
    char path[512], cmd[1024];
    step_path(bin, path, sizeof path);
    ck_assert_msg(exists(path), "%s is not built (run make)", path);
    snprintf(cmd, sizeof cmd, "%s %s", path, args);
    proc_result r;
    ck_assert_int_eq(proc_run(cmd, timeout_s, &r), 0);
    ck_assert_msg(!r.timed_out, "%s: still running after %d s (hang?)\n%s", cmd, timeout_s, r.output);
    ck_assert_msg(r.exit_code == want_exit, "%s: exit %d, expected %d\n%s", cmd, r.exit_code,
                  want_exit, r.output);
    if (want_text)
        ck_assert_msg(strstr(r.output, want_text) != NULL, "%s: output lacks '%s'\n%s", cmd,
                      want_text, r.output);
}

/* ---- streaming steps 01–03 -------------------------------------------------- */

static const char *const stream_bins[3] = {"step01_sync_pc", "step02_async_pipeline",
                                           "step03_staged_pipeline"};
/* n: 1, 31, a chunk minus/plus one, exactly two chunks, one that leaves most
 * CTAs idle, and a large one (many chunks per CTA, ring wraps many times). */
static const long long stream_n[] = {1, 31, 4095, 4097, 8192, 132 * 4096 + 77, 1 << 24};
#define NUM_N (int)(sizeof stream_n / sizeof stream_n[0])
static const int stream_work[] = {0, STREAM_DEFAULT_WORK};
static const int stream_stages[] = {1, 2, 5, 8};

START_TEST(test_stream_steps_01_02)
{
    /* _i over (step 0..1) x n x work */
    int step = _i / (NUM_N * 2), rest = _i % (NUM_N * 2);
    char args[256];
    snprintf(args, sizeof args, "--n-elems %lld --work %d " QUICK, stream_n[rest / 2], stream_work[rest % 2]);
    run_expect(stream_bins[step], args, 0, 60, "check ok");
}
END_TEST

START_TEST(test_stream_step03)
{
    /* _i over n x work x stages */
    int s = _i % 4, w = (_i / 4) % 2, n = _i / 8;
    char args[256];
    snprintf(args, sizeof args, "--n-elems %lld --work %d --stages %d " QUICK, stream_n[n], stream_work[w],
             stream_stages[s]);
    run_expect(stream_bins[2], args, 0, 60, "check ok");
}
END_TEST

START_TEST(test_stream_trace)
{
    char args[256];
    snprintf(args, sizeof args, "--n-elems 2000000 --stages 4 --trace /tmp/course_trace_test.csv " QUICK);
    unlink("/tmp/course_trace_test.csv");
    run_expect(stream_bins[2], args, 0, 60, "timeline:");
    FILE *f = fopen("/tmp/course_trace_test.csv", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int rows = 0, producer = 0, consumer = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "cta,", 4) == 0) continue;
        ++rows;
        producer += strstr(line, ",producer,") != NULL;
        consumer += strstr(line, ",consumer,") != NULL;
    }
    fclose(f);
    ck_assert_int_gt(producer, 0);
    ck_assert_int_gt(consumer, 0);
    unlink("/tmp/course_trace_test.csv");
}
END_TEST

/* Run a DEBUG binary with a planted bug: it must end (not hang) in under
 * 10 s with a non-zero exit, a diagnosis, and the name `want` in it.  The
 * host-side report ("pipeline hang diagnosed") is required, or with
 * device_line_ok the device printf line ("HANG:") is enough. */
static void expect_diagnosis(const char *cmd, const char *want, int device_line_ok)
{
    proc_result r;
    ck_assert_int_eq(proc_run(cmd, 20, &r), 0);
    ck_assert_msg(!r.timed_out, "%s: hung instead of being diagnosed\n%s", cmd, r.output);
    ck_assert_msg(r.exit_code != 0, "%s: planted bug went unnoticed\n%s", cmd, r.output);
    ck_assert_msg(strstr(r.output, "pipeline hang diagnosed") ||
                      (device_line_ok && strstr(r.output, "HANG:")),
                  "%s: no diagnosis printed\n%s", cmd, r.output);
    ck_assert_msg(strstr(r.output, want), "%s: diagnosis does not name %s\n%s", cmd, want, r.output);
    ck_assert_msg(r.seconds < 10.0, "%s: diagnosis took %.1f s (limit 10)", cmd, r.seconds);
}

/* A planted protocol bug in a DEBUG build must be diagnosed, not hang. */
START_TEST(test_planted_hang_is_diagnosed)
{
    static const char *const bug_text[] = {"", "producer_acquire", "consumer_wait", "producer_acquire"};
    int bug = _i + 1;
    char path[512], cmd[1024];
    debug_step_path("step03_staged_pipeline", path, sizeof path);
    ck_assert_msg(exists(path), "%s is not built (make DEBUG=1)", path);
    snprintf(cmd, sizeof cmd, "%s --plant-bug %d --stages 2 --n-elems 4000000 " QUICK, path, bug);
    expect_diagnosis(cmd, bug_text[bug], 1);
}
END_TEST

/* A GEMM timeline has producer and consumer records of both traced CTAs. */
START_TEST(test_gemm_trace)
{
    const char *f = "/tmp/course_trace_gemm.csv";
    char args[256];
    snprintf(args, sizeof args, "--m 2048 --n 2048 --k 1024 --trace %s " QUICK, f);
    unlink(f);
    run_expect("step05_tma_wgmma", args, 0, 60, "timeline:");
    FILE *fp = fopen(f, "r");
    ck_assert_ptr_nonnull(fp);
    char line[512];
    int producer = 0, mma = 0, ctas_other = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || strncmp(line, "cta,", 4) == 0) continue;
        producer += strstr(line, ",producer_load,") != NULL;
        mma += strstr(line, ",consumer_compute,") != NULL;
        ctas_other += strncmp(line, "0,", 2) != 0;
    }
    fclose(fp);
    ck_assert_int_gt(producer, 0);
    ck_assert_int_gt(mma, 0);
    ck_assert_int_gt(ctas_other, 0);
    unlink(f);
}
END_TEST

/* ---- GEMM steps 04–08 --------------------------------------------------------- */

#define NUM_GEMM_BINS 5
static const char *const gemm_bins[NUM_GEMM_BINS] = {"step04_cpasync_multistage", "step05_tma_wgmma",
                                                     "step06_persistent", "step07_pingpong",
                                                     "step08_cluster_multicast"};
static const char *const gemm_cases[] = {
    "--m 1 --n 1 --k 8",
    "--m 127 --n 129 --k 72",
    "--m 1000 --n 1000 --k 1000",
    "--m 300 --n 4100 --k 264",
    "--m 4100 --n 300 --k 8",
    "--m 4096 --n 4096 --k 4096",
    "--m 127 --n 129 --k 72 --exact",
    "--m 256 --n 512 --k 256 --exact",
    "--m 1 --n 1 --k 256 --exact",
    "--m 129 --n 257 --k 8 --exact",
};
#define NUM_GEMM_CASES (int)(sizeof gemm_cases / sizeof gemm_cases[0])

/* Registered per step present (see gpu_suite): _i is the case index; the
 * step index rides in the upper bits. */
START_TEST(test_gemm_step)
{
    int step = _i / 100, c = _i % 100;
    char args[256];
    snprintf(args, sizeof args, "%s " QUICK, gemm_cases[c]);
    run_expect(gemm_bins[step], args, 0, 120, "check ok");
}
END_TEST

static const char *const gemm_stage_cases[] = {"--stages %d --m 127 --n 129 --k 72 --exact",
                                               "--stages %d --m 1000 --n 1000 --k 1000"};
START_TEST(test_gemm_stages)
{
    /* _i = step*100 + stages*10 + case */
    int step = _i / 100, stages = (_i / 10) % 10, c = _i % 10;
    char args[512], a2[256];
    snprintf(a2, sizeof a2, gemm_stage_cases[c], stages);
    snprintf(args, sizeof args, "%s " QUICK, a2);
    run_expect(gemm_bins[step], args, 0, 120, "check ok");
}
END_TEST

/* ---- persistent grids (steps 06-07) ----------------------------------------
 * Shapes that stress the tile walk rather than the tile: fewer tiles than
 * SMs, many more, a tile count that is not a multiple of the grid, CTAs with
 * an odd number of tiles (step 07: one warpgroup gets one tile more), both
 * epilogue paths (TMA store when N % 8 == 0, masked stores otherwise) and
 * the raster group sizes. */
static const char *const persistent_cases[] = {
    "--m 256 --n 512 --k 512",              /* 4 / 8 tiles: most SMs idle */
    "--m 8192 --n 8192 --k 64",             /* 2048 / 4096 tiles: many per CTA */
    "--m 4224 --n 4352 --k 136",            /* 33 x 17 = 561 tiles (step 06): 561 % 132 = 33 */
    "--m 50816 --n 128 --k 64",             /* 397 tiles of 128 x 128: odd counts per CTA */
    "--m 16896 --n 256 --k 128",            /* 264 tiles of 128 x 128: two per CTA */
    "--m 1000 --n 1001 --k 64",             /* N odd: the register-store epilogue */
    "--m 1000 --n 3000 --k 136 --group 1",
    "--m 1000 --n 3000 --k 136 --group 3",
    "--m 3000 --n 1000 --k 72 --group 64",
    "--m 2048 --n 2048 --k 256 --exact",    /* every tile, bit for bit */
};
#define NUM_PERSISTENT_CASES (int)(sizeof persistent_cases / sizeof persistent_cases[0])

START_TEST(test_persistent_shapes)
{
    int step = _i / 100, c = _i % 100;
    char args[256];
    snprintf(args, sizeof args, "%s " QUICK, persistent_cases[c]);
    run_expect(gemm_bins[step], args, 0, 120, "check ok");
}
END_TEST

/* Planted bugs in the DEBUG builds of the TMA steps 05-07 end in a
 * diagnosis naming the stuck wait: _i = step * 10 + bug (step: index into
 * gemm_bins). */
START_TEST(test_planted_hang_tma)
{
    const int step = _i / 10, bug = _i % 10;
    /* bug 1 (phase 0), bug 3 (a release skipped) and bug 6 (step 08: a
     * release skipped on the cluster partner only) leave a producer waiting
     * on `empty`; bug 4 leaves warpgroup 1 waiting for its turn. */
    const char *want = bug == 4 ? "pingpong mma" : "producer_acquire";
    char path[512], cmd[1024];
    debug_step_path(gemm_bins[step], path, sizeof path);
    ck_assert_msg(exists(path), "%s is not built (make DEBUG=1)", path);
    snprintf(cmd, sizeof cmd, "%s --plant-bug %d --m 2048 --n 2048 --k 1024 " QUICK, path, bug);
    expect_diagnosis(cmd, want, 0);
}
END_TEST

/* ---- step 09: stream-K -----------------------------------------------------------
 * Every mode on every edge shape (--mode sk streams where auto would not:
 * exact mode's K <= 256 gives 1-4 k-tiles per tile, so tiles are cut into
 * single k-tiles and every owner adds up to 3 partials); the persistent
 * cases in sk; shapes where auto streams.  _i = mode * 100 + case. */
#define SK_BIN "step09_stream_k"
static const char *const sk_modes[4] = {"auto", "dp", "sk", "cap"};   /* cap: step 10's (chooser.h) */
static const char *const sk_auto_cases[] = {
    "--m 1024 --n 1024 --k 14336",          /* 32 cluster tiles: auto splits each in 2 (64 clusters) */
    "--m 1000 --n 1000 --k 8192",           /* the same with edge tiles */
    "--m 640 --n 1001 --k 8192",            /* 20 cluster tiles on 40 clusters, N odd: masked stores */
    "--m 640 --n 640 --k 8192",             /* 5 tile columns: rank 1's padding tile is split too */
    "--m 1536 --n 1536 --k 8192",           /* 72 cluster tiles on 48 clusters, 1.5 each (2 k-offsets) */
    "--m 1000 --n 1000 --k 2048",           /* 32 cluster tiles of 32 k-tiles, split in 2 */
    "--m 1000 --n 1001 --k 1024",           /* 16 k-tiles: too short to split in auto (whole tiles) */
    "--m 100 --n 70 --k 8200",              /* sk: 1-4 tiles over every unit, 33-66 writers a tile:
                                               more than the 32 lanes that wait on their flags (step 10) */
    "--m 24 --n 4100 --k 264",              /* step 10: M fits in rank 0's half of A, every pair cuts its
                                               box to M and rank 1 loads none (11-17 cluster tiles, N % 8 != 0) */
    "--m 40 --n 1001 --k 136 --exact",      /* 128-row pairs cut (40 of 64), 64x128 not; bit for bit */
    "--m 1100 --n 1600 --k 2048",           /* step 10: odd counts past chooser_cluster's 7, so pairs with a
                                               padding CTA that loads no box of its own: 13 tiles across N
                                               at BN 128, 9 at 192, 9 along M for 128x256c, each last one
                                               partial (map_edge's box), and the last tile row's shared A
                                               cut too (map_shared_edge); the lean kernel's second copy */
};
#define NUM_SK_AUTO_CASES (int)(sizeof sk_auto_cases / sizeof sk_auto_cases[0])

/* Case c of step 09's list (step 10 runs the same): the GEMM cases, the
 * persistent cases, then the cases where stream-K splits tiles. */
static const char *sk_case(int c)
{
    return c < NUM_GEMM_CASES ? gemm_cases[c]
         : c < NUM_GEMM_CASES + NUM_PERSISTENT_CASES ? persistent_cases[c - NUM_GEMM_CASES]
         : sk_auto_cases[c - NUM_GEMM_CASES - NUM_PERSISTENT_CASES];
}

START_TEST(test_stream_k_modes)
{
    const int mode = _i / 100, c = _i % 100;
    const char *shape = sk_case(c);
    char args[320];
    snprintf(args, sizeof args, "%s --mode %s " QUICK, shape, sk_modes[mode]);
    run_expect(SK_BIN, args, 0, 120, "check ok");
}
END_TEST

/* A writer that never raises its flag: the owner's bounded wait names the
 * stream-K partial (tile and writer) instead of hanging. */
START_TEST(test_stream_k_planted_flag)
{
    char path[512], cmd[1024];
    debug_step_path(SK_BIN, path, sizeof path);
    ck_assert_msg(exists(path), "%s is not built (make DEBUG=1)", path);
    snprintf(cmd, sizeof cmd, "%s --plant-bug 5 --m 1024 --n 1024 --k 14336 " QUICK, path);
    expect_diagnosis(cmd, "stream-K partial", 0);
}
END_TEST

/* The fixup is on the timeline: a traced CTA that writes or owns a split
 * tile has a "fixup" record. */
START_TEST(test_stream_k_trace)
{
    const char *f = "/tmp/course_trace_stream_k.csv";
    unlink(f);
    run_expect(SK_BIN, "--m 1024 --n 1024 --k 14336 --trace /tmp/course_trace_stream_k.csv " QUICK, 0, 60,
               "timeline:");
    FILE *fp = fopen(f, "r");
    ck_assert_ptr_nonnull(fp);
    char line[512];
    int fixup = 0, epi = 0;
    while (fgets(line, sizeof line, fp)) {
        fixup += strstr(line, ",fixup,") != NULL;
        epi += strstr(line, ",epilogue,") != NULL;
    }
    fclose(fp);
    ck_assert_int_gt(fixup, 0);
    ck_assert_int_gt(epi, 0);
    unlink(f);
}
END_TEST

/* Step 07's timeline: both consumer warpgroups (units 1 and 2) of a traced
 * CTA have MMA and epilogue records, and one's epilogue overlaps the
 * other's MMA at least once (the point of the step). */
START_TEST(test_pingpong_trace)
{
    const char *f = "/tmp/course_trace_pingpong.csv";
    char args[256];
    snprintf(args, sizeof args, "--m 4096 --n 4096 --k 1024 --trace %s " QUICK, f);
    unlink(f);
    run_expect("step07_pingpong", args, 0, 60, "timeline:");
    FILE *fp = fopen(f, "r");
    ck_assert_ptr_nonnull(fp);
    char line[512];
    /* epilogue spans and MMA spans of CTA 0, per warpgroup */
    static double epi_s[2][64], epi_e[2][64], mma_s[2][4096], mma_e[2][4096];
    int ne[2] = {0, 0}, nm[2] = {0, 0};
    while (fgets(line, sizeof line, fp)) {
        int cta, unit;
        double t0, t1;
        char phase[64];
        if (line[0] == '#' || strncmp(line, "cta,", 4) == 0) continue;
        if (sscanf(line, "%d,%d,%*[^,],%*[^,],%63[^,],%lf,%lf", &cta, &unit, phase, &t0, &t1) != 5) continue;
        if (cta != 0 || unit < 1 || unit > 2) continue;
        const int w = unit - 1;
        if (strcmp(phase, "epilogue") == 0 && ne[w] < 64) { epi_s[w][ne[w]] = t0; epi_e[w][ne[w]++] = t1; }
        if (strcmp(phase, "consumer_compute") == 0 && nm[w] < 4096) { mma_s[w][nm[w]] = t0; mma_e[w][nm[w]++] = t1; }
    }
    fclose(fp);
    ck_assert_msg(ne[0] > 0 && ne[1] > 0 && nm[0] > 0 && nm[1] > 0,
                  "records missing: epilogue %d/%d, compute %d/%d", ne[0], ne[1], nm[0], nm[1]);
    int overlaps = 0;
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < ne[w]; ++i)
            for (int j = 0; j < nm[1 - w]; ++j)
                overlaps += mma_s[1 - w][j] < epi_e[w][i] && epi_s[w][i] < mma_e[1 - w][j];
    ck_assert_msg(overlaps > 0, "no epilogue of one warpgroup overlaps an MMA span of the other");
    unlink(f);
}
END_TEST

/* Step 08's timeline: the two traced CTAs are the two CTAs of cluster 0, and
 * the cluster's protocol shows in it: a producer overwrites ring position p
 * (load p) only after BOTH CTAs' consumers issued their wgmmas on the slot's
 * previous contents, position p - stages (their release follows that).
 * Position p of the CTA's walk is tile t = p / KT, k-tile p % KT, read by
 * consumer t % 2 as its k-tile (t / 2) * KT + p % KT. */
START_TEST(test_cluster_trace)
{
    enum { KT = 16, STAGES = 6, MAXP = 4096 };   /* --k 1024 = 16 k-tiles; default ring */
    const char *f = "/tmp/course_trace_cluster.csv";
    char args[256];
    snprintf(args, sizeof args, "--m 4096 --n 4096 --k 1024 --trace %s " QUICK, f);
    unlink(f);
    run_expect("step08_cluster_multicast", args, 0, 60, "timeline:");
    FILE *fp = fopen(f, "r");
    ck_assert_ptr_nonnull(fp);
    static double load_s[2][MAXP], comp_e[2][2][MAXP];   /* [cta][p], [cta][consumer][reads] */
    for (int i = 0; i < MAXP; ++i)
        load_s[0][i] = load_s[1][i] = comp_e[0][0][i] = comp_e[0][1][i] = comp_e[1][0][i] = comp_e[1][1][i] = -1;
    char line[512];
    int loads[2] = {0, 0};
    while (fgets(line, sizeof line, fp)) {
        int cta, unit, index;
        double t0, t1;
        char phase[64];
        if (line[0] == '#' || strncmp(line, "cta,", 4) == 0) continue;
        if (sscanf(line, "%d,%d,%*[^,],%*[^,],%63[^,],%lf,%lf,%d", &cta, &unit, phase, &t0, &t1, &index) != 6)
            continue;
        ck_assert_msg(cta == 0 || cta == 1, "CTA %d traced: expected the two CTAs of cluster 0", cta);
        if (index < 0 || index >= MAXP) continue;
        if (strcmp(phase, "producer_load") == 0) { load_s[cta][index] = t0; ++loads[cta]; }
        if (strcmp(phase, "consumer_compute") == 0 && unit >= 1 && unit <= 2) comp_e[cta][unit - 1][index] = t1;
    }
    fclose(fp);
    ck_assert_msg(loads[0] > STAGES && loads[1] > STAGES, "producer records: %d / %d", loads[0], loads[1]);
    int checked = 0;
    for (int x = 0; x < 2; ++x)
        for (int p = STAGES; p < MAXP; ++p) {
            if (load_s[x][p] < 0) continue;
            const int q = p - STAGES, t = q / KT, c = t % 2, reads = (t / 2) * KT + q % KT;
            for (int y = 0; y < 2; ++y) {
                if (comp_e[y][c][reads] < 0) continue;
                ck_assert_msg(load_s[x][p] >= comp_e[y][c][reads],
                              "CTA %d loaded position %d at %.0f ns, before CTA %d's consumer %d "
                              "finished issuing on position %d (%.0f ns)", x, p, load_s[x][p], y, c, q,
                              comp_e[y][c][reads]);
                ++checked;
            }
        }
    ck_assert_int_gt(checked, 100);
    unlink(f);
}
END_TEST

/* ---- step 10: the menu ----------------------------------------------------------
 * Every configuration with every plan on every edge shape and on the shapes
 * where stream-K splits tiles (step 09's cases), the persistent cases in sk;
 * step 10's fourth plan too (--mode cap: every tile streamed over the units its
 * model prefers, 1 to all, whether or not the chooser would offer it there):
 * _i = mode * 100 + case, one test case per configuration (CK_RUN_CASE=
 * autotune_64x64 ...: each stays under the device's 10-minute command).
 * 128x256c is the cooperative configuration (experiments/coop256/README.md). */
#define AT_BIN "step10_autotune"
#define NUM_AT_CONFIGS 5
static const char *const at_configs[NUM_AT_CONFIGS] = {"64x64", "64x128", "128x128", "128x192", "128x256c"};
static void at_run(int config, int i)
{
    const int mode = i / 100, c = i % 100;
    char args[384];
    snprintf(args, sizeof args, "%s --config %s --mode %s --no-cache " QUICK, sk_case(c), at_configs[config],
             sk_modes[mode]);
    run_expect(AT_BIN, args, 0, 120, "check ok");
}
START_TEST(test_autotune_64x64) { at_run(0, _i); }
END_TEST
START_TEST(test_autotune_64x128) { at_run(1, _i); }
END_TEST
START_TEST(test_autotune_128x128) { at_run(2, _i); }
END_TEST
START_TEST(test_autotune_128x192) { at_run(3, _i); }
END_TEST
START_TEST(test_autotune_128x256c) { at_run(4, _i); }
END_TEST

/* The chooser's own choice on every case (the model, no cache). */
START_TEST(test_autotune_model)
{
    char args[384];
    snprintf(args, sizeof args, "%s --no-cache " QUICK, sk_case(_i));
    run_expect(AT_BIN, args, 0, 120, "chosen by model");
}
END_TEST

/* --explain names the model's choice; --config outside the menu is refused
 * (exit 2, naming the flag); --tune stores its winner, and the next run of
 * the shape says the cache chose; a cache line that does not parse is
 * refused with a message and the model decides. */
START_TEST(test_autotune_chooser)
{
    run_expect(AT_BIN, "--m 1000 --n 1000 --k 2048 --explain --no-cache " QUICK, 0, 60, "the model's choice");
    run_expect(AT_BIN, "--m 1000 --n 1000 --k 2048 --config 96x96 --no-cache " QUICK, 2, 60, "--config");
    char path[512], cache[600];
    step_path(AT_BIN, path, sizeof path);
    snprintf(cache, sizeof cache, "%.*stune_cache.txt", (int)(strrchr(path, '/') - path + 1), path);
    unlink(cache);
    run_expect(AT_BIN, "--m 1000 --n 1000 --k 2048 --tune " QUICK, 0, 120, "stored in");
    run_expect(AT_BIN, "--m 1000 --n 1000 --k 2048 " QUICK, 0, 60, "chosen by cache");
    FILE *f = fopen(cache, "a");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "this line does not parse\n");
    fclose(f);
    run_expect(AT_BIN, "--m 1001 --n 1000 --k 2048 " QUICK, 0, 60, "refused");
    unlink(cache);
    /* --tune runs every configuration in one process: with N % 8 != 0 their whole tiles share one launch
     * descriptor (step_launch's `whole`; 64x128 failed to launch after 64x64 there before session 23, when
     * gemm_launch set up descriptors, not kernels), and N of one tile runs each pair alone (chooser_cluster) */
    run_expect(AT_BIN, "--m 3000 --n 100 --k 512 --tune --no-cache " QUICK, 0, 120, "check ok");
}
END_TEST

/* _i: the configuration (at_configs); a pingpong one in the chooser's case,
 * the cooperative one (a flag per warpgroup) in its own. */
START_TEST(test_autotune_planted_flag)
{
    char path[512], cmd[1024];
    debug_step_path(AT_BIN, path, sizeof path);
    ck_assert_msg(exists(path), "%s is not built (make DEBUG=1)", path);
    snprintf(cmd, sizeof cmd, "%s --plant-bug 5 --config %s --mode sk --no-cache --m 1024 --n 1024 --k 14336 " QUICK,
             path, at_configs[_i]);
    expect_diagnosis(cmd, "stream-K partial", 0);
}
END_TEST

/* ---- argument contract on the real binaries (no GPU needed) ---------------- */

static const struct { const char *bin; const char *args; } bad_cli[] = {
    {"step01_sync_pc", "--work -1"},
    {"step01_sync_pc", "--stages 2"},
    {"step02_async_pipeline", "--n-elems 0"},
    {"step03_staged_pipeline", "--stages 9"},
    {"step03_staged_pipeline", "--m 4"},
    {"step04_cpasync_multistage", "--k 12"},
    {"step04_cpasync_multistage", "--m 0"},
    {"step05_tma_wgmma", "--k 7"},
    {"step05_tma_wgmma", "--n 70000 --m 70000"},
    {"step06_persistent", "--exact --k 512"},
    {"step07_pingpong", "--iters 0"},
    {"step05_tma_wgmma", "--group 4"},
    {"step06_persistent", "--group 0"},
    {"step07_pingpong", "--group 65"},
    {"step06_persistent", "--stages 5"},
    {"step08_cluster_multicast", "--k 12"},
    {"step08_cluster_multicast", "--stages 7"},
    {"step09_stream_k", "--mode split"},
    {"step07_pingpong", "--mode sk"},
    {"step09_stream_k", "--config 64x128"},
    {"step10_autotune", "--mode split"},
    {"step10_autotune", "--k 12"},
};

START_TEST(test_cli_bad_args)
{
    const char *flag = bad_cli[_i].args;
    char want[32];
    snprintf(want, sizeof want, "%.*s", (int)strcspn(flag, " "), flag);
    run_expect(bad_cli[_i].bin, bad_cli[_i].args, 2, 20, want);
}
END_TEST

START_TEST(test_cli_help)
{
    run_expect(_i < 3 ? stream_bins[_i] : gemm_bins[_i - 3], "--help", 0, 20, "exit codes");
}
END_TEST

START_TEST(test_cli_no_device_exit3)
{
    /* Valid flags on a machine where the program sees no GPU: exit 3 and a
     * clear message.  CUDA_VISIBLE_DEVICES=-1 (an invalid index: no device
     * is visible) makes every machine such a machine, so this test runs,
     * and counts, with and without a GPU alike. */
    const char *old = getenv("CUDA_VISIBLE_DEVICES");
    char *saved = old ? strdup(old) : NULL;
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    run_expect(stream_bins[_i], "--n-elems 10", 3, 20, "no CUDA device");
    if (saved) { setenv("CUDA_VISIBLE_DEVICES", saved, 1); free(saved); }
    else unsetenv("CUDA_VISIBLE_DEVICES");
}
END_TEST

/* ---- suites ---------------------------------------------------------------------- */

Suite *cli_suite(int have_gpu)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("arguments");
    tcase_set_timeout(tc, 60);
    /* Only steps that exist in this checkout (a step folder not written yet
     * has no binary); make test builds every step that exists first. */
    char path[512];
    for (int i = 0; i < (int)(sizeof bad_cli / sizeof bad_cli[0]); ++i)
        if (exists(step_path(bad_cli[i].bin, path, sizeof path)) || !step_folder_missing(bad_cli[i].bin))
            tcase_add_loop_test(tc, test_cli_bad_args, i, i + 1);
    for (int i = 0; i < 3 + NUM_GEMM_BINS; ++i) {
        const char *bin = i < 3 ? stream_bins[i] : gemm_bins[i - 3];
        if (exists(step_path(bin, path, sizeof path)) || !step_folder_missing(bin))
            tcase_add_loop_test(tc, test_cli_help, i, i + 1);
    }
    (void)have_gpu;   /* the no-device test hides the GPU itself: registered everywhere */
    tcase_add_loop_test(tc, test_cli_no_device_exit3, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}

/* Counts how many GEMM steps are built (index into gemm_bins). */
static int gemm_step_built(int i)
{
    return !step_folder_missing(gemm_bins[i]);
}

/* add_loop: registers the tests _i in [lo, hi) of fn, or, when tc is NULL,
 * only counts them.  gpu_suite and gpu_suite_count run the same
 * registration (gpu_tests), so the SKIP count a machine without a GPU
 * prints is exactly the number of tests a GPU machine runs. */
static int add_loop(TCase *tc, const TTest *fn, int lo, int hi)
{
    if (tc) tcase_add_loop_test(tc, fn, lo, hi);
    return hi - lo;
}

/* Step 10: one test case per configuration (every plan on every case),
 * then the chooser's (CK_RUN_CASE=autotune). */
static int autotune_tests(Suite *s, int count_only)
{
    const TTest *const per_config[NUM_AT_CONFIGS] = {test_autotune_64x64, test_autotune_64x128, test_autotune_128x128,
                                                    test_autotune_128x192, test_autotune_128x256c};
    const int cases = NUM_GEMM_CASES + NUM_PERSISTENT_CASES + NUM_SK_AUTO_CASES;
    int n = 0;
    for (int c = 0; c < NUM_AT_CONFIGS; ++c) {
        char name[32];
        snprintf(name, sizeof name, "autotune_%s", at_configs[c]);
        TCase *tc = count_only ? NULL : tcase_create(strdup(name));
        if (tc) tcase_set_timeout(tc, 300);
        for (int m = 0; m < 4; ++m) n += add_loop(tc, per_config[c], m * 100, m * 100 + cases);
        if (!strcmp(at_configs[c], "128x256c"))   /* the cooperative fixup's hang report */
            n += add_loop(tc, test_autotune_planted_flag, c, c + 1);
        if (tc) suite_add_tcase(s, tc);
    }
    TCase *tc = count_only ? NULL : tcase_create("autotune");
    if (tc) tcase_set_timeout(tc, 300);
    n += add_loop(tc, test_autotune_model, 0, cases);
    n += add_loop(tc, test_autotune_chooser, 0, 1);
    n += add_loop(tc, test_autotune_planted_flag, 1, 2);   /* 64x128: pingpong's fixup */
    if (tc) suite_add_tcase(s, tc);
    return n;
}

/* count_only: register nothing (s may be NULL), return the count. */
static int gpu_tests(Suite *s, int sm90, int count_only)
{
    int n = 0;
    TCase *tc = count_only ? NULL : tcase_create("stream");
    if (tc) tcase_set_timeout(tc, 120);
    n += add_loop(tc, test_stream_steps_01_02, 0, 2 * NUM_N * 2);
    n += add_loop(tc, test_stream_step03, 0, NUM_N * 2 * 4);
    n += add_loop(tc, test_stream_trace, 0, 1);
    n += add_loop(tc, test_planted_hang_is_diagnosed, 0, 3);
    if (tc) suite_add_tcase(s, tc);
    if (!sm90) return n;
    tc = count_only ? NULL : tcase_create("gemm");
    if (tc) tcase_set_timeout(tc, 300);
    if (gemm_step_built(1)) {   /* step 05: producer phase 0 */
        n += add_loop(tc, test_planted_hang_tma, 11, 12);
        n += add_loop(tc, test_gemm_trace, 0, 1);
    }
    for (int i = 0; i < NUM_GEMM_BINS; ++i) {
        if (!gemm_step_built(i)) continue;
        n += add_loop(tc, test_gemm_step, i * 100, i * 100 + NUM_GEMM_CASES);
        n += add_loop(tc, test_gemm_stages, i * 100 + 20, i * 100 + 22);   /* stages 2 */
        n += add_loop(tc, test_gemm_stages, i * 100 + 40, i * 100 + 42);   /* stages 4 */
        if (i >= 2) n += add_loop(tc, test_persistent_shapes, i * 100, i * 100 + NUM_PERSISTENT_CASES);
    }
    if (gemm_step_built(2)) {   /* step 06: producer phase 0, a skipped release */
        n += add_loop(tc, test_planted_hang_tma, 21, 22);
        n += add_loop(tc, test_planted_hang_tma, 23, 24);
    }
    if (gemm_step_built(3)) {   /* step 07: a skipped release, a skipped named-barrier arrive */
        n += add_loop(tc, test_planted_hang_tma, 33, 35);
        n += add_loop(tc, test_pingpong_trace, 0, 1);
    }
    if (gemm_step_built(4)) {   /* step 08: a skipped release, a skipped remote release */
        n += add_loop(tc, test_planted_hang_tma, 43, 44);
        n += add_loop(tc, test_planted_hang_tma, 46, 47);
        n += add_loop(tc, test_cluster_trace, 0, 1);
    }
    if (tc) suite_add_tcase(s, tc);
    if (!step_folder_missing(SK_BIN)) {   /* step 09: its own case, CK_RUN_CASE=stream_k */
        tc = count_only ? NULL : tcase_create("stream_k");
        if (tc) tcase_set_timeout(tc, 300);
        const int first_auto = NUM_GEMM_CASES + NUM_PERSISTENT_CASES;
        for (int m = 0; m < 3; ++m) {
            n += add_loop(tc, test_stream_k_modes, m * 100, m * 100 + NUM_GEMM_CASES);
            n += add_loop(tc, test_stream_k_modes, m * 100 + first_auto,
                          m * 100 + first_auto + NUM_SK_AUTO_CASES);
        }
        n += add_loop(tc, test_stream_k_modes, 200 + NUM_GEMM_CASES, 200 + first_auto);
        n += add_loop(tc, test_stream_k_planted_flag, 0, 1);
        n += add_loop(tc, test_stream_k_trace, 0, 1);
        if (tc) suite_add_tcase(s, tc);
    }
    if (!step_folder_missing(AT_BIN)) n += autotune_tests(s, count_only);
    return n;
}

int gpu_suite_count(int sm90)
{
    return gpu_tests(NULL, sm90, 1);
}

Suite *gpu_suite(int sm90)
{
    Suite *s = suite_create("gpu");
    gpu_tests(s, sm90, 0);
    return s;
}

/* test_cpu.c — Check suites that need no GPU: the pipeline state the kernels
 * use, the command-line contract, the CSV schema.  They exercise the very
 * code the step binaries are built from (common/pipeline_state.h, args.c,
 * csv.c). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "args_line.h"
#include "csv.h"
#include "pipeline_state.h"

/* ---- pipeline_state -------------------------------------------------------- */

/* A model of one slot's mbarrier as the PTX ISA defines it: phase counter
 * plus try_wait.parity(P) = "the phase with parity P has completed", true for
 * the immediately preceding phase. */
typedef struct { unsigned completed; } model_bar;   /* phases completed so far */
static int model_try_wait(const model_bar *b, unsigned parity)
{
    /* current phase = completed; it is incomplete and has parity completed&1.
     * The preceding phase (parity != current) counts as complete. */
    return (b->completed & 1u) != parity;
}

START_TEST(test_start_states)
{
    for (unsigned s = 1; s <= 8; ++s) {
        pipeline_state p = pipeline_producer_start(s), c = pipeline_consumer_start(s);
        ck_assert_uint_eq(p.index, 0); ck_assert_uint_eq(p.phase, 1); ck_assert_uint_eq(p.stages, s);
        ck_assert_uint_eq(c.index, 0); ck_assert_uint_eq(c.phase, 0); ck_assert_uint_eq(c.stages, s);
    }
}
END_TEST

START_TEST(test_producer_first_acquire_passes)
{
    /* On fresh barriers, the producer's first pass over the ring must not
     * block, and its (S+1)-th acquire must (nobody released slot 0 yet). */
    for (unsigned s = 1; s <= 8; ++s) {
        model_bar empty[8] = {{0}};
        pipeline_state p = pipeline_producer_start(s);
        for (unsigned i = 0; i < s; ++i) {
            ck_assert_msg(model_try_wait(&empty[p.index], p.phase),
                          "stages %u: producer acquire %u blocked on a fresh barrier", s, i);
            pipeline_advance(&p);
        }
        ck_assert_msg(!model_try_wait(&empty[p.index], p.phase),
                      "stages %u: producer lapped the consumer", s);
        /* and a consumer starting at phase 0 must block on a fresh full barrier */
        model_bar full = {0};
        pipeline_state c = pipeline_consumer_start(s);
        ck_assert(!model_try_wait(&full, c.phase));
    }
}
END_TEST

START_TEST(test_advance_wraps_and_flips)
{
    for (unsigned s = 1; s <= 8; ++s) {
        pipeline_state p = pipeline_consumer_start(s);
        for (unsigned long long i = 0; i < 10000; ++i) {
            pipeline_state q = pipeline_consumer_at(s, i);
            ck_assert_uint_eq(p.index, q.index);
            ck_assert_uint_eq(p.phase, q.phase);
            ck_assert_uint_eq(p.index, i % s);
            ck_assert_uint_eq(p.phase, (unsigned)((i / s) & 1));
            unsigned before = p.phase, idx = p.index;
            pipeline_advance(&p);
            ck_assert_uint_eq(p.phase != before, idx == s - 1);   /* flips exactly on wrap */
        }
    }
}
END_TEST

START_TEST(test_protocol_simulation)
{
    /* Run the full/empty protocol on the model barriers with a random
     * interleaving of one producer and one consumer: every item is consumed
     * exactly once, in order, never overwritten before it is read, and
     * nobody is ever blocked forever. */
    for (unsigned s = 1; s <= 8; ++s) {
        model_bar full[8] = {{0}}, empty[8] = {{0}};
        int slot_item[8];
        for (int i = 0; i < 8; ++i) slot_item[i] = -1;
        pipeline_state p = pipeline_producer_start(s), c = pipeline_consumer_start(s);
        int produced = 0, consumed = 0, steps = 0;
        const int items = 1000;
        unsigned rng = 12345u + s;
        while (consumed < items) {
            ck_assert_msg(++steps < 100000, "stages %u: deadlock", s);
            rng = rng * 1103515245u + 12345u;
            int pick_producer = (rng >> 16) & 1;
            int p_ready = produced < items && model_try_wait(&empty[p.index], p.phase);
            int c_ready = model_try_wait(&full[c.index], c.phase);
            ck_assert_msg(p_ready || c_ready || produced == items, "stages %u: both sides blocked", s);
            if (pick_producer ? p_ready : (p_ready && !c_ready)) {
                ck_assert_int_eq(slot_item[p.index], -1);          /* WAR: slot was read */
                slot_item[p.index] = produced++;
                full[p.index].completed++;                         /* commit */
                pipeline_advance(&p);
            } else if (c_ready) {
                ck_assert_int_eq(slot_item[c.index], consumed);    /* RAW + order */
                slot_item[c.index] = -1;
                consumed++;
                empty[c.index].completed++;                        /* release */
                pipeline_advance(&c);
            }
        }
    }
}
END_TEST

/* ---- args ------------------------------------------------------------------ */

static const args_limits stream_lim = {WORKLOAD_STREAM, 1, 8, 4, 0, 0};
static const args_limits onesl_lim = {WORKLOAD_STREAM, 1, 1, 1, 0, 0};
static const args_limits gemm_lim = {WORKLOAD_GEMM, 2, 6, 4, 0, 0};

START_TEST(test_args_defaults_and_values)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&stream_lim, "", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.stages, 4);
    ck_assert_int_eq(o.work, STREAM_DEFAULT_WORK);
    ck_assert_int_eq(parse(&stream_lim, "--n-elems 1 --work 0 --stages 8 --iters 3 --warmup 0 --seed 7 --no-check --csv x.csv --device 0", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.n_elems, 1);
    ck_assert_int_eq(o.work, 0);
    ck_assert_int_eq(o.stages, 8);
    ck_assert_int_eq(o.iters, 3);
    ck_assert_int_eq(o.no_check, 1);
    ck_assert_str_eq(o.csv, "x.csv");
    ck_assert_int_eq(parse(&gemm_lim, "--m 127 --n 129 --k 72 --exact", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.m, 127); ck_assert_int_eq(o.n, 129); ck_assert_int_eq(o.k, 72);
    ck_assert_int_eq(o.exact, 1);
    ck_assert_int_eq(parse(&gemm_lim, "--m=1 --n=1 --k=8", &o, msg), ARGS_OK);
    ck_assert_int_eq(parse(&gemm_lim, "--help", &o, msg), ARGS_HELP);
}
END_TEST

/* Each bad input: refused, and the message names the flag (and the rule). */
static const struct { int gemm; const char *line; const char *flag; const char *rule; } bad[] = {
    {0, "--n-elems 0", "--n-elems", "between"},
    {0, "--n-elems -5", "--n-elems", "between"},
    {0, "--n-elems abc", "--n-elems", "not an integer"},
    {0, "--n-elems 12x", "--n-elems", "not an integer"},
    {0, "--n-elems 99999999999999999999", "--n-elems", "range"},
    {0, "--work -1", "--work", "between"},
    {0, "--work 100001", "--work", "between"},
    {0, "--stages 0", "--stages", "between 1 and 8"},
    {0, "--stages 9", "--stages", "between 1 and 8"},
    {0, "--iters 0", "--iters", "between"},
    {0, "--warmup -1", "--warmup", "between"},
    {0, "--seed -3", "--seed", "non-negative"},
    {0, "--device -1", "--device", "between"},
    {0, "--m 5", "--m", "not a flag of this step"},
    {0, "--bogus", "--bogus", "unknown option"},
    {0, "--csv", "--csv", "missing value"},
    {0, "stray", "stray", "unexpected argument"},
    {0, "--plant-bug 1", "--plant-bug", "debug build"},
    {0, "--variant a,b", "--variant", "commas"},
    {1, "--m 0", "--m", "between 1"},
    {1, "--n -1", "--n", "between 1"},
    {1, "--k 0", "--k", "between 1"},
    {1, "--k 12", "--k", "multiple of 8"},
    {1, "--k 4", "--k", "multiple of 8"},
    {1, "--m 3000000000", "--m", "between 1"},
    {1, "--m 65536 --n 65536 --k 8", "--m/--n", "32-bit"},
    {1, "--m 300000 --k 8192 --n 8", "--m/--k", "32-bit"},
    {1, "--n 300000 --k 8192 --m 8", "--n/--k", "32-bit"},
    {1, "--exact --k 264 --m 8 --n 8", "--exact", "at most 256"},
    {1, "--stages 1", "--stages", "between 2 and 6"},
    {1, "--stages 7", "--stages", "between 2 and 6"},
    {1, "--work 3", "--work", "not a flag of this step"},
};

START_TEST(test_args_bad_input)
{
    args_options o;
    char msg[512];
    const args_limits *lim = bad[_i].gemm ? &gemm_lim : &stream_lim;
    int rc = parse(lim, bad[_i].line, &o, msg);
    ck_assert_msg(rc == ARGS_BAD, "'%s' was accepted", bad[_i].line);
    ck_assert_msg(strstr(msg, bad[_i].flag) != NULL, "'%s': message '%s' does not name %s",
                  bad[_i].line, msg, bad[_i].flag);
    ck_assert_msg(strstr(msg, bad[_i].rule) != NULL, "'%s': message '%s' does not state the rule '%s'",
                  bad[_i].line, msg, bad[_i].rule);
}
END_TEST

START_TEST(test_args_one_slot_steps)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&onesl_lim, "--stages 1", &o, msg), ARGS_OK);
    ck_assert_int_eq(parse(&onesl_lim, "--stages 2", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "exactly 1"));
}
END_TEST

START_TEST(test_args_reparse)
{
    /* getopt state is reset between parses (tests and benches parse twice). */
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&stream_lim, "--work 3", &o, msg), ARGS_OK);
    ck_assert_int_eq(parse(&stream_lim, "--work 5", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.work, 5);
}
END_TEST

/* ---- csv ------------------------------------------------------------------- */

static int count_fields(const char *line)
{
    int n = 1;
    for (; *line && *line != '\n'; ++line) n += *line == ',';
    return n;
}

START_TEST(test_csv_schema)
{
    ck_assert_str_eq(CSV_HEADER, "step,variant,m,n,k,n_elems,work,stages,ms_median,tflops,gbps,ref_name,"
                                 "ref_value,ratio_to_ref,rel_err,gpu,sm_clock_mhz,cuda_version,git_rev,date");
    ck_assert_int_eq(count_fields(CSV_HEADER), CSV_COLUMNS);
    char path[] = "/tmp/course_csv_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);   /* a new file: the header must be written */

    csv_row g = {"05", "128x256x64", 4096, 4096, 4096, -1, -1, 4, 0.21, 654.3, 480.0, "cublas",
                 780.1, 0.8387, 3.1e-3, "NVIDIA H100, 80GB", 1755, "runtime 13.0 driver 13.0", "abc123",
                 "2026-11-21T00:00:00Z"};
    csv_row s = {"03", "default", -1, -1, -1, 1 << 26, 16, 4, 0.2, NAN, 2700.0, "d2d_copy", 3000.0,
                 0.9, 0.0, "NVIDIA H100", NAN, "runtime 13.0 driver 13.0", "abc123", "2026-11-21T00:00:00Z"};
    char msg[256];
    ck_assert_int_eq(csv_append(path, &g, msg, sizeof msg), 0);
    ck_assert_int_eq(csv_append(path, &s, msg, sizeof msg), 0);

    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = 0;
    ck_assert_str_eq(line, CSV_HEADER);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(count_fields(line), CSV_COLUMNS);
    ck_assert_ptr_nonnull(strstr(line, "05,128x256x64,4096,4096,4096,,,4,0.210000,654.30,480.0,cublas,780.10,0.8387,"));
    ck_assert_ptr_nonnull(strstr(line, "NVIDIA H100; 80GB"));   /* comma in a text field neutralized */
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(count_fields(line), CSV_COLUMNS);
    ck_assert_ptr_nonnull(strstr(line, "03,default,,,,67108864,16,4,0.200000,,2700.0,d2d_copy,3000.00,0.9000,"));
    ck_assert_ptr_nonnull(strstr(line, ",NVIDIA H100,,runtime"));  /* NaN clock -> empty field */
    ck_assert_ptr_null(fgets(line, sizeof line, f));                 /* header written once */
    fclose(f);
    unlink(path);
}
END_TEST

START_TEST(test_csv_unwritable)
{
    csv_row s = {"01", "x", -1, -1, -1, 1, 0, 1, 1, NAN, 1, "d2d_copy", 1, 1, 0, "g", 1, "c", "r", "d"};
    char msg[256] = "";
    ck_assert_int_eq(csv_append("/nonexistent_dir/x.csv", &s, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "--csv"));
}
END_TEST

Suite *cpu_suite(void)
{
    Suite *s = suite_create("cpu");
    TCase *tc = tcase_create("pipeline_state");
    tcase_add_test(tc, test_start_states);
    tcase_add_test(tc, test_producer_first_acquire_passes);
    tcase_add_test(tc, test_advance_wraps_and_flips);
    tcase_add_test(tc, test_protocol_simulation);
    suite_add_tcase(s, tc);
    tc = tcase_create("args");
    tcase_add_test(tc, test_args_defaults_and_values);
    tcase_add_loop_test(tc, test_args_bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_args_one_slot_steps);
    tcase_add_test(tc, test_args_reparse);
    suite_add_tcase(s, tc);
    tc = tcase_create("csv");
    tcase_add_test(tc, test_csv_schema);
    tcase_add_test(tc, test_csv_unwritable);
    suite_add_tcase(s, tc);
    return s;
}

/* test_args.c — common/args.c: the command-line contract of the step binaries. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "args_line.h"
#include "expect.h"

/* ---- args ------------------------------------------------------------------ */

static const args_limits stream_lim = {WORKLOAD_STREAM, 1, 8, 4, 0, 0, 0, 0, 0};
static const args_limits onesl_lim = {WORKLOAD_STREAM, 1, 1, 1, 0, 0, 0, 0, 0};
static const args_limits gemm_lim = {WORKLOAD_GEMM, 2, 6, 4, 0, 0, 0, 0, 0};

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
    ck_assert_int_eq(o.iters, 0);          /* GEMM without --iters: auto (~2 ms per side) */
    ck_assert_int_eq(o.ref_vs_ref, 0);
    ck_assert_int_eq(parse(&gemm_lim, "--iters 7 --ref-vs-ref", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.iters, 7);
    ck_assert_int_eq(o.ref_vs_ref, 1);
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
    {0, "--ref-vs-ref", "--ref-vs-ref", "not a flag of this step"},
    /* the limits of the other flags */
    {0, "--iters 100001", "--iters", "between 1 and 100000"},
    {0, "--warmup 100001", "--warmup", "between 0 and 100000"},
    {0, "--repeat 0", "--repeat", "between 1 and 1000"},
    {0, "--repeat 1001", "--repeat", "between 1 and 1000"},
    {0, "--device 1024", "--device", "between 0 and 1023"},
    {0, "--seed 18446744073709551616", "--seed", "below 2^64"},
    {0, "--seed x", "--seed", "non-negative"},
    {0, "--csv=", "--csv", "needs a file name"},
    {0, "--trace=", "--trace", "needs a file name"},
    {0, "--variant=", "--variant", "non-empty"},
    {0, "--variant a\"b", "--variant", "quotes"},
    {0, "--n-elems 17179869185", "--n-elems", "between 1 and 17179869184"},
    {0, "--stages 3000000000", "--stages", "out of range"},
    {1, "--m 2147483648", "--m", "between 1 and 2147483647"},
    {1, "--k 99999999999999999999", "--k", "out of range"},
    {1, "--k", "--k", "missing value"},
    {1, "--mode dp", "--mode", "step 09"},
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

/* ---- --group and --plant-bug -------------------------------------------------------- */

static const args_limits gemm_group_lim = {.workload = WORKLOAD_GEMM, .min_stages = 2, .max_stages = 6,
                                           .default_stages = 4, .debug_build = 0, .has_group = 1};
static const args_limits gemm_nogroup_lim = {.workload = WORKLOAD_GEMM, .min_stages = 2, .max_stages = 6,
                                             .default_stages = 4, .debug_build = 0, .has_group = 0};
static const args_limits stream_group_lim = {.workload = WORKLOAD_STREAM, .min_stages = 1, .max_stages = 8,
                                             .default_stages = 4, .debug_build = 1, .has_group = 1,
                                             .plant_bugs = 0x0E};
static const args_limits gemm_debug_lim = {.workload = WORKLOAD_GEMM, .min_stages = 2, .max_stages = 6,
                                           .default_stages = 4, .debug_build = 1, .has_group = 1, .plant_bugs = 0x7E};
static const args_limits gemm_mode_lim = {.workload = WORKLOAD_GEMM, .min_stages = 2, .max_stages = 6,
                                          .default_stages = 4, .has_group = 1, .has_mode = 1};
static const args_limits gemm_menu_lim = {.workload = WORKLOAD_GEMM, .min_stages = 2, .max_stages = 8,
                                          .default_stages = 0, .has_group = 1, .has_mode = 1, .has_menu = 1};
static const args_limits stream_mode_lim = {.workload = WORKLOAD_STREAM, .min_stages = 1, .max_stages = 8,
                                            .default_stages = 4, .has_mode = 1};

/* --mode (step 09): auto by default, dp / sk by name; reparsing resets it. */
START_TEST(test_args_mode)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&gemm_mode_lim, "", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_AUTO);
    ck_assert_int_eq(parse(&gemm_mode_lim, "--mode dp", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_DP);
    ck_assert_int_eq(parse(&gemm_mode_lim, "--m 256 --mode=sk --k 64", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_SK);
    ck_assert_int_eq(parse(&gemm_mode_lim, "--mode auto", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_AUTO);
    ck_assert_int_eq(parse(&gemm_mode_lim, "--mode sk", &o, msg), ARGS_OK);
    ck_assert_int_eq(parse(&gemm_mode_lim, "", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_AUTO);
    /* cap (every tile streamed over the units step 10's model prefers): a step with a menu only */
    ck_assert_int_eq(parse(&gemm_menu_lim, "--mode cap", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.mode, GEMM_MODE_CAP);
}
END_TEST

START_TEST(test_args_group_accepted)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&gemm_group_lim, "", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, GEMM_DEFAULT_GROUP);
    ck_assert_int_eq(GEMM_DEFAULT_GROUP, 8);
    ck_assert_int_eq(parse(&gemm_group_lim, "--group 1", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, 1);
    ck_assert_int_eq(parse(&gemm_group_lim, "--group 64", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, 64);
    ck_assert_int_eq(parse(&gemm_group_lim, "--m 256 --group=5 --n 512", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, 5);
    ck_assert_int_eq(o.m, 256);
    ck_assert_int_eq(o.n, 512);
    /* Re-parsing starts from the default again. */
    ck_assert_int_eq(parse(&gemm_group_lim, "--m 256", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, 8);
    /* Steps without a scheduler still get the default (unused) value. */
    ck_assert_int_eq(parse(&gemm_nogroup_lim, "", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.group, 8);
}
END_TEST

static const struct { const args_limits *lim; const char *line; const char *frag1, *frag2; } group_bad[] = {
    {&gemm_group_lim, "--group 0", "--group", "between 1 and 64"},
    {&gemm_group_lim, "--group 65", "--group", "between 1 and 64"},
    {&gemm_group_lim, "--group -8", "--group", "between 1 and 64"},
    {&gemm_group_lim, "--group x", "--group", "not an integer"},
    {&gemm_group_lim, "--group 4x", "--group", "not an integer"},
    {&gemm_group_lim, "--group", "--group", "missing value"},
    {&gemm_nogroup_lim, "--group 4", "--group", "persistent steps, 06 on"},
    {&stream_group_lim, "--group 4", "--group", "not a flag of this step"},
    {&gemm_debug_lim, "--plant-bug 7", "--plant-bug", "between 1 and 6"},
    {&gemm_debug_lim, "--plant-bug 0", "--plant-bug", "between 1 and 6"},
    {&gemm_group_lim, "--mode sk", "--mode", "step 09"},
    {&gemm_mode_lim, "--mode streamk", "--mode", "dp, sk or auto"},
    {&gemm_mode_lim, "--mode cap", "--mode", "dp, sk or auto"},        /* step 09: no chooser to pick the units */
    {&gemm_menu_lim, "--mode streamk", "--mode", "dp, sk, cap or auto"},
    {&gemm_mode_lim, "--mode", "--mode", "missing value"},
    {&stream_mode_lim, "--mode dp", "--mode", "not a flag of this step"},
    {&gemm_group_lim, "--plant-bug 4", "--plant-bug", "debug build"},
};

START_TEST(test_args_group_refused)
{
    args_options o;
    char msg[512];
    const int rc = parse(group_bad[_i].lim, group_bad[_i].line, &o, msg);
    ck_assert_msg(rc == ARGS_BAD, "'%s' was not refused (rc %d)", group_bad[_i].line, rc);
    ck_assert_msg(strstr(msg, group_bad[_i].frag1) != NULL, "'%s': message '%s' does not name %s",
                  group_bad[_i].line, msg, group_bad[_i].frag1);
    ck_assert_msg(strstr(msg, group_bad[_i].frag2) != NULL, "'%s': message '%s' does not say '%s'",
                  group_bad[_i].line, msg, group_bad[_i].frag2);
}
END_TEST

START_TEST(test_args_plant_bug_range)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(ARGS_MAX_PLANT_BUG, 6);
    for (int b = 1; b <= 6; ++b) {
        char line[32];
        snprintf(line, sizeof line, "--plant-bug %d", b);
        ck_assert_msg(parse(&gemm_debug_lim, line, &o, msg) == ARGS_OK, "'%s' refused: %s", line, msg);
        ck_assert_int_eq(o.plant_bug, b);
    }
    ck_assert_int_eq(parse(&gemm_debug_lim, "--plant-bug 4 --group 2", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.plant_bug, 4);
    ck_assert_int_eq(o.group, 2);
    ck_assert_int_eq(parse(&gemm_debug_lim, "--plant-bug 7", &o, msg), ARGS_BAD);
}
END_TEST

/* Each step accepts only the bugs it plants (step 03: 1-3, step 07: 1-4 ...),
 * and a step that plants none says so: exit 2 before any device check. */
START_TEST(test_args_plant_bug_per_step)
{
    args_options o;
    char msg[512];
    args_limits step03 = {.workload = WORKLOAD_STREAM, .min_stages = 1, .max_stages = 8,
                          .default_stages = 4, .debug_build = 1, .plant_bugs = 0x0E};
    ck_assert_int_eq(parse(&step03, "--plant-bug 3", &o, msg), ARGS_OK);
    ck_assert_int_eq(parse(&step03, "--plant-bug 5", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "--plant-bug"));
    ck_assert_ptr_nonnull(strstr(msg, "plants bugs 1, 2, 3, not 5"));
    step03.plant_bugs = 0;
    ck_assert_int_eq(parse(&step03, "--plant-bug 1", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "plants no bug"));
}
END_TEST

/* ---- every flag, through args_parse's flag table ------------------------------------ */

/* Every flag of a workload at once (the parse() helper splits at most 31
 * words): each lands in its own field. */
START_TEST(test_args_every_flag_stored)
{
    args_options o;
    char msg[512];
    ck_assert_msg(parse(&gemm_debug_lim, "--m 64 --n 32 --k 16 --stages 3 --iters 9 --warmup 2 "
                        "--seed 18446744073709551615 --no-check --csv c.csv --trace t.csv --variant lab "
                        "--repeat 1000 --device 1023 --exact --ref-vs-ref",
                        &o, msg) == ARGS_OK, "refused: %s", msg);
    ck_assert_int_eq(o.m, 64); ck_assert_int_eq(o.n, 32); ck_assert_int_eq(o.k, 16);
    ck_assert_int_eq(o.stages, 3);
    ck_assert_int_eq(o.iters, 9);
    ck_assert_int_eq(o.warmup, 2);
    ck_assert_uint_eq(o.seed, UINT64_MAX);
    ck_assert_int_eq(o.no_check, 1);
    ck_assert_str_eq(o.csv, "c.csv");
    ck_assert_str_eq(o.trace, "t.csv");
    ck_assert_str_eq(o.variant, "lab");
    ck_assert_int_eq(o.repeat, 1000);
    ck_assert_int_eq(o.device, 1023);
    ck_assert_int_eq(o.exact, 1);
    ck_assert_int_eq(o.ref_vs_ref, 1);
    ck_assert_msg(parse(&stream_group_lim, "--n-elems 17179869184 --work 100000 --stages 1 --warmup 0 "
                        "--iters 100000 --repeat 1 --device 0 --plant-bug 1",
                        &o, msg) == ARGS_OK, "refused: %s", msg);
    ck_assert_int_eq(o.n_elems, (int64_t)1 << 34);
    ck_assert_int_eq(o.work, 100000);
    ck_assert_int_eq(o.stages, 1);
    ck_assert_int_eq(o.iters, 100000);
    ck_assert_int_eq(o.plant_bug, 1);
    /* getopt_long takes an unambiguous prefix of a flag's name, and --name=value */
    ck_assert_int_eq(parse(&gemm_lim, "--ite 7 --ref --stages=5", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.iters, 7);
    ck_assert_int_eq(o.ref_vs_ref, 1);
    ck_assert_int_eq(o.stages, 5);
}
END_TEST

/* A flag of the other workload is refused by name before its value is
 * read, and before the step's own conditions (--group, --mode). */
static const struct { const args_limits *lim; const char *line, *name, *workload; } other_workload[] = {
    {&gemm_lim, "--n-elems 5", "--n-elems", "GEMM"},
    {&gemm_lim, "--n-elems x", "--n-elems", "GEMM"},
    {&gemm_lim, "--work 3", "--work", "GEMM"},
    {&stream_lim, "--m 5", "--m", "streaming"},
    {&stream_lim, "--n 5", "--n", "streaming"},
    {&stream_lim, "--k x", "--k", "streaming"},
    {&stream_lim, "--exact", "--exact", "streaming"},
    {&stream_lim, "--ref-vs-ref", "--ref-vs-ref", "streaming"},
    {&stream_group_lim, "--group x", "--group", "streaming"},
    {&stream_mode_lim, "--mode x", "--mode", "streaming"},
    {&stream_lim, "--mo=dp", "--mode", "streaming"},
};

START_TEST(test_args_other_workload)
{
    args_options o;
    char msg[512], want[128];
    const int rc = parse(other_workload[_i].lim, other_workload[_i].line, &o, msg);
    ck_assert_msg(rc == ARGS_BAD, "'%s' was not refused", other_workload[_i].line);
    snprintf(want, sizeof want, "%s: not a flag of this step (it runs the %s workload", other_workload[_i].name,
             other_workload[_i].workload);
    ck_assert_msg(strstr(msg, want) != NULL, "'%s': message '%s' does not say '%s'", other_workload[_i].line,
                  msg, want);
}
END_TEST

/* Flags are read left to right: the first refusal (or --help) answers; the
 * shape rules between --m, --n and --k come only after the last flag. */
START_TEST(test_args_order)
{
    args_options o;
    char msg[512];
    ck_assert_int_eq(parse(&gemm_lim, "--m 0 --bogus", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "--m:"));
    ck_assert_int_eq(parse(&gemm_lim, "--bogus --m 0", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "unknown option '--bogus'"));
    ck_assert_int_eq(parse(&gemm_lim, "--help --m 0", &o, msg), ARGS_HELP);
    ck_assert_int_eq(parse(&gemm_lim, "--m 0 --help", &o, msg), ARGS_BAD);
    ck_assert_int_eq(parse(&gemm_lim, "--k 12 --help", &o, msg), ARGS_HELP);   /* K's rule: after the flags */
    ck_assert_int_eq(parse(&gemm_lim, "--k 12 stray", &o, msg), ARGS_BAD);
    ck_assert_ptr_nonnull(strstr(msg, "unexpected argument 'stray'"));
    ck_assert_int_eq(parse(&gemm_lim, "--k 16 --k 12", &o, msg), ARGS_BAD);   /* the last value counts */
    ck_assert_ptr_nonnull(strstr(msg, "multiple of 8"));
    ck_assert_int_eq(parse(&gemm_lim, "--k 12 --k 16", &o, msg), ARGS_OK);
    ck_assert_int_eq(o.k, 16);
}
END_TEST

Suite *args_suite(void)
{
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("args");
    tcase_add_test(tc, test_args_defaults_and_values);
    tcase_add_loop_test(tc, test_args_bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_args_one_slot_steps);
    tcase_add_test(tc, test_args_reparse);
    suite_add_tcase(s, tc);
    TCase *ar = tcase_create("args_group");
    tcase_add_test(ar, test_args_group_accepted);
    tcase_add_loop_test(ar, test_args_group_refused, 0, NELEMS(group_bad));
    tcase_add_test(ar, test_args_plant_bug_range);
    tcase_add_test(ar, test_args_plant_bug_per_step);
    tcase_add_test(ar, test_args_mode);
    suite_add_tcase(s, ar);
    TCase *fl = tcase_create("args_flags");
    tcase_add_test(fl, test_args_every_flag_stored);
    tcase_add_loop_test(fl, test_args_other_workload, 0, NELEMS(other_workload));
    tcase_add_test(fl, test_args_order);
    suite_add_tcase(s, fl);
    return s;
}

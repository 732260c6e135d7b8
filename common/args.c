/* args.c — see args.h.  Every refusal names the flag and the rule. */
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_N_ELEMS = 256, OPT_WORK, OPT_STAGES, OPT_M, OPT_N, OPT_K, OPT_EXACT,
    OPT_ITERS, OPT_WARMUP, OPT_SEED, OPT_NO_CHECK, OPT_CSV, OPT_TRACE,
    OPT_DEVICE, OPT_VARIANT, OPT_PLANT_BUG, OPT_GROUP, OPT_REPEAT, OPT_MODE, OPT_REF_VS_REF,
    OPT_CONFIG, OPT_EXPLAIN, OPT_TUNE, OPT_NO_CACHE, OPT_HELP
};

void args_defaults(const args_limits *lim, args_options *o)
{
    memset(o, 0, sizeof *o);
    o->n_elems = STREAM_DEFAULT_N_ELEMS;
    o->work = STREAM_DEFAULT_WORK;
    o->m = o->n = o->k = GEMM_DEFAULT_MNK;
    o->stages = lim->default_stages;
    o->iters = lim->workload == WORKLOAD_GEMM ? 0 : 50;   /* GEMM: 0 = auto (args.h) */
    o->warmup = 5;
    o->seed = 1234;
    o->device = 0;
    o->group = GEMM_DEFAULT_GROUP;
    o->repeat = 0;   /* no --repeat: the CSV's repeat column stays empty (not a bench repeat) */
}

/* Whole-string integer in [lo, hi]; anything else is refused. */
static int parse_i64(const char *flag, const char *s, int64_t lo, int64_t hi,
                     int64_t *out, char *msg, size_t len)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0') {
        snprintf(msg, len, "%s: '%s' is not an integer", flag, s);
        return ARGS_BAD;
    }
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(msg, len, "%s: %s is out of range; it must be between %" PRId64
                 " and %" PRId64, flag, s, lo, hi);
        return ARGS_BAD;
    }
    *out = v;
    return ARGS_OK;
}

static int parse_u64(const char *flag, const char *s, uint64_t *out, char *msg,
                     size_t len)
{
    char *end = NULL;
    errno = 0;
    if (s[0] == '\0' || s[0] == '-') {
        snprintf(msg, len, "%s: '%s' must be a non-negative integer", flag, s);
        return ARGS_BAD;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno == ERANGE) {
        snprintf(msg, len, "%s: '%s' must be a non-negative integer below 2^64",
                 flag, s);
        return ARGS_BAD;
    }
    *out = v;
    return ARGS_OK;
}

int args_check_gemm_shape(int64_t m, int64_t n, int64_t k, int exact, char *msg,
                          size_t len)
{
    if (m < 1) { snprintf(msg, len, "--m: M must be at least 1 (got %" PRId64 ")", m); return ARGS_BAD; }
    if (n < 1) { snprintf(msg, len, "--n: N must be at least 1 (got %" PRId64 ")", n); return ARGS_BAD; }
    if (k < 8 || k % 8 != 0) {
        snprintf(msg, len, "--k: K must be a positive multiple of 8 (rows of A and B "
                 "must be 16-byte aligned for cp.async and TMA); got %" PRId64, k);
        return ARGS_BAD;
    }
    /* Kernels index with 32-bit ints: every matrix must have < 2^31 elements. */
    if (m * k > INT_MAX) { snprintf(msg, len, "--m/--k: M*K = %" PRId64 " elements overflows 32-bit indexing (limit 2^31-1)", m * k); return ARGS_BAD; }
    if (n * k > INT_MAX) { snprintf(msg, len, "--n/--k: N*K = %" PRId64 " elements overflows 32-bit indexing (limit 2^31-1)", n * k); return ARGS_BAD; }
    if (m * n > INT_MAX) { snprintf(msg, len, "--m/--n: M*N = %" PRId64 " elements overflows 32-bit indexing (limit 2^31-1)", m * n); return ARGS_BAD; }
    if (exact && k > GEMM_EXACT_MAX_K) {
        snprintf(msg, len, "--exact: K must be at most %d so every sum of products in "
                 "{-1,0,1} is exact in bf16 (got %" PRId64 ")", GEMM_EXACT_MAX_K, k);
        return ARGS_BAD;
    }
    return ARGS_OK;
}

/* ---- the flags, one parser per family ---------------------------------------
 * Each parser reads one flag's value (a, getopt's optarg; NULL for a flag
 * without one) into o and returns ARGS_OK, or ARGS_BAD with msg naming the
 * flag and the rule.  args_parse has already checked that the flag belongs
 * to the step's workload, so a parser only checks its value. */
typedef int (*flag_parser)(int flag, const char *a, const args_limits *lim, args_options *o,
                           char *msg, size_t len);

/* --n-elems, --work: the streaming workload's size and work per element. */
static int parse_stream_flag(int flag, const char *a, const args_limits *lim, args_options *o,
                             char *msg, size_t len)
{
    int64_t v = 0;
    (void)lim;
    if (flag == OPT_N_ELEMS)
        return parse_i64("--n-elems", a, 1, (int64_t)1 << 34, &o->n_elems, msg, len);
    const int rc = parse_i64("--work", a, 0, STREAM_MAX_WORK, &v, msg, len);
    o->work = (int)v;
    return rc;
}

/* --m, --n, --k: each in 1 .. INT_MAX (read as a wide integer first, so that
 * a value beyond int is refused with that range, not wrapped); the rules
 * between them come after the last flag (args_check_gemm_shape). */
static int parse_shape_flag(int flag, const char *a, const args_limits *lim, args_options *o,
                            char *msg, size_t len)
{
    int64_t v = 0;
    (void)lim;
    const char *f = flag == OPT_M ? "--m" : flag == OPT_N ? "--n" : "--k";
    int rc = parse_i64(f, a, INT64_MIN / 2, INT64_MAX / 2, &v, msg, len);
    if (rc == ARGS_OK && (v < 1 || v > INT_MAX)) {
        snprintf(msg, len, "%s: %s is out of range; it must be between 1 and %d", f, a, INT_MAX);
        rc = ARGS_BAD;
    }
    if (flag == OPT_M) o->m = (int)v;
    if (flag == OPT_N) o->n = (int)v;
    if (flag == OPT_K) o->k = (int)v;
    return rc;
}

/* --group: only a step with a tile scheduler has one to set. */
static int parse_group(int flag, const char *a, const args_limits *lim, args_options *o, char *msg,
                       size_t len)
{
    int64_t v = 0;
    (void)flag;
    if (!lim->has_group) {
        snprintf(msg, len, "--group: this step has no tile scheduler (its raster order is "
                 "compiled in); --group is a flag of the persistent steps, 06 on");
        return ARGS_BAD;
    }
    const int rc = parse_i64("--group", a, 1, GEMM_MAX_GROUP, &v, msg, len);
    o->group = (int)v;
    return rc;
}

/* --mode: only a step with a stream-K schedule has one to choose. */
static int parse_mode(int flag, const char *a, const args_limits *lim, args_options *o, char *msg,
                      size_t len)
{
    (void)flag;
    if (!lim->has_mode) {
        snprintf(msg, len, "--mode: this step has no stream-K schedule; --mode is a flag of step 09 and step 10");
        return ARGS_BAD;
    }
    if (strcmp(a, "auto") == 0) o->mode = GEMM_MODE_AUTO;
    else if (strcmp(a, "dp") == 0) o->mode = GEMM_MODE_DP;
    else if (strcmp(a, "sk") == 0) o->mode = GEMM_MODE_SK;
    else if (strcmp(a, "cap") == 0 && lim->has_menu) o->mode = GEMM_MODE_CAP;   /* its units: step 10's model */
    else {
        snprintf(msg, len, "--mode: must be dp, sk%s or auto (got '%s')", lim->has_menu ? ", cap" : "", a);
        return ARGS_BAD;
    }
    return ARGS_OK;
}

/* --config NAME, --explain, --tune, --no-cache: only a step with a menu of
 * configurations (step 10) has them; the harness checks NAME against the menu. */
static int parse_menu_flag(int flag, const char *a, const args_limits *lim, args_options *o, char *msg,
                           size_t len)
{
    static const char *const names[] = {"--config", "--explain", "--tune", "--no-cache"};
    if (!lim->has_menu) {
        snprintf(msg, len, "%s: this step is one configuration; %s is a flag of step 10",
                 names[flag - OPT_CONFIG], names[flag - OPT_CONFIG]);
        return ARGS_BAD;
    }
    if (flag == OPT_CONFIG) o->config = a;
    else if (flag == OPT_EXPLAIN) o->explain = 1;
    else if (flag == OPT_TUNE) o->tune = 1;
    else o->no_cache = 1;
    return ARGS_OK;
}

/* --exact, --ref-vs-ref, --no-check: switches, no value. */
static int parse_switch(int flag, const char *a, const args_limits *lim, args_options *o, char *msg,
                        size_t len)
{
    (void)a; (void)lim; (void)msg; (void)len;
    if (flag == OPT_EXACT) o->exact = 1;
    else if (flag == OPT_REF_VS_REF) o->ref_vs_ref = 1;
    else o->no_check = 1;
    return ARGS_OK;
}

/* --stages: the step's own range (a one-slot step says it has exactly one). */
static int parse_stages(int flag, const char *a, const args_limits *lim, args_options *o, char *msg,
                        size_t len)
{
    int64_t v = 0;
    (void)flag;
    int rc = parse_i64("--stages", a, INT_MIN, INT_MAX, &v, msg, len);
    if (rc == ARGS_OK && (v < lim->min_stages || v > lim->max_stages)) {
        if (lim->min_stages == lim->max_stages)
            snprintf(msg, len, "--stages: this step has exactly %d slot(s); --stages must be %d (got %s)",
                     lim->min_stages, lim->min_stages, a);
        else
            snprintf(msg, len, "--stages: must be between %d and %d for this step (got %s)",
                     lim->min_stages, lim->max_stages, a);
        rc = ARGS_BAD;
    }
    o->stages = (int)v;
    return rc;
}

/* --iters, --warmup, --repeat, --device: integers in fixed ranges; --seed:
 * any unsigned 64-bit number. */
static int parse_number_flag(int flag, const char *a, const args_limits *lim, args_options *o,
                             char *msg, size_t len)
{
    int64_t v = 0;
    int rc;
    (void)lim;
    switch (flag) {
    case OPT_ITERS:
        rc = parse_i64("--iters", a, 1, 100000, &v, msg, len); o->iters = (int)v;
        break;
    case OPT_WARMUP:
        rc = parse_i64("--warmup", a, 0, 100000, &v, msg, len); o->warmup = (int)v;
        break;
    case OPT_REPEAT:   /* a label: which of the bench's repeats this run is */
        rc = parse_i64("--repeat", a, 1, 1000, &v, msg, len); o->repeat = (int)v;
        break;
    case OPT_DEVICE:
        rc = parse_i64("--device", a, 0, 1023, &v, msg, len); o->device = (int)v;
        break;
    default:   /* OPT_SEED */
        rc = parse_u64("--seed", a, &o->seed, msg, len);
        break;
    }
    return rc;
}

/* --csv, --trace: file names; --variant: a label the CSV row carries as is. */
static int parse_text_flag(int flag, const char *a, const args_limits *lim, args_options *o,
                           char *msg, size_t len)
{
    int rc = ARGS_OK;
    (void)lim;
    if (flag == OPT_CSV) {
        if (a[0] == '\0') { snprintf(msg, len, "--csv: needs a file name"); rc = ARGS_BAD; }
        o->csv = a;
    } else if (flag == OPT_TRACE) {
        if (a[0] == '\0') { snprintf(msg, len, "--trace: needs a file name"); rc = ARGS_BAD; }
        o->trace = a;
    } else {
        if (a[0] == '\0' || strpbrk(a, ",\"\n\r")) {
            snprintf(msg, len, "--variant: must be a non-empty label without commas, quotes or newlines");
            rc = ARGS_BAD;
        }
        o->variant = a;
    }
    return rc;
}

/* --plant-bug: DEBUG builds only (the bugs are compiled in there alone). */
static int parse_plant_bug(int flag, const char *a, const args_limits *lim, args_options *o,
                           char *msg, size_t len)
{
    int64_t v = 0;
    (void)flag;
    if (!lim->debug_build) {
        snprintf(msg, len, "--plant-bug: only available in a debug build (make DEBUG=1)");
        return ARGS_BAD;
    }
    if (!lim->plant_bugs) {
        snprintf(msg, len, "--plant-bug: this step plants no bug");
        return ARGS_BAD;
    }
    const int rc = parse_i64("--plant-bug", a, 1, ARGS_MAX_PLANT_BUG, &v, msg, len);
    o->plant_bug = (int)v;
    if (rc == ARGS_OK && !(lim->plant_bugs & (1u << v))) {
        int n = snprintf(msg, len, "--plant-bug: this step plants bugs");
        const char *sep = " ";
        for (int b = 1; b <= ARGS_MAX_PLANT_BUG && n > 0 && (size_t)n < len; ++b)
            if (lim->plant_bugs & (1u << b)) {
                n += snprintf(msg + n, len - (size_t)n, "%s%d", sep, b);
                sep = ", ";
            }
        if (n > 0 && (size_t)n < len) snprintf(msg + n, len - (size_t)n, ", not %d", (int)v);
        return ARGS_BAD;
    }
    return rc;
}

/* getopt_long's table: every flag of either workload, so that a flag of the
 * other one is named in its refusal rather than called unknown. */
static const struct option opts[] = {
    {"n-elems", required_argument, 0, OPT_N_ELEMS},
    {"work", required_argument, 0, OPT_WORK},
    {"stages", required_argument, 0, OPT_STAGES},
    {"m", required_argument, 0, OPT_M},
    {"n", required_argument, 0, OPT_N},
    {"k", required_argument, 0, OPT_K},
    {"exact", no_argument, 0, OPT_EXACT},
    {"iters", required_argument, 0, OPT_ITERS},
    {"warmup", required_argument, 0, OPT_WARMUP},
    {"seed", required_argument, 0, OPT_SEED},
    {"no-check", no_argument, 0, OPT_NO_CHECK},
    {"csv", required_argument, 0, OPT_CSV},
    {"trace", required_argument, 0, OPT_TRACE},
    {"device", required_argument, 0, OPT_DEVICE},
    {"variant", required_argument, 0, OPT_VARIANT},
    {"plant-bug", required_argument, 0, OPT_PLANT_BUG},
    {"group", required_argument, 0, OPT_GROUP},
    {"repeat", required_argument, 0, OPT_REPEAT},
    {"mode", required_argument, 0, OPT_MODE},
    {"ref-vs-ref", no_argument, 0, OPT_REF_VS_REF},
    {"config", required_argument, 0, OPT_CONFIG},
    {"explain", no_argument, 0, OPT_EXPLAIN},
    {"tune", no_argument, 0, OPT_TUNE},
    {"no-cache", no_argument, 0, OPT_NO_CACHE},
    {"help", no_argument, 0, OPT_HELP},
    {0, 0, 0, 0}};

/* Which workload each flag belongs to and which parser reads it, by the
 * flag's getopt value (OPT_HELP has none: args_parse answers it). */
enum { FOR_BOTH, FOR_STREAM, FOR_GEMM };
static const struct flag_rule {
    int only;
    flag_parser parse;
} rules[OPT_HELP - OPT_N_ELEMS] = {
    [OPT_N_ELEMS - OPT_N_ELEMS] = {FOR_STREAM, parse_stream_flag},
    [OPT_WORK - OPT_N_ELEMS] = {FOR_STREAM, parse_stream_flag},
    [OPT_STAGES - OPT_N_ELEMS] = {FOR_BOTH, parse_stages},
    [OPT_M - OPT_N_ELEMS] = {FOR_GEMM, parse_shape_flag},
    [OPT_N - OPT_N_ELEMS] = {FOR_GEMM, parse_shape_flag},
    [OPT_K - OPT_N_ELEMS] = {FOR_GEMM, parse_shape_flag},
    [OPT_EXACT - OPT_N_ELEMS] = {FOR_GEMM, parse_switch},
    [OPT_ITERS - OPT_N_ELEMS] = {FOR_BOTH, parse_number_flag},
    [OPT_WARMUP - OPT_N_ELEMS] = {FOR_BOTH, parse_number_flag},
    [OPT_SEED - OPT_N_ELEMS] = {FOR_BOTH, parse_number_flag},
    [OPT_NO_CHECK - OPT_N_ELEMS] = {FOR_BOTH, parse_switch},
    [OPT_CSV - OPT_N_ELEMS] = {FOR_BOTH, parse_text_flag},
    [OPT_TRACE - OPT_N_ELEMS] = {FOR_BOTH, parse_text_flag},
    [OPT_DEVICE - OPT_N_ELEMS] = {FOR_BOTH, parse_number_flag},
    [OPT_VARIANT - OPT_N_ELEMS] = {FOR_BOTH, parse_text_flag},
    [OPT_PLANT_BUG - OPT_N_ELEMS] = {FOR_BOTH, parse_plant_bug},
    [OPT_GROUP - OPT_N_ELEMS] = {FOR_GEMM, parse_group},
    [OPT_REPEAT - OPT_N_ELEMS] = {FOR_BOTH, parse_number_flag},
    [OPT_MODE - OPT_N_ELEMS] = {FOR_GEMM, parse_mode},
    [OPT_REF_VS_REF - OPT_N_ELEMS] = {FOR_GEMM, parse_switch},
    [OPT_CONFIG - OPT_N_ELEMS] = {FOR_GEMM, parse_menu_flag},
    [OPT_EXPLAIN - OPT_N_ELEMS] = {FOR_GEMM, parse_menu_flag},
    [OPT_TUNE - OPT_N_ELEMS] = {FOR_GEMM, parse_menu_flag},
    [OPT_NO_CACHE - OPT_N_ELEMS] = {FOR_GEMM, parse_menu_flag},
};

/* What getopt_long could not match: an unknown flag, or a known one without
 * its value (optopt names it then). */
static int unknown_option(char **argv, char *msg, size_t len)
{
    if (optopt)
        snprintf(msg, len, "unknown option or missing value near '%s' (see --help)", argv[optind - 1]);
    else
        snprintf(msg, len, "unknown option '%s' (see --help)", argv[optind - 1]);
    return ARGS_BAD;
}

int args_parse(int argc, char **argv, const args_limits *lim, args_options *o,
               char *msg, size_t len)
{
    const int gemm = lim->workload == WORKLOAD_GEMM;

    args_defaults(lim, o);
    msg[0] = '\0';
    optind = 1;   /* parse may run several times in one test process */
    opterr = 0;   /* we print our own messages */
    for (;;) {
        int idx = 0;
        const int c = getopt_long(argc, argv, "", opts, &idx);
        if (c == -1) break;
        if (c == OPT_HELP) return ARGS_HELP;
        if (c < OPT_N_ELEMS || c >= OPT_HELP) return unknown_option(argv, msg, len);
        const struct flag_rule *r = &rules[c - OPT_N_ELEMS];
        if ((r->only == FOR_GEMM && !gemm) || (r->only == FOR_STREAM && gemm)) {
            snprintf(msg, len, "--%s: not a flag of this step (it runs the %s workload; see --help)",
                     opts[idx].name, gemm ? "GEMM" : "streaming");
            return ARGS_BAD;
        }
        const int rc = r->parse(c, optarg, lim, o, msg, len);
        if (rc != ARGS_OK) return rc;
    }
    if (optind < argc) {
        snprintf(msg, len, "unexpected argument '%s' (flags take the form --name value; see --help)",
                 argv[optind]);
        return ARGS_BAD;
    }
    if (gemm) return args_check_gemm_shape(o->m, o->n, o->k, o->exact, msg, len);
    return ARGS_OK;
}

/* --plant-bug's help: the bugs this step plants (debug.cuh), one line each. */
static void args_usage_plant_bugs(unsigned bugs)
{
    static const char *const what[ARGS_MAX_PLANT_BUG + 1] = {
        "", "the producer starts at phase 0", "the producer skips one commit",
        "a consumer skips one release", "a consumer skips one named-barrier arrive",
        "a stream-K partial is never flagged", "a consumer skips one remote release to its cluster partner"};
    printf("  --plant-bug B debug builds only: plant a pipeline bug; the bounded waits must name the hang:\n");
    for (int b = 1; b <= ARGS_MAX_PLANT_BUG; ++b)
        if (bugs & (1u << b)) printf("                %d %s\n", b, what[b]);
}

void args_usage(const char *prog, const args_limits *lim, const char *summary)
{
    printf("%s — %s\n\nusage: %s [flags]\n\n", prog, summary, prog);
    if (lim->workload == WORKLOAD_STREAM) {
        printf("  --n-elems N   elements of x and y (1 .. 2^34; default %lld)\n", (long long)STREAM_DEFAULT_N_ELEMS);
        printf("  --work W      dependent FMAs per element in f (0 .. %d; default %d)\n", STREAM_MAX_WORK, STREAM_DEFAULT_WORK);
    } else {
        printf("  --m M --n N --k K   D[MxN] = A[MxK] * B[NxK]^T (M, N >= 1; K a positive multiple of 8;\n"
               "                      each matrix below 2^31 elements; default %d each)\n", GEMM_DEFAULT_MNK);
        printf("  --exact       inputs in {-1,0,1}, K <= %d: the result must match cuBLAS bit for bit\n", GEMM_EXACT_MAX_K);
        if (lim->has_group)
            printf("  --group G     tile scheduler: tiles per raster group, 1 .. %d (default %d; 1 = no grouping)\n",
                   GEMM_MAX_GROUP, GEMM_DEFAULT_GROUP);
        if (lim->has_mode)
            printf("  --mode M      dp: whole tiles per CTA; sk: stream-K (the partial wave and one full wave\n"
                   "                split evenly in k-tiles); auto (default): sk where the model predicts a gain\n");
        if (lim->has_menu)
            printf("                cap: every tile streamed, over the number of units the chooser's model prefers\n");
        if (lim->has_menu)
            printf("  --config C    run configuration C of the menu (the first line of --help lists them);\n"
                   "                default: the tuning cache's choice for this shape, else the model's\n"
                   "  --explain     print the model's reasons: waves, last-wave fill, bytes per MAC and\n"
                   "                predicted time of every candidate\n"
                   "  --tune        time every (configuration, plan) candidate at this shape, the best two\n"
                   "                again head to head, then run the winner and store it in the cache\n"
                   "  --no-cache    neither read nor write the tuning cache (the bench and the tests)\n");
    }
    if (lim->min_stages == lim->max_stages)
        printf("  --stages S    shared-memory slots: this step has exactly %d\n", lim->min_stages);
    else if (lim->default_stages == 0)   /* step 10: each configuration has its own most */
        printf("  --stages S    shared-memory slots/stages (%d .. %d; default: the most the chosen\n"
               "                configuration's tile fits)\n", lim->min_stages, lim->max_stages);
    else
        printf("  --stages S    shared-memory slots/stages (%d .. %d; default %d)\n",
               lim->min_stages, lim->max_stages, lim->default_stages);
    if (lim->workload == WORKLOAD_GEMM)
        printf("  --iters I     timed launches of the step (and of cuBLAS), median reported (default: enough\n"
               "                for ~%.0f ms per side, %d .. %d)\n", GEMM_AUTO_ITERS_MS, GEMM_MIN_ITERS,
               GEMM_MAX_ITERS);
    else
        printf("  --iters I     timed launches of the step (and of the reference), median reported (default 50)\n");
    printf("  --warmup W    untimed launches first (default 5)\n");
    printf("  --seed S      random inputs from this seed (default 1234)\n");
    printf("  --no-check    skip the correctness check (timing only)\n");
    printf("  --csv FILE    append one result row (header written if FILE is new)\n");
    printf("  --trace FILE  record a per-warp timeline of CTA 0 and one more into FILE (CSV)\n");
    printf("  --variant L   label for the CSV's variant column\n");
    if (lim->workload == WORKLOAD_GEMM)
        printf("  --ref-vs-ref  time cuBLAS against itself through the step's launch path and input sets\n"
               "                (the harness's A/A test: the ratio must read 1.00; the CSV row's impl is aa)\n");
    printf("  --repeat R    the CSV's repeat column: which of a bench's repeats this run is (1 .. 1000;\n"
           "                without it the column is empty)\n");
    printf("  --device D    CUDA device ordinal (default 0)\n");
    if (lim->debug_build && lim->plant_bugs) args_usage_plant_bugs(lim->plant_bugs);
    printf("  --help        this text\n\n");
    printf("exit codes: 0 ok, 1 result wrong, 2 bad arguments, 3 this GPU cannot run this step\n");
}

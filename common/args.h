/* args.h — the one command-line contract every step binary shares.
 *
 * Plain C11 (args.c, compiled by gcc) so that tests/ can feed it bad input and
 * check the message without running a GPU program.  Parsing never exits: it
 * returns ARGS_OK, ARGS_HELP or ARGS_BAD with a message naming the flag and the
 * rule; the step's main turns ARGS_BAD into exit code 2. */
#ifndef COMMON_ARGS_H
#define COMMON_ARGS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { ARGS_OK = 0, ARGS_HELP = 1, ARGS_BAD = 2 };
enum workload { WORKLOAD_STREAM = 0, WORKLOAD_GEMM = 1 };

/* Limits a step passes in (its own stage range, for example). */
typedef struct {
    enum workload workload;
    int min_stages, max_stages, default_stages;
    int debug_build;            /* 1: accept --plant-bug (make DEBUG=1 builds) */
    int has_group;              /* 1: accept --group (steps with a tile scheduler) */
    int has_mode;               /* 1: accept --mode (step 09: stream-K) */
    unsigned plant_bugs;        /* bit b set: the step plants bug b (--plant-bug b); 0: none */
    int has_menu;               /* 1: accept --config, --explain, --tune, --no-cache (step 10) */
} args_limits;

typedef struct {
    /* streaming */
    int64_t n_elems;
    int work;
    /* GEMM */
    int m, n, k;
    int exact;                  /* inputs in {-1,0,1}, result must match bit for bit */
    int group;                  /* tile-scheduler group size (steps 06-09), default 8 */
    int mode;                   /* --mode: GEMM_MODE_AUTO (default), _DP, _SK (step 09); _CAP (step 10) */
    /* both */
    int stages;
    int iters, warmup;          /* GEMM: iters 0 = auto (GEMM_AUTO_ITERS_MS of launches per side) */
    uint64_t seed;
    int no_check;
    int device;
    const char *csv;            /* NULL: no CSV row */
    const char *trace;          /* NULL: no timeline */
    const char *variant;        /* free text label written to the CSV */
    int repeat;                 /* --repeat: the CSV's repeat column; 0 (default): empty */
    int plant_bug;              /* 0 none; DEBUG builds only, see common/debug.cuh */
    int ref_vs_ref;             /* --ref-vs-ref: time cuBLAS against itself through the step's
                                 * path (the harness's A/A test; gemm_impl.cuh) */
    /* a step with a menu of configurations (step 10) */
    const char *config;         /* --config NAME: force one (gemm_impl.cuh checks the name); NULL: choose */
    int explain;                /* --explain: print the model's reasons */
    int tune;                   /* --tune: time every candidate here, run and cache the winner */
    int no_cache;               /* --no-cache: neither read nor write the tuning cache */
} args_options;

/* Defaults of the streaming workload.  DEFAULT_WORK makes the consumers'
 * compute take about as long as the producers' loads on an H100, the
 * course's reference GPU (measured: at 64, step 03's time equals its time at
 * work 0, and step 01's is twice that; see step01_sync_pc/README.md).  On an
 * H200, whose memory is 1.4x faster, the same work is compute-bound. */
#define STREAM_DEFAULT_N_ELEMS (1LL << 26)
#define STREAM_DEFAULT_WORK 64
#define STREAM_MAX_WORK 100000
#define GEMM_DEFAULT_MNK 4096
#define GEMM_EXACT_MAX_K 256
#define GEMM_DEFAULT_GROUP 8
#define GEMM_MAX_GROUP 64
#define ARGS_MAX_PLANT_BUG 6
/* GEMM timing without --iters: enough timed launches that each side runs
 * about this long in total (a 10 us kernel gets ~200), never fewer than
 * GEMM_MIN_ITERS (the median of fewer is noise) nor more than GEMM_MAX_ITERS. */
#define GEMM_AUTO_ITERS_MS 2.0
#define GEMM_MIN_ITERS 20
#define GEMM_MAX_ITERS 5000
/* --mode of a stream-K step: which tiles are streamed (stream_k_schedule.h; cap: step 10's chooser.h) */
enum { GEMM_MODE_AUTO = 0, GEMM_MODE_DP = 1, GEMM_MODE_SK = 2, GEMM_MODE_CAP = 3 };

void args_defaults(const args_limits *lim, args_options *o);

/* Returns ARGS_OK, ARGS_HELP (usage is wanted) or ARGS_BAD (msg filled). */
int args_parse(int argc, char **argv, const args_limits *lim, args_options *o,
               char *msg, size_t msg_len);

/* Checks that do not depend on the device: GEMM shape rules, exact-mode K.
 * (args_parse calls it; exposed for tests.) */
int args_check_gemm_shape(int64_t m, int64_t n, int64_t k, int exact, char *msg,
                          size_t msg_len);

void args_usage(const char *prog, const args_limits *lim, const char *summary);

#ifdef __cplusplus
}
#endif
#endif

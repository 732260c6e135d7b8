/* csv.h — the results file every bench run appends to (plots/results/<gpu>.csv).
 *
 * One schema for every step (README.md, "Results"; the columns are listed below).
 * Fields that do not apply are left empty: a NaN double or a negative integer
 * in csv_row means "not applicable".  Plain C, tested in tests/test_csv.c. */
#ifndef COMMON_CSV_H
#define COMMON_CSV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSV_HEADER                                                             \
    "step,variant,m,n,k,n_elems,work,stages,ms_median,tflops,gbps,ref_name,"   \
    "ref_value,ratio_to_ref,rel_err,gpu,sm_clock_mhz,cuda_version,git_rev,date," \
    "impl,group,cluster,mode,repeat,harness,chooser,config"
#define CSV_COLUMNS 28

typedef struct {
    const char *step;        /* "01" ... "07" */
    const char *variant;     /* free label, e.g. "default" or "128x128x32" */
    int64_t m, n, k;         /* GEMM shape, -1 for streaming */
    int64_t n_elems;         /* streaming size, -1 for GEMM */
    int64_t work;            /* streaming FMAs per element, -1 for GEMM */
    int64_t stages;
    double ms_median;
    double tflops;           /* GEMM, NaN for streaming */
    double gbps;             /* bytes read + written per second / 1e9 */
    const char *ref_name;    /* "cublas" or "d2d_copy" */
    double ref_value;        /* the reference's tflops (GEMM) or GB/s (copy) */
    double ratio_to_ref;     /* step / reference, same unit, same run */
    double rel_err;          /* NaN when --no-check */
    const char *gpu;
    double sm_clock_mhz;     /* SM clock sampled right after the timed loop */
    const char *cuda_version;/* "runtime 13.0 / driver 13.0" */
    const char *git_rev;
    const char *date;        /* ISO 8601, UTC */
    /* What a table needs to know about the run, as columns (never parsed
     * back from a label).  0 / NULL: empty, so a zeroed row is valid. */
    const char *impl;        /* "course" (the steps) or "cutlass" (peers/) */
    int64_t group;           /* tile-scheduler raster group (--group), steps that have one */
    int64_t cluster;         /* CTAs per cluster (1 without clusters), GEMM */
    const char *mode;        /* stream-K mode actually run (what `auto` chose), step 09 */
    int64_t repeat;          /* which of the bench's repeats of this configuration (1, 2, 3) */
    const char *harness;     /* how the GEMM timing was taken: "fair" = own rotation sets for the
                              * step and cuBLAS, inputs never left in L2, ~2 ms per side
                              * (gemm_impl.cuh); empty on older rows and streaming rows */
    const char *chooser;     /* who chose the configuration that ran: "default" the step itself
                              * (its defaults; step 09's auto mode), "forced" a flag overrode
                              * the step's own choice (step 09's --mode dp|sk); step 10 adds its
                              * own ("model", "cache", "tune").  The tables show only "default"
                              * rows (and rows older than the column, where it is empty) as a
                              * step's headline; the others are comparisons (plots/report.awk) */
    const char *config;      /* step 10: the configuration of its menu that ran (e.g. 64x128) */
} csv_row;

/* Formats one row (no newline) into buf.  Commas and quotes in text fields are
 * replaced by ';' and '\'' so the file stays a plain comma-separated table
 * gnuplot and awk can read.  Returns the length, or -1 if buf is too small. */
int csv_format_row(const csv_row *r, char *buf, size_t len);

/* Appends one row to path, writing CSV_HEADER first when the file is new or
 * empty.  A file whose header is an older schema (a prefix of CSV_HEADER:
 * columns are only ever added at the end) gets the new header line first;
 * its old rows stay as they are and read as empty in the new columns.  Any
 * other header is refused.  Returns 0, or -1 with msg filled. */
int csv_append(const char *path, const csv_row *r, char *msg, size_t msg_len);

/* Current time as ISO 8601 UTC, e.g. 2026-11-21T20:46:00Z. */
void csv_now_utc(char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif

/* kernel_times.c: where a small GEMM's time goes between launches.
 *
 * Question (issue 25, item 5): at 512^3 the harness times a step-10 launch at
 * ~12 us and cuBLAS's at ~9.5 us.  How much of each is the kernel running and
 * how much is the gap the GPU leaves between one kernel's end and the next
 * one's start?  The harness's events cannot tell the two apart; CUPTI's
 * activity records can: the start and end of every kernel, stamped by the GPU.
 *
 * This is a CUDA injection library: the CUDA driver loads it into an
 * unchanged binary when CUDA_INJECTION64_PATH names it, and calls
 * InitializeInjection() once.  It records every kernel (the step's, cuBLAS's,
 * the harness's L2 flush and hold kernels) and, at exit, writes one line per
 * kernel to $KERNEL_TIMES_OUT:
 *     seq,name,start_ns,end_ns,grid_x,cluster_x
 * in the order the GPU ran them.  launch_gap.awk turns that into durations
 * and gaps per kernel.
 *
 * Build (here or on the GPU machine; needs CUPTI from the CUDA toolkit):
 *   cc -O2 -shared -fPIC -I$CUDA/include kernel_times.c -L$CUDA/lib64 -lcupti -o kernel_times.so
 * Run:
 *   CUDA_INJECTION64_PATH=$PWD/kernel_times.so KERNEL_TIMES_OUT=k.csv \
 *     build/step10_autotune --m 512 --n 512 --k 512 --no-cache
 * Exit codes: this library exits nothing; the binary's own codes hold.
 *
 * CONCURRENT_KERNEL (not KERNEL) is the activity kind that does not
 * serialize kernels, so the measured gaps are the ones an unobserved run has
 * (CUPTI still adds a little per launch: compare both sides under it). */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_BYTES (8u << 20)

typedef struct {
    unsigned long long start, end;
    unsigned grid_x, cluster_x;
    char name[96];
} kernel_rec;

static kernel_rec *recs;
static size_t nrecs, caprecs;

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = (uint8_t *)aligned_alloc(8, BUF_BYTES);
    *size = BUF_BYTES;
    *max_records = 0;
}

static void keep(const CUpti_ActivityKernel10 *k)
{
    if (nrecs == caprecs) {
        caprecs = caprecs ? 2 * caprecs : 4096;
        recs = (kernel_rec *)realloc(recs, caprecs * sizeof *recs);
    }
    kernel_rec *r = &recs[nrecs++];
    r->start = k->start;
    r->end = k->end;
    r->grid_x = (unsigned)k->gridX;
    r->cluster_x = k->clusterX;
    snprintf(r->name, sizeof r->name, "%s", k->name ? k->name : "?");
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                                      size_t valid)
{
    (void)ctx; (void)stream; (void)size;
    CUpti_Activity *a = NULL;
    while (cuptiActivityGetNextRecord(buf, valid, &a) == CUPTI_SUCCESS)
        if (a->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) keep((const CUpti_ActivityKernel10 *)a);
    free(buf);
}

static int by_start(const void *x, const void *y)
{
    const kernel_rec *a = (const kernel_rec *)x, *b = (const kernel_rec *)y;
    return a->start < b->start ? -1 : a->start > b->start;
}

static void write_out(void)
{
    cuptiActivityFlushAll(1);
    const char *path = getenv("KERNEL_TIMES_OUT");
    FILE *f = path ? fopen(path, "w") : stderr;
    if (!f) { perror(path); return; }
    qsort(recs, nrecs, sizeof *recs, by_start);
    fprintf(f, "seq,name,start_ns,end_ns,grid_x,cluster_x\n");
    for (size_t i = 0; i < nrecs; ++i)
        fprintf(f, "%zu,%s,%llu,%llu,%u,%u\n", i, recs[i].name, recs[i].start, recs[i].end,
                recs[i].grid_x, recs[i].cluster_x);
    if (f != stderr) fclose(f);
}

int InitializeInjection(void)
{
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
        fprintf(stderr, "kernel_times: CUPTI activity tracing could not be enabled\n");
        return 0;
    }
    atexit(write_out);
    return 1;
}

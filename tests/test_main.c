/* test_main.c — `make test`: one Check runner over every suite.
 *
 * CPU suites always run.  GPU suites run only where a CUDA device is present
 * (GEMM ones only on compute capability 9.0); otherwise they are not
 * registered and are listed as SKIP, so a machine without a GPU reports them
 * as skipped, never as passed.  The last line is "N passed, N failed,
 * N skipped". */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "proc.h"

Suite *cpu_suite(void);
Suite *tma_wgmma_suite(void) __attribute__((weak));   /* tests/test_tma_wgmma.c */
Suite *sched_suite(void) __attribute__((weak));       /* tests/test_sched.c */
Suite *cli_suite(int have_gpu);
Suite *gpu_suite(int sm90);
int gpu_suite_count(int sm90);

int main(void)
{
    int sm90 = 0;
    const int have_gpu = gpu_present(&sm90);
    SRunner *sr = srunner_create(cpu_suite());
    if (tma_wgmma_suite) srunner_add_suite(sr, tma_wgmma_suite());
    if (sched_suite) srunner_add_suite(sr, sched_suite());
    srunner_add_suite(sr, cli_suite(have_gpu));
    int skipped = 0;
    if (have_gpu) {
        srunner_add_suite(sr, gpu_suite(sm90));
        if (!sm90) {
            skipped = gpu_suite_count(1) - gpu_suite_count(0);
            printf("SKIP: %d GEMM GPU tests: the device is not compute capability 9.0 (sm_90a)\n", skipped);
        }
    } else {
        skipped = gpu_suite_count(1);
        printf("SKIP: %d GPU tests (steps 01-07 on edge shapes, timelines, planted hangs): "
               "no CUDA device on this machine\n", skipped);
    }
    srunner_run_all(sr, CK_NORMAL);
    const int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("%d passed, %d failed, %d skipped\n", run - failed, failed, skipped);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

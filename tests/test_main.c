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

/* Each CPU suite lives in tests/test_<unit>.c and is named after its unit. */
Suite *pipeline_state_suite(void);
Suite *args_suite(void);
Suite *csv_suite(void);
Suite *tma_suite(void);
Suite *wgmma_desc_suite(void);
Suite *persistent_schedule_suite(void);
Suite *cluster_schedule_suite(void);
Suite *epilogue_swizzle_suite(void);
Suite *smem_layout_suite(void);
Suite *stream_k_schedule_suite(void);
Suite *rotation_suite(void);
Suite *chooser_suite(void);
Suite *tune_cache_suite(void);
/* tests/test_steps_gpu.c */
Suite *cli_suite(int have_gpu);
Suite *gpu_suite(int sm90);
int gpu_suite_count(int sm90);

int main(void)
{
    int sm90 = 0;
    const int have_gpu = gpu_present(&sm90);
    SRunner *sr = srunner_create(pipeline_state_suite());
    srunner_add_suite(sr, args_suite());
    srunner_add_suite(sr, csv_suite());
    srunner_add_suite(sr, rotation_suite());
    srunner_add_suite(sr, tma_suite());
    srunner_add_suite(sr, wgmma_desc_suite());
    srunner_add_suite(sr, persistent_schedule_suite());
    srunner_add_suite(sr, cluster_schedule_suite());
    srunner_add_suite(sr, epilogue_swizzle_suite());
    srunner_add_suite(sr, smem_layout_suite());
    srunner_add_suite(sr, stream_k_schedule_suite());
    srunner_add_suite(sr, chooser_suite());
    srunner_add_suite(sr, tune_cache_suite());
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
        printf("SKIP: %d GPU tests (steps 01-10 on edge shapes, timelines, planted hangs): "
               "no CUDA device on this machine\n", skipped);
    }
    srunner_run_all(sr, CK_NORMAL);
    const int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("%d passed, %d failed, %d skipped\n", run - failed, failed, skipped);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* test_csv.c — common/csv.c: the results-file schema every bench run appends to. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"

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
                                 "ref_value,ratio_to_ref,rel_err,gpu,sm_clock_mhz,cuda_version,git_rev,date,"
                                 "impl,group,cluster,mode,repeat,harness,chooser,config");
    ck_assert_int_eq(count_fields(CSV_HEADER), CSV_COLUMNS);
    char path[] = "/tmp/course_csv_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);   /* a new file: the header must be written */

    csv_row g = {"05", "128x256x64", 4096, 4096, 4096, -1, -1, 4, 0.21, 654.3, 480.0, "cublas",
                 780.1, 0.8387, 3.1e-3, "NVIDIA H100, 80GB", 1755, "runtime 13.0 driver 13.0", "abc123",
                 "2026-11-21T00:00:00Z", "cutlass", 8, 2, "", 3, "fair", "forced", NULL};
    csv_row s = {"03", "default", -1, -1, -1, 1 << 26, 16, 4, 0.2, NAN, 2700.0, "d2d_copy", 3000.0,
                 0.9, 0.0, "NVIDIA H100", NAN, "runtime 13.0 driver 13.0", "abc123", "2026-11-21T00:00:00Z",
                 NULL, 0, 0, NULL, 0, NULL, NULL, NULL};
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
    ck_assert_ptr_nonnull(strstr(line, "NVIDIA H100; 80GB"));
    ck_assert_ptr_nonnull(strstr(line, ",2026-11-21T00:00:00Z,cutlass,8,2,,3,fair,forced,\n"));   /* the run's columns */   /* comma in a text field neutralized */
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(count_fields(line), CSV_COLUMNS);
    ck_assert_ptr_nonnull(strstr(line, "03,default,,,,67108864,16,4,0.200000,,2700.0,d2d_copy,3000.00,0.9000,"));
    ck_assert_ptr_nonnull(strstr(line, ",NVIDIA H100,,runtime"));  /* NaN clock -> empty field */
    ck_assert_ptr_nonnull(strstr(line, ",2026-11-21T00:00:00Z,,,,,,,,\n"));   /* zeroed run columns: empty */
    ck_assert_ptr_null(fgets(line, sizeof line, f));                 /* header written once */
    fclose(f);
    unlink(path);
}
END_TEST

START_TEST(test_csv_unwritable)
{
    csv_row s = {"01", "x", -1, -1, -1, 1, 0, 1, 1, NAN, 1, "d2d_copy", 1, 1, 0, "g", 1, "c", "r", "d",
                 NULL, 0, 0, NULL, 0, NULL, NULL, NULL};
    char msg[256] = "";
    ck_assert_int_eq(csv_append("/nonexistent_dir/x.csv", &s, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "--csv"));
}
END_TEST

/* A file written under an older schema (its header a prefix of today's) gets
 * today's header on the next append, its old rows untouched; a file with a
 * foreign first line is refused, not appended to. */
START_TEST(test_csv_header_upgrade)
{
    char path[] = "/tmp/course_csv_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    const char *old_header = "step,variant,m,n,k,n_elems,work,stages,ms_median,tflops,gbps,ref_name,"
                             "ref_value,ratio_to_ref,rel_err,gpu,sm_clock_mhz,cuda_version,git_rev,date,"
                             "impl,group,cluster,mode,repeat";
    const char *old_row = "01,default,,,,67108864,0,1,0.24,,2228.3,d2d_copy,2977.85,0.7483,0,g,1980,c,r,d,course,,,,";
    fprintf(f, "%s\n%s\n", old_header, old_row);
    fclose(f);
    csv_row g = {"05", "v", 64, 64, 64, -1, -1, 4, 0.1, 1.0, 1.0, "cublas", 1.0, 1.0, 0.0, "g", 1, "c",
                 "r", "d", "course", 0, 1, "", 1, "fair", "default", "64x128"};
    char msg[256] = "";
    ck_assert_int_eq(csv_append(path, &g, msg, sizeof msg), 0);
    f = fopen(path, "r");
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = 0;
    ck_assert_str_eq(line, CSV_HEADER);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = 0;
    ck_assert_str_eq(line, old_row);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(count_fields(line), CSV_COLUMNS);
    ck_assert_ptr_nonnull(strstr(line, ",fair,default,64x128\n"));
    ck_assert_ptr_null(fgets(line, sizeof line, f));
    fclose(f);

    f = fopen(path, "w");
    fprintf(f, "name,value\nx,1\n");
    fclose(f);
    ck_assert_int_eq(csv_append(path, &g, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "header"));
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "name,value\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_ptr_null(fgets(line, sizeof line, f));   /* nothing appended */
    fclose(f);
    unlink(path);
}
END_TEST

Suite *csv_suite(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("csv");
    tcase_add_test(tc, test_csv_schema);
    tcase_add_test(tc, test_csv_unwritable);
    tcase_add_test(tc, test_csv_header_upgrade);
    suite_add_tcase(s, tc);
    return s;
}

/* test_tune_cache.c — the tuning cache (common/tune_cache.h) on the CPU: a
 * stored winner is found under its key only, the last line of a key wins,
 * and a line that does not parse is refused with a message that names the
 * file and the line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_cache.h"

static const char *const menu[3] = {"64x128", "128x128", "128x192"};

START_TEST(test_tune_cache)
{
    char path[] = "/tmp/course_tune_cache_XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char key[768], other[768], cand[128], msg[256] = "";
    const unsigned h = tune_cache_menu_hash(menu, 3);
    ck_assert_uint_ne(h, tune_cache_menu_hash(menu, 2));
    tune_cache_key(key, sizeof key, "NVIDIA H100 80GB HBM3", 132, "13000", h, "abc", 1000, 1000, 2048);
    tune_cache_key(other, sizeof other, "NVIDIA H100 80GB HBM3", 132, "13000", h, "abc", 1000, 1000, 2056);
    ck_assert_ptr_null(strchr(key, ' '));
    ck_assert_int_eq(tune_cache_lookup(path, key, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_MISS);
    ck_assert_int_eq(tune_cache_store(path, key, "64x128/sk_l2", msg, sizeof msg), 0);
    ck_assert_int_eq(tune_cache_lookup(path, key, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_HIT);
    ck_assert_str_eq(cand, "64x128/sk_l2");
    ck_assert_int_eq(tune_cache_lookup(path, other, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_MISS);
    /* the last line of a key wins */
    ck_assert_int_eq(tune_cache_store(path, key, "128x128/dp", msg, sizeof msg), 0);
    ck_assert_int_eq(tune_cache_lookup(path, key, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_HIT);
    ck_assert_str_eq(cand, "128x128/dp");
    /* a line that does not parse: refused, named */
    FILE *f = fopen(path, "a");
    fprintf(f, "garbage\n%s no-slash-here\n", key);
    fclose(f);
    msg[0] = '\0';
    ck_assert_int_eq(tune_cache_lookup(path, key, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_BAD);
    ck_assert_ptr_nonnull(strstr(msg, path));
    /* another key's lookup: a miss, and still a refusal message */
    msg[0] = '\0';
    ck_assert_int_eq(tune_cache_lookup(path, other, cand, sizeof cand, msg, sizeof msg), TUNE_CACHE_MISS);
    ck_assert_ptr_nonnull(strstr(msg, ":4:"));   /* the last line that does not parse, by number */
    unlink(path);
}
END_TEST

Suite *tune_cache_suite(void)
{
    Suite *s = suite_create("tune_cache");
    TCase *tc = tcase_create("tune_cache");
    tcase_add_test(tc, test_tune_cache);
    suite_add_tcase(s, tc);
    return s;
}

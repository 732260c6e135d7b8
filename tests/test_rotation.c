/* test_rotation.c — common/rotation.h: the harness's choice of input sets.
 * What makes the interleaved timing fair: the reference never reads a set the
 * step has just read, each side has sets of its own, and between two reads of
 * one set enough other bytes pass through L2 to evict it (or the harness
 * flushes). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include "rotation.h"

#define MIB (1024.0 * 1024.0)
static const double h100_l2 = 50 * MIB, plenty = 70000 * MIB;

/* Walk 8 x nsets launches in rounds of two whose order alternates (A B, then
 * B A, ...; the harness draws each round's order at random, which balances
 * the same way on average) and check the rules: no launch reads the set the launch before it
 * read; each side reads even and odd sets alike; between two reads of a set,
 * the other sets pass 2 x L2 through the cache (or the harness flushes). */
static void check_walk(rotation_plan p, double bytes, double l2)
{
    const int n = p.nsets, launches = 8 * n;
    long long last_read[ROTATION_MAX_SETS];
    int parity[2][2] = {{0, 0}, {0, 0}};   /* [side][set parity] */
    for (int s = 0; s < ROTATION_MAX_SETS; ++s) last_read[s] = -1;
    for (long long t = 0; t < launches; ++t) {
        const long long round = t / 2;
        const int side = (int)((t % 2) ^ (round % 2));   /* A B, B A, A B ... */
        const int s = rotation_set(t, n);
        ck_assert_int_ge(s, 0);
        ck_assert_int_lt(s, n);
        if (t > 0 && n >= 2) ck_assert_int_ne(s, rotation_set(t - 1, n));
        ++parity[side][s % 2];
        if (last_read[s] >= 0 && !p.flush && n >= 2) {   /* n = 1: shared, memory-bound case */
            const double between = (double)(t - last_read[s] - 1) * bytes;
            ck_assert_msg(between >= 2.0 * l2, "set %d read again after only %.0f bytes", s, between);
        }
        last_read[s] = t;
    }
    if (n >= 2)
        for (int side = 0; side < 2; ++side) ck_assert_int_eq(parity[side][0], parity[side][1]);
}

START_TEST(test_rotation_sizes)
{
    /* bytes of A and B of the bench's shapes, and the tests' tiny ones */
    const double sizes[] = {32, 127 * 72 * 2.0 + 129 * 72 * 2.0, 256 * 256 * 4.0, 512 * 512 * 4.0,
                            1024 * 1024 * 4.0, 2048 * 2048 * 4.0, (512 + 4096) * 4096 * 2.0,
                            4096 * 4096 * 4.0, 8192 * 8192 * 4.0, (1024 + 1024) * 14336 * 2.0};
    for (unsigned j = 0; j < sizeof sizes / sizeof sizes[0]; ++j) {
        const rotation_plan p = rotation_plan_make(sizes[j], h100_l2, plenty);
        ck_assert_int_ge(p.nsets, 2);
        ck_assert_int_eq(p.nsets % 2, 0);
        ck_assert_int_le(p.nsets, ROTATION_MAX_SETS);
        /* either the sets cover 3 x L2, or the harness flushes */
        ck_assert(p.flush || p.nsets * sizes[j] >= ROTATION_COVER_L2 * h100_l2);
        check_walk(p, sizes[j], h100_l2);
    }
}
END_TEST

START_TEST(test_rotation_cases)
{
    /* 512^3: 1 MiB a set; 150 sets cover 3 x 50 MiB, no flush */
    rotation_plan p = rotation_plan_make(1 * MIB, h100_l2, plenty);
    ck_assert_int_eq(p.nsets, 150);
    ck_assert_int_eq(p.flush, 0);
    /* 256^3: 256 KiB; 600 sets would be needed: capped, flushed */
    p = rotation_plan_make(0.25 * MIB, h100_l2, plenty);
    ck_assert_int_eq(p.nsets, ROTATION_MAX_SETS);
    ck_assert_int_eq(p.flush, 1);
    /* 8192^3: 256 MiB, larger than 3 x L2 alone: still two sets, one per side */
    p = rotation_plan_make(256 * MIB, h100_l2, plenty);
    ck_assert_int_eq(p.nsets, 2);
    ck_assert_int_eq(p.flush, 0);
    /* memory for 10 sets of 4 MiB only: 10, even, short of the cover: flushed */
    p = rotation_plan_make(4 * MIB, h100_l2, 41 * MIB);
    ck_assert_int_eq(p.nsets, 10);
    ck_assert_int_eq(p.flush, 1);
    /* room for one set only: both sides share it */
    p = rotation_plan_make(300 * MIB, h100_l2, 500 * MIB);
    ck_assert_int_eq(p.nsets, 1);
    check_walk(p, 300 * MIB, h100_l2);
}
END_TEST

Suite *rotation_suite(void)
{
    Suite *s = suite_create("rotation");
    TCase *tc = tcase_create("rotation");
    tcase_add_test(tc, test_rotation_sizes);
    tcase_add_test(tc, test_rotation_cases);
    suite_add_tcase(s, tc);
    return s;
}

/* test_epilogue_swizzle.c — common/wgmma_desc.h: the 128-byte swizzle offsets of the epilogue's shared-memory staging. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "expect.h"
#include "wgmma_desc.h"

/* ---- 128-byte swizzle offsets ------------------------------------------------------ */

START_TEST(test_sw128_hand)
{
    /* offset = row * 128 + ((col*2/16) ^ (row % 8)) * 16 + (col*2 % 16) */
    static const struct { int row, col; uint32_t off; } cases[] = {
        {0, 0, 0},       {0, 1, 2},       {0, 8, 16},      {0, 63, 126},
        {1, 0, 144},     /* row 1 starts at 128; chunk 0 ^ 1 = 1 */
        {1, 8, 128},     /* chunk 1 ^ 1 = 0 */
        {1, 9, 130},     {2, 17, 258},    {3, 40, 480},    {5, 33, 658},
        {7, 0, 1008},    {7, 63, 910},    {8, 0, 1024},    {9, 5, 1178},
        {63, 0, 8176},   {63, 63, 8078},
    };
    for (int k = 0; k < NELEMS(cases); ++k)
        ck_assert_msg(sw128_offset_bf16(cases[k].row, cases[k].col) == cases[k].off,
                      "(%d, %d) -> %u, expected %u", cases[k].row, cases[k].col,
                      sw128_offset_bf16(cases[k].row, cases[k].col), cases[k].off);
}
END_TEST

START_TEST(test_sw128_bijection)
{
    static int hit[8192];
    memset(hit, 0, sizeof hit);
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) {
            const uint32_t off = sw128_offset_bf16(r, c);
            /* Independent spelling: XOR address bits 4-6 with bits 7-9
             * (CUTLASS's Swizzle<3,4,3>) of the plain row-major offset. */
            const uint32_t lin = (uint32_t)r * 128u + (uint32_t)c * 2u;
            const uint32_t ref = lin ^ (((lin >> 7) & 7u) << 4);
            EXPECT(off == ref, "(%d, %d) -> %u, expected %u", r, c, off, ref);
            EXPECT(off < 8192 && off % 2 == 0, "(%d, %d) -> %u", r, c, off);
            /* Stays in its own 128-byte row. */
            EXPECT(off / 128 == (uint32_t)r, "(%d, %d) -> %u leaves row %d", r, c, off, r);
            ++hit[off];
            if (c % 2 == 0) {   /* a bf16x2 pair: 4-byte aligned, its partner right after */
                EXPECT(off % 4 == 0, "pair (%d, %d) at %u", r, c, off);
                EXPECT(sw128_offset_bf16(r, c + 1) == off + 2, "pair (%d, %d) split", r, c);
            }
        }
    for (int b = 0; b < 8192; ++b)
        EXPECT(hit[b] == (b % 2 == 0), "byte offset %d hit %d times", b, hit[b]);
}
END_TEST

START_TEST(test_sw128_acc_pair_matches)
{
    for (int t = 0; t < 128; ++t)
        for (int i = 0; i < 32; i += 2) {
            const int r = wgmma_acc_row(t, i), c = wgmma_acc_col(t, i);
            const uint32_t got = sw128_acc_pair_offset(t, i), want = sw128_offset_bf16(r, c);
            EXPECT(got == want, "thread %d reg %d (row %d col %d): %u, expected %u", t, i, r, c, got, want);
        }
    /* Hand: thread 5 (lane 5: row 1, cols 2-3) reg 4 (chunk 1): 128 + (1^1)*16 + 4. */
    ck_assert_uint_eq(sw128_acc_pair_offset(5, 4), 132);
    /* thread 37 (warp 1, lane 5) reg 30: row 16+1+8 = 25, chunk 7 ^ 1 = 6, +4. */
    ck_assert_uint_eq(sw128_acc_pair_offset(37, 30), 25 * 128 + 96 + 4);
}
END_TEST

/* Distinct banks among a warp's 32 four-byte stores. */
static int distinct_banks(const uint32_t *off)
{
    int used[32] = {0}, n = 0;
    for (int l = 0; l < 32; ++l) {
        const int bank = (int)((off[l] / 4) % 32);
        if (!used[bank]) { used[bank] = 1; ++n; }
    }
    return n;
}

START_TEST(test_sw128_bank_conflict_free)
{
    for (int w = 0; w < 4; ++w)
        for (int i = 0; i < 32; i += 2) {
            uint32_t sw[32], plain[32];
            for (int l = 0; l < 32; ++l) {
                const int t = 32 * w + l;
                sw[l] = sw128_acc_pair_offset(t, i);
                plain[l] = (uint32_t)wgmma_acc_row(t, i) * 128u + (uint32_t)wgmma_acc_col(t, i) * 2u;
            }
            const int nb = distinct_banks(sw);
            EXPECT(nb == 32, "warp %d reg %d: the 32 stores use %d banks", w, i, nb);
            /* The check can tell: unswizzled, the same stores share 4 banks. */
            const int np = distinct_banks(plain);
            EXPECT(np == 4, "warp %d reg %d: unswizzled layout uses %d banks", w, i, np);
        }
}
END_TEST

Suite *epilogue_swizzle_suite(void)
{
    Suite *s = suite_create("epilogue_swizzle");
    TCase *sw = tcase_create("sw128_epilogue");
    tcase_add_test(sw, test_sw128_hand);
    tcase_add_test(sw, test_sw128_bijection);
    tcase_add_test(sw, test_sw128_acc_pair_matches);
    tcase_add_test(sw, test_sw128_bank_conflict_free);
    suite_add_tcase(s, sw);
    return s;
}

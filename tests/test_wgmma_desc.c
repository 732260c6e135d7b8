/* test_wgmma_desc.c — common/wgmma_desc.h: the WGMMA shared-memory descriptor and the m64nNk16 accumulator fragment. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cuda.h>   /* CU_TENSOR_MAP_SWIZZLE_128B: the tensor map's code, for contrast */
#include <stdint.h>
#include <string.h>

#include "wgmma_desc.h"

/* ---- WGMMA shared-memory descriptor -------------------------------------------- */

START_TEST(test_desc_fields)
{
    /* A tile at shared address 0x400 (1024-aligned). */
    const uint64_t d = wgmma_desc_k_major_sw128(0x400);
    ck_assert_uint_eq(d & 0x3FFF, 0x400 >> 4);            /* start address >> 4, bits 0-13 */
    ck_assert_uint_eq((d >> 16) & 0x3FFF, 1);              /* LBO 16 B (unused for SW128 K-major) */
    ck_assert_uint_eq((d >> 32) & 0x3FFF, 64);             /* SBO 1024 B = 8 rows x 128 B */
    ck_assert_uint_eq((d >> 49) & 7, 0);                   /* base offset: tile starts an atom */
    ck_assert_uint_eq(d >> 62, 1);                         /* 128B swizzle: code 1 ... */
    ck_assert_int_ne((int)(d >> 62), CU_TENSOR_MAP_SWIZZLE_128B);   /* ... not the map's 3 */
    /* Every other bit is zero: the whole word. */
    ck_assert_uint_eq(d, (0x40ull) | (1ull << 16) | (64ull << 32) | (1ull << 62));
    ck_assert_uint_eq(d, 0x4000004000010040ull);

    /* The extraction helpers read back the byte quantities. */
    ck_assert_uint_eq(wgmma_desc_start_bytes(d), 0x400);
    ck_assert_uint_eq(wgmma_desc_lbo_bytes(d), 16);
    ck_assert_uint_eq(wgmma_desc_sbo_bytes(d), 1024);
    ck_assert_uint_eq(wgmma_desc_base_offset(d), 0);
    ck_assert_uint_eq(wgmma_desc_swizzle(d), WGMMA_DESC_SWIZZLE_128B);

    /* The highest tile start a 227 KiB CTA can have still fits 14 bits. */
    const uint64_t hi = wgmma_desc_k_major_sw128(227 * 1024 - 1024);
    ck_assert_uint_eq(wgmma_desc_start_bytes(hi), 227 * 1024 - 1024);
    ck_assert_uint_eq(wgmma_desc_sbo_bytes(hi), 1024);

    /* General encoder round trip. */
    const uint64_t g = wgmma_desc_encode(0x12340, 0x50, 0x800, 3, 2);
    ck_assert_uint_eq(wgmma_desc_start_bytes(g), 0x12340);
    ck_assert_uint_eq(wgmma_desc_lbo_bytes(g), 0x50);
    ck_assert_uint_eq(wgmma_desc_sbo_bytes(g), 0x800);
    ck_assert_uint_eq(wgmma_desc_base_offset(g), 3);
    ck_assert_uint_eq(wgmma_desc_swizzle(g), 2);
    /* Only the low 18 address bits exist in the descriptor. */
    ck_assert_uint_eq(wgmma_desc_start_bytes(wgmma_desc_encode(0x40400, 0, 0, 0, 0)), 0x400);
}
END_TEST

START_TEST(test_desc_k_advance)
{
    /* Step 05's slot layout: A boxes at 16 KiB steps, B boxes after them. */
    const uint32_t tiles[] = {0x0, 0x2000, 0x4000, 0x10000, 0x20000 + 0x8000};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t) {
        const uint64_t d0 = wgmma_desc_k_major_sw128(tiles[t]);
        for (uint32_t kk = 0; kk < 4; ++kk) {
            const uint64_t dk = wgmma_desc_advance(d0, kk * WGMMA_K16_BYTES);
            /* +2 per k16 in the raw word: 16 bf16 = 32 bytes = 2 units of 16 B. */
            ck_assert_uint_eq(dk - d0, 2 * kk);
            ck_assert_uint_eq(wgmma_desc_start_bytes(dk), tiles[t] + 32 * kk);
            /* Nothing else moves: same LBO, SBO, base offset, swizzle. */
            ck_assert_uint_eq(dk >> 14, d0 >> 14);
            /* The XOR's row-in-atom bits (address bits 7-9) are untouched,
             * which is why base offset 0 stays right inside the atom. */
            ck_assert_uint_eq(((tiles[t] + 32 * kk) >> 7) & 7, 0);
        }
        /* Not +16 (elements): that would be 256 bytes, two rows further. */
        ck_assert_uint_eq(wgmma_desc_start_bytes(wgmma_desc_advance(d0, 32)), tiles[t] + 32);
    }
    /* Along M: consumer warpgroup 1's A rows start 64 rows = 8192 B later,
     * a whole number of 1024-byte atoms. */
    const uint64_t a1 = wgmma_desc_k_major_sw128(0x4000 + 64 * WGMMA_SW128_ROW_BYTES);
    ck_assert_uint_eq(wgmma_desc_start_bytes(a1), 0x6000);
    ck_assert_uint_eq((64 * WGMMA_SW128_ROW_BYTES) % WGMMA_SW128_ATOM_BYTES, 0);
    ck_assert_uint_eq(wgmma_desc_base_offset(a1), 0);
}
END_TEST

/* ---- accumulator fragment -------------------------------------------------------- */

START_TEST(test_acc_hand_cases)
{
    /* row = 16 w + l/4 + 8 ((i>>1)&1),  col = 8 (i>>2) + 2 (l%4) + (i&1) */
    static const struct { int t, i, row, col; } cases[] = {
        {0, 0, 0, 0},      {0, 1, 0, 1},      {0, 2, 8, 0},     {0, 3, 8, 1},
        {0, 4, 0, 8},      {0, 127, 8, 249},  {1, 0, 0, 2},     {3, 1, 0, 7},
        {4, 0, 1, 0},      {5, 0, 1, 2},      {5, 6, 9, 10},    {31, 3, 15, 7},
        {32, 0, 16, 0},    {37, 9, 17, 19},   {100, 50, 57, 96}, {127, 126, 63, 254},
        {127, 127, 63, 255},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ck_assert_msg(wgmma_acc_row(cases[k].t, cases[k].i) == cases[k].row,
                      "thread %d reg %d: row %d, expected %d", cases[k].t, cases[k].i,
                      wgmma_acc_row(cases[k].t, cases[k].i), cases[k].row);
        ck_assert_msg(wgmma_acc_col(cases[k].t, cases[k].i) == cases[k].col,
                      "thread %d reg %d: col %d, expected %d", cases[k].t, cases[k].i,
                      wgmma_acc_col(cases[k].t, cases[k].i), cases[k].col);
    }
}
END_TEST

START_TEST(test_acc_covers_tile_once)
{
    /* For each N the course could use: 128 threads x N/2 registers hit every
     * element of the 64 x N tile exactly once. */
    static const int ns[] = {8, 16, 64, 128, 208, 256};
    static unsigned char hits[64][256];
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
        const int n = ns[k];
        memset(hits, 0, sizeof hits);
        for (int t = 0; t < 128; ++t)
            for (int i = 0; i < n / 2; ++i) {
                const int r = wgmma_acc_row(t, i), c = wgmma_acc_col(t, i);
                ck_assert_msg(r >= 0 && r < 64 && c >= 0 && c < n,
                              "N=%d thread %d reg %d -> (%d, %d) outside the tile", n, t, i, r, c);
                ++hits[r][c];
            }
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < n; ++c)
                ck_assert_msg(hits[r][c] == 1, "N=%d: (%d, %d) hit %d times", n, r, c, hits[r][c]);
    }
}
END_TEST

START_TEST(test_acc_pairs_and_warps)
{
    for (int t = 0; t < 128; ++t)
        for (int i = 0; i < 128; i += 2) {
            /* Registers 2j, 2j+1: same row, adjacent columns, the first even
             * (one aligned bf16x2 store in the epilogue). */
            ck_assert_int_eq(wgmma_acc_row(t, i + 1), wgmma_acc_row(t, i));
            ck_assert_int_eq(wgmma_acc_col(t, i + 1), wgmma_acc_col(t, i) + 1);
            ck_assert_int_eq(wgmma_acc_col(t, i) % 2, 0);
            /* Each warp owns 16 consecutive rows. */
            ck_assert_int_eq(wgmma_acc_row(t, i) / 16, t / 32);
        }
}
END_TEST

Suite *wgmma_desc_suite(void)
{
    Suite *s = suite_create("wgmma_desc");
    TCase *desc = tcase_create("wgmma_descriptor");
    tcase_add_test(desc, test_desc_fields);
    tcase_add_test(desc, test_desc_k_advance);
    suite_add_tcase(s, desc);
    TCase *acc = tcase_create("wgmma_accumulator");
    tcase_add_test(acc, test_acc_hand_cases);
    tcase_add_test(acc, test_acc_covers_tile_once);
    tcase_add_test(acc, test_acc_pairs_and_warps);
    suite_add_tcase(s, acc);
    return s;
}

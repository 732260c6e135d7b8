/* test_tma_wgmma.c — the host-checkable half of step 05's hardware contract:
 *   - the tensor-map parameter rules (common/tma.c): each one refused with its
 *     own code and a message naming the rule and the value;
 *   - the WGMMA shared-memory descriptor bit fields and the K advance
 *     (common/wgmma_desc.h), the exact functions the kernels call;
 *   - the m64nNk16 f32 accumulator -> (row, col) mapping the epilogue uses.
 * No GPU and no CUDA call: tma_encode_2d_bf16 is only exercised on inputs it
 * must refuse before it looks for the driver. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tma.h"
#include "wgmma_desc.h"

/* A 1024-aligned stand-in for a device pointer: the checks never dereference
 * the global address, they only look at its alignment. */
static _Alignas(1024) unsigned char fake_gmem[64];

/* The A operand of step 05 at 4096^3: A[4096][4096], boxes of 64 k x 128 rows. */
static tma_2d_desc valid_a(void)
{
    return tma_2d_bf16_row_major(fake_gmem, 4096, 4096, 128, 64, TMA_SWIZZLE_128B);
}

/* Asserts that d is refused with `code` and that the message contains each
 * of the (up to two) fragments. */
static void expect_refusal(const tma_2d_desc *d, int code, const char *frag1, const char *frag2)
{
    char msg[256];
    memset(msg, 'x', sizeof msg);
    const int rc = tma_check_2d_bf16(d, msg, sizeof msg);
    ck_assert_msg(rc == code, "expected code %d, got %d (%s)", code, rc, msg);
    ck_assert_msg(strstr(msg, frag1) != NULL, "message '%s' does not contain '%s'", msg, frag1);
    if (frag2) ck_assert_msg(strstr(msg, frag2) != NULL, "message '%s' does not contain '%s'", msg, frag2);
}

/* ---- tensor-map rules ---------------------------------------------------------- */

START_TEST(test_tma_valid_maps_accepted)
{
    char msg[256] = "stale";
    tma_2d_desc a = valid_a();
    ck_assert_int_eq(tma_check_2d_bf16(&a, msg, sizeof msg), TMA_OK);
    ck_assert_str_eq(msg, "");   /* cleared on success */
    ck_assert_uint_eq(a.row_stride_bytes, 8192);

    /* B of step 05: 256-row boxes (the largest box dimension allowed). */
    tma_2d_desc b = tma_2d_bf16_row_major(fake_gmem, 4096, 4096, 256, 64, TMA_SWIZZLE_128B);
    ck_assert_int_eq(tma_check_2d_bf16(&b, msg, sizeof msg), TMA_OK);

    /* Edge shapes: the box may be larger than the whole matrix (the part
     * outside is zero-filled); K = 8 is the smallest legal row. */
    tma_2d_desc tiny = tma_2d_bf16_row_major(fake_gmem, 1, 8, 128, 64, TMA_SWIZZLE_128B);
    ck_assert_int_eq(tma_check_2d_bf16(&tiny, msg, sizeof msg), TMA_OK);

    /* Unswizzled boxes may be wider than 128 bytes (a TMA-store box). */
    tma_2d_desc wide = tma_2d_bf16_row_major(fake_gmem, 300, 4096, 64, 256, TMA_SWIZZLE_NONE);
    ck_assert_int_eq(tma_check_2d_bf16(&wide, msg, sizeof msg), TMA_OK);

    /* Smaller swizzles with a box row exactly one span wide. */
    tma_2d_desc s64 = tma_2d_bf16_row_major(fake_gmem, 64, 64, 64, 32, TMA_SWIZZLE_64B);
    ck_assert_int_eq(tma_check_2d_bf16(&s64, msg, sizeof msg), TMA_OK);
    tma_2d_desc s32 = tma_2d_bf16_row_major(fake_gmem, 64, 64, 64, 16, TMA_SWIZZLE_32B);
    ck_assert_int_eq(tma_check_2d_bf16(&s32, msg, sizeof msg), TMA_OK);

    /* A padded row stride (a sub-matrix of a wider one) is fine. */
    tma_2d_desc padded = a;
    padded.cols = 1000;   /* 2000 bytes of data in 8192-byte rows */
    ck_assert_int_eq(tma_check_2d_bf16(&padded, msg, sizeof msg), TMA_OK);

    /* Largest dimension allowed: exactly 2^32 rows. */
    tma_2d_desc huge = a;
    huge.rows = 1ull << 32;
    ck_assert_int_eq(tma_check_2d_bf16(&huge, msg, sizeof msg), TMA_OK);

    /* No message buffer: still a verdict, no crash. */
    ck_assert_int_eq(tma_check_2d_bf16(&a, NULL, 0), TMA_OK);
}
END_TEST

START_TEST(test_tma_null_refused)
{
    char msg[128];
    ck_assert_int_eq(tma_check_2d_bf16(NULL, msg, sizeof msg), TMA_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(msg, "NULL"));
    tma_2d_desc d = valid_a();
    d.gaddr = NULL;
    expect_refusal(&d, TMA_ERR_NULL, "global address", "NULL");
}
END_TEST

START_TEST(test_tma_address_alignment_refused)
{
    tma_2d_desc d = valid_a();
    d.gaddr = fake_gmem + 8;   /* 8-byte aligned only */
    expect_refusal(&d, TMA_ERR_ADDR_ALIGN, "16-byte aligned", "8 bytes past");
    d.gaddr = fake_gmem + 16;  /* 16 is enough */
    ck_assert_int_eq(tma_check_2d_bf16(&d, NULL, 0), TMA_OK);
}
END_TEST

START_TEST(test_tma_dims_refused)
{
    tma_2d_desc d = valid_a();
    d.cols = 0;
    expect_refusal(&d, TMA_ERR_DIM, "inner dimension (cols) 0", "between 1 and 2^32");
    d = valid_a();
    d.rows = 0;
    expect_refusal(&d, TMA_ERR_DIM, "outer dimension (rows) 0", "between 1 and 2^32");
    d = valid_a();
    d.rows = (1ull << 32) + 1;
    expect_refusal(&d, TMA_ERR_DIM, "rows) 4294967297", "2^32");
}
END_TEST

START_TEST(test_tma_stride_refused)
{
    /* K = 12: a 24-byte row is not a whole number of 16-byte chunks. */
    tma_2d_desc d = tma_2d_bf16_row_major(fake_gmem, 64, 12, 64, 64, TMA_SWIZZLE_128B);
    expect_refusal(&d, TMA_ERR_STRIDE_ALIGN, "row stride 24 bytes", "multiple of 16");
    d = valid_a();
    d.row_stride_bytes = 200;   /* the probe's example */
    d.cols = 64;
    expect_refusal(&d, TMA_ERR_STRIDE_ALIGN, "row stride 200 bytes", "multiple of 16");
    d = valid_a();
    d.row_stride_bytes = 1ull << 40;
    expect_refusal(&d, TMA_ERR_STRIDE_RANGE, "1099511627776", "below 2^40");
    d = valid_a();
    d.row_stride_bytes = 4096;  /* half of 4096 bf16 */
    expect_refusal(&d, TMA_ERR_STRIDE_SHORT, "row stride 4096 bytes", "at least cols * 2 = 8192");
}
END_TEST

START_TEST(test_tma_box_dims_refused)
{
    tma_2d_desc d = valid_a();
    d.box_rows = 257;
    expect_refusal(&d, TMA_ERR_BOX_DIM, "box rows) 257", "between 1 and 256");
    d.box_rows = 0;
    expect_refusal(&d, TMA_ERR_BOX_DIM, "box rows) 0", "between 1 and 256");
    d = valid_a();
    d.box_cols = 0;
    expect_refusal(&d, TMA_ERR_BOX_DIM, "box cols) 0", "between 1 and 256");
    d.box_cols = 300;
    d.swizzle = TMA_SWIZZLE_NONE;
    expect_refusal(&d, TMA_ERR_BOX_DIM, "box cols) 300", "between 1 and 256");
}
END_TEST

START_TEST(test_tma_box_inner_refused)
{
    tma_2d_desc d = valid_a();
    d.box_cols = 4;   /* 8 bytes */
    expect_refusal(&d, TMA_ERR_BOX_INNER_ALIGN, "box inner extent 8 bytes", "multiple of 16");
    d.box_cols = 60;  /* 120 bytes */
    expect_refusal(&d, TMA_ERR_BOX_INNER_ALIGN, "120 bytes", "multiple of 16");
}
END_TEST

START_TEST(test_tma_swizzle_span_refused)
{
    /* The probe's refusal: 128 bf16 = 256 bytes with SWIZZLE_128B. */
    tma_2d_desc d = valid_a();
    d.box_cols = 128;
    expect_refusal(&d, TMA_ERR_BOX_SWIZZLE_SPAN, "256 bytes", "128-byte swizzle span");
    d.box_cols = 64;
    d.swizzle = TMA_SWIZZLE_64B;
    expect_refusal(&d, TMA_ERR_BOX_SWIZZLE_SPAN, "128 bytes", "64-byte swizzle span");
    d.box_cols = 32;
    d.swizzle = TMA_SWIZZLE_32B;
    expect_refusal(&d, TMA_ERR_BOX_SWIZZLE_SPAN, "64 bytes", "32-byte swizzle span");
    d = valid_a();
    d.swizzle = (tma_swizzle)7;
    expect_refusal(&d, TMA_ERR_SWIZZLE, "swizzle mode 7", "NONE, 32B, 64B, 128B");
}
END_TEST

START_TEST(test_tma_helpers)
{
    tma_2d_desc a = valid_a();
    ck_assert_uint_eq(tma_box_bytes_bf16(&a), 16384);   /* step 05's A box: the expect_tx share */
    tma_2d_desc b = tma_2d_bf16_row_major(fake_gmem, 4096, 4096, 256, 64, TMA_SWIZZLE_128B);
    ck_assert_uint_eq(tma_box_bytes_bf16(&b), 32768);
    /* The full box, even where the matrix is smaller than the box. */
    tma_2d_desc tiny = tma_2d_bf16_row_major(fake_gmem, 1, 8, 128, 64, TMA_SWIZZLE_128B);
    ck_assert_uint_eq(tma_box_bytes_bf16(&tiny), 16384);
    ck_assert_uint_eq(tma_swizzle_span_bytes(TMA_SWIZZLE_NONE), 0);
    ck_assert_uint_eq(tma_swizzle_span_bytes(TMA_SWIZZLE_32B), 32);
    ck_assert_uint_eq(tma_swizzle_span_bytes(TMA_SWIZZLE_64B), 64);
    ck_assert_uint_eq(tma_swizzle_span_bytes(TMA_SWIZZLE_128B), 128);
    /* Our enum follows the driver's numbering. */
    ck_assert_int_eq(TMA_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B);
    ck_assert_int_eq(TMA_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_64B);
    ck_assert_int_eq(TMA_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_32B);
    ck_assert_int_eq(TMA_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE);
}
END_TEST

START_TEST(test_tma_encode_checks_before_driver)
{
    /* Refusals that must come back without any CUDA call, so also here. */
    static CUtensorMap map;   /* 128-byte aligned by its type */
    char msg[256];
    tma_2d_desc d = valid_a();
    d.gaddr = fake_gmem + 4;
    ck_assert_int_eq(tma_encode_2d_bf16(&map, &d, msg, sizeof msg), TMA_ERR_ADDR_ALIGN);
    ck_assert_ptr_nonnull(strstr(msg, "16-byte aligned"));
    d = valid_a();
    d.box_cols = 128;
    ck_assert_int_eq(tma_encode_2d_bf16(&map, &d, msg, sizeof msg), TMA_ERR_BOX_SWIZZLE_SPAN);
    ck_assert_int_eq(tma_encode_2d_bf16(NULL, &d, msg, sizeof msg), TMA_ERR_NULL);
    d = valid_a();
    CUtensorMap *odd = (CUtensorMap *)((unsigned char *)&map + 32);   /* never written */
    ck_assert_int_eq(tma_encode_2d_bf16(odd, &d, msg, sizeof msg), TMA_ERR_MAP_ALIGN);
    ck_assert_ptr_nonnull(strstr(msg, "64-byte aligned"));
}
END_TEST

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

Suite *tma_wgmma_suite(void)
{
    Suite *s = suite_create("tma_wgmma");
    TCase *tma = tcase_create("tensor_map_rules");
    tcase_add_test(tma, test_tma_valid_maps_accepted);
    tcase_add_test(tma, test_tma_null_refused);
    tcase_add_test(tma, test_tma_address_alignment_refused);
    tcase_add_test(tma, test_tma_dims_refused);
    tcase_add_test(tma, test_tma_stride_refused);
    tcase_add_test(tma, test_tma_box_dims_refused);
    tcase_add_test(tma, test_tma_box_inner_refused);
    tcase_add_test(tma, test_tma_swizzle_span_refused);
    tcase_add_test(tma, test_tma_helpers);
    tcase_add_test(tma, test_tma_encode_checks_before_driver);
    suite_add_tcase(s, tma);
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

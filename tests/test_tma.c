/* test_tma.c — common/tma.c: the tensor-map parameter rules (no GPU, no CUDA call). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tma.h"

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

START_TEST(test_tma_l2_promotion)
{
    /* The course's maps: 128-byte promotion, unless this build overrides it
     * (make CC_EXTRA=-DTMA_L2_PROMOTION=..., which reaches this file too). */
#ifndef TMA_L2_PROMOTION
    ck_assert_int_eq(tma_l2_promotion_default(), TMA_L2_PROMOTION_128B);
#else
    ck_assert_uint_eq(tma_l2_promotion_bytes(tma_l2_promotion_default()), TMA_L2_PROMOTION);
#endif
    tma_2d_desc a = valid_a();
    ck_assert_int_eq(a.l2_promotion, tma_l2_promotion_default());

    /* Our enum follows the driver's numbering (tma.c passes it on as is). */
    ck_assert_int_eq(TMA_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE);
    ck_assert_int_eq(TMA_L2_PROMOTION_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
    ck_assert_int_eq(TMA_L2_PROMOTION_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    ck_assert_int_eq(TMA_L2_PROMOTION_256B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);

    /* Bytes both ways: 0 is NONE; anything else but 64/128/256 is refused. */
    static const uint32_t bytes[] = {0, 64, 128, 256};
    for (unsigned i = 0; i < sizeof bytes / sizeof bytes[0]; ++i) {
        tma_l2_promotion p = (tma_l2_promotion)99;
        ck_assert_int_eq(tma_l2_promotion_of_bytes(bytes[i], &p), 0);
        ck_assert_int_eq(p, (tma_l2_promotion)i);
        ck_assert_uint_eq(tma_l2_promotion_bytes(p), bytes[i]);
    }
    tma_l2_promotion p = TMA_L2_PROMOTION_64B;
    ck_assert_int_eq(tma_l2_promotion_of_bytes(32, &p), -1);
    ck_assert_int_eq(tma_l2_promotion_of_bytes(512, &p), -1);
    ck_assert_int_eq(p, TMA_L2_PROMOTION_64B);   /* untouched on refusal */
    ck_assert_uint_eq(tma_l2_promotion_bytes((tma_l2_promotion)4), 0);

    /* Every value is a valid map; a value outside the enum is refused. */
    for (int v = TMA_L2_PROMOTION_NONE; v <= TMA_L2_PROMOTION_256B; ++v) {
        a.l2_promotion = (tma_l2_promotion)v;
        ck_assert_int_eq(tma_check_2d_bf16(&a, NULL, 0), TMA_OK);
    }
    a.l2_promotion = (tma_l2_promotion)4;
    expect_refusal(&a, TMA_ERR_L2_PROMOTION, "L2 promotion 4", "NONE, 64B, 128B, 256B");
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

Suite *tma_suite(void)
{
    Suite *s = suite_create("tma");
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
    tcase_add_test(tma, test_tma_l2_promotion);
    tcase_add_test(tma, test_tma_encode_checks_before_driver);
    suite_add_tcase(s, tma);
    return s;
}

/* test_smem_layout.c — common/smem_layout.h: the one shared-memory layout of
 * steps 05-07 (kernel pointers, host opt-in size, stages that fit).
 *
 * For each step's configuration (the numbers its kernel.cu's SMEM_CONFIG
 * gives; the 227 KiB budget is the H100/H200 opt-in limit) and every stage
 * count that fits: every box and D buffer starts on a 1024-byte swizzle atom,
 * every barrier on 8 bytes, no two regions overlap, the regions lie inside
 * `bytes`, and `total` (with the alignment slack) fits the budget. */
#include <check.h>
#include <stdint.h>

#include "smem_layout.h"

#define KIB 1024u
#define BUDGET (227 * 1024)

typedef struct {
    const char *what;
    smem_config c;
    int stages;       /* what the step's default must get from the budget */
} step_config;

static const step_config STEPS[] = {
    {"step05 128x256x64", {16 * KIB, 32 * KIB, 0}, 4},
    {"step05 64x256x64 (CONSUMER_WGS=1)", {8 * KIB, 32 * KIB, 0}, 5},
    {"step06 128x256x64", {16 * KIB, 32 * KIB, 32 * KIB}, 4},
    {"step07 128x128x64", {16 * KIB, 16 * KIB, 16 * KIB}, 6},
    {"step07 128x192x64 (-DBN=192)", {16 * KIB, 24 * KIB, 16 * KIB}, 5},
    {"step07 64x256x64 (-DWG_M_BLOCKS=1 -DBN=256)", {8 * KIB, 32 * KIB, 16 * KIB}, 5},
    {"step07 128x256x64 (-DBN=256: smem only, its accumulators do not fit)",
     {16 * KIB, 32 * KIB, 16 * KIB}, 4},
    {"step07 64x192x64 (-DWG_M_BLOCKS=1 -DBN=192)", {8 * KIB, 24 * KIB, 16 * KIB}, 6},
    {"step10 64x64", {8 * KIB, 8 * KIB, 16 * KIB}, 8},
    {"step10 64x128", {8 * KIB, 16 * KIB, 16 * KIB}, 8},
    {"step10 128x256c (cooperative: a D pair per warpgroup)", {16 * KIB, 32 * KIB, 32 * KIB}, 4},
};
#define NSTEPS ((int)(sizeof STEPS / sizeof STEPS[0]))

typedef struct { uint32_t start, end; } region;

static void check_layout(const char *what, smem_config c, int stages)
{
    const smem_layout l = smem_layout_of(c, stages);
    const region r[5] = {
        {l.a, l.a + (uint32_t)stages * c.a_box_bytes},
        {l.b, l.b + (uint32_t)stages * c.b_box_bytes},
        {l.d, l.d + c.epi_bytes},
        {l.full, l.full + (uint32_t)stages * 8u},
        {l.empty, l.empty + (uint32_t)stages * 8u},
    };
    for (int s = 0; s < stages; ++s) {
        ck_assert_msg((l.a + s * c.a_box_bytes) % 1024 == 0, "%s: A box %d not on an atom", what, s);
        ck_assert_msg((l.b + s * c.b_box_bytes) % 1024 == 0, "%s: B box %d not on an atom", what, s);
        ck_assert_msg((l.full + 8u * s) % 8 == 0 && (l.empty + 8u * s) % 8 == 0,
                      "%s: barrier %d not 8-byte aligned", what, s);
    }
    ck_assert_msg(l.d % 1024 == 0, "%s: D buffers not on an atom", what);
    for (int i = 0; i < 5; ++i) {
        ck_assert_msg(r[i].end <= l.bytes, "%s: region %d ends past bytes", what, i);
        for (int j = i + 1; j < 5; ++j)
            ck_assert_msg(r[i].end <= r[j].start || r[j].end <= r[i].start,
                          "%s, %d stages: regions %d and %d overlap", what, stages, i, j);
    }
    ck_assert_uint_eq(l.total, l.bytes + SMEM_LAYOUT_ALIGN);
}

START_TEST(every_step_fits_and_is_aligned)
{
    for (int i = 0; i < NSTEPS; ++i) {
        const step_config *s = &STEPS[i];
        ck_assert_msg(smem_layout_valid(s->c), "%s: a box is not a multiple of 1024", s->what);
        const int fit = smem_layout_stages_that_fit(s->c, BUDGET, SMEM_LAYOUT_MAX_STAGES);
        ck_assert_msg(fit == s->stages, "%s: %d stages fit, expected %d", s->what, fit, s->stages);
        for (int st = 1; st <= fit; ++st) {
            check_layout(s->what, s->c, st);
            ck_assert_uint_le(smem_layout_of(s->c, st).total, BUDGET);
        }
        /* one more stage would not fit (unless the cap stopped us) */
        if (fit < SMEM_LAYOUT_MAX_STAGES)
            ck_assert_uint_gt(smem_layout_of(s->c, fit + 1).total, BUDGET);
    }
}
END_TEST

/* The offsets steps 05-07 always used (their SMEM_BYTES macro): the layout
 * changes no address. */
START_TEST(offsets_match_the_steps_formula)
{
    const smem_config c = {16 * KIB, 32 * KIB, 32 * KIB};
    const smem_layout l = smem_layout_of(c, 4);
    ck_assert_uint_eq(l.b, 4 * 16 * KIB);
    ck_assert_uint_eq(l.d, 4 * 48 * KIB);
    ck_assert_uint_eq(l.full, 4 * 48 * KIB + 32 * KIB);
    ck_assert_uint_eq(l.empty, l.full + 32);
    ck_assert_uint_eq(l.total, 1024 + 32 * KIB + 4 * (48 * KIB + 16));
}
END_TEST

START_TEST(budget_edges)
{
    const smem_config c = {16 * KIB, 32 * KIB, 32 * KIB};
    const uint32_t one = smem_layout_of(c, 1).total;
    ck_assert_int_eq(smem_layout_stages_that_fit(c, (int)one - 1, 8), 0);
    ck_assert_int_eq(smem_layout_stages_that_fit(c, (int)one, 8), 1);
    ck_assert_int_eq(smem_layout_stages_that_fit(c, 99 * 1024, 8), 1);
    ck_assert_int_eq(smem_layout_stages_that_fit(c, 227 * 1024, 3), 3);
    /* Exact boundaries: 1024 B slack + 32 KiB epilogue + S x (48 KiB + 16). */
    ck_assert_int_eq(smem_layout_stages_that_fit(c, 1024 + 32768 + 3 * 49168, 8), 3);
    ck_assert_int_eq(smem_layout_stages_that_fit(c, 1024 + 32768 + 3 * 49168 - 1, 8), 2);
    /* The cap: 1 KiB boxes would fit 112 stages in 227 KiB. */
    const smem_config tiny = {KIB, KIB, 0};
    ck_assert_int_eq(smem_layout_stages_that_fit(tiny, 227 * 1024, 8), 8);
    const smem_config odd = {16 * KIB + 512, 32 * KIB, 0};
    ck_assert(!smem_layout_valid(odd));
}
END_TEST

Suite *smem_layout_suite(void)
{
    Suite *s = suite_create("smem_layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, every_step_fits_and_is_aligned);
    tcase_add_test(tc, offsets_match_the_steps_formula);
    tcase_add_test(tc, budget_edges);
    suite_add_tcase(s, tc);
    return s;
}

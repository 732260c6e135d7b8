/* test_pipeline_state.c — common/pipeline_state.h: the ring index/phase the kernels wait on. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>

#include "expect.h"
#include "pipeline_state.h"

/* ---- pipeline_state -------------------------------------------------------- */

/* A model of one slot's mbarrier as the PTX ISA defines it: phase counter
 * plus try_wait.parity(P) = "the phase with parity P has completed", true for
 * the immediately preceding phase. */
typedef struct { unsigned completed; } model_bar;   /* phases completed so far */
static int model_try_wait(const model_bar *b, unsigned parity)
{
    /* current phase = completed; it is incomplete and has parity completed&1.
     * The preceding phase (parity != current) counts as complete. */
    return (b->completed & 1u) != parity;
}

START_TEST(test_start_states)
{
    for (unsigned s = 1; s <= 8; ++s) {
        pipeline_state p = pipeline_producer_start(s), c = pipeline_consumer_start(s);
        ck_assert_uint_eq(p.index, 0); ck_assert_uint_eq(p.phase, 1); ck_assert_uint_eq(p.stages, s);
        ck_assert_uint_eq(c.index, 0); ck_assert_uint_eq(c.phase, 0); ck_assert_uint_eq(c.stages, s);
    }
}
END_TEST

START_TEST(test_producer_first_acquire_passes)
{
    /* On fresh barriers, the producer's first pass over the ring must not
     * block, and its (S+1)-th acquire must (nobody released slot 0 yet). */
    for (unsigned s = 1; s <= 8; ++s) {
        model_bar empty[8] = {{0}};
        pipeline_state p = pipeline_producer_start(s);
        for (unsigned i = 0; i < s; ++i) {
            ck_assert_msg(model_try_wait(&empty[p.index], p.phase),
                          "stages %u: producer acquire %u blocked on a fresh barrier", s, i);
            pipeline_advance(&p);
        }
        ck_assert_msg(!model_try_wait(&empty[p.index], p.phase),
                      "stages %u: producer lapped the consumer", s);
        /* and a consumer starting at phase 0 must block on a fresh full barrier */
        model_bar full = {0};
        pipeline_state c = pipeline_consumer_start(s);
        ck_assert(!model_try_wait(&full, c.phase));
    }
}
END_TEST

START_TEST(test_advance_wraps_and_flips)
{
    for (unsigned s = 1; s <= 8; ++s) {
        pipeline_state p = pipeline_consumer_start(s);
        for (unsigned long long i = 0; i < 10000; ++i) {
            pipeline_state q = pipeline_consumer_at(s, i);
            ck_assert_uint_eq(p.index, q.index);
            ck_assert_uint_eq(p.phase, q.phase);
            ck_assert_uint_eq(p.index, i % s);
            ck_assert_uint_eq(p.phase, (unsigned)((i / s) & 1));
            unsigned before = p.phase, idx = p.index;
            pipeline_advance(&p);
            ck_assert_uint_eq(p.phase != before, idx == s - 1);   /* flips exactly on wrap */
        }
    }
}
END_TEST

START_TEST(test_protocol_simulation)
{
    /* Run the full/empty protocol on the model barriers with a random
     * interleaving of one producer and one consumer: every item is consumed
     * exactly once, in order, never overwritten before it is read, and
     * nobody is ever blocked forever. */
    for (unsigned s = 1; s <= 8; ++s) {
        model_bar full[8] = {{0}}, empty[8] = {{0}};
        int slot_item[8];
        for (int i = 0; i < 8; ++i) slot_item[i] = -1;
        pipeline_state p = pipeline_producer_start(s), c = pipeline_consumer_start(s);
        int produced = 0, consumed = 0, steps = 0;
        const int items = 1000;
        unsigned rng = 12345u + s;
        while (consumed < items) {
            ck_assert_msg(++steps < 100000, "stages %u: deadlock", s);
            rng = rng * 1103515245u + 12345u;
            int pick_producer = (rng >> 16) & 1;
            int p_ready = produced < items && model_try_wait(&empty[p.index], p.phase);
            int c_ready = model_try_wait(&full[c.index], c.phase);
            ck_assert_msg(p_ready || c_ready || produced == items, "stages %u: both sides blocked", s);
            if (pick_producer ? p_ready : (p_ready && !c_ready)) {
                ck_assert_int_eq(slot_item[p.index], -1);          /* WAR: slot was read */
                slot_item[p.index] = produced++;
                full[p.index].completed++;                         /* commit */
                pipeline_advance(&p);
            } else if (c_ready) {
                ck_assert_int_eq(slot_item[c.index], consumed);    /* RAW + order */
                slot_item[c.index] = -1;
                consumed++;
                empty[c.index].completed++;                        /* release */
                pipeline_advance(&c);
            }
        }
    }
}
END_TEST

/* ---- pipeline_advance_by -------------------------------------------------------- */

START_TEST(test_pipeline_advance_by_equals_steps)
{
    for (uint32_t S = 1; S <= 8; ++S)
        for (uint32_t idx = 0; idx < S; ++idx)
            for (uint32_t ph = 0; ph < 2; ++ph)
                for (uint32_t n = 0; n <= 40; ++n) {
                    pipeline_state ref = {idx, ph, S}, got = ref;
                    for (uint32_t k = 0; k < n; ++k) pipeline_advance(&ref);
                    pipeline_advance_by(&got, n);
                    EXPECT(got.index == ref.index && got.phase == ref.phase && got.stages == S,
                           "stages %u from (%u, %u) by %u: (%u, %u), %u single steps give (%u, %u)",
                           S, idx, ph, n, got.index, got.phase, n, ref.index, ref.phase);
                    /* and the closed form: (idx, ph) is iteration ph*S + idx */
                    const pipeline_state c = pipeline_consumer_at(S, (uint64_t)ph * S + idx + n);
                    EXPECT(got.index == c.index && got.phase == c.phase,
                           "stages %u from (%u, %u) by %u: (%u, %u), closed form (%u, %u)",
                           S, idx, ph, n, got.index, got.phase, c.index, c.phase);
                }
    /* From the producer start, S steps come back to slot 0 with phase 0. */
    for (uint32_t S = 1; S <= 8; ++S) {
        pipeline_state p = pipeline_producer_start(S);
        pipeline_advance_by(&p, S);
        ck_assert_uint_eq(p.index, 0);
        ck_assert_uint_eq(p.phase, 0);
    }
    /* Hand cases. */
    pipeline_state s = {3, 0, 4};
    pipeline_advance_by(&s, 1);
    ck_assert(s.index == 0 && s.phase == 1);
    s = (pipeline_state){2, 1, 3};
    pipeline_advance_by(&s, 5);   /* (2,1) (0,0) (1,0) (2,0) (0,1) (1,1) */
    ck_assert(s.index == 1 && s.phase == 1);
    s = (pipeline_state){0, 0, 1};
    pipeline_advance_by(&s, 3);
    ck_assert(s.index == 0 && s.phase == 1);
    s = (pipeline_state){5, 1, 8};
    pipeline_advance_by(&s, 0);
    ck_assert(s.index == 5 && s.phase == 1);
    s = pipeline_consumer_start(6);
    pipeline_advance_by(&s, 12);
    ck_assert(s.index == 0 && s.phase == 0);
    pipeline_advance_by(&s, 6);
    ck_assert(s.index == 0 && s.phase == 1);
}
END_TEST

START_TEST(test_pipeline_pingpong_reads)
{
    /* Step 07: consumer warpgroup c advances by c*KT first; per tile it reads
     * KT k-tiles one step at a time, then skips its partner's KT.  The
     * producer fills the ring in the CTA's tile order, so WG c's j-th tile
     * (the CTA's tile 2j + c) must start at read iteration (2j + c) * KT. */
    for (uint32_t S = 1; S <= 8; ++S)
        for (uint32_t KT = 1; KT <= 70; ++KT)
            for (uint32_t c = 0; c < 2; ++c) {
                pipeline_state rd = pipeline_consumer_start(S);
                pipeline_advance_by(&rd, c * KT);
                for (uint32_t j = 0; j < 10; ++j) {
                    for (uint32_t kt = 0; kt < KT; ++kt) {
                        const uint64_t it = (uint64_t)(2 * j + c) * KT + kt;
                        EXPECT(rd.index == it % S && rd.phase == (uint32_t)((it / S) & 1u),
                               "stages %u KT %u WG %u tile %u k-tile %u: (%u, %u), expected iteration %llu",
                               S, KT, c, j, kt, rd.index, rd.phase, (unsigned long long)it);
                        pipeline_advance(&rd);
                    }
                    pipeline_advance_by(&rd, KT);
                }
            }
}
END_TEST

Suite *pipeline_state_suite(void)
{
    Suite *s = suite_create("pipeline_state");
    TCase *tc = tcase_create("pipeline_state");
    tcase_add_test(tc, test_start_states);
    tcase_add_test(tc, test_producer_first_acquire_passes);
    tcase_add_test(tc, test_advance_wraps_and_flips);
    tcase_add_test(tc, test_protocol_simulation);
    suite_add_tcase(s, tc);
    TCase *pl = tcase_create("pipeline_advance_by");
    tcase_add_test(pl, test_pipeline_advance_by_equals_steps);
    tcase_add_test(pl, test_pipeline_pingpong_reads);
    suite_add_tcase(s, pl);
    return s;
}

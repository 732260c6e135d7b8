/* work_cover.h — a ledger of (output tile, k-tile) pairs for the schedule
 * tests: every work unit a walk hands out is entered, and the ledger then
 * says whether each pair of the matrix was computed exactly once.
 *
 * This is the property a GEMM's schedule must have whatever else it does: a
 * pair taken twice adds its product twice into D (or into a stream-K
 * partial), a pair never taken leaves a hole that a tolerance may hide, and a
 * unit outside the matrix or outside [0, k_tiles) is a schedule bug even
 * where TMA's zero fill would make it harmless.  The tests of
 * persistent_schedule.h, cluster_schedule.h and stream_k_schedule.h all
 * count through the work_unit, the one thing the kernels are handed, and
 * each also feeds the ledger a broken walk to show that it notices. */
#ifndef TESTS_WORK_COVER_H
#define TESTS_WORK_COVER_H

#include <string.h>

#include "persistent_schedule.h"

typedef struct {
    unsigned char *count;   /* per (tile_m, tile_n, k): units that computed it, saturating at 2 */
    int tiles_m, tiles_n, kt;
    long outside;           /* k-tiles of units that lie outside the matrix or [0, kt) */
    long empty;             /* units with k_end <= k_begin: a step the kernel would take for nothing */
} work_cover;

/* buf must hold tiles_m * tiles_n * kt bytes; returns 0 if it does not. */
static inline int cover_init(work_cover *c, unsigned char *buf, size_t cap, int tiles_m, int tiles_n, int kt)
{
    const size_t need = (size_t)tiles_m * (size_t)tiles_n * (size_t)kt;
    if (need > cap) return 0;
    memset(buf, 0, need);
    c->count = buf;
    c->tiles_m = tiles_m;
    c->tiles_n = tiles_n;
    c->kt = kt;
    c->outside = 0;
    c->empty = 0;
    return 1;
}

static inline void cover_add(work_cover *c, const work_unit *u)
{
    if (u->k_end <= u->k_begin) {
        ++c->empty;
        return;
    }
    const int in_matrix = u->tile_m >= 0 && u->tile_m < c->tiles_m && u->tile_n >= 0 && u->tile_n < c->tiles_n;
    for (int k = u->k_begin; k < u->k_end; ++k) {
        if (!in_matrix || k < 0 || k >= c->kt) {
            ++c->outside;
            continue;
        }
        const size_t tile = (size_t)u->tile_m * (size_t)c->tiles_n + (size_t)u->tile_n;
        unsigned char *n = &c->count[tile * (size_t)c->kt + (size_t)k];
        if (*n < 2) ++*n;
    }
}

/* Faults: pairs not computed exactly once, plus k-tiles outside, plus empty
 * units.  *first (if not NULL) gets the first such pair's index
 * ((tile_m * tiles_n + tile_n) * kt + k), or -1 if the fault is not a pair. */
static inline long cover_faults(const work_cover *c, long *first)
{
    const long pairs = (long)c->tiles_m * c->tiles_n * c->kt;
    long bad = c->outside + c->empty;
    if (first) *first = -1;
    for (long i = 0; i < pairs; ++i)
        if (c->count[i] != 1) {
            if (first && *first < 0) *first = i;
            ++bad;
        }
    return bad;
}

#endif

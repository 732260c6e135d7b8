/* stream_k_schedule.h — SHIM (replaced at merge by the scheduler split) */
#ifndef COMMON_STREAM_K_SCHEDULE_H
#define COMMON_STREAM_K_SCHEDULE_H
#include "cluster_schedule.h"
TILE_SCHED_FN work_unit sk_walk_unit(const sk_plan *p, const sk_walk *w, const cluster_sched *c, int rank)
{
    const sk_work pc = sk_walk_work(p, w);
    work_unit u;
    u.tile = pc.tile;
    cluster_sched_coords(c, pc.tile, rank, &u.tile_m, &u.tile_n);
    u.k_begin = pc.k_begin;
    u.k_end = pc.k_end;
    return u;
}
TILE_SCHED_FN int sk_unit_writes(const sk_plan *p, const work_unit *u) { (void)p; return u->k_begin > 0; }
TILE_SCHED_FN int sk_unit_waits(const sk_plan *p, const work_unit *u) { return u->k_begin == 0 && u->k_end < p->kt; }
#endif

/* cluster_schedule.h — SHIM (replaced at merge by the scheduler split) */
#ifndef COMMON_CLUSTER_SCHEDULE_H
#define COMMON_CLUSTER_SCHEDULE_H
#include "persistent_schedule.h"
TILE_SCHED_FN work_unit cluster_unit(const cluster_sched *c, int idx, int rank, int k_tiles)
{
    work_unit u;
    u.tile = idx;
    cluster_sched_coords(c, idx, rank, &u.tile_m, &u.tile_n);
    u.k_begin = 0;
    u.k_end = k_tiles;
    return u;
}
TILE_SCHED_FN int cluster_unit_stores(const cluster_sched *c, const work_unit *u)
{
    return u->tile_m < c->tiles_m && u->tile_n < c->tiles_n;
}
#endif

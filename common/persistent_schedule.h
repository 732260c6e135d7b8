/* persistent_schedule.h — SHIM (replaced at merge by the scheduler split) */
#ifndef COMMON_PERSISTENT_SCHEDULE_H
#define COMMON_PERSISTENT_SCHEDULE_H
#include "tile_scheduler.h"
#include "work_unit.h"
TILE_SCHED_FN work_unit persistent_unit(const tile_sched *s, int idx, int k_tiles)
{
    work_unit u;
    u.tile = idx;
    tile_sched_coords(s, idx, &u.tile_m, &u.tile_n);
    u.k_begin = 0;
    u.k_end = k_tiles;
    return u;
}
#endif

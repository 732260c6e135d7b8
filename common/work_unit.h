/* work_unit.h — SHIM (replaced at merge by the scheduler split) */
#ifndef COMMON_WORK_UNIT_H
#define COMMON_WORK_UNIT_H
typedef struct {
    int tile;
    int tile_m, tile_n;
    int k_begin, k_end;
} work_unit;
#endif

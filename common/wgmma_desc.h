/* wgmma_desc.h — how a warpgroup MMA finds its operands in shared memory, and
 * where its results land in registers.  Shared by the kernels (steps 05-09)
 * and the CPU tests: HD is __host__ __device__ under nvcc, nothing under gcc.
 *
 * 1. The shared-memory matrix descriptor
 * --------------------------------------
 * wgmma.mma_async reads A and B straight from shared memory.  Instead of
 * addresses it takes, per operand, a 64-bit descriptor of the tile's layout:
 *
 *   bits  0-13  start address, (addr & 0x3FFFF) >> 4   (16-byte units)
 *   bits 16-29  leading-dimension byte offset (LBO) >> 4
 *   bits 32-45  stride-dimension byte offset (SBO) >> 4
 *   bits 49-51  base offset (where the swizzle pattern starts)
 *   bits 62-63  swizzle: 0 none, 1 = 128B, 2 = 64B, 3 = 32B
 *   other bits  0
 *
 * The course's tiles are K-major (K contiguous: a row of A or of B is one
 * row of the tile) and were stored by TMA with SWIZZLE_128B from a box 64
 * bf16 = 128 bytes wide.  In that layout:
 *   - each row is 128 bytes, and the 16-byte chunk c of row r sits at chunk
 *     c ^ (r % 8): the pattern repeats every 8 rows = 1024 bytes (one "atom");
 *   - SBO = the distance between consecutive 8-row groups = 8 * 128 = 1024 B;
 *   - LBO is unused for swizzled K-major layouts (the K extent of one wgmma,
 *     16 elements = 32 bytes, never leaves the 128-byte row); by convention 1
 *     (16 bytes) is written;
 *   - base offset 0, because every tile starts on a 1024-byte boundary;
 *   - swizzle code 1.  NOT 3: CU_TENSOR_MAP_SWIZZLE_128B is 3 in the tensor
 *     map's enum, 128B is 1 in the descriptor's.  Same pattern, two spellings.
 *
 * Walking along K: a k16 step is 16 bf16 = 32 bytes further along each row,
 * i.e. +2 in the start-address field (+2, +4, +6 for the 4 steps of a
 * 64-wide k-tile).  This works because the hardware applies the swizzle XOR
 * to the address it computes (start + row offsets), and +32/+64/+96 leave
 * address bits 7-9 (the row-in-atom bits the XOR reads) untouched.
 * Walking along M or N: 64 rows = 64 * 128 = 8192 bytes, a whole number of
 * atoms, so base offset stays 0.
 *
 * 2. The accumulator fragment of wgmma.m64nNk16 with f32 accumulators
 * --------------------------------------------------------------------
 * A 64 x N f32 result is spread over the 128 threads of the warpgroup, N/2
 * registers each (N = 256: 128 registers).  Thread t (warp w = t / 32,
 * lane l = t % 32) holds in register i:
 *
 *   row = 16 w + l / 4 + 8 ((i >> 1) & 1)
 *   col = 8 (i >> 2) + 2 (l % 4) + (i & 1)
 *
 * Each warp owns 16 rows.  Registers come in pairs of adjacent columns
 * (d[2j], d[2j+1]), which the epilogue packs into one bf16x2; every group of
 * four registers covers an 8-column block on two rows, r0 and r0 + 8. */
#ifndef COMMON_WGMMA_DESC_H
#define COMMON_WGMMA_DESC_H

#include <stdint.h>
#include "hd.h"

/* Under gcc HD is empty: add `inline` so that a test using only some of
 * these helpers does not warn about the others. */
#if defined(__CUDACC__)
#define WGMMA_DESC_FN static HD
#else
#define WGMMA_DESC_FN static inline HD
#endif

#define WGMMA_SW128_ROW_BYTES 128u    /* one K-major row: 64 bf16 */
#define WGMMA_SW128_ATOM_BYTES 1024u  /* 8 rows: the swizzle pattern's period */
#define WGMMA_K16_BYTES 32u           /* 16 bf16 along K: one wgmma's K */
#define WGMMA_DESC_SWIZZLE_128B 1u    /* descriptor code; the tensor map's is 3 */

/* Any descriptor, from byte quantities.  Addresses and offsets are encoded
 * in 16-byte units; the shared window is below 2^18 bytes. */
WGMMA_DESC_FN uint64_t wgmma_desc_encode(uint32_t smem_addr, uint32_t lbo_bytes,
                                         uint32_t sbo_bytes, uint32_t base_offset,
                                         uint32_t swizzle_code)
{
    uint64_t d = 0;
    d |= (uint64_t)((smem_addr & 0x3FFFFu) >> 4);
    d |= (uint64_t)((lbo_bytes & 0x3FFFFu) >> 4) << 16;
    d |= (uint64_t)((sbo_bytes & 0x3FFFFu) >> 4) << 32;
    d |= (uint64_t)(base_offset & 7u) << 49;
    d |= (uint64_t)(swizzle_code & 3u) << 62;
    return d;
}

/* The one descriptor the course uses: a K-major bf16 tile with 128-byte rows
 * as TMA stores it with SWIZZLE_128B, starting on a 1024-byte boundary. */
WGMMA_DESC_FN uint64_t wgmma_desc_k_major_sw128(uint32_t smem_addr)
{
    return wgmma_desc_encode(smem_addr, 16u, 8u * WGMMA_SW128_ROW_BYTES, 0u,
                             WGMMA_DESC_SWIZZLE_128B);
}

/* Moves the start address by `bytes` (a multiple of 16): +32 per k16 step,
 * i.e. +2 in the low field.  The caller keeps start + bytes inside the
 * shared window, so the 14-bit field cannot carry into the next one. */
WGMMA_DESC_FN uint64_t wgmma_desc_advance(uint64_t desc, uint32_t bytes)
{
    return desc + (uint64_t)(bytes >> 4);
}

/* Field extraction, in bytes where the field is a byte quantity (tests). */
WGMMA_DESC_FN uint32_t wgmma_desc_start_bytes(uint64_t d) { return (uint32_t)(d & 0x3FFFu) << 4; }
WGMMA_DESC_FN uint32_t wgmma_desc_lbo_bytes(uint64_t d) { return (uint32_t)((d >> 16) & 0x3FFFu) << 4; }
WGMMA_DESC_FN uint32_t wgmma_desc_sbo_bytes(uint64_t d) { return (uint32_t)((d >> 32) & 0x3FFFu) << 4; }
WGMMA_DESC_FN uint32_t wgmma_desc_base_offset(uint64_t d) { return (uint32_t)(d >> 49) & 7u; }
WGMMA_DESC_FN uint32_t wgmma_desc_swizzle(uint64_t d) { return (uint32_t)(d >> 62) & 3u; }

/* Where register i of warpgroup thread t (0..127) sits in the 64 x N tile of
 * an m64nNk16 f32 accumulator (i in 0 .. N/2 - 1). */
WGMMA_DESC_FN int wgmma_acc_row(int t, int i)
{
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i >> 1) & 1);
}

WGMMA_DESC_FN int wgmma_acc_col(int t, int i)
{
    return 8 * (i >> 2) + 2 * (t % 4) + (i & 1);
}

/* 3. The 128-byte swizzle as a byte offset
 * ----------------------------------------
 * Element (row, col) of a bf16 tile with 128-byte rows (64 columns) that TMA
 * reads or writes with SWIZZLE_128B from a 1024-byte aligned base: the
 * 16-byte chunk index of the column is XORed with row % 8.  Steps 06-07 write
 * their epilogue tile this way before a TMA store.  Bonus: the 8 rows a warp
 * writes at once land in 8 different chunks, so the 32 lanes' 4-byte stores
 * hit 32 different banks. */
WGMMA_DESC_FN uint32_t sw128_offset_bf16(int row, int col)
{
    const uint32_t byte = (uint32_t)col * 2u;
    return (uint32_t)row * WGMMA_SW128_ROW_BYTES + ((((byte >> 4) ^ (uint32_t)row) & 7u) << 4) +
           (byte & 15u);
}

/* The same offset for accumulator pair (i, i+1) of warpgroup thread t, in the
 * 64-column sub-tile that holds it (i counted from the sub-tile's first
 * register, 0..31).  Worked out once: the pair's row is r0 + 8 h with
 * r0 = 16 (t / 32) + (t % 32) / 4 and h = (i / 2) % 2, so row % 8 = (t % 32) / 4
 * for every register of the thread, and its 16-byte chunk is i / 4.  The
 * kernels use this form: a per-thread base plus one XOR per chunk, cheap
 * enough that the compiler need not keep 32 precomputed offsets alive in
 * registers.  tests/test_epilogue_swizzle.c checks it against sw128_offset_bf16. */
WGMMA_DESC_FN uint32_t sw128_acc_pair_offset(int t, int i)
{
    const uint32_t lane = (uint32_t)t % 32u;
    const uint32_t base = (16u * ((uint32_t)t / 32u) + lane / 4u) * WGMMA_SW128_ROW_BYTES + 4u * (lane % 4u);
    const uint32_t h = ((uint32_t)i >> 1) & 1u, chunk = (uint32_t)i >> 2;
    return base + h * 8u * WGMMA_SW128_ROW_BYTES + ((chunk ^ (lane / 4u)) << 4);
}

#endif

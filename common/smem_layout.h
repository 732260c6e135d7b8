/* smem_layout.h — one description of a TMA/WGMMA step's shared memory, for
 * the kernel (its pointers), the host (the opt-in size, the stages that fit)
 * and the tests (tests/test_smem_layout.c), so the three cannot disagree.
 *
 * From a base rounded up to SMEM_LAYOUT_ALIGN bytes:
 *
 *   offset a      A boxes   stages x a_box_bytes     stage s at a + s * a_box_bytes
 *   offset b      B boxes   stages x b_box_bytes     stage s at b + s * b_box_bytes
 *   offset d      D buffers epi_bytes (0: none)      the epilogue's own staging area
 *   offset full   full[s]   stages x 8 bytes         mbarriers: 8-byte aligned
 *   offset empty  empty[s]  stages x 8 bytes
 *   bytes         end of the last barrier
 *   total         bytes + SMEM_LAYOUT_ALIGN: what the kernel asks for, because
 *                 the dynamic window is only 16-byte aligned and the kernel
 *                 rounds its base up by as much as 1008 bytes
 *
 * Why 1024: TMA's 128B swizzle XORs a row's 16-byte chunk index with address
 * bits 7..9 (the row within an 8-row, 1024-byte atom), and the wgmma
 * descriptor says "base offset 0", i.e. "my tile starts an atom".  A box that
 * started elsewhere would be swizzled with a different phase than the one
 * wgmma assumes: no error, just wrong products.  So every box size must be a
 * multiple of 1024 (smem_layout_valid checks it; the test checks every step's
 * configuration).
 *
 * The boxes come first so that every A, B and D region starts on an atom
 * without padding; the barriers, which need only 8 bytes, go last.  Plain C
 * (HD = __host__ __device__ under nvcc); the offsets are those steps 05-09
 * always used, so the kernels' address arithmetic is unchanged. */
#ifndef COMMON_SMEM_LAYOUT_H
#define COMMON_SMEM_LAYOUT_H

#include <stdint.h>
#include "hd.h"

#if defined(__CUDACC__)
#define SMEM_LAYOUT_FN static HD
#else
#define SMEM_LAYOUT_FN static inline HD
#endif

#define SMEM_LAYOUT_ALIGN 1024      /* SWIZZLE_128B atom: 8 rows x 128 B */
#ifndef SMEM_LAYOUT_MAX_STAGES      /* a step may raise it before including this (step 10: 16) */
#define SMEM_LAYOUT_MAX_STAGES 8    /* step 03's ceiling; the budget usually decides first */
#endif

/* What a step's tile fixes; the stage count is the run-time part. */
typedef struct {
    uint32_t a_box_bytes;   /* one stage's A box: BM rows x 128 B */
    uint32_t b_box_bytes;   /* one stage's B box: BN rows x 128 B */
    uint32_t epi_bytes;     /* the epilogue's staging buffers, 0 for none (step 05) */
} smem_config;

typedef struct {
    uint32_t a, b, d, full, empty;   /* offsets from the aligned base */
    uint32_t bytes;                  /* end of the last barrier */
    uint32_t total;                  /* dynamic shared memory to request */
} smem_layout;

SMEM_LAYOUT_FN smem_layout smem_layout_of(smem_config c, int stages)
{
    const uint32_t s = (uint32_t)stages;
    smem_layout l;
    l.a = 0;
    l.b = s * c.a_box_bytes;
    l.d = s * (c.a_box_bytes + c.b_box_bytes);
    l.full = l.d + c.epi_bytes;
    l.empty = l.full + s * 8u;
    l.bytes = l.empty + s * 8u;
    l.total = l.bytes + SMEM_LAYOUT_ALIGN;
    return l;
}

/* 1 when every box and buffer starts on a swizzle atom (see above). */
SMEM_LAYOUT_FN int smem_layout_valid(smem_config c)
{
    return c.a_box_bytes % SMEM_LAYOUT_ALIGN == 0 && c.b_box_bytes % SMEM_LAYOUT_ALIGN == 0 &&
           c.epi_bytes % SMEM_LAYOUT_ALIGN == 0 && c.a_box_bytes > 0 && c.b_box_bytes > 0;
}

/* The most stages whose layout fits in `budget` bytes (a device's
 * cudaDevAttrMaxSharedMemoryPerBlockOptin), at most max_stages; 0 when not
 * even one does. */
SMEM_LAYOUT_FN int smem_layout_stages_that_fit(smem_config c, int budget, int max_stages)
{
    int s = 0;
    while (s < max_stages && smem_layout_of(c, s + 1).total <= (uint32_t)budget) ++s;
    return s;
}

#if defined(__CUDACC__)
/* The kernel's view: shared-window addresses (what TMA and wgmma take) and
 * generic pointers (what st.shared and the mbarrier wrappers take). */
typedef struct {
    uint32_t a, b, d;          /* shared-window addresses of the A ring, B ring, D buffers */
    unsigned char *d_ptr;      /* the D buffers as a generic pointer */
    uint64_t *full, *empty;    /* the ring's barriers */
} smem_ring;

/* Round the dynamic window up to the atom and place every region. */
static __device__ __forceinline__ smem_ring smem_ring_carve(smem_config c, int stages)
{
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem_raw);
    unsigned char *base =
        smem_raw + ((SMEM_LAYOUT_ALIGN - (raw & (SMEM_LAYOUT_ALIGN - 1))) & (SMEM_LAYOUT_ALIGN - 1));
    const smem_layout l = smem_layout_of(c, stages);
    const uint32_t s = (uint32_t)__cvta_generic_to_shared(base);
    smem_ring r;
    r.a = s + l.a;
    r.b = s + l.b;
    r.d = s + l.d;
    r.d_ptr = base + l.d;
    r.full = (uint64_t *)(base + l.full);
    r.empty = r.full + stages;   /* = base + l.empty, spelled so the compiler sees the pairing */
    return r;
}
#endif

#endif

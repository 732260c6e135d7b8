/* tma.h — describing a row-major bf16 matrix to the Tensor Memory Accelerator.
 *
 * A TMA load is one instruction that copies a whole 2-D box (say 64 columns x
 * 128 rows) from global to shared memory.  The hardware needs to know the
 * matrix's shape, row stride, box and shared-memory swizzle: that description
 * is a 128-byte CUtensorMap that the host builds once with the driver's
 * cuTensorMapEncodeTiled and the kernel receives as a __grid_constant__
 * parameter (steps 05-09).
 *
 * The driver's answer to a bad parameter is CUDA_ERROR_INVALID_VALUE with no
 * hint of which one.  So the rules from cuda.h are checked here first, in
 * plain C, by tma_check_2d_bf16(), which tests/ call without a GPU; each
 * refusal returns its own code and a message that names the rule and the
 * offending value.  tma_encode_2d_bf16() runs the same checks, then calls the
 * driver.
 *
 * Coordinates are innermost first, everywhere: for a matrix X[rows][cols]
 * (cols contiguous) the driver gets globalDim = {cols, rows}, the box is
 * {box_cols, box_rows} and a kernel asks for the box at {col, row}.
 *
 * Shared-memory side (not checkable here; the kernel's job, see tma.cuh):
 *   - the destination of a load must be 128-byte aligned.  SWIZZLE_128B
 *     XORs by address bits 7..9, so its pattern repeats every 1024 bytes
 *     (8 rows x 128 B); a box that starts on a 1024-byte boundary starts the
 *     pattern, which is what the course's WGMMA descriptors assume (base
 *     offset 0, wgmma_desc.h);
 *   - a box lands as box_rows rows of box_cols*2 bytes, swizzled;
 *   - out-of-bounds box elements are written as zeros and still counted:
 *     the mbarrier always receives box_rows*box_cols*2 bytes.
 *
 * Plain C11 (tma.c is compiled by gcc); cuda.h is included for the types only
 * and no libcuda is linked: the driver function is found at run time through
 * cudaGetDriverEntryPointByVersion. */
#ifndef COMMON_TMA_H
#define COMMON_TMA_H

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shared-memory swizzle of the box.  Our own names, so that nobody confuses
 * them with the WGMMA descriptor's swizzle codes (128B is 3 here, as in
 * CU_TENSOR_MAP_SWIZZLE_128B, and 1 in a WGMMA descriptor: wgmma_desc.h). */
typedef enum {
    TMA_SWIZZLE_NONE = 0,
    TMA_SWIZZLE_32B = 1,
    TMA_SWIZZLE_64B = 2,
    TMA_SWIZZLE_128B = 3
} tma_swizzle;

/* L2 promotion: cuda.h calls it the L2 fetch size, "the byte granularity at
 * which L2 requests are filled from DRAM".  Numbered as the driver's
 * CU_TENSOR_MAP_L2_PROMOTION_* (tests/ check it).  Every map the course
 * builds uses 128B, as CUTLASS does; tma.c's default can be changed at build
 * time, for experiments only (plots/results/odd_k/README.md):
 *     make ... CC_EXTRA=-DTMA_L2_PROMOTION=0|64|128|256 */
typedef enum {
    TMA_L2_PROMOTION_NONE = 0,
    TMA_L2_PROMOTION_64B = 1,
    TMA_L2_PROMOTION_128B = 2,
    TMA_L2_PROMOTION_256B = 3
} tma_l2_promotion;

/* A row-major bf16 matrix X[rows][cols] in global memory and the box that
 * one TMA instruction moves. */
typedef struct {
    const void *gaddr;          /* &X[0][0] */
    uint64_t rows;              /* outer dimension (globalDim[1]) */
    uint64_t cols;              /* inner, contiguous dimension (globalDim[0]) */
    uint64_t row_stride_bytes;  /* bytes from X[r][0] to X[r+1][0] (globalStrides[0]) */
    uint32_t box_rows;          /* boxDim[1] */
    uint32_t box_cols;          /* boxDim[0] */
    tma_swizzle swizzle;
    tma_l2_promotion l2_promotion;  /* tma_2d_bf16_row_major: tma_l2_promotion_default() */
} tma_2d_desc;

/* Return codes: one per rule, so a test can tell which rule refused. */
enum {
    TMA_OK = 0,
    TMA_ERR_NULL,               /* desc, map or global address is NULL */
    TMA_ERR_ADDR_ALIGN,         /* global address not 16-byte aligned */
    TMA_ERR_DIM,                /* rows or cols outside 1 .. 2^32 */
    TMA_ERR_STRIDE_ALIGN,       /* row stride not a multiple of 16 bytes */
    TMA_ERR_STRIDE_RANGE,       /* row stride >= 2^40 bytes */
    TMA_ERR_STRIDE_SHORT,       /* row stride < cols * 2 (rows would overlap) */
    TMA_ERR_BOX_DIM,            /* a box dimension outside 1 .. 256 */
    TMA_ERR_BOX_INNER_ALIGN,    /* box_cols * 2 not a multiple of 16 bytes */
    TMA_ERR_BOX_SWIZZLE_SPAN,   /* box_cols * 2 larger than the swizzle span */
    TMA_ERR_SWIZZLE,            /* not one of the tma_swizzle values */
    TMA_ERR_MAP_ALIGN,          /* CUtensorMap object not 64-byte aligned */
    TMA_ERR_DRIVER,             /* cuTensorMapEncodeTiled could not be found */
    TMA_ERR_ENCODE,             /* the driver refused the parameters */
    TMA_ERR_L2_PROMOTION        /* not one of the tma_l2_promotion values */
};

/* Fills a descriptor for a dense row-major bf16 matrix (stride = cols * 2),
 * with the build's L2 promotion (tma_l2_promotion_default). */
tma_2d_desc tma_2d_bf16_row_major(const void *gaddr, uint64_t rows, uint64_t cols,
                                  uint32_t box_rows, uint32_t box_cols, tma_swizzle swizzle);

/* Bytes one box occupies in shared memory, and the bytes the TMA unit
 * reports to the mbarrier for it, at the matrix edges too:
 * box_rows * box_cols * 2. */
uint32_t tma_box_bytes_bf16(const tma_2d_desc *d);

/* 32, 64 or 128 for the swizzled modes; 0 for TMA_SWIZZLE_NONE or unknown. */
uint32_t tma_swizzle_span_bytes(tma_swizzle s);

/* 0, 64, 128 or 256 for the promotion values; 0 for an unknown one too. */
uint32_t tma_l2_promotion_bytes(tma_l2_promotion p);

/* The promotion of `bytes` (0, 64, 128 or 256) in *out: 0 on success, -1 for
 * any other byte count (*out untouched). */
int tma_l2_promotion_of_bytes(uint32_t bytes, tma_l2_promotion *out);

/* What tma_2d_bf16_row_major puts in l2_promotion: TMA_L2_PROMOTION_128B
 * unless tma.c was compiled with -DTMA_L2_PROMOTION=0|64|256. */
tma_l2_promotion tma_l2_promotion_default(void);

/* The cuda.h parameter rules for a 2-D bf16 tiled map, checked in C.
 * Returns TMA_OK, or a TMA_ERR_* code with a message naming the rule and the
 * offending value in msg (msg may be NULL). */
int tma_check_2d_bf16(const tma_2d_desc *d, char *msg, size_t len);

/* tma_check_2d_bf16, then cuTensorMapEncodeTiled with zero fill for
 * out-of-bounds elements and the descriptor's L2 promotion.  `map` must be 64-byte
 * aligned (a CUtensorMap variable is 128-aligned by its type; a heap copy
 * needs aligned_alloc).  Needs the CUDA driver; the checks do not. */
int tma_encode_2d_bf16(CUtensorMap *map, const tma_2d_desc *d, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif

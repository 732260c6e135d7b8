/* tma.c — see tma.h.  The rules below are those of cuTensorMapEncodeTiled's
 * documentation in CUDA 13.0's cuda.h, restricted to what a 2-D bf16 map
 * with no interleave and unit element strides can get wrong. */
#include "tma.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>   /* PFN_cuTensorMapEncodeTiled_v12000 */

#define BF16_BYTES 2u
#define TMA_MAX_DIM (1ull << 32)       /* globalDim[i] <= 2^32 */
#define TMA_MAX_STRIDE (1ull << 40)    /* globalStrides[i] < 2^40 */
#define TMA_MAX_BOX 256u               /* boxDim[i] <= 256 */

/* The build's L2 promotion (tma.h): 128 B unless the build says otherwise,
 * e.g. make ... CC_EXTRA=-DTMA_L2_PROMOTION=256 (experiments only: issue 24,
 * plots/results/odd_k/remedy.sh).  Any other value stops the build here. */
#ifndef TMA_L2_PROMOTION
#define TMA_L2_PROMOTION 128
#endif
#if TMA_L2_PROMOTION == 0
#define TMA_L2_PROMOTION_BUILD TMA_L2_PROMOTION_NONE
#elif TMA_L2_PROMOTION == 64
#define TMA_L2_PROMOTION_BUILD TMA_L2_PROMOTION_64B
#elif TMA_L2_PROMOTION == 128
#define TMA_L2_PROMOTION_BUILD TMA_L2_PROMOTION_128B
#elif TMA_L2_PROMOTION == 256
#define TMA_L2_PROMOTION_BUILD TMA_L2_PROMOTION_256B
#else
#error "TMA_L2_PROMOTION must be 0, 64, 128 or 256 (bytes)"
#endif

/* Writes the message (when there is a buffer) and returns the code. */
static int refuse(int code, char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(int code, char *msg, size_t len, const char *fmt, ...)
{
    if (msg && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return code;
}

tma_2d_desc tma_2d_bf16_row_major(const void *gaddr, uint64_t rows, uint64_t cols,
                                  uint32_t box_rows, uint32_t box_cols, tma_swizzle swizzle)
{
    tma_2d_desc d;
    d.gaddr = gaddr;
    d.rows = rows;
    d.cols = cols;
    d.row_stride_bytes = cols * BF16_BYTES;
    d.box_rows = box_rows;
    d.box_cols = box_cols;
    d.swizzle = swizzle;
    d.l2_promotion = tma_l2_promotion_default();
    return d;
}

tma_l2_promotion tma_l2_promotion_default(void)
{
    return TMA_L2_PROMOTION_BUILD;
}

uint32_t tma_l2_promotion_bytes(tma_l2_promotion p)
{
    switch (p) {
    case TMA_L2_PROMOTION_64B: return 64;
    case TMA_L2_PROMOTION_128B: return 128;
    case TMA_L2_PROMOTION_256B: return 256;
    default: return 0;
    }
}

int tma_l2_promotion_of_bytes(uint32_t bytes, tma_l2_promotion *out)
{
    tma_l2_promotion p;
    switch (bytes) {
    case 0: p = TMA_L2_PROMOTION_NONE; break;
    case 64: p = TMA_L2_PROMOTION_64B; break;
    case 128: p = TMA_L2_PROMOTION_128B; break;
    case 256: p = TMA_L2_PROMOTION_256B; break;
    default: return -1;
    }
    if (out) *out = p;
    return 0;
}

uint32_t tma_box_bytes_bf16(const tma_2d_desc *d)
{
    return d->box_rows * d->box_cols * BF16_BYTES;
}

uint32_t tma_swizzle_span_bytes(tma_swizzle s)
{
    switch (s) {
    case TMA_SWIZZLE_32B: return 32;
    case TMA_SWIZZLE_64B: return 64;
    case TMA_SWIZZLE_128B: return 128;
    default: return 0;
    }
}

int tma_check_2d_bf16(const tma_2d_desc *d, char *msg, size_t len)
{
    if (msg && len) msg[0] = '\0';
    if (!d) return refuse(TMA_ERR_NULL, msg, len, "tensor map: the matrix description is NULL");
    if (!d->gaddr)
        return refuse(TMA_ERR_NULL, msg, len, "tensor map: the global address is NULL");

    /* globalAddress: 16-byte aligned (the TMA unit moves 16-byte chunks). */
    if ((uintptr_t)d->gaddr % 16 != 0)
        return refuse(TMA_ERR_ADDR_ALIGN, msg, len,
                      "tensor map: global address %p must be 16-byte aligned (it is %u bytes past a "
                      "16-byte boundary)",
                      d->gaddr, (unsigned)((uintptr_t)d->gaddr % 16));

    /* globalDim: every dimension non-zero and <= 2^32. */
    if (d->cols == 0 || d->cols > TMA_MAX_DIM)
        return refuse(TMA_ERR_DIM, msg, len,
                      "tensor map: inner dimension (cols) %" PRIu64 " must be between 1 and 2^32",
                      d->cols);
    if (d->rows == 0 || d->rows > TMA_MAX_DIM)
        return refuse(TMA_ERR_DIM, msg, len,
                      "tensor map: outer dimension (rows) %" PRIu64 " must be between 1 and 2^32",
                      d->rows);

    /* globalStrides: in bytes, a multiple of 16, below 2^40.  Only dimension
     * 1 has one; dimension 0's stride is the element size, implicitly. */
    if (d->row_stride_bytes % 16 != 0)
        return refuse(TMA_ERR_STRIDE_ALIGN, msg, len,
                      "tensor map: row stride %" PRIu64 " bytes must be a multiple of 16 bytes "
                      "(for bf16 rows: cols a multiple of 8)",
                      d->row_stride_bytes);
    if (d->row_stride_bytes >= TMA_MAX_STRIDE)
        return refuse(TMA_ERR_STRIDE_RANGE, msg, len,
                      "tensor map: row stride %" PRIu64 " bytes must be below 2^40 bytes",
                      d->row_stride_bytes);
    /* cuda.h: globalStrides[0] = globalDim[0] * elementSize + padding. */
    if (d->row_stride_bytes < d->cols * BF16_BYTES)
        return refuse(TMA_ERR_STRIDE_SHORT, msg, len,
                      "tensor map: row stride %" PRIu64 " bytes must be at least cols * 2 = %" PRIu64
                      " bytes, or rows would overlap",
                      d->row_stride_bytes, d->cols * BF16_BYTES);

    /* boxDim: every dimension 1..256. */
    if (d->box_cols == 0 || d->box_cols > TMA_MAX_BOX)
        return refuse(TMA_ERR_BOX_DIM, msg, len,
                      "tensor map: box inner dimension (box cols) %u must be between 1 and 256",
                      d->box_cols);
    if (d->box_rows == 0 || d->box_rows > TMA_MAX_BOX)
        return refuse(TMA_ERR_BOX_DIM, msg, len,
                      "tensor map: box outer dimension (box rows) %u must be between 1 and 256",
                      d->box_rows);

    const uint32_t inner_bytes = d->box_cols * BF16_BYTES;
    /* No interleave: the box's inner extent is whole 16-byte chunks. */
    if (inner_bytes % 16 != 0)
        return refuse(TMA_ERR_BOX_INNER_ALIGN, msg, len,
                      "tensor map: box inner extent %u bytes (box cols %u * 2) must be a multiple "
                      "of 16 bytes",
                      inner_bytes, d->box_cols);

    if (d->swizzle != TMA_SWIZZLE_NONE && d->swizzle != TMA_SWIZZLE_32B &&
        d->swizzle != TMA_SWIZZLE_64B && d->swizzle != TMA_SWIZZLE_128B)
        return refuse(TMA_ERR_SWIZZLE, msg, len,
                      "tensor map: swizzle mode %d is not one of NONE, 32B, 64B, 128B", (int)d->swizzle);

    if (d->l2_promotion != TMA_L2_PROMOTION_NONE && tma_l2_promotion_bytes(d->l2_promotion) == 0)
        return refuse(TMA_ERR_L2_PROMOTION, msg, len,
                      "tensor map: L2 promotion %d is not one of NONE, 64B, 128B, 256B",
                      (int)d->l2_promotion);

    /* A swizzled box row must fit in one swizzle span: the XOR pattern
     * permutes 16-byte chunks within a span of 32/64/128 bytes. */
    const uint32_t span = tma_swizzle_span_bytes(d->swizzle);
    if (span && inner_bytes > span)
        return refuse(TMA_ERR_BOX_SWIZZLE_SPAN, msg, len,
                      "tensor map: box inner extent %u bytes (box cols %u * 2) exceeds the "
                      "%u-byte swizzle span",
                      inner_bytes, d->box_cols, span);
    return TMA_OK;
}

/* The driver function, looked up once.  CUDA 13 offers it through the
 * runtime, by ABI version: 12000 is the version whose signature cudaTypedefs.h
 * names PFN_cuTensorMapEncodeTiled_v12000. */
static PFN_cuTensorMapEncodeTiled_v12000 encode_fn(char *msg, size_t len)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = NULL;
    if (fn) return fn;
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                     cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || p == NULL) {
        refuse(TMA_ERR_DRIVER, msg, len,
               "tensor map: cuTensorMapEncodeTiled (ABI 12000) not available from the CUDA driver "
               "(%s, query result %d)",
               e != cudaSuccess ? cudaGetErrorString(e) : "no error", (int)q);
        return NULL;
    }
    /* ISO C has no cast from void * to a function pointer; copy the bits. */
    memcpy(&fn, &p, sizeof fn);
    return fn;
}

int tma_encode_2d_bf16(CUtensorMap *map, const tma_2d_desc *d, char *msg, size_t len)
{
    if (!map) return refuse(TMA_ERR_NULL, msg, len, "tensor map: the CUtensorMap pointer is NULL");
    if ((uintptr_t)map % 64 != 0)
        return refuse(TMA_ERR_MAP_ALIGN, msg, len,
                      "tensor map: the CUtensorMap object at %p must be 64-byte aligned", (void *)map);
    int rc = tma_check_2d_bf16(d, msg, len);
    if (rc != TMA_OK) return rc;

    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_fn(msg, len);
    if (!encode) return TMA_ERR_DRIVER;

    const cuuint64_t dims[2] = {d->cols, d->rows};          /* innermost first */
    const cuuint64_t strides[1] = {d->row_stride_bytes};    /* dims 1..rank-1, bytes */
    const cuuint32_t box[2] = {d->box_cols, d->box_rows};
    const cuuint32_t elem_strides[2] = {1, 1};
    CUtensorMapSwizzle swz = d->swizzle == TMA_SWIZZLE_128B ? CU_TENSOR_MAP_SWIZZLE_128B
                           : d->swizzle == TMA_SWIZZLE_64B  ? CU_TENSOR_MAP_SWIZZLE_64B
                           : d->swizzle == TMA_SWIZZLE_32B  ? CU_TENSOR_MAP_SWIZZLE_32B
                                                            : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)d->gaddr, dims, strides,
                        box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
                        (CUtensorMapL2promotion)d->l2_promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return refuse(TMA_ERR_ENCODE, msg, len,
                      "tensor map: cuTensorMapEncodeTiled refused %" PRIu64 "x%" PRIu64
                      " (rows x cols, stride %" PRIu64 " B) box %ux%u swizzle %u B: CUresult %d",
                      d->rows, d->cols, d->row_stride_bytes, d->box_rows, d->box_cols,
                      tma_swizzle_span_bytes(d->swizzle), (int)r);
    return TMA_OK;
}

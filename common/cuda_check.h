/* cuda_check.h — every CUDA, cuBLAS and driver call is checked.
 *
 * On failure: file:line, the call as written, the library's error string, then
 * exit(1).  A wrong-but-silent GPU call is the most expensive bug in a
 * benchmark: the numbers look fine and mean nothing.  CUDA_CHECK_LAUNCH()
 * goes after every kernel launch (launch errors are only reported by
 * cudaGetLastError; faults inside the kernel show up at the next sync). */
#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", __FILE__,     \
                    __LINE__, #call, cudaGetErrorString(err_),                  \
                    cudaGetErrorName(err_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

/* cuBLAS: cublasGetStatusString exists since cuBLAS 11.4. */
#define CUBLAS_CHECK(call)                                                      \
    do {                                                                        \
        cublasStatus_t st_ = (call);                                            \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                     \
            fprintf(stderr, "%s:%d: cuBLAS error in %s: %s\n", __FILE__,        \
                    __LINE__, #call, cublasGetStatusString(st_));               \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* Driver calls reach us through cudaGetDriverEntryPointByVersion (no -lcuda),
 * so cuGetErrorString is not linked: print the CUresult number, which
 * cuda.h's enum names. */
#define CU_CHECK(call)                                                          \
    do {                                                                        \
        int res_ = (int)(call);                                                 \
        if (res_ != 0) {                                                        \
            fprintf(stderr, "%s:%d: CUDA driver error in %s: CUresult %d "      \
                    "(see enum cudaError_enum in cuda.h)\n", __FILE__,          \
                    __LINE__, #call, res_);                                     \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#endif

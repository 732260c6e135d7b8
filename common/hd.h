/* hd.h — one spelling for code that runs on both sides.
 *
 * State that the host tests and the kernels share (pipeline_state, the tile
 * scheduler, the WGMMA descriptor encoder) is written once, in a header, with
 * HD in front of each function.  Under nvcc HD means __host__ __device__, so a
 * kernel calls the very function the Check tests exercise; under gcc it is
 * empty and the header is plain C11. */
#ifndef COMMON_HD_H
#define COMMON_HD_H

#if defined(__CUDACC__)
#define HD __host__ __device__ __forceinline__
#else
#define HD
#endif

#endif

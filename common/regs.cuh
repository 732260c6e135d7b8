/* regs.cuh — move registers between warpgroups (setmaxnreg, sm_90a).
 *
 * A CTA's registers are allocated at launch: threads x the count ptxas chose.
 * With __launch_bounds__(384, 1) that count is capped at 168 (65536 / 384,
 * rounded down to a multiple of 8), the same for every warp.  A producer
 * warpgroup that only issues TMA needs few; consumers that hold 128 fp32
 * accumulators want more.  setmaxnreg changes a warpgroup's per-thread
 * count while the kernel runs:
 *
 *   REGS_DEC(40)   give registers back to the CTA's pool (producer)
 *   REGS_INC(232)  take registers from the pool; waits until enough were
 *                  given back (consumers)
 *
 * 128 x 40 + 256 x 232 = 64512 = 384 x 168: the consumers take exactly what
 * the producer gave.  Asking for more than was freed blocks forever.
 *
 * Rules (PTX ISA, setmaxnreg): an immediate, a multiple of 8 in 24..256;
 * executed by all 4 warps of the warpgroup (.sync.aligned); only effective
 * when ptxas knows the count at entry, i.e. __launch_bounds__(threads, 1)
 * or -maxrregcount (else it prints "C7508 ... 'setmaxnreg' ignored" and
 * the SASS has no USETMAXREG).  The registers gained by INC hold garbage. */
#ifndef COMMON_REGS_CUH
#define COMMON_REGS_CUH

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "setmaxnreg needs the sm_90a target: build with -gencode=arch=compute_90a,code=sm_90a"
#endif

/* Macros, not functions: the count must be an immediate, and the "n"
 * constraint takes any integer constant expression (e.g. a count derived
 * from the tile), printing its value into the PTX. */
#define REGS_DEC(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(n) : "memory")
#define REGS_INC(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(n) : "memory")

#endif

/* kconform grading, reduction family (KERNELS.md §1–2): sum n floats.
 *
 * Implement kc_reduction_traits() and the entry point(s) of your kind:
 *
 *   KC_REDUCE_PASS  one launch turns n inputs into one partial sum per block, as seed 000's
 *                   kernels do; the grader's multi-pass driver repeats your pass until one value is
 *                   left. Declare how a block splits its input (elements_per_thread, grid_stride):
 *                   every block's partial sum is then checked exactly, not only the total.
 *                   Entry point: kc_reduction_pass.
 *   KC_REDUCE_FULL  your code reduces n -> 1 itself: an atomics-based kernel, cuda-samples'
 *                   reduce6/reduce7 (whose split depends on whether n is a power of two), your own
 *                   multi-pass driver. Only the total is checked (exactly on integer inputs).
 *                   Entry points: kc_reduction_full and kc_reduction_scratch_floats.
 *
 * Blocks: the grader sweeps the blocks your traits allow (every allowed power of two, or a spread
 * of the allowed multiples) at every size, from n = 1 to past 2^24. A block you declare and then
 * refuse is a failure; a block outside your declaration is never asked for.
 */
#ifndef KCONFORM_REDUCTION_SUBMISSION_H
#define KCONFORM_REDUCTION_SUBMISSION_H

#include "kconform_submission.h"

enum { KC_REDUCE_PASS = 1, KC_REDUCE_FULL = 2 };

typedef struct kc_reduction_traits {
  int abi;                  /* KC_SUBMISSION_ABI */
  int kind;                 /* KC_REDUCE_PASS or KC_REDUCE_FULL */
  /* Blocks (threads per block) your entry point accepts. min_block = 0 (KC_REDUCE_FULL only):
   * your code picks its own block, and is called with block = 0. */
  int min_block;            /* e.g. 32 */
  int max_block;            /* e.g. 1024 */
  int power_of_two_blocks;  /* 1: only powers of two (a tree that halves the active threads) */
  int block_multiple;       /* blocks must be a multiple of this (32: whole warps; 1: any) */
  /* KC_REDUCE_PASS only: block b sums the chunks b, b + grid, b + 2·grid, ... of
   * block·elements_per_thread consecutive inputs; out[b] is that sum. */
  int elements_per_thread;  /* 1 for seed 000's K1–K3, 2 for K4–K6 */
  int grid_stride;          /* 0: grid = ceil(n / chunk), one chunk per block; 1: you loop over chunks */
  int destroys_input;       /* KC_REDUCE_PASS: 1 if your kernel may overwrite in[] (seed 001 reduces in
                               place); with 0, a pass that changes in[] fails. KC_REDUCE_FULL: ignored
                               (informational): a full reduction may always overwrite in[], see
                               kc_reduction_full */
} kc_reduction_traits;

KC_SUBMISSION_EXPORT kc_reduction_traits kc_reduction_submission_traits(void);

/* KC_REDUCE_PASS: launch one pass on `stream`: out[b] = sum of block b's chunks, for b < grid.
 * in: n floats on the device; out: grid floats on the device. grid is what the traits imply
 * (ceil(n / (block·elements_per_thread)), or for grid_stride a grid that fills the GPU, at most
 * the number of chunks). */
KC_SUBMISSION_EXPORT const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid,
                                                   cudaStream_t stream);

/* KC_REDUCE_FULL: floats of device scratch your reduction needs for n inputs at this block. */
KC_SUBMISSION_EXPORT size_t kc_reduction_scratch_floats(size_t n, int block);
/* KC_REDUCE_FULL: reduce in[0..n) to *out (one float on the device), on `stream`. in[] MAY be
 * overwritten (an in-place multi-pass driver, as cuda-samples' and seed 001's are), whatever
 * destroys_input says: every call gets a fresh copy, and changing in[0..n) never fails a case (writing past it does). The
 * grader compares in[] with its pristine copy afterwards only to tell you: the report says in how
 * many cases your kernel overwrote it (a library routine that promises a const input could not).
 * scratch holds kc_reduction_scratch_floats(n, block) floats. *out and scratch hold
 * poison (NaN) on entry: zero what you accumulate into, on the stream, before you accumulate. */
KC_SUBMISSION_EXPORT const char* kc_reduction_full(float* in, float* out, size_t n, int block, float* scratch,
                                                   cudaStream_t stream);

#endif /* KCONFORM_REDUCTION_SUBMISSION_H */

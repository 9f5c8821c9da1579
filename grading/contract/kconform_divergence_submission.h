/* kconform grading, divergence family (KERNELS.md §4 and §6, seed 003's "Warp Divergence"):
 * the four vector operations chosen per warp (DV1) or per thread (DV2), in float.
 *
 * Implement kc_divergence_submission_traits() and both launchers. Element i of C (0 <= i < n) is
 *
 *   op(i, A[i], B[i]), op 0: A[i] + B[i]   op 1: A[i] - B[i]   op 2: A[i] * B[i]   op 3: A[i] / B[i]
 *
 *   kc_warp_no_divergence (DV1): op = (i / 32) % 4  — every lane of a warp takes the same branch
 *   kc_warp_divergence    (DV2): op = i % 4         — every warp runs all four branches in turn
 *
 * where i is the element's index, which is the global thread id blockDim.x * blockIdx.x + threadIdx.x
 * when you launch one thread per element, as the lab does. Values are IEEE single precision: the
 * division is correctly rounded (what `/` gives without -use_fast_math; __fdividef and other
 * approximate reciprocals are not), and C is compared with the host's results bit for bit.
 *
 * Layouts and buffers: A, B and C hold n floats each on the device, contiguous. A and B are read
 * only (a kernel that writes them fails); C holds poison (NaN) on entry, so an element you never
 * write fails; every buffer has guard zones around it, so a read or write past n is caught.
 * `repeats` >= 1 is how many times each thread repeats its body (the lab's loop of 100): every repeat
 * writes the same value, so C does not depend on it; the grader calls with 100, and also 1 and 7.
 *
 * Launch with `block` threads per block and as many blocks as cover n (grid = ceil(n / block)),
 * guarding the threads past n: the grader sweeps n = 1, 31, 32, 33, 1000, 1535, 32768, 65537,
 * 1000003 and 4194304 (the lab's size) at every block you declare, and also at blocks 96 and 97,
 * which it chooses itself (since contract version 2): i is the global index, so C must not depend on
 * the block. An op taken from threadIdx.x, or a warp counted within the block, is right only at
 * blocks that are multiples of 128 (DV1) or of 4 (DV2), and 96 and 97 are not. So every block from 1
 * to 1024 must work, as it does for a guarded one-thread-per-element kernel: refusing a block you
 * declare, or one of the grader's, is a failure. The first block you declare is your default: the
 * performance case times kc_warp_no_divergence at it, at n = 4194304 and 100 repeats, against the
 * suite's DV1 at block 1024. It is also timed at one repeat, and the worse of the two ratios is
 * scored: a launcher that skips repeats is scored on its one-pass time.
 *
 * A lab file that also holds the occupancy scenarios' vector add compiles under either family:
 * this header declares the occupancy family's entry points too (kconform_occupancy_submission.h).
 */
#ifndef KCONFORM_DIVERGENCE_SUBMISSION_H
#define KCONFORM_DIVERGENCE_SUBMISSION_H

#include "kconform_submission.h"

#define KC_DIVERGENCE_MAX_BLOCKS 16

typedef struct kc_divergence_traits {
  int abi; /* KC_SUBMISSION_ABI */
  /* Threads per block to grade at (1 to 1024, each once; the first is your default); unused entries 0.
   * Any block works for a guarded one-thread-per-element kernel, and both launchers must accept any:
   * the `configs` group grades every declared block but the first, and the grader's 96 and 97. */
  int blocks[KC_DIVERGENCE_MAX_BLOCKS];
} kc_divergence_traits;

KC_SUBMISSION_EXPORT kc_divergence_traits kc_divergence_submission_traits(void);

/* DV1: C[i] = op((i / 32) % 4) of A[i], B[i], for i < n; launched on `stream`, never synchronised. */
KC_SUBMISSION_EXPORT const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block,
                                                       int repeats, cudaStream_t stream);

/* DV2: C[i] = op(i % 4) of A[i], B[i], for i < n; launched on `stream`, never synchronised. */
KC_SUBMISSION_EXPORT const char* kc_warp_divergence(const float* a, const float* b, float* c, size_t n, int block,
                                                    int repeats, cudaStream_t stream);

/* The occupancy header includes this one and this one it (each guarded), so a lab file holding both
 * sets of entry points compiles whichever of the two the grader forces in. */
#include "kconform_occupancy_submission.h"

#endif /* KCONFORM_DIVERGENCE_SUBMISSION_H */

/* kconform grading, occupancy family (KERNELS.md §4 and §6, seed 003's "Occupancy and SM efficiency"):
 * the vector add of the two launch scenarios, and the occupancy question itself as a graded answer.
 *
 * Implement kc_occupancy_submission_traits() and three entry points.
 *
 * 1. kc_vector_add: DV1's body. Element i of C (0 <= i < n) is op((i / 32) % 4) of A[i], B[i], with
 *    op 0: A[i] + B[i], 1: A[i] - B[i], 2: A[i] * B[i], 3: A[i] / B[i] (IEEE single precision; the
 *    division correctly rounded, not __fdividef), compared with the host's results bit for bit.
 *    Launch `block` threads per block and grid = ceil(n / block) blocks, guarding the threads past n
 *    (the lab's numBlocks = n / NTB leaves the last n mod NTB elements unwritten). The grader calls it
 *    with the scenarios' blocks (KERNELS.md §6) at n = 1, 31, 32, 33, 64, ..., 65536 and 1000, 1535,
 *    40000:
 *      S1  block = min(n, 1024)                 (one block while n <= 1024)
 *      S2  block = 32 for n <= 512, else bit_ceil(n) / 16 clamped to [32, 1024]
 *          (64 at 1024, 128 at 2048, 256 at 4096, 512 at 8192, 1024 from 16384; 1000 gets 64)
 *    so every block from 1 to 1024 must work. A, B and C hold n floats on the device; A and B are
 *    read only; C holds poison (NaN) on entry; every buffer has guard zones. `repeats` >= 1 is the
 *    lab's loop count (1,000,000 there): each repeat writes the same value; the grader passes 100
 *    (10,000 when timing). The performance case times your launcher and the suite's at 10,000 repeats
 *    and at one, and scores the worse of the two ratios: a launcher that skips repeats is scored on
 *    its one-pass time and gains nothing by it. On `stream`, never synchronised.
 *
 * 2. kc_vector_add_kernel: the __global__ function kc_vector_add launches (cast to const void*), which
 *    it launches with no dynamic shared memory. kc_vector_add launches that one kernel and no other
 *    (as many times as it likes; cudaMemset and copies are not kernels). Before judging each answer
 *    the grader calls kc_vector_add at that block and reads which kernels it launched (your library is
 *    built with the runtime's launch calls wrapped): an answer whose kernel kc_vector_add did not
 *    launch, or given while it launched more than one kernel, fails whatever its numbers.
 *
 * 3. kc_occupancy_answer: your answer to the lab's question for the GPU the grader runs on: with
 *    `block` threads per block, how many blocks of that kernel are active on one SM at once
 *    (*active_blocks_per_sm), and how many warps that is (*active_warps_per_sm = blocks · ceil(block / 32)).
 *    Work it out as you like: from the occupancy calculator's rules (threads, blocks, registers and
 *    shared memory per SM, read from cudaGetDeviceProperties and cudaFuncGetAttributes), or with
 *    cudaOccupancyMaxActiveBlocksPerMultiprocessor. It is judged exactly against the CUDA runtime's
 *    cudaOccupancyMaxActiveBlocksPerMultiprocessor for that kernel and block, at blocks 32, 64, 96,
 *    128, 256, 512 and 1024; a table copied from another GPU (the lab's Tesla K40: 16 blocks and 2048
 *    threads per SM) is wrong here. Return NULL, or a message if you cannot answer.
 *
 * A lab file that also holds DV1 and DV2 compiles under either family: this header declares the
 * divergence family's entry points too (kconform_divergence_submission.h).
 */
#ifndef KCONFORM_OCCUPANCY_SUBMISSION_H
#define KCONFORM_OCCUPANCY_SUBMISSION_H

#include "kconform_submission.h"

typedef struct kc_occupancy_traits {
  int abi; /* KC_SUBMISSION_ABI; the blocks come from the scenarios, so nothing else is declared */
} kc_occupancy_traits;

KC_SUBMISSION_EXPORT kc_occupancy_traits kc_occupancy_submission_traits(void);

KC_SUBMISSION_EXPORT const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block,
                                               int repeats, cudaStream_t stream);

KC_SUBMISSION_EXPORT const void* kc_vector_add_kernel(void);

KC_SUBMISSION_EXPORT const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm);

#include "kconform_divergence_submission.h"

#endif /* KCONFORM_OCCUPANCY_SUBMISSION_H */

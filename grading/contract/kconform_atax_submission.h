/* kconform grading, PolyBench ATAX family (KERNELS.md §5 and §6, seed 004 Άσκηση 2), in double:
 *
 *   y = Aᵀ·(A·x)     tmp[i] = Σ_j A[i][j]·x[j]   (i < nx),   y[j] = Σ_i A[i][j]·tmp[i]   (j < ny)
 *
 * Layouts (all on the device, row-major): A is nx rows × ny columns, A[i][j] = a[i*ny + j]; x has ny
 * entries, y has ny, tmp has nx. nx and ny are any values >= 1 (1 × 1, 1 × 1000, 1000 × 1, 33 × 65,
 * 4096 × 17, ... and the seed's 4096 × 4096): neither need be a multiple of your block, nor equal.
 *
 * Implement kc_atax_submission_traits() and kc_atax(). The arguments are the seed's kernel's own,
 * trans_norm_vector(A, x, tmp, y, nx, ny), plus the block and the stream: the lab's kernel fits
 * inside kc_atax with the launch around it.
 *
 *   a, x    inputs: read them, never write them (the grader compares them with pristine copies).
 *   tmp     scratch of nx doubles for A·x: use it or not; its contents after the call are not checked.
 *           Its bytes are poisoned (NaN) before every call, so an entry read before it is written
 *           (another block's tmp, with no barrier between the two products) brings a NaN into y.
 *   y       the output: every y[j], j < ny, must be written. y is poisoned (NaN) before every call:
 *           a kernel that accumulates into y (y[j] += ..., atomicAdd) must first set it to zero itself
 *           (a cudaMemsetAsync on `stream`, or a kernel), as PolyBench's host code does.
 *
 * tmp = A·x must be complete before any y[j] is summed: that is a grid-wide dependency. Two launches
 * on `stream` (stream order is the barrier) are the usual answer; __syncthreads() orders one block only.
 *
 * Everything you launch goes on `stream`, and kc_atax must not synchronise. Every y[j] is compared
 * with a long-double reference within the bound any summation order meets, about γ_(nx+ny)·M_j with
 * M_j = Σ_i |A_ij|·Σ_k |A_ik|·|x_k|: the order of the sums, fused multiply-adds and blocking are
 * yours. The grader runs every block you declare at every shape it sweeps, on PolyBench's init
 * (x[j] = j·π, A[i][j] = i·j/nx: symmetric when square) and on seeded non-symmetric random data. A
 * block you declare and then refuse is a failure; one you do not declare is never asked for.
 */
#ifndef KCONFORM_ATAX_SUBMISSION_H
#define KCONFORM_ATAX_SUBMISSION_H

#include "kconform_submission.h"

#define KC_ATAX_MAX_BLOCKS 8

typedef struct kc_atax_traits {
  int abi; /* KC_SUBMISSION_ABI */
  /* Threads per 1-D block you accept (1 to 1024); unused entries 0. The first is your main one: it
   * is timed and graded at every shape; the others are graded as "configs". A kernel with
   * BLOCK_SIZE compiled in (the seed's 256) declares that one block. */
  int blocks[KC_ATAX_MAX_BLOCKS];
} kc_atax_traits;

KC_SUBMISSION_EXPORT kc_atax_traits kc_atax_submission_traits(void);

/* Launch y = Aᵀ·(A·x) on `stream` with `block` threads per block, one of your declared blocks. */
KC_SUBMISSION_EXPORT const char* kc_atax(const double* a, const double* x, double* tmp, double* y, int nx, int ny,
                                         int block, cudaStream_t stream);

#endif /* KCONFORM_ATAX_SUBMISSION_H */

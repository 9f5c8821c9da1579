/* kconform grading, matmul family (KERNELS.md §3): C = A·B in float, row-major,
 * A m×k, B k×n, C m×n, all on the device (leading dimensions k, n and n).
 *
 * Implement kc_matmul_traits() and kc_matmul(). The grader runs your launcher with every
 * configuration you declare at every shape it sweeps: squares around 32·TILE_WIDTH, odd and prime
 * sizes, non-square and outer products, long k, and shapes past 2^30 multiply-adds. A configuration
 * you declare and then refuse is a failure; one you do not declare is never asked for.
 */
#ifndef KCONFORM_MATMUL_SUBMISSION_H
#define KCONFORM_MATMUL_SUBMISSION_H

#include "kconform_submission.h"

#define KC_MATMUL_MAX_CONFIGS 16

typedef struct kc_matmul_config {
  int block;       /* 2-D blocks: the side (block × block threads); 1-D blocks: threads per block */
  int tile_width;  /* your TILE_WIDTH (outputs per thread per side, or the shared tile's side); 1 if none */
} kc_matmul_config;

typedef struct kc_matmul_traits {
  int abi;         /* KC_SUBMISSION_ABI */
  int block_dims;  /* 2: blocks of block × block threads (the usual); 1: 1-D blocks of `block` threads */
  /* BLAS-style kernels that compute C = alpha·A·B + beta·C read C even when beta = 0. Set this and
   * the grader fills C with a finite value before each launch instead of NaN poison (NaN · 0 is NaN):
   * an element you never write still fails, because that value is not the product. */
  int reads_c;
  /* The configurations you support; unused entries {0, 0}. */
  kc_matmul_config configs[KC_MATMUL_MAX_CONFIGS];
} kc_matmul_traits;

KC_SUBMISSION_EXPORT kc_matmul_traits kc_matmul_submission_traits(void);

/* Launch C = A·B on `stream` with one of your declared configurations. */
KC_SUBMISSION_EXPORT const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int block,
                                           int tile_width, cudaStream_t stream);

#endif /* KCONFORM_MATMUL_SUBMISSION_H */

/* kconform grading, covariance family (PolyBench COVAR in double, KERNELS.md §5 and §6, seed 004).
 *
 * data is n rows (observations) × m columns (variables), row-major (PolyBench/C 4's data[N][M]);
 * mean has m entries; symmat is m × m, row-major. All three are on the device. With FLOAT_N given
 * per call (float_n):
 *
 *   mean[j]         = Σ_i data[i][j] / float_n                  (i < n)
 *   data[i][j]     -= mean[j]                                   (centring)
 *   symmat[j1][j2]  = symmat[j2][j1] = Σ_i data[i][j1]·data[i][j2]   (the centred data; no division by n − 1)
 *
 * Checked: every entry of mean and every element of symmat (both triangles), against a long double
 * reference within a double-precision error bound (tests/polybench/covariance_checks.cpp), not
 * PolyBench's 1.05%: a skipped centring moves symmat by ~6e-7 relative at the seed's FLOAT_N, far
 * outside the bound. mean and symmat are poisoned (NaN) before every call, so an element you never
 * write fails; all three buffers have guard zones, so a write past any of them fails.
 * data is scratch: centre it in place (the seed does); its contents afterwards are not checked.
 *
 * The grader calls with float_n = 3214212.01 (the seed's and PolyBench's FLOAT_N: the mean is tiny)
 * and with float_n = n (the true mean: centring moves every value). Each hides a different mistake:
 * use the float_n you are given, never a constant.
 *
 * The names: m counts columns and n rows, as above. The seed's report names them the other way
 * round inside its kernel (its `m` is the row count, its `n` the column count): pass them to your
 * kernel in the order it expects. Sizes swept: 1 × 1 up to the seed's 1024², non-square both ways
 * (33 × 65 and 65 × 33, 4096 × 17 and 17 × 4096 with a 128 MiB symmat), one row, one column, primes.
 *
 * Implement kc_covariance_submission_traits() and kc_covariance(). A block you declare and then
 * refuse is a failure; one you do not declare is never asked for.
 */
#ifndef KCONFORM_COVARIANCE_SUBMISSION_H
#define KCONFORM_COVARIANCE_SUBMISSION_H

#include "kconform_submission.h"

#define KC_COVARIANCE_MAX_BLOCKS 8

typedef struct kc_covariance_traits {
  int abi; /* KC_SUBMISSION_ABI */
  /* The BLOCK_SIZE values you accept (the seed's is 16): the product's tile side, usually with
   * block × block threads per block; how your other kernels use it is yours. 1 to 1024 each, no
   * repeats; list your main one first: it is the one timed. Unused entries 0. */
  int blocks[KC_COVARIANCE_MAX_BLOCKS];
} kc_covariance_traits;

KC_SUBMISSION_EXPORT kc_covariance_traits kc_covariance_submission_traits(void);

/* Compute mean and symmat from data (n rows × m columns) on `stream` with BLOCK_SIZE `block`, one
 * of your declared blocks, dividing by float_n. Launch as many kernels as you need (a kernel
 * boundary is the only grid-wide barrier); never synchronise. NULL, or why you refused. */
KC_SUBMISSION_EXPORT const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n,
                                               int block, cudaStream_t stream);

#endif /* KCONFORM_COVARIANCE_SUBMISSION_H */

/* kconform grading, access family (KERNELS.md §4 and §6, seed 003): the three memory access patterns.
 *
 * Every pattern computes, for each output t in [0, n):   C[t] = A[idx(t)] + B[idx(t)]
 * in float, with A, B and C device arrays of n floats, and each thread repeating its body `repeats`
 * times (the seed's ×100; C keeps the last repeat's value, so any repeat count gives the same kind of
 * answer). What differs is idx:
 *
 *   kc_access_coalesced  AC1  idx(t) = t. Checked exactly: C[t] must equal A[t] + B[t] bit for bit.
 *   kc_access_random     AC2  idx(t) random in [0, n), from your own generator and index function
 *                             (the seed: a per-thread cuRAND XORWOW state, curand_init(seed, t, 0, &s)).
 *   kc_access_grouped    AC3  the outputs of one warp, C[32w] .. C[32w + 31], all take their idx from
 *                             ONE random group of 512 floats [512·g, 512·g + 512), g < floor(n / 512)
 *                             (16 segments of 128 bytes); each lane then picks random elements inside
 *                             the group. The last partial group (the n mod 512 elements past the whole
 *                             groups) is never chosen.
 *
 * How the random patterns are judged (the same oracles as the suite's own cuRAND variants,
 * tests/access/access_checks.hpp; the grader cannot replay your generator):
 *   index   every C[t] is A[j] + B[j] for some j in [0, n). On the seed's data (A[i] = i + 1,
 *           B[i] = i + 2) C[t] = 2·j + 3 names its j; on random integer data C[t] must be one of the n
 *           values A[j] + B[j]. A read past the end brings in the guard's NaN and fails.
 *   group   (grouped, seed data) the 32 outputs of each warp read inside one whole group.
 *   spread  (seed data, where every one of 16 bins expects >= 50 samples) a chi-square test of the
 *           indices over 16 equal bins of [0, n) (grouped: of the whole groups, one sample per warp):
 *           too uneven fails (a biased or overflowing index), and too even fails too (an index that
 *           follows the thread index, j = t or t + k, is not random). Each side's false-alarm
 *           probability is 1e-6 for a correct kernel.
 * So: a uniform index (the seed's r / (2^32 / n) is neither uniform nor in range unless n is a power
 * of two: it reaches n for the 2^32 mod n largest r; (r · n) >> 32 is both), independent of t.
 *
 * Layouts and rules:
 *   - A and B are read-only: they are compared with pristine copies after every call.
 *   - C (n floats) is the only output; it is poisoned (NaN) before every call, so every element must
 *     be written. All three buffers have guard zones: writes past them fail, reads past them give NaN.
 *   - n is at most 2^32 - 1 (the seed's indices are 32-bit). kc_access_grouped is never called with
 *     n < 512 (no whole group: the suite refuses such n) nor with a block that is not a multiple of 32
 *     (the group is chosen per warp, so blocks hold whole warps).
 *   - `block` is one of your declared blocks (threads per block); the grid is yours: the seed's is
 *     ceil(n / block), one thread per element, threads past n returning.
 *   - `seed` (random and grouped): the grader draws a new one per size and grading run; seed your
 *     generator from it (and from nothing that persists between calls).
 *   - Entry points launch on `stream` and return NULL, or a refusal string; they never synchronise.
 *
 * The grader sweeps n from 1 to the seed's 4,194,304 (primes, partial warps, sizes where the seed's
 * index formula overflows) at every block you declare, on the seed's data and on random integers,
 * with 100 repeats (also 1 and 7). The coalesced pattern at your first block is timed against the
 * suite's FullCoalesced (block 1024) at n = 4,194,304, at 100 repeats and at one; the worse of the
 * two ratios is scored, so a launcher that skips repeats is scored on its one-pass time.
 */
#ifndef KCONFORM_ACCESS_SUBMISSION_H
#define KCONFORM_ACCESS_SUBMISSION_H

#include "kconform_submission.h"

#define KC_ACCESS_MAX_BLOCKS 6

typedef struct kc_access_traits {
  int abi; /* KC_SUBMISSION_ABI */
  /* Threads per block your three launchers accept, 1..1024; unused entries 0. The first is every
   * pattern's default (and the one timed) and must be a multiple of 32. Blocks that are not whole
   * warps are swept for the coalesced and random patterns only. */
  int blocks[KC_ACCESS_MAX_BLOCKS];
} kc_access_traits;

KC_SUBMISSION_EXPORT kc_access_traits kc_access_submission_traits(void);

/* AC1: C[t] = A[t] + B[t], `repeats` times per thread. */
KC_SUBMISSION_EXPORT const char* kc_access_coalesced(const float* a, const float* b, float* c, size_t n, int block,
                                                     int repeats, cudaStream_t stream);

/* AC2: C[t] = A[j] + B[j], j random in [0, n), drawn anew on each repeat. */
KC_SUBMISSION_EXPORT const char* kc_access_random(const float* a, const float* b, float* c, size_t n, int block,
                                                  int repeats, unsigned long long seed, cudaStream_t stream);

/* AC3: as AC2, j inside the warp's one random whole group of 512 floats. */
KC_SUBMISSION_EXPORT const char* kc_access_grouped(const float* a, const float* b, float* c, size_t n, int block,
                                                   int repeats, unsigned long long seed, cudaStream_t stream);

#endif /* KCONFORM_ACCESS_SUBMISSION_H */

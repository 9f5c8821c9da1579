/* kconform grading: what every submission header shares (docs/grading.md).
 *
 * A submission is one .cu file. scripts/grade.sh compiles it on its own into a shared library
 * (nvcc -shared, the CUDA runtime shared) and the family's grading program loads it at run time:
 * the suite's own kernels, references and checks are never linked into it, so a submission can
 * neither call them nor replace them. Only the entry points below, marked KC_SUBMISSION_EXPORT,
 * are visible to the grader; everything else in the file is private to it.
 *
 * Entry points return NULL when they launched (or did) what was asked, or a message saying why
 * they refused: "block 96 is not a power of two". The grader checks cudaGetLastError() after a
 * NULL return, so a launch the runtime rejected is reported as such. Entry points must not
 * synchronise the device, exit, or print anything the grade depends on (nothing printed is ever read).
 */
#ifndef KCONFORM_SUBMISSION_H
#define KCONFORM_SUBMISSION_H

#include <cuda_runtime.h>
#include <stddef.h>

/* The contract's version: a submission built against another version is refused when it loads.
 * 2 (issue 20): the divergence launchers are also called at blocks the grader chooses; the occupancy
 * vector add must launch the kernel kc_vector_add_kernel() names; the access, divergence and occupancy
 * launchers are timed at one repeat as well (docs/grading.md, "Contract versions"). */
#define KC_SUBMISSION_ABI 2

#ifdef __cplusplus
#define KC_SUBMISSION_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define KC_SUBMISSION_EXPORT __attribute__((visibility("default")))
#endif

#endif /* KCONFORM_SUBMISSION_H */

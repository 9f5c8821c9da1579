// The PolyBench ATAX registry (seed 004): one row per variant. The conformance, known-bad and
// sanitizer suites are instantiated from these tables, so a new row inherits every test.
#include "kernels/polybench/atax/launchers.hpp"

#include <array>

namespace kc::polybench::atax {
namespace {

using namespace detail;

const std::array correct{
    variant{"AtaxTwoKernels", "ATAX", "004",
            "two launches on one stream: tmp = A x with one thread per row, then y = A^T tmp with one thread per column "
            "(coalesced)",
            {}, caught_by::value_checks, {}, false, launch_two_kernels, nullptr},
    variant{"AtaxSharedStaged", "ATAX", "004",
            "the seed's shared-memory staging of x (then tmp) in chunks of one block, with the phases in two kernels, "
            "A[i][j] = A[i*ny + j] and every bound checked",
            {}, caught_by::value_checks, {}, false, launch_shared_staged, shared_staged_constraint},
    variant{"AtaxCublas", "ATAX", "004",
            "cublasDgemv twice on row-major A (column-major A^T, lda = ny): op T for tmp = A x, op N for y = A^T tmp",
            {}, caught_by::value_checks, {}, true, launch_cublas, nullptr},
};

const std::array known_bad{
    variant{"AtaxFusedAsWritten", "ATAX", "004", "seed 004 trans_norm_vector as written: one fused kernel, BLOCK_SIZE chunks",
            "no grid-wide barrier: phase 2 reads tmp that other blocks write (cross-block race); both products index "
            "A[tid + r*nx] (A^T x for the first: right only for symmetric A); the inner loop runs to BLOCK_SIZE past ny "
            "and threads past nx read A; y is written up to nx (past its end when nx > ny) and tmp read up to ny",
            caught_by::value_checks,
            "first at 1 x 1 (Random, block 32): the unchecked inner loop reads A past its end into the guard canary, and "
            "NaN * x_s[e] = 0 is NaN in y. Without out-of-bounds reads (32 x 32, one block) the error bound on the Random "
            "input catches the transposed indexing, which PolyBench's symmetric init passes; 65 x 33 writes y past its "
            "end (guard); the race can stay latent while every block is resident and shows deterministically as the "
            "poisoned tmp's NaN in y when blocks run in waves (schedule test: PolyBench 2048 x 2048, block 32, one free SM)",
            false, launch_fused_as_written, fused_as_written_constraint},
    variant{"AtaxRowPerThreadBothPhases", "ATAX", "004",
            "tmp = A x with one thread per row, then the same row kernel on tmp for the second phase",
            "computes y = A (A x) instead of A^T (A x): right on square inputs only when A is symmetric (PolyBench's init "
            "is); when nx != ny it also writes y past ny or reads tmp past nx",
            caught_by::value_checks,
            "the error bound on the Random input at 2 x 2 (first catch: A A x differs from A^T A x wherever A is not "
            "symmetric); PolyBench's init is symmetric when nx = ny and passes every square case; on non-square shapes "
            "the guards catch the write past y (nx > ny) and the canary read past tmp (ny > nx)",
            false, launch_row_per_thread_both_phases, nullptr},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::polybench::atax

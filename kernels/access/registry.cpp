// The access registry (seed 003): one row per variant. Tests and sanitizer runs are instantiated
// from these tables, so a new row inherits the whole suite.
#include "kernels/access/launchers.hpp"

#include <array>

namespace kc::access {
namespace {

using namespace detail;

const std::array correct{
    variant{"FullCoalesced", "AC1", "003", "C[tid] = A[tid] + B[tid]: one 128-byte line per warp", {}, caught_by::value_checks, {},
            body::coalesced, false, false, launch_full_coalesced},
    variant{"NonCoalesced", "AC2", "003",
            "per-thread cuRAND XORWOW (subsequence tid); index (r * n) >> 32 (the seed's r / (2^32 / n) corrected)", {},
            caught_by::value_checks, {}, body::curand_random, false, false, launch_non_coalesced},
    variant{"SemiCoalesced", "AC3", "003",
            "cuRAND: one random whole 512-float group per warp (subsequence tid / 32, multiply-high), random lanes in it",
            {}, caught_by::value_checks, {}, body::curand_group, true, false, launch_semi_coalesced},
    variant{"NonCoalescedHashed", "AC2r", "003", "AC2's pattern from a counter-based hash (replayable on the CPU)", {},
            caught_by::value_checks, {}, body::hashed_random, false, false, launch_non_coalesced_hashed},
    variant{"SemiCoalescedHashed", "AC3r", "003", "AC3's pattern from a counter-based hash (replayable on the CPU)", {},
            caught_by::value_checks, {}, body::hashed_group, true, false, launch_semi_coalesced_hashed},
    variant{"WarpNoDivergence", "DV1", "003", "A+B, A-B, A*B, A/B by (tid/32) % 4: one path per warp", {},
            caught_by::value_checks, {}, body::branch_by_warp, false, false, launch_warp_no_divergence},
    variant{"WarpDivergence", "DV2", "003", "A+B, A-B, A*B, A/B by tid % 4: four paths in every warp", {},
            caught_by::value_checks, {}, body::branch_by_thread, false, false, launch_warp_divergence},
    variant{"VectorAdd", "OC", "003", "DV1's body with the S1 / S2 launch scenarios, grid ceil(n / block)", {},
            caught_by::value_checks, {}, body::branch_by_warp, false, true, launch_vector_add},
};

const std::array known_bad{
    variant{"NonCoalescedAsWritten", "AC2", "003", "seed 003 non_coalesced_access: index = curand() / (2^32 / n)",
            "the index reaches n (up to n + floor((2^32 mod n - 1) / floor(2^32 / n))) with probability "
            "(2^32 mod n) / 2^32 per draw whenever n is not a power of two",
            caught_by::value_checks,
            "the out-of-bounds read picks up the guard canary (NaN) and C is no 2*idx + 3: the index oracle, at n = "
            "1,000,003 (~222 threads whose last draw is past the end)",
            body::curand_random, false, false, launch_non_coalesced_as_written, non_coalesced_as_written_constraint},
    variant{"SemiCoalescedAsWritten", "AC3", "003",
            "seed 003 semi_coalesced_access: group_count = n / 512, GN = curand() / (2^32 / group_count)",
            "GN reaches group_count (the never-chosen partial group, or past the end) for the 2^32 mod group_count "
            "largest draws whenever group_count is not a power of two",
            caught_by::value_checks,
            "the group oracle on the overflow-seed case (n = 328,193, 641 groups, a seed whose warp-0 group draw "
            "overflows): warp 0 reads the partial group [328192, n) and past the end",
            body::curand_group, true, false, launch_semi_coalesced_as_written, semi_coalesced_as_written_constraint},
    variant{"SemiCoalescedGroupPerLane", "AC3", "003", "AC3 with the group generator seeded per thread",
            "each lane draws its own group: a warp's loads spread over many groups (no longer semi-coalesced)",
            caught_by::value_checks, "the group oracle, at the first n with two whole groups (n = 1535)",
            body::curand_group, true, false, launch_semi_coalesced_group_per_lane},
    variant{"WarpNoDivergenceOpsSwapped", "DV1", "003", "DV1 with the branches of A-B and A*B swapped",
            "warps (tid/32) % 4 == 1 multiply and == 2 subtract", caught_by::value_checks,
            "the exact reference, at the first n with a second warp (n = 33)", body::branch_by_warp, false, false,
            launch_warp_no_divergence_ops_swapped},
    variant{"WarpDivergenceOpsSwapped", "DV2", "003", "DV2 with the branches of A-B and A*B swapped",
            "threads tid % 4 == 1 multiply and == 2 subtract", caught_by::value_checks,
            "the exact reference, at the first n past two elements (n = 31)", body::branch_by_thread, false, false,
            launch_warp_divergence_ops_swapped},
    variant{"VectorAddGridRoundsDown", "OC", "003", "seed 003 vector_add launched with numBlocks = n / NTB, no guard",
            "the last n mod block elements are never written when block does not divide n",
            caught_by::value_checks, "the poisoned output (NaN where nothing was written): n = 33 with S2's block 32 leaves C[32] unwritten",
            body::branch_by_warp, false, true, launch_vector_add_grid_rounds_down, grid_rounds_down_constraint},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::access

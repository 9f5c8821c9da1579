// The conv2d registry (seed 004, KERNELS.md §5 "Conv2D 3×3"): one row per variant. Tests and
// sanitizer runs are instantiated from these tables, so a new row inherits the whole suite.
#include "kernels/polybench/conv2d/launchers.hpp"

#include <array>

namespace kc::polybench::conv2d {
namespace {

using namespace detail;

const std::array correct{
    variant{"Conv2dDirect", "Conv2D", "004",
            "seed 004's Convolution kernel (correct as written): one thread per element, 2-D blocks, grid "
            "ceil(nj / bx) x ceil(ni / by), interior guard, 9 loads of a from global memory",
            {}, caught_by::value_checks, {}, false, launch_direct},
    variant{"Conv2dSharedTile", "Conv2D", "004",
            "a (by + 2) x (bx + 2) tile of a with its halo staged in shared memory, one barrier, the stencil "
            "read from the tile",
            {}, caught_by::value_checks, {}, true, launch_shared_tile},
};

const std::array known_bad{
    variant{"Conv2dGridFromNiBothDims", "Conv2D", "004",
            "the seed's kernel with numBlocksX = ceil(ni / bx) (from ni, as numBlocksY) instead of ceil(nj / bx)",
            "the columns past ceil(ni / bx) * bx have no thread when nj exceeds it: those interior points are never "
            "written (square sizes, the only ones the seed ran, hide it)",
            caught_by::value_checks,
            "the poisoned output: interior points left NaN, first at 3 x 1000 (every configuration: one column block "
            "covers at most 256 of 998 interior columns)",
            false, launch_grid_from_ni_both_dims},
    variant{"Conv2dGridSwapped", "Conv2D", "004",
            "PolyBench/GPU 2DConvolution.cu's launch: grid(ceil(ni / bx), ceil(nj / by)) for a kernel that takes "
            "columns from x and rows from y",
            "columns past ceil(ni / bx) * bx and rows past ceil(nj / by) * by have no thread: interior points never "
            "written on wide and on tall arrays (PolyBench/GPU runs NI = NJ only)",
            caught_by::value_checks,
            "the poisoned output: interior points left NaN, first at 3 x 1000 (and at 1000 x 3 for the tall side)",
            false, launch_grid_swapped, grid_swapped_constraint},
    variant{"Conv2dWritesBorder", "Conv2D", "004", "every thread inside a writes b: the stencil inside, 0 on the border",
            "the border of b is overwritten with 0; it must keep what b held before the launch (PolyBench compares "
            "only the interior, so its own check cannot see this)",
            caught_by::value_checks, "the border check (bit for bit against the poison), at the first size: 1 x 1",
            false, launch_writes_border},
    variant{"Conv2dCoefficientsTransposed", "Conv2D", "004",
            "the stencil with c12 and c21 swapped (+0.5 on a[i][j-1], -0.3 on a[i-1][j])",
            "b[i][j] is off by 0.8 * (a[i][j-1] - a[i-1][j]) at every interior point",
            caught_by::value_checks, "the error bound, at the first size with an interior point: 3 x 3", false,
            launch_coefficients_transposed},
    variant{"Conv2dSharedTileNoSync", "Conv2D", "004", "Conv2dSharedTile without the barrier between loading and reading the tile",
            "a thread reads halo and neighbour elements of the tile that other warps may not have stored yet (a "
            "read-after-write race on shared memory)",
            caught_by::racecheck,
            "compute-sanitizer racecheck (sanitizer.racecheck.polybench_conv2d.catches): a hazard on the tile at 33 x 65; "
            "the values may well be right",
            true, launch_shared_tile_no_sync},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::polybench::conv2d

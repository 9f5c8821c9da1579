// The covariance registry (seed 004, catalog id COVAR): one row per variant. The conformance suite,
// the known-bad gate and the sanitizer runs are instantiated from these tables, so a new row inherits
// the whole suite. how_caught names the check and the first case of the sweep (sizes in the order of
// tests/polybench/covariance_cases.hpp, FLOAT_N = 3214212.01 before FLOAT_N = n) expected to catch it.
#include "kernels/polybench/covariance/launchers.hpp"

#include <array>

namespace kc::polybench::covariance {
namespace {

using namespace detail;

std::vector<covariance_config> seed_fused_config(const dims&) { return {{16, 0, 0, 0}}; }
// PolyBench/GPU's blocks (256-thread mean, 32 × 8 centring) with the seed's tile 16: the bug needs a
// centring block whose x and y extents differ.
std::vector<covariance_config> polybench_gpu_config(const dims&) { return {{16, 256, 32, 8}}; }

const std::array correct{
    variant{"CovarianceMultiKernel", "COVAR", "004",
            "three kernels (the seed's phases, each kernel boundary a grid-wide barrier): column mean, centring in place, "
            "symmat = data^T data with tile x tile shared-memory tiles (both triangles computed)",
            {}, caught_by::value_checks, {}, product_kind::tiled, launch_multi_kernel, tiled_configs},
    variant{"CovarianceCublas", "COVAR", "004",
            "the pipeline's mean and centring kernels, then cuBLAS DSYRK (row-major data is column-major data^T: "
            "X X^T, upper fill = row-major lower triangle) and a mirror kernel for the other triangle",
            {}, caught_by::value_checks, {}, product_kind::library, launch_cublas, library_configs},
};

// The fused kernel comes last: past its first catch (KCONFORM_KNOWN_BAD_FULL=1) its stray writes at
// non-square sizes can run past symmat's guard zone into other allocations of the process, which no
// row after it should share.
const std::array known_bad{
    variant{"CovarianceCentringQuarterGrid", "COVAR", "004",
            "PolyBench/GPU covariance: centring grid ceil(n / DIM_THREAD_BLOCK_KERNEL_2_X) x 32x8 blocks",
            "the centring grid's row count divides n by the block's x extent (32), not its y extent (8): only rows "
            "< 8 * ceil(n / 32), about a quarter, are centred",
            caught_by::value_checks,
            "the symmat error bound, first at 1000 x 1 with FLOAT_N = 3214212.01 (rows 256..999 uncentred: symmat moves by "
            "~1e-6 relative, which PolyBench's 1.05% check passes); at FLOAT_N = n PolyBench's own check fails too. "
            "Invisible while n <= 8 (8 * ceil(n / 32) rows cover them)",
            product_kind::tiled, launch_centring_quarter_grid, polybench_gpu_config},
    variant{"CovarianceDividesByNMinus1", "COVAR", "004",
            "a correct sample covariance: PolyBench's pipeline, then symmat /= (n - 1)",
            "divides symmat by n - 1: a right statistic, but not the catalog's (PolyBench's symmat has no divisor)",
            caught_by::value_checks,
            "the symmat error bound, first at 3 x 3 (FLOAT_N = 3214212.01, PolyBench's init): every non-zero element "
            "halved. Refuses n = 1 (no sample covariance); at n = 2 the divisor is 1 and it passes",
            product_kind::tiled, launch_divides_by_n_minus_1, tiled_configs, sample_covariance_constraint},
    variant{"CovarianceSkipsCentring", "COVAR", "004", "the pipeline without its centring kernel (the seed's centring bug alone)",
            "data is never centred: symmat is the uncentred product, off by mean_j1*mean_j2*(2*FLOAT_N - n)",
            caught_by::value_checks,
            "the symmat error bound, at the first case (1 x 1, FLOAT_N = 3214212.01: 2/FLOAT_N = 6e-7 relative, far "
            "inside PolyBench's 1.05%, far outside the bound); PolyBench's own check catches it only at FLOAT_N = n",
            product_kind::tiled, launch_skips_centring, tiled_configs},
    variant{"CovarianceMeanDividesByRows", "COVAR", "004", "the pipeline with the mean divided by n instead of FLOAT_N",
            "ignores FLOAT_N: the true mean, not PolyBench's (identical when FLOAT_N = n)", caught_by::value_checks,
            "the mean error bound, at the first case (1 x 1, FLOAT_N = 3214212.01: mean = x, not x / 3214212.01); it "
            "passes every FLOAT_N = n case, which is why the suite runs both settings",
            product_kind::tiled, launch_mean_divides_by_rows, tiled_configs},
    variant{"CovarianceFusedAsWritten", "COVAR", "004", "seed 004's fused covariance kernel as written (BLOCK_SIZE 16)",
            "no grid-wide barrier between the phases; the centring loop never runs (Col is not reset after the mean "
            "loop); m and n mixed up in the tile loads, tile count and grid (it computes data*data, not data^T*data); "
            "the tile loop bound `> m` adds a term past the last row",
            caught_by::value_checks,
            "the guard check, at the first case (1 x 1, FLOAT_N = 3214212.01): its 16 x 16 threads write symmat[Row*n + "
            "Col] with the advanced Col, up to index 31 of the 1-element symmat; past that, NaN read from the guards "
            "and the uncentred, transposed product fail the error bound",
            product_kind::fused, launch_fused_as_written, seed_fused_config, fused_as_written_constraint},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::polybench::covariance

// Known-bad rows that compute a different statistic than PolyBench's, each from the correct pipeline
// with one stage changed:
//   CovarianceDividesByNMinus1   a correct *sample* covariance: the pipeline, then symmat /= (n − 1).
//                                Right for statistics, wrong for the catalog (PolyBench's symmat has no
//                                divisor). Invisible at n = 2 (the divisor is 1); refuses n = 1, where a
//                                sample covariance is undefined.
//   CovarianceSkipsCentring      the seed's centring bug alone (its loop never runs): mean, then the
//                                product of the uncentred data. At FLOAT_N = 3214212.01 the mean is
//                                ~n / 3.2e6 of the true one, so symmat moves by about 3n / (2·FLOAT_N)
//                                (4.8e-4 relative at 1024²): PolyBench's 1.05% check passes it.
//   CovarianceMeanDividesByRows  the mean divides by n, not FLOAT_N (the true mean, as a statistician
//                                would write it): identical to the correct result when FLOAT_N = n, so
//                                only the seed's FLOAT_N shows it — the other setting's blind spot.
#include "kernels/polybench/covariance/launchers.hpp"

namespace kc::polybench::covariance::detail {
namespace {

__global__ void divide_every_element(double* symmat, std::size_t count, double divisor) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) symmat[k] /= divisor;
}

}  // namespace

std::string sample_covariance_constraint(const dims& d, const covariance_config&) {
  if (d.n < 2)
    return "n = " + std::to_string(d.n) + " row: a sample covariance divides by n - 1 = 0; it needs at least 2 observations";
  return {};
}

launch_status launch_divides_by_n_minus_1(double* data, double* mean, double* symmat, const dims& d, double float_n,
                                          const covariance_config& config, const launch_context& context) {
  if (launch_status status = launch_multi_kernel(data, mean, symmat, d, float_n, config, context); !status) return status;
  const std::size_t count = d.symmat_elements();
  constexpr unsigned threads = 256;
  divide_every_element<<<static_cast<unsigned>((count + threads - 1) / threads), threads, 0, context.stream>>>(
      symmat, count, static_cast<double>(d.n - 1));
  return launch_status::after_launch("covariance divide_every_element (by n - 1)");
}

launch_status launch_skips_centring(double* data, double* mean, double* symmat, const dims& d, double float_n,
                                    const covariance_config& config, const launch_context& context) {
  if (launch_status status = enqueue_mean(data, mean, d, float_n, config.mean_block, context.stream); !status) return status;
  return enqueue_tiled_product(data, symmat, d, config.tile, context.stream);  // bug: no centring in between
}

launch_status launch_mean_divides_by_rows(double* data, double* mean, double* symmat, const dims& d, double,
                                          const covariance_config& config, const launch_context& context) {
  return launch_multi_kernel(data, mean, symmat, d, static_cast<double>(d.n), config, context);  // bug: n, not FLOAT_N
}

}  // namespace kc::polybench::covariance::detail

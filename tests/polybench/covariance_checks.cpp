#include "tests/polybench/covariance_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/failure_dump.hpp"
#include "fixtures/fingerprint.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/input_cache.hpp"
#include "fixtures/launch_aftermath.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/run_cache.hpp"
#include "fixtures/time_spent.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace kc::polybench::covariance::testing {

namespace polybench_reference = ::kc::reference::polybench;

// ---- the error bound ----
//
// Every comparison below is |gpu − ref| <= tolerance, element by element, with this bound (Higham,
// "Accuracy and Stability of Numerical Algorithms", §3.1 and (3.5)); u = 2^-53, γ(k) = k·u / (1 − k·u).
// Each line holds for any summation order and tree, with or without fused multiply-adds.
//
//   mean    The GPU sums a column's n values (n − 1 additions) and divides by FLOAT_N — or multiplies
//           by a rounded 1/FLOAT_N, one rounding more: every term goes through at most n + 1 roundings,
//           so |mean_gpu_j − μ_j| <= γ(n + 1)·Σ_i|x_ij| / |FLOAT_N| =: E_j, with μ_j = Σ_i x_ij / FLOAT_N
//           exact (FLOAT_N being the same double on both sides).
//   centring  d̂_ij = fl(x_ij − mean_gpu_j) = (d_ij − (mean_gpu_j − μ_j))·(1 + δ), d_ij = x_ij − μ_j:
//           |d̂_ij − d_ij| <= u·|d_ij| + (1 + u)·E_j.
//   symmat  The product of the centred columns from the d̂ is within γ(n)·Σ_i|d̂_i1·d̂_i2| of
//           Σ_i d̂_i1·d̂_i2 (Higham (3.5)); writing d̂ = d + its error and collecting terms with
//           (1 + γ(n))·(1 + u)² <= 1 + γ(n + 2):
//             |symmat_gpu − S| <= γ(n + 2)·P + (1 + γ(n + 2))·(E_1·A_2 + E_2·A_1 + n·E_1·E_2),
//           P = Σ_i|d_i1·d_i2|, A_j = Σ_i|d_ij|. The n·E_1·E_2 term is second order, but it is all that
//           is left where P and A vanish (a constant column at FLOAT_N = n: d = 0, d̂ ~ E).
//   the reference  The same analysis bounds the long double reference's error before its final
//           rounding, with u_L = 2^-64 (long_double_unit_roundoff()) for u (its double-double route's
//           sums are proven within that too: reference/polybench/covariance_reference.cpp); the magnitudes it returns
//           (Σ|x|, A and P of its own centred values, P summed in double) differ from the exact ones by
//           second-order terms (relative to the bound's own terms: ~2·u_L / u from its centred values,
//           <= n·u from P's double sum). Both are covered by evaluating the bound once with w = u + 4·u_L in place
//           of u (γ(k) and the E grow with the unit roundoff, and γ_k(u) + γ_k(u_L) <= γ_k(u + u_L)):
//           u_L once for the reference's own error, up to twice for its magnitudes, once to spare.
//           Then the reference's rounding to double: 2^-53·|ref|.
//
//   tolerance   mean_j:        E_j(w) + 2^-53·|ref_j|
//               symmat[j1][j2]: γ_w(n + 2)·P + (1 + γ_w(n + 2))·(E_1·A_2 + E_2·A_1 + n·E_1·E_2) + 2^-53·|ref|
//
// What it can tell apart: at FLOAT_N = 3214212.01 a missing centring moves symmat by about
// 3n / (2·FLOAT_N) relative (4.8e-4 at 1024², 2 / FLOAT_N = 6e-7 at n = 1), while the bound is ~n·1e-16
// relative; PolyBench's 1.05% threshold sees none of it.

double bound_unit_roundoff() { return double_unit_roundoff + 4.0 * polybench_reference::long_double_unit_roundoff(); }

tolerances covariance_tolerances(const polybench_reference::covariance_result& ref, int n, int m, double float_n) {
  const double w = bound_unit_roundoff();
  const double gamma_mean = gamma(static_cast<std::size_t>(n) + 1, w);
  const double gamma_symmat = gamma(static_cast<std::size_t>(n) + 2, w);
  const std::size_t cols = static_cast<std::size_t>(m);
  tolerances t;
  t.mean.resize(cols);
  t.symmat.resize(cols * cols);
  std::vector<double> e(cols);  // E_j(w)
  for (std::size_t j = 0; j < cols; ++j) {
    e[j] = gamma_mean * ref.abs_data_sum[j] / std::fabs(float_n);
    t.mean[j] = e[j] + double_unit_roundoff * std::fabs(ref.mean[j]);
  }
  const std::int64_t rows_of_symmat = m;
#pragma omp parallel for schedule(static)
  for (std::int64_t j1 = 0; j1 < rows_of_symmat; ++j1)
    for (std::size_t j2 = 0; j2 < cols; ++j2) {
      const std::size_t k = static_cast<std::size_t>(j1) * cols + j2;
      const double cross = e[j1] * ref.abs_centred_sum[j2] + e[j2] * ref.abs_centred_sum[j1] + n * e[j1] * e[j2];
      t.symmat[k] = gamma_symmat * ref.abs_product_sum[k] + (1.0 + gamma_symmat) * cross +
                    double_unit_roundoff * std::fabs(ref.symmat[k]);
    }
  return t;
}

// ---- inputs ----

namespace {

// The reference is computed once per GPU run and shared by its processes (fixtures/run_cache.hpp)
// where that pays: at 2048² it is ~26 s of CPU, drawn by the conformance unit, the benchmark and the
// perf unit. Not below 2^24 multiply-adds (milliseconds), nor below 256 rows, where each stored
// double of symmat stands for fewer than 8 multiply-adds (17 x 4096: 0.45 s of reference, a 256 MB file).
bool worth_sharing(const dims& d) { return d.n >= 256 && reference_multiply_adds(d) >= 0x1p24; }

// Everything the reference depends on but the data; FLOAT_N in hex, exactly.
std::string reference_key(const dims& d, input_kind kind, float_n_setting setting, double float_n, std::uint64_t seed) {
  char float_n_hex[32];
  std::snprintf(float_n_hex, sizeof float_n_hex, "%a", float_n);
  // The route too (covariance_reference.hpp): a cache folder shared by hosts with and without AVX2 and
  // FMA holds both results, each within the bound, neither served as the other.
  return "CovarianceReferenceN" + std::to_string(d.n) + 'M' + std::to_string(d.m) + name_of(kind) + name_of(setting) +
         float_n_hex + "Seed" + std::to_string(seed) +
         (polybench_reference::automatic_route(d.n) == polybench_reference::dot_route::double_double ? "DoubleDouble"
                                                                                                     : "X87");
}

}  // namespace

std::shared_ptr<prepared_input> make_host_input(const dims& d, input_kind kind, float_n_setting setting, std::uint64_t seed) {
  auto input = std::make_shared<prepared_input>();
  input->d = d;
  input->kind = kind;
  input->setting = setting;
  input->float_n = float_n_value(setting, d);
  input->seed = seed;
  input->data = make_data(kind, d, seed);
  polybench_reference::covariance_result ref;
  const auto compute = [&] { ref = polybench_reference::covariance(input->data, d.n, d.m, input->float_n); };
  if (worth_sharing(d))
    run_cache::load_or_compute(reference_key(d, kind, setting, input->float_n, seed), fingerprint(input->data), compute,
                               ref.mean, ref.symmat, ref.abs_data_sum, ref.abs_centred_sum, ref.abs_product_sum);
  else
    compute();
  input->tolerance = covariance_tolerances(ref, d.n, d.m, input->float_n);
  input->expected_mean = std::move(ref.mean);
  input->expected_symmat = std::move(ref.symmat);
  return input;
}

std::shared_ptr<const prepared_input> prepare(const dims& d, input_kind kind, float_n_setting setting, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  std::shared_ptr<prepared_input> input = make_host_input(d, kind, setting, seed);
  input->pristine_data = device_buffer<double>(input->data.size());
  input->pristine_data.upload(input->data);
  return input;
}

std::shared_ptr<const prepared_input> input_for(const covariance_case& c) {
  const std::string key = "CovarianceN" + std::to_string(c.d.n) + 'M' + std::to_string(c.d.m) + name_of(c.input) + name_of(c.float_n);
  // Host data + device copy, expected symmat and its tolerances, mean and its tolerances.
  const std::size_t bytes = (2 * c.d.data_elements() + 2 * c.d.symmat_elements() + 2 * static_cast<std::size_t>(c.d.m)) * sizeof(double);
  return process_input_cache<prepared_input>().get(key, bytes, [&] { return prepare(c.d, c.input, c.float_n, data_seed(c.input, c.d)); });
}

// ---- the verdict ----

namespace {

std::string describe_case(const covariance_case& c, const prepared_input& input) {
  std::ostringstream out;
  out.precision(17);
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique << "), "
      << c.d.describe() << ", FLOAT_N = " << input.float_n << " (" << name_of(c.float_n) << "), " << c.config.describe()
      << ", input " << name_of(c.input) << " (input seed " << input.seed << "), error-bound compare"
      << "\n  replay: " << replay_command();
  return out.str();
}

// Element k of symmat is reported as index k; the message names it symmat[j1][j2].
std::string with_positions(const comparison& result, const std::string& what, int m) {
  std::string text = result.describe(what);
  if (m > 1 && !result.first.empty()) {
    std::ostringstream positions;
    for (const mismatch& x : result.first) positions << ' ' << what << '[' << x.index / m << "][" << x.index % m << ']';
    text += "\n    positions:" + positions.str();
  }
  return text;
}

}  // namespace

value_verdict judge_outputs(const prepared_input& input, std::span<const double> mean, std::span<const double> symmat) {
  if (mean.size() != input.expected_mean.size() || symmat.size() != input.expected_symmat.size())
    throw std::invalid_argument("judge_outputs: mean or symmat has the wrong number of elements");
  value_verdict verdict;
  verdict.polybench = polybench_reference::percent_diff_over(input.expected_symmat, symmat,
                                                             polybench_reference::covariance_threshold_percent);
  // Beside the comparison, the bound of the .cpp's header: mean within E_j(w) + 2^-53·|ref_j|, symmat
  // within γ_w(n + 2)·P + (1 + γ_w(n + 2))·(E_1·A_2 + E_2·A_1 + n·E_1·E_2) + 2^-53·|ref|.
  const comparison mean_result = compare_within(input.expected_mean, mean, input.tolerance.mean);
  const comparison symmat_result = compare_within(input.expected_symmat, symmat, input.tolerance.symmat);
  if (!mean_result.ok()) verdict.problem = "mean: " + mean_result.describe("mean");
  if (!symmat_result.ok())
    verdict.problem += (verdict.problem.empty() ? "" : "\n  ") + std::string("symmat: ") +
                       with_positions(symmat_result, "symmat", input.d.m);
  return verdict;
}

check_outcome check_covariance(const covariance_case& c, const prepared_input& input, cublasHandle_t cublas, bool write_dump) {
  const variant& v = *c.v;
  const double float_n = input.float_n;
  const std::string context = describe_case(c, input);
  if (const launch_status status = validate(v, c.d, float_n, c.config, device_limits::of_current_device()); !status)
    return {check_result::refuse(status.message() + "\n  case: " + context), std::nullopt};

  guarded_device_buffer<double> data(c.d.data_elements()), mean(static_cast<std::size_t>(c.d.m)), symmat(c.d.symmat_elements());
  data.poison();
  mean.poison();
  symmat.poison(guard_role::write_only);  // a double output: its guard must show an atomicAdd too
  const cuda_stream stream;
  enqueue_behind_delay(data.data(), input.pristine_data.data(), input.pristine_data.bytes(), stream.get());
  if (const launch_status status = launch(v, data.data(), mean.data(), symmat.data(), c.d, float_n, c.config, {stream.get(), cublas});
      !status) {
    (void)cudaDeviceSynchronize();
    return {check_result::not_launched(status.what() == launch_status::kind::refused, status.message() + "\n  case: " + context),
            std::nullopt};
  }
  launch_aftermath after;  // the three guards: one read-back
  after.guards(symmat, "symmat").guards(mean, "mean").guards(data, "data");
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto fault = fault_after_sync(stream.get())) return {check_result::fail(*fault + "\n  case: " + context), std::nullopt};
  after.read();
  if (const auto problem = after.guard_problem()) return {check_result::fail(*problem + "\n  case: " + context), std::nullopt};

  const std::vector<double> actual_mean = mean.download(), actual_symmat = symmat.download();
  const value_verdict verdict = judge_outputs(input, actual_mean, actual_symmat);
  if (!verdict.passed()) {
    const std::string path = !write_dump ? std::string("not written (an expected failure)")
                                         : write_failure_dump(current_test_full_name() + "." + c.name(), context,
                                                              {{"data", {}, input.data},
                                                               {"expected mean", {}, input.expected_mean},
                                                               {"actual mean", {}, actual_mean},
                                                               {"expected symmat", {}, input.expected_symmat},
                                                               {"actual symmat", {}, actual_symmat}});
    return {check_result::fail(verdict.problem + "\n  symmat, " + verdict.polybench.describe() + " (the verdict is the "
                               "error bound's)\n  case: " + context + "\n  data: " + path),
            verdict.polybench};
  }
  return {check_result::pass(), verdict.polybench};
}

}  // namespace kc::polybench::covariance::testing

#include "tests/polybench/atax_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/failure_dump.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/input_cache.hpp"
#include "fixtures/launch_aftermath.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/time_spent.hpp"
#include "reference/polybench/percent_diff.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace kc::polybench::atax::testing {

std::size_t rounding_chain(const atax_shape& s) {
  return static_cast<std::size_t>(s.nx) + static_cast<std::size_t>(s.ny);
}

// The bound on |gpu_j − ref_j|; its derivation is beside the comparison in check_atax.
double y_tolerance(const atax_shape& s, double magnitude, double reference) {
  const std::size_t k = rounding_chain(s);
  const double reference_accumulation = static_cast<double>(k) * 0x1p-62;
  return (double_gamma(k) + reference_accumulation) * magnitude + double_unit_roundoff * std::fabs(reference);
}

std::shared_ptr<prepared_input> make_host_input(const atax_shape& s, input_kind kind, std::uint64_t seed) {
  auto input = std::make_shared<prepared_input>();
  input->s = s;
  input->kind = kind;
  input->seed = seed;
  input->host = make_input(kind, s, seed);
  input->expected = reference::polybench::atax(input->host.a, input->host.x, static_cast<std::size_t>(s.nx),
                                               static_cast<std::size_t>(s.ny));
  input->tolerance.resize(input->expected.y.size());
  for (std::size_t j = 0; j < input->tolerance.size(); ++j)
    input->tolerance[j] = y_tolerance(s, input->expected.magnitude[j], input->expected.y[j]);
  return input;
}

std::shared_ptr<const prepared_input> prepare(const atax_shape& s, input_kind kind, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  std::shared_ptr<prepared_input> input = make_host_input(s, kind, seed);
  input->pristine_a = device_buffer<double>(input->host.a.size());
  input->pristine_x = device_buffer<double>(input->host.x.size());
  input->pristine_a.upload(input->host.a);
  input->pristine_x.upload(input->host.x);
  return input;
}

std::shared_ptr<const prepared_input> input_for(const atax_shape& s, input_kind kind) {
  const std::string key = "AtaxNx" + std::to_string(s.nx) + "Ny" + std::to_string(s.ny) + name_of(kind);
  // Host A and its device copy, plus the vectors.
  const std::size_t bytes = 2 * s.elements() * sizeof(double) + 8 * static_cast<std::size_t>(s.nx + s.ny) * sizeof(double);
  return process_input_cache<prepared_input>().get(key, bytes, [&] { return prepare(s, kind, case_seed(base_seed(), key)); });
}

namespace {

std::string describe_case(const atax_case& c, const prepared_input& input) {
  std::ostringstream out;
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique << "), shape "
      << c.s.describe() << ", " << c.config.describe();
  if (c.config.block != 0)
    out << " (grids " << blocks_for(c.s.nx, c.config.block) << " over rows, " << blocks_for(c.s.ny, c.config.block)
        << " over columns)";
  out << ", input " << name_of(c.input) << " (input seed " << input.seed << "), error-bound compare (gamma_"
      << rounding_chain(c.s) << ")\n  replay: " << replay_command();
  return out.str();
}

}  // namespace

check_result check_atax(const atax_case& c, const prepared_input& input, cublasHandle_t cublas) {
  if (!(c.s == input.s) || c.input != input.kind)
    throw std::invalid_argument("check_atax: the prepared input is for another shape or input kind than " + c.name());
  const variant& v = *c.v;
  const atax_shape& s = c.s;
  const std::string context = describe_case(c, input);
  if (const launch_status status = validate(v, s, c.config, device_limits::of_current_device()); !status)
    return check_result::refuse(status.message() + "\n  case: " + context);

  const auto nx = static_cast<std::size_t>(s.nx), ny = static_cast<std::size_t>(s.ny);
  guarded_device_buffer<double> a(s.elements()), x(ny), tmp(nx), y(ny);
  a.poison();
  x.poison();
  tmp.poison();  // scratch, poisoned too: an entry read before it is written is a NaN
  y.poison(guard_role::write_only);  // a double output: its guard must show an atomicAdd too
  const cuda_stream stream;
  enqueue_behind_delay(a.data(), input.pristine_a.data(), input.pristine_a.bytes(), stream.get());
  KC_CUDA_TRY(cudaMemcpyAsync(x.data(), input.pristine_x.data(), input.pristine_x.bytes(), cudaMemcpyDeviceToDevice,
                              stream.get()));
  if (const launch_status status = launch(v, a.data(), x.data(), tmp.data(), y.data(), s, c.config, {stream.get(), cublas});
      !status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(status.what() == launch_status::kind::refused, status.message() + "\n  case: " + context);
  }
  launch_aftermath after;  // four guards and both inputs against their pristine copies: one read-back
  after.guards(y, "y").guards(tmp, "tmp (scratch)").guards(a, "A").guards(x, "x");
  after.unchanged(a.data(), input.pristine_a.data(), input.pristine_a.bytes(), "A")
      .unchanged(x.data(), input.pristine_x.data(), input.pristine_x.bytes(), "x");
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto fault = fault_after_sync(stream.get()))
    return check_result::fail(*fault + "\n  (no PolyBench figure: the launch faulted)\n  case: " + context);

  const std::vector<double> actual = y.download();
  // PolyBench's own figure, recorded on every case and put in every failure message below: beside
  // the verdict, never the verdict.
  const reference::polybench::percent_diff_summary polybench =
      reference::polybench::percent_diff_over(input.expected.y, actual, reference::polybench::atax_threshold_percent);
  ::testing::Test::RecordProperty("polybench_check", polybench.describe());
  const std::string figure = "\n  " + polybench.describe() + " (the verdict is the error bound's)";

  after.read();
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + figure + "\n  case: " + context);
  if (const auto problem = after.input_problem()) return check_result::fail(*problem + figure + "\n  case: " + context);

  // Every y_j against the reference within its bound (y_tolerance, input.tolerance):
  // u = 2^-53, γ_k = k·u / (1 − k·u). Higham (3.5): a dot product of length n
  // computed in double in any order, with or without fused multiply-adds, is within γ_n·Σ|terms| of
  // the exact one. With s_i = Σ_k |A_ik|·|x_k| and M_j = Σ_i |A_ij|·s_i:
  //   tmp̂_i = tmp_i + δ_i,          |δ_i| <= γ_ny·s_i
  //   ŷ_j = Σ_i A_ij·tmp̂_i + ε_j,    |ε_j| <= γ_nx·Σ_i |A_ij|·|tmp̂_i| <= γ_nx·(1 + γ_ny)·M_j
  //   |ŷ_j − y_j| <= Σ_i |A_ij|·|δ_i| + |ε_j| <= (γ_ny + γ_nx + γ_nx·γ_ny)·M_j <= γ_(nx+ny)·M_j
  // (γ_a + γ_b + γ_a·γ_b <= γ_(a+b): Higham Lemma 3.3). So any variant — two kernels, staged chunks,
  // cuBLAS's own blocking — is held to γ_(nx+ny)·M_j, whatever order it sums in.
  // The reference's own error: it runs the same chain in long double (u' = 2^-64), within
  // γ'_(nx+ny)·M_j <= (nx+ny)·2^-63·M_j, and the magnitude it returns, a sum of non-negative terms,
  // is within a relative 2^-50 of the true M_j at these sizes: both are covered by (nx+ny)·2^-62·M̂_j
  // (a 2^-9 share of the main term). Then one rounding of y_j to double: <= 2^-53·|ref_j|. Hence
  //   |gpu_j − ref_j| <= (γ_(nx+ny) + (nx+ny)·2^-62)·M̂_j + 2^-53·|ref_j|.
  const comparison result = compare_within(input.expected.y, actual, input.tolerance);
  if (!result.ok()) {
    const std::string path =
        write_failure_dump(current_test_full_name() + "." + c.name(), context,
                           {{"A", {}, input.host.a}, {"x", {}, input.host.x}, {"expected y", {}, input.expected.y},
                            {"tolerance", {}, input.tolerance}, {"actual y", {}, actual}});
    return check_result::fail("y: " + result.describe("y") + figure + "\n  case: " + context + "\n  data: " + path);
  }
  return check_result::pass();
}

}  // namespace kc::polybench::atax::testing

#include "tests/polybench/covariance_cases.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"
#include "reference/polybench/covariance_reference.hpp"

#include <sstream>

namespace kc::polybench::covariance::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::polybench_init: return "PolyBenchInit";
    case input_kind::uniform: return "Uniform";
    case input_kind::uniform_offset: return "UniformOffset";
  }
  return "Unknown";
}

const char* name_of(float_n_setting setting) {
  switch (setting) {
    case float_n_setting::seed: return "FloatNSeed";
    case float_n_setting::rows: return "FloatNRows";
  }
  return "Unknown";
}

double float_n_value(float_n_setting setting, const dims& d) {
  return setting == float_n_setting::seed ? seed_float_n : static_cast<double>(d.n);
}

std::string covariance_case::name() const {
  std::ostringstream out;
  out << v->name << 'N' << d.n << 'M' << d.m << config.name() << name_of(float_n) << name_of(input);
  return out.str();
}

double reference_multiply_adds(const dims& d) { return static_cast<double>(d.m) * (d.m + 1) / 2.0 * d.n; }

std::string covariance_case::unit() const {
  return reference_multiply_adds(d) >= large_unit_multiply_adds ? "Large" : std::string(v->name);
}

double covariance_case::cost() const {
  return 1.0 + (reference_multiply_adds(d) + static_cast<double>(d.data_elements())) / 0x1p24;
}

void PrintTo(const covariance_case& c, std::ostream* os) { print_case(c, os); }

std::vector<dims> swept_sizes() {
  return {{1, 1},   {2, 2},     {3, 3},     {1, 1000},  {1000, 1},    {33, 65},
          {65, 33}, {97, 101},  {4096, 17}, {17, 4096}, {1024, 1024}, {2048, 2048}};
}

std::vector<input_kind> inputs_at(const dims& d) {
  if (d.n >= 2 && d.m >= 2) return {input_kind::polybench_init, input_kind::uniform, input_kind::uniform_offset};
  return {input_kind::uniform, input_kind::uniform_offset};
}

std::vector<covariance_case> every_case_of(const variant& v) {
  std::vector<covariance_case> cases;
  for (const dims& d : swept_sizes()) {
    const std::vector<covariance_config> configs = v.configs(d);
    for (const float_n_setting setting : {float_n_setting::seed, float_n_setting::rows})
      for (const input_kind input : inputs_at(d))
        for (const covariance_config& config : configs) cases.push_back({&v, d, config, setting, input});
  }
  return cases;
}

std::vector<covariance_case> sweep(std::span<const variant> variants) {
  std::vector<covariance_case> cases;
  for (const variant& v : variants)
    for (const covariance_case& c : every_case_of(v)) cases.push_back(c);
  return cases;
}

std::uint64_t data_seed(input_kind kind, const dims& d) {
  return case_seed(base_seed(), "CovarianceN" + std::to_string(d.n) + 'M' + std::to_string(d.m) + name_of(kind));
}

std::vector<double> make_data(input_kind kind, const dims& d, std::uint64_t seed) {
  std::vector<double> data(d.data_elements());
  switch (kind) {
    case input_kind::polybench_init: reference::polybench::covariance_polybench_init(data, d.n, d.m); break;
    case input_kind::uniform: fill_uniform_reals(std::span<double>(data), seed, -1.0, 1.0); break;
    case input_kind::uniform_offset: fill_uniform_reals(std::span<double>(data), seed, 0.0, 2.0); break;
  }
  return data;
}

}  // namespace kc::polybench::covariance::testing

#include "tests/access/access_cases.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"

#include <algorithm>
#include <sstream>

namespace kc::access::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::seed_data: return "SeedData";
    case input_kind::integer: return "Integer";
  }
  return "Unknown";
}

std::string access_case::name() const {
  std::ostringstream out;
  out << v->name << 'N' << n << name_of(config.from) << 'B' << config.block << 'R' << config.repeats << name_of(input);
  if (overflow_seed) out << "OverflowSeed";
  return out.str();
}

std::string access_case::unit() const { return std::string(v->name); }

double access_case::cost() const {
  const double per_thread = config.repeats + (uses_curand(v->computes) ? 8.0 : 0.0);
  return 1.0 + static_cast<double>(n) * per_thread / (100.0 * (1 << 20));
}

void PrintTo(const access_case& c, std::ostream* os) { print_case(c, os); }

std::vector<std::size_t> swept_sizes() { return {1, 31, 32, 33, 1000, 1535, 32768, 65537, 1000003, 4194304}; }

std::vector<std::size_t> scenario_sizes() {
  std::vector<std::size_t> sizes{1, 31};
  for (std::size_t n = 32; n <= 65536; n *= 2) {
    sizes.push_back(n);
    if (n == 32) sizes.push_back(33);
    if (n == 512) sizes.push_back(1000);
    if (n == 1024) sizes.push_back(1535);
    if (n == 32768) sizes.push_back(40000);
  }
  return sizes;
}

std::vector<int> swept_blocks(const variant& v) {
  if (v.whole_warps) return {32, 96, 256, 992, 1024};
  return {32, 96, 256, 1000, 1024};
}

std::uint64_t index_seed(std::size_t n) { return case_seed(base_seed(), "AccessIndexN" + std::to_string(n)); }

namespace {
bool grouped(const variant& v) { return v.computes == body::curand_group || v.computes == body::hashed_group; }
std::vector<input_kind> inputs_at(std::size_t n) {
  if (n <= seed_data_limit) return {input_kind::seed_data, input_kind::integer};
  return {input_kind::integer};
}
}  // namespace

std::vector<access_case> sweep(std::span<const variant> variants) {
  std::vector<access_case> cases;
  for (const variant& v : variants) {
    if (v.scenario_blocks) continue;
    for (const std::size_t n : swept_sizes())
      if (!grouped(v) || n >= group_floats)  // fewer than 512: no whole group, refused (validation tests)
        for (const input_kind input : inputs_at(n))  // ordered size, input, block: inputs are shared
        for (const int block : swept_blocks(v))
          cases.push_back({&v, n, access_config{block, seed_repeats, index_seed(n), scenario::none}, input});
  }
  return cases;
}

std::vector<access_case> repeat_cases(std::span<const variant> variants) {
  std::vector<access_case> cases;
  for (const variant& v : variants) {
    if (v.scenario_blocks) continue;
    for (const input_kind input : inputs_at(1000))
      for (const int repeats : {1, 7}) cases.push_back({&v, 1000, access_config{256, repeats, index_seed(1000)}, input});
  }
  return cases;
}

std::vector<access_case> overflow_seed_cases(std::span<const variant> variants) {
  std::vector<access_case> cases;
  for (const variant& v : variants)
    if (v.computes == body::curand_group)
      cases.push_back({&v, overflow_seed_size, access_config{256, seed_repeats, index_seed(overflow_seed_size)},
                       input_kind::seed_data, true});
  return cases;
}

std::vector<access_case> scenario_sweep(std::span<const variant> variants) {
  std::vector<access_case> cases;
  for (const variant& v : variants) {
    if (!v.scenario_blocks) continue;
    for (const std::size_t n : scenario_sizes())
      for (const input_kind input : inputs_at(n))
        for (const scenario s : {scenario::s1, scenario::s2})
          cases.push_back({&v, n, access_config{scenario_block(s, n, 0), seed_repeats, index_seed(n), s}, input});
  }
  return cases;
}

std::vector<access_case> every_case_of(const variant& v) {
  const std::span<const variant> one(&v, 1);
  std::vector<access_case> cases = v.scenario_blocks ? scenario_sweep(one) : sweep(one);
  for (const access_case& c : repeat_cases(one)) cases.push_back(c);
  for (const access_case& c : overflow_seed_cases(one)) cases.push_back(c);
  // By size (stable: within a size the sweep's input-then-block order, which shares inputs).
  std::stable_sort(cases.begin(), cases.end(), [](const access_case& a, const access_case& b) { return a.n < b.n; });
  return cases;
}

access_input make_input(input_kind kind, std::size_t n, std::uint64_t seed) {
  access_input input{std::vector<float>(n), std::vector<float>(n)};
  switch (kind) {
    case input_kind::seed_data:
      fill_sequence(input.a, 1.0f);
      fill_sequence(input.b, 2.0f);
      break;
    case input_kind::integer:
      fill_nonzero_integers(input.a, seed, 1000);
      fill_nonzero_integers(input.b, seed ^ 0xB0B0B0B0ull, 1000);
      break;
  }
  return input;
}

}  // namespace kc::access::testing

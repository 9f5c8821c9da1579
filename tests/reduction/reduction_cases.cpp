#include "tests/reduction/reduction_cases.hpp"

#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kc::reduction::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::integer: return "Integer";
    case input_kind::real: return "Real";
    case input_kind::ones: return "Ones";
    case input_kind::alternating: return "Alternating";
    case input_kind::large_magnitude: return "LargeMagnitude";
  }
  return "Unknown";
}

std::string reduction_case::unit() const { return std::string(v->name); }

double reduction_case::cost() const { return 1.0 + static_cast<double>(n) / (1 << 20); }

void PrintTo(const reduction_case& c, std::ostream* os) { print_case(c, os); }

std::string reduction_case::name() const {
  std::ostringstream out;
  out << v->name << 'N' << n;
  if (config.block != 0) out << 'B' << config.block;
  if (config.grid != 0) out << 'G' << config.grid;
  out << name_of(input);
  return out.str();
}

std::vector<std::size_t> swept_sizes() {
  std::vector<std::size_t> sizes{1,    2,    31,   32,   33,    63,          64,              65,
                                 127,  1000, 1023, 1024, 1025,  4097,        65537,           std::size_t{1} << 20,
                                 (std::size_t{1} << 20) + 3,  std::size_t{1} << 24, (std::size_t{1} << 26) + 1};
  // Three seeded random sizes between 100 and 2^22 (fixed seed, so the list is stable).
  for (std::uint64_t k = 0; k < 3; ++k) sizes.push_back(100 + hash64(0x5EED5u, k) % ((std::size_t{1} << 22) - 100));
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::vector<reduce_config> swept_configs(const variant& v, std::size_t n) {
  std::vector<reduce_config> configs;
  const std::vector<int> blocks = v.swept_blocks();
  for (const int block : blocks) configs.push_back({block, 0});
  constexpr std::size_t explicit_grid_limit = (std::size_t{1} << 20) + 3;
  if (v.has_pass() && v.pass.grid == grid_policy::grid_stride && n <= explicit_grid_limit && !blocks.empty())
    for (const int block : {blocks.front(), blocks.back()})
      for (const int grid : {1, 7}) configs.push_back({block, grid});
  return configs;
}

std::vector<reduction_case> cases_at(const variant& v, std::size_t n, std::initializer_list<input_kind> inputs,
                                     const std::vector<reduce_config>& configs) {
  std::vector<reduction_case> all;
  for (const input_kind kind : inputs)
    for (const reduce_config& config : configs) all.push_back({&v, n, config, kind});
  return all;
}

namespace {
void append(std::vector<reduction_case>& to, const std::vector<reduction_case>& more) {
  to.insert(to.end(), more.begin(), more.end());
}
}  // namespace

std::vector<reduction_case> sweep(std::span<const variant> variants) {
  std::vector<reduction_case> cases;
  for (const variant& v : variants)
    for (const std::size_t n : swept_sizes()) append(cases, cases_at(v, n, {input_kind::integer, input_kind::real}, swept_configs(v, n)));
  return cases;
}

std::vector<reduction_case> sweep_pass_variants(std::span<const variant> variants) {
  std::vector<reduction_case> cases = sweep(variants);
  std::erase_if(cases, [](const reduction_case& c) { return !c.v->has_pass(); });
  return cases;
}

std::vector<reduction_case> edge_input_cases(std::span<const variant> variants) {
  std::vector<reduction_case> cases;
  for (const variant& v : variants)
    for (const std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1025}, std::size_t{65537},
                                (std::size_t{1} << 20) + 3})
      append(cases, cases_at(v, n, {input_kind::ones, input_kind::alternating, input_kind::large_magnitude}, swept_configs(v, n)));
  return cases;
}

std::vector<reduction_case> report_grid_cases(std::span<const variant> variants) {
  std::vector<reduction_case> cases;
  for (const variant& v : variants) {
    if (v.catalog_id != "K4" && v.catalog_id != "K5") continue;
    // Seed 000's table for K4/K5 at n = 2^24, 64 threads: 16777216 -> 131072 blocks, then
    // 131072 -> 2048 and 2048 -> 32 (twice the blocks needed), then 32 -> 1 block of 32.
    struct launch { std::size_t n; int block; int grid; };
    for (const launch l : {launch{std::size_t{1} << 24, 64, 131072}, launch{131072, 64, 2048}, launch{2048, 64, 32},
                           launch{32, 32, 1}})
      append(cases, cases_at(v, l.n, {input_kind::integer, input_kind::real}, {{l.block, l.grid}}));
  }
  return cases;
}

std::vector<reduction_case> every_case_of(const variant& v) {
  const std::span<const variant> one(&v, 1);
  std::vector<reduction_case> all = sweep(one);
  append(all, edge_input_cases(one));
  append(all, report_grid_cases(one));
  return all;
}

reduction_input make_input(input_kind kind, std::size_t n, std::uint64_t seed) {
  reduction_input input;
  input.values.resize(n);
  constexpr double exact_limit = 0x1p24;
  const int range = static_cast<int>(std::clamp(exact_limit / static_cast<double>(std::max<std::size_t>(n, 1)), 1.0, 8.0));
  // Random-sign bound over the partial sums of up to 4n nodes (error_bounds.hpp).
  const double random_sign_bound = random_sign_partial_sum_bound(n, range, 4.0 * static_cast<double>(n) + 4.0);
  switch (kind) {
    case input_kind::integer:
      fill_nonzero_integers(input.values, seed, range);
      input.exact_unit = 1.0;
      input.partial_sum_bound = random_sign_bound;
      break;
    case input_kind::real:
      fill_uniform_reals(input.values, seed, -1.0f, 1.0f);
      input.exact_unit = 0.0;
      input.partial_sum_bound = static_cast<double>(n);
      break;
    case input_kind::ones:
      fill_constant(input.values, 1.0f);
      input.exact_unit = 1.0;
      input.partial_sum_bound = static_cast<double>(n);
      break;
    case input_kind::alternating:
      // Signs alternate by position, not at random: only the deterministic bound holds.
      fill_alternating_signs(input.values, seed, range);
      input.exact_unit = 1.0;
      input.partial_sum_bound = static_cast<double>(n) * range;
      break;
    case input_kind::large_magnitude: {
      fill_nonzero_integers(input.values, seed, range);
      const float scale = std::ldexp(1.0f, 100);
      for (float& x : input.values) x *= scale;
      input.exact_unit = std::ldexp(1.0, 100);
      input.partial_sum_bound = random_sign_bound * input.exact_unit;
      break;
    }
  }
  return input;
}

}  // namespace kc::reduction::testing

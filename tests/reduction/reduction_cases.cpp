#include "tests/reduction/reduction_cases.hpp"

#include "fixtures/generators.hpp"

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

std::string reduction_case::name() const {
  std::ostringstream out;
  out << v->name << 'N' << n;
  if (block != 0) out << 'B' << block;
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

std::vector<reduction_case> size_case::cases() const {
  std::vector<reduction_case> all;
  for (const int block : v->swept_blocks())
    for (const input_kind kind : inputs) all.push_back({v, n, block, kind});
  return all;
}

std::string size_case::name() const { return std::string(v->name) + 'N' + std::to_string(n) + suffix; }

std::vector<size_case> sweep(std::span<const variant> variants) {
  std::vector<size_case> cases;
  for (const variant& v : variants)
    for (const std::size_t n : swept_sizes()) cases.push_back({&v, n, {input_kind::integer, input_kind::real}});
  return cases;
}

std::vector<size_case> sweep_pass_variants(std::span<const variant> variants) {
  std::vector<size_case> cases = sweep(variants);
  std::erase_if(cases, [](const size_case& c) { return !c.v->has_pass(); });
  return cases;
}

std::vector<size_case> edge_input_cases(std::span<const variant> variants) {
  std::vector<size_case> cases;
  for (const variant& v : variants)
    for (const std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1025}, std::size_t{65537},
                                (std::size_t{1} << 20) + 3})
      cases.push_back({&v, n, {input_kind::ones, input_kind::alternating, input_kind::large_magnitude}, "EdgeInputs"});
  return cases;
}

reduction_input make_input(input_kind kind, std::size_t n, std::uint64_t seed) {
  reduction_input input;
  input.values.resize(n);
  constexpr double exact_limit = 0x1p24;
  // Integer range [-R, R], R up to 8, chosen so n·R <= 2^24; past that, a sparse ±1 input with
  // about 0.9·2^24 non-zeros keeps sum|x| under 2^24 (the checks recompute sum|x| from the data and
  // fall back to the error bound if it is not).
  const int range = static_cast<int>(std::clamp(exact_limit / static_cast<double>(n), 1.0, 8.0));
  const auto fill_integers = [&] {
    if (static_cast<double>(n) * range <= exact_limit) fill_uniform_integers(input.values, seed, -range, range);
    else fill_sparse_integers(input.values, seed, -1, 1, 0.9 * exact_limit / static_cast<double>(n));
  };
  switch (kind) {
    case input_kind::integer:
      fill_integers();
      input.exact_unit = 1.0;
      break;
    case input_kind::real:
      fill_uniform_reals(input.values, seed, -1.0f, 1.0f);
      input.exact_unit = 0.0;
      break;
    case input_kind::ones:
      fill_constant(input.values, 1.0f);
      input.exact_unit = 1.0;
      break;
    case input_kind::alternating:
      fill_alternating_signs(input.values, seed, range);
      input.exact_unit = 1.0;
      break;
    case input_kind::large_magnitude: {
      fill_integers();
      const float scale = std::ldexp(1.0f, 100);
      for (float& x : input.values) x *= scale;
      input.exact_unit = std::ldexp(1.0, 100);
      break;
    }
  }
  return input;
}

}  // namespace kc::reduction::testing

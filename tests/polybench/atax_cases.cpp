#include "tests/polybench/atax_cases.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"

#include <numbers>
#include <sstream>

namespace kc::polybench::atax::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::polybench: return "PolyBench";
    case input_kind::random: return "Random";
  }
  return "Unknown";
}

std::string atax_case::name() const {
  std::ostringstream out;
  out << v->name << "Nx" << s.nx << "Ny" << s.ny;
  if (config.block != 0) out << 'B' << config.block;
  out << name_of(input);
  return out.str();
}

namespace {
constexpr double large_elements = 0x1p22;
}

std::string atax_case::unit() const {
  return std::string(v->name) + (static_cast<double>(s.elements()) > large_elements ? ".Large" : "");
}

double atax_case::cost() const { return 1.0 + static_cast<double>(s.elements()) / 0x1p20; }

void PrintTo(const atax_case& c, std::ostream* os) { print_case(c, os); }

std::vector<atax_shape> swept_shapes() {
  return {{1, 1},     {2, 2},     {3, 3},     {1, 1000},   {1000, 1},   {33, 65},
          {65, 33},   {97, 101},  {255, 257}, {4096, 17},  {17, 4096},  {4096, 4096}};
}

std::vector<input_kind> inputs_at(const atax_shape& s) {
  if (s.nx >= 2 && s.ny >= 2) return {input_kind::polybench, input_kind::random};
  return {input_kind::random};
}

std::vector<atax_config> swept_configs(const variant& v) {
  if (v.library) return {atax_config{0}};
  std::vector<atax_config> configs;
  for (const int block : swept_blocks) configs.push_back({block});
  return configs;
}

std::vector<atax_case> every_case_of(const variant& v) {
  std::vector<atax_case> cases;
  for (const atax_shape& s : swept_shapes())
    for (const input_kind input : inputs_at(s))
      for (const atax_config& config : swept_configs(v)) cases.push_back({&v, s, config, input});
  return cases;
}

std::vector<atax_case> sweep(std::span<const variant> variants) {
  std::vector<atax_case> cases;
  for (const variant& v : variants)
    for (const atax_case& c : every_case_of(v)) cases.push_back(c);
  return cases;
}

atax_input make_input(input_kind kind, const atax_shape& s, std::uint64_t seed) {
  atax_input input{std::vector<double>(s.elements()), std::vector<double>(static_cast<std::size_t>(s.ny))};
  switch (kind) {
    case input_kind::polybench:
      // PolyBench/GPU atax.cu init_array: x[i] = i * M_PI; A[i][j] = ((DATA_TYPE) i*j) / NX.
      for (int j = 0; j < s.ny; ++j) input.x[static_cast<std::size_t>(j)] = j * std::numbers::pi;
      for (int i = 0; i < s.nx; ++i)
        for (int j = 0; j < s.ny; ++j)
          input.a[static_cast<std::size_t>(i) * static_cast<std::size_t>(s.ny) + static_cast<std::size_t>(j)] =
              static_cast<double>(i) * j / s.nx;
      break;
    case input_kind::random:
      fill_uniform_reals(std::span<double>(input.a), seed, -1.0, 1.0);
      fill_uniform_reals(std::span<double>(input.x), hash64(seed, 0xA7A7u), -1.0, 1.0);
      break;
  }
  return input;
}

}  // namespace kc::polybench::atax::testing

#include "tests/polybench/conv2d_cases.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"

#include <sstream>

namespace kc::polybench::conv2d::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::polybench: return "Polybench";
    case input_kind::signed_real: return "SignedReal";
  }
  return "Unknown";
}

std::string conv2d_case::name() const {
  std::ostringstream out;
  out << v->name << "Ni" << size.ni << "Nj" << size.nj << config.name() << name_of(input);
  return out.str();
}

std::string conv2d_case::unit() const {
  return std::string(v->name) + (size.ni * size.nj > large_elements ? ".Large" : "");
}

double conv2d_case::cost() const { return 1.0 + static_cast<double>(size.ni * size.nj) / (1 << 20); }

void PrintTo(const conv2d_case& c, std::ostream* os) { print_case(c, os); }

void PrintTo(const size_2d& s, std::ostream* os) { *os << s.ni << " x " << s.nj; }

std::vector<size_2d> swept_sizes() {
  return {{1, 1},    {2, 2},     {3, 3},   {4, 4},   {1, 1000}, {1000, 1},  {2, 1000},  {1000, 2},   {3, 1000},
          {1000, 3}, {18, 18},   {33, 65}, {65, 33}, {97, 101}, {4096, 17}, {17, 4096}, {4096, 4096}};
}

std::vector<conv2d_config> swept_configs() { return {seed_block, polybench_block, {8, 8}, {32, 32}, rows_block}; }

std::vector<conv2d_case> sweep(std::span<const variant> variants) {
  std::vector<conv2d_case> cases;
  for (const variant& v : variants)
    for (const size_2d size : swept_sizes())
      for (const input_kind input : {input_kind::polybench, input_kind::signed_real})
        for (const conv2d_config& config : swept_configs()) cases.push_back({&v, size, config, input});
  return cases;
}

std::vector<conv2d_case> every_case_of(const variant& v) { return sweep(std::span<const variant>(&v, 1)); }

std::vector<double> make_input(input_kind kind, size_2d size, std::uint64_t seed) {
  std::vector<double> a(size.ni * size.nj);
  switch (kind) {
    case input_kind::polybench: fill_uniform_reals(std::span<double>(a), seed, 0.0, 1.0); break;
    case input_kind::signed_real: fill_uniform_reals(std::span<double>(a), seed, -1.0, 1.0); break;
  }
  return a;
}

}  // namespace kc::polybench::conv2d::testing

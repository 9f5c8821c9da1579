#include "reference/access_reference.hpp"

#include "kernels/access/index_functions.hpp"

#include <cstddef>
#include <stdexcept>

namespace kc::reference {
namespace {

void require_same_size(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  if (a.size() != b.size() || a.size() != c.size())
    throw std::invalid_argument("access reference: a, b and c must have the same length");
}

template <class Index>
void gather_add(std::span<const float> a, std::span<const float> b, std::span<float> c, Index index) {
  require_same_size(a, b, c);
  const auto n = static_cast<std::int64_t>(c.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint32_t j = index(static_cast<std::uint64_t>(i));
    c[static_cast<std::size_t>(i)] = a[j] + b[j];
  }
}

}  // namespace

float access_operation(int branch, float a, float b) {
  switch (branch) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    default: return a / b;
  }
}

void access_coalesced(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  gather_add(a, b, c, [](std::uint64_t i) { return static_cast<std::uint32_t>(i); });
}

void access_hashed_random(std::span<const float> a, std::span<const float> b, std::span<float> c, std::uint64_t seed,
                          int repeats) {
  const auto n = static_cast<std::uint32_t>(c.size());
  const auto last = static_cast<std::uint32_t>(repeats - 1);
  gather_add(a, b, c, [=](std::uint64_t i) { return access::hashed_random_index(seed, i, last, n); });
}

void access_hashed_group(std::span<const float> a, std::span<const float> b, std::span<float> c, std::uint64_t seed,
                         int repeats) {
  const auto n = static_cast<std::uint32_t>(c.size());
  const auto last = static_cast<std::uint32_t>(repeats - 1);
  gather_add(a, b, c, [=](std::uint64_t i) { return access::hashed_group_index(seed, i, last, n); });
}

namespace {
template <class Branch>
void branch_apply(std::span<const float> a, std::span<const float> b, std::span<float> c, Branch branch) {
  require_same_size(a, b, c);
  const auto n = static_cast<std::int64_t>(c.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    c[k] = access_operation(branch(static_cast<std::uint64_t>(i)), a[k], b[k]);
  }
}
}  // namespace

void access_branch_by_warp(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  branch_apply(a, b, c, [](std::uint64_t i) { return access::warp_branch(i); });
}

void access_branch_by_thread(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  branch_apply(a, b, c, [](std::uint64_t i) { return access::thread_branch(i); });
}

}  // namespace kc::reference

#include "tests/access/access_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/failure_dump.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/input_cache.hpp"
#include "fixtures/launch_aftermath.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/time_spent.hpp"
#include "reference/access_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace kc::access::testing {

// ---- statistics ----

double chi_square_tail(double x, int dof) {
  // Q(a, x/2), a = dof/2: Lentz's continued fraction for x/2 > a + 1, else 1 − the series for P.
  const double a = dof / 2.0, z = x / 2.0;
  if (z <= 0.0) return 1.0;
  const double log_prefix = -z + a * std::log(z) - std::lgamma(a);
  if (z < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int k = 1; k < 1000; ++k) {
      term *= z / (a + k);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1.0 - std::exp(log_prefix) * sum;
  }
  const double tiny = 1e-300;
  double b = z + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < 1e-15) break;
  }
  return std::exp(log_prefix) * h;
}

int spread_bin(std::uint64_t i, std::uint64_t n) { return static_cast<int>(i * spread_bins / n); }

std::array<double, spread_bins> bin_probabilities(bool grouped, std::uint32_t n) {
  std::array<double, spread_bins> p{};
  // Elements of [lo, hi) in each bin, weighted.
  const auto add_range = [&](std::uint64_t lo, std::uint64_t hi, double weight_per_element) {
    for (int bin = 0; bin < spread_bins; ++bin) {
      // Bin b holds the i with floor(16 i / n) == b: i in [ceil(b n / 16), ceil((b + 1) n / 16)).
      const std::uint64_t b_lo = (static_cast<std::uint64_t>(bin) * n + spread_bins - 1) / spread_bins;
      const std::uint64_t b_hi = (static_cast<std::uint64_t>(bin + 1) * n + spread_bins - 1) / spread_bins;
      const std::uint64_t l = std::max(lo, b_lo), h = std::min(hi, b_hi);
      if (h > l) p[static_cast<std::size_t>(bin)] += static_cast<double>(h - l) * weight_per_element;
    }
  };
  if (!grouped) {
    add_range(0, n, 1.0 / n);
  } else if (const std::uint32_t end = whole_groups_end(n); end > 0) {
    add_range(0, end, 1.0 / end);  // a uniform group, then a uniform lane offset in it
  }
  return p;
}

double chi_square_statistic(std::span<const std::size_t> counts, std::span<const double> probabilities) {
  std::size_t total = 0;
  for (const std::size_t c : counts) total += c;
  double x2 = 0.0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double expected = probabilities[b] * static_cast<double>(total);
    if (expected <= 0.0) {
      if (counts[b] != 0) return INFINITY;
      continue;
    }
    const double d = static_cast<double>(counts[b]) - expected;
    x2 += d * d / expected;
  }
  return x2;
}

// ---- inputs ----

std::vector<float> distinct_sorted_sums(std::span<const float> a, std::span<const float> b) {
  const std::size_t n = std::min(a.size(), b.size());
  // Whole numbers within ±2^24 (each exact in a float, as is its distance from the smallest) and a
  // range of at most 2^20 (the integer inputs: -2,000..2,000): marked in a table and read back in
  // order, O(n). Sorting all n sums took 0.70 s at n = 2^22 on the 2-core CI machine
  // against 0.07 s this way, for every integer input of every access case and grading performance
  // case. Anything else (a fraction, an infinity, NaN, a wider range): sorted, as before.
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  bool whole = true;
  for (std::size_t j = 0; j < n && whole; ++j) {
    const float sum = a[j] + b[j];
    whole = std::isfinite(sum) && sum == std::nearbyint(sum);
    lo = std::min(lo, sum);
    hi = std::max(hi, sum);
  }
  std::vector<float> out;
  if (n != 0 && whole && lo >= -0x1p24f && hi <= 0x1p24f && static_cast<double>(hi) - static_cast<double>(lo) <= 0x1p20) {
    std::vector<unsigned char> seen(static_cast<std::size_t>(hi - lo) + 1, 0);
    for (std::size_t j = 0; j < n; ++j) seen[static_cast<std::size_t>(a[j] + b[j] - lo)] = 1;
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k] != 0) out.push_back(lo + static_cast<float>(k));  // exact, by the bounds above
    return out;
  }
  out.resize(n);
  for (std::size_t j = 0; j < n; ++j) out[j] = a[j] + b[j];
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::shared_ptr<const prepared_input> prepare_input(input_kind kind, std::size_t n, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  auto input = std::make_shared<prepared_input>();
  input->kind = kind;
  input->seed = seed;
  input->host = make_input(kind, n, seed);
  if (kind == input_kind::integer) {
    // The set of sums, not the multiset: integer inputs in ±[1, 1000] give at most 4,001 distinct sums,
    // so the index oracle's lookups stay in cache (issue 21: 4,194,304 binary searches over all n
    // sums took ~2.3 s a case on the H100's host, 35 of the access suite's 43 unit-seconds).
    input->sorted_sums = distinct_sorted_sums(input->host.a, input->host.b);
  }
  input->a_pristine = device_buffer<float>(n);
  input->b_pristine = device_buffer<float>(n);
  input->a_pristine.upload(input->host.a);
  input->b_pristine.upload(input->host.b);
  return input;
}

seed_data_buffers::seed_data_buffers(std::size_t n) : a(n), b(n), c(n) {
  const access_input host = make_input(input_kind::seed_data, n, 0);
  a.upload(host.a);
  b.upload(host.b);
}

std::shared_ptr<const prepared_input> input_for(const access_case& c, int round) {
  const std::string key = "AccessN" + std::to_string(c.n) + name_of(c.input) + "Round" + std::to_string(round);
  // Its bytes: A, B and the sorted sums on the host, the two pristine copies, and the references it keeps.
  const std::size_t bytes = c.n * (5 * sizeof(float) + prepared_input::kept_references * sizeof(double));
  return process_input_cache<prepared_input>().get(key, bytes, [&] {
    return prepare_input(c.input, c.n, case_seed(base_seed(), key));
  });
}

namespace {

std::string describe_case(const access_case& c, const prepared_input& input) {
  std::ostringstream out;
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique << "), n = " << c.n
      << ", grid " << grid_for(c.n, c.config.block) << ", " << c.config.describe() << ", input " << name_of(c.input)
      << " (input seed " << input.seed << ")\n  replay: " << replay_command();
  return out.str();
}

std::string dump(const access_case& c, const std::string& context, const prepared_input& input,
                 std::span<const double> expected, std::span<const float> actual) {
  const std::string path = write_failure_dump(current_test_full_name() + "." + c.name(), context,
                                              {{"A", input.host.a, {}}, {"B", input.host.b, {}},
                                               {"expected", {}, expected}, {"actual", actual, {}}});
  return "\n  data: " + path;
}

std::vector<float> exact_reference(const access_case& c, const prepared_input& input) {
  std::vector<float> expected(c.n);
  const std::span<const float> a(input.host.a), b(input.host.b);
  switch (c.v->computes) {
    case body::coalesced: reference::access_coalesced(a, b, expected); break;
    case body::hashed_random: reference::access_hashed_random(a, b, expected, c.config.seed, c.config.repeats); break;
    case body::hashed_group: reference::access_hashed_group(a, b, expected, c.config.seed, c.config.repeats); break;
    case body::branch_by_warp: reference::access_branch_by_warp(a, b, expected); break;
    case body::branch_by_thread: reference::access_branch_by_thread(a, b, expected); break;
    case body::curand_random:
    case body::curand_group: break;
  }
  return expected;
}

}  // namespace

std::shared_ptr<const std::vector<double>> prepared_input::reference_for(const access_case& c) const {
  const std::string key = std::to_string(c.n) + '/' + std::to_string(static_cast<int>(c.v->computes)) + '/' +
                          std::to_string(c.config.seed) + '/' + std::to_string(c.config.repeats);
  const std::lock_guard lock(references_mutex_);
  for (const auto& [made_for, reference] : references_)
    if (made_for == key) return reference;
  const time_spent::input_timer timer;
  const std::vector<float> exact = exact_reference(c, *this);
  auto made = std::make_shared<const std::vector<double>>(exact.begin(), exact.end());  // widening is exact
  if (references_.size() == kept_references) references_.pop_front();
  references_.emplace_back(key, made);
  return made;
}

namespace {

// "C[17] = nan" lines for the first few offenders.
struct offenders {
  std::size_t count = 0;
  std::ostringstream listed;
  void add(const std::string& what) {
    if (count++ < 8) listed << "\n    " << what;
  }
};

std::string value_of(float x) {
  std::ostringstream out;
  out.precision(9);
  out << x;
  return out.str();
}

// The index oracles of the cuRAND variants; "" when every one holds.
std::string check_random_indices(const access_case& c, const prepared_input& input, std::span<const float> actual) {
  const std::size_t n = c.n;
  if (input.kind == input_kind::integer) {
    offenders bad;
    for (std::size_t i = 0; i < n; ++i)
      // NaN (an unwritten output, a guard's canary) compares false both ways: binary_search would find it.
      if (!std::isfinite(actual[i]) || !std::binary_search(input.sorted_sums.begin(), input.sorted_sums.end(), actual[i]))
        bad.add("C[" + std::to_string(i) + "] = " + value_of(actual[i]) + " is no A[j] + B[j]");
    if (bad.count != 0)
      return "index oracle: " + std::to_string(bad.count) + " of " + std::to_string(n) +
             " outputs are not A[j] + B[j] for any j in [0, n):" + bad.listed.str();
    return {};
  }
  // Seed data: idx = (C − 3) / 2 must be an integer in [0, n).
  std::vector<std::uint32_t> idx(n);
  offenders bad;
  for (std::size_t i = 0; i < n; ++i) {
    const double twice = static_cast<double>(actual[i]) - 3.0;
    const bool integral = std::isfinite(twice) && twice >= 0.0 && std::floor(twice / 2.0) * 2.0 == twice;
    if (!integral || twice / 2.0 >= static_cast<double>(n)) {
      bad.add("C[" + std::to_string(i) + "] = " + value_of(actual[i]) + (integral ? ": idx " + value_of(twice / 2) + " >= n" : ": not 2*idx + 3"));
      continue;
    }
    idx[i] = static_cast<std::uint32_t>(twice / 2.0);
  }
  if (bad.count != 0)
    return "index oracle: " + std::to_string(bad.count) + " of " + std::to_string(n) +
           " outputs are not A[idx] + B[idx] = 2*idx + 3 for an idx in [0, n) (a NaN is a read of the guard canary "
           "past the end):" + bad.listed.str();

  const bool grouped = c.v->computes == body::curand_group;
  const auto n32 = static_cast<std::uint32_t>(n);
  if (grouped) {
    // KERNELS.md §6: one whole group per warp, g < floor(n / 512); the partial group past
    // whole_groups_end is never chosen (the seed's GN overflow lands there, or past n).
    const std::uint32_t end = whole_groups_end(n32);
    offenders split;
    for (std::size_t first = 0; first < n; first += warp_lanes) {
      const std::size_t last = std::min(n, first + warp_lanes);
      const auto [lo, hi] = std::minmax_element(idx.begin() + static_cast<std::ptrdiff_t>(first), idx.begin() + static_cast<std::ptrdiff_t>(last));
      if (*hi >= end)
        split.add("warp " + std::to_string(first / warp_lanes) + " reads idx " + std::to_string(*hi) +
                  ", in the partial group past the " + std::to_string(group_count(n32)) + " whole groups [0, " +
                  std::to_string(end) + ")");
      else if (*lo / group_floats != *hi / group_floats)
        split.add("warp " + std::to_string(first / warp_lanes) + " reads idx " + std::to_string(*lo) + " .. " +
                  std::to_string(*hi) + ": no one 512-float group holds both");
    }
    if (split.count != 0)
      return "group oracle: " + std::to_string(split.count) + " warps read outside a single whole group (groups of " +
             std::to_string(group_floats) + " floats, " + std::to_string(group_count(n32)) +
             " of them; the last partial group is never chosen):" + split.listed.str();
  }

  // Spread: independent samples only (one per warp when lanes share a group).
  const std::size_t stride = grouped ? warp_lanes : 1;
  const std::size_t samples = (n + stride - 1) / stride;
  const std::array<double, spread_bins> p = bin_probabilities(grouped, n32);
  if (static_cast<double>(samples) * *std::min_element(p.begin(), p.end()) >= min_expected_per_bin) {
    std::array<std::size_t, spread_bins> counts{};
    for (std::size_t i = 0; i < n; i += stride) ++counts[static_cast<std::size_t>(spread_bin(idx[i], n))];
    const double x2 = chi_square_statistic(counts, p);
    if (x2 < spread_too_regular_value) {
      // Too even to be random: an index map that lost its randomness (j = tid, j = tid + 1, ...)
      // fills the bins exactly, and would pass every other oracle.
      std::ostringstream out;
      out << "spread oracle: chi-square over " << spread_bins << " bins of [0, n) is " << x2 << " < "
          << spread_too_regular_value << ": the indices are more even than random ones are (false-alarm probability 1e-6)";
      return out.str();
    }
    if (!(x2 <= spread_critical_value)) {
      std::ostringstream out;
      out << "spread oracle: chi-square over " << spread_bins << " bins of [0, n) is " << x2 << " > "
          << spread_critical_value << " (false-alarm probability 1e-6) on " << samples << " samples; counts:";
      for (std::size_t b = 0; b < counts.size(); ++b) out << ' ' << counts[b] << " (expected " << p[b] * samples << ")";
      return out.str();
    }
  }
  return {};
}

}  // namespace

namespace {

// The seed an overflow-seed case runs with, searched once per process (a few ms of GPU time).
std::optional<std::uint64_t> overflow_seed_for(std::uint32_t groups, std::uint64_t start) {
  static std::map<std::pair<std::uint32_t, std::uint64_t>, std::optional<std::uint64_t>> found;
  const auto key = std::make_pair(groups, start);
  if (const auto it = found.find(key); it != found.end()) return it->second;
  // 2^28 candidates: with 640 overflowing draws in 2^32 (n = 328,193) ~40 are expected; none found
  // has probability e^-40.
  return found[key] = find_group_overflow_seed(groups, start, std::uint64_t{1} << 28);
}

}  // namespace

check_result check_access(const access_case& requested, const prepared_input& input) {
  access_case c = requested;
  if (c.overflow_seed) {
    const std::optional<std::uint64_t> seed = overflow_seed_for(group_count(static_cast<std::uint32_t>(c.n)), c.config.seed);
    if (!seed)
      return check_result::fail("no overflow seed found for n = " + std::to_string(c.n) + " (" +
                                std::to_string(group_count(static_cast<std::uint32_t>(c.n))) +
                                " groups) in 2^28 candidates from " + std::to_string(c.config.seed) +
                                ": the search failed (a CUDA error?), not the kernel");
    c.config.seed = *seed;
  }
  const variant& v = *c.v;
  const std::string context = describe_case(c, input);
  if (const launch_status status = validate(v, c.n, c.config, device_limits::of_current_device()); !status)
    return check_result::refuse(status.message() + "\n  case: " + context);

  guarded_device_buffer<float> a(c.n), b(c.n), out(c.n);
  a.poison();
  b.poison();
  out.poison(guard_role::write_only);
  const cuda_stream stream;
  enqueue_behind_delay(a.data(), input.a_pristine.data(), c.n * sizeof(float), stream.get());
  KC_CUDA_TRY(cudaMemcpyAsync(b.data(), input.b_pristine.data(), c.n * sizeof(float), cudaMemcpyDeviceToDevice, stream.get()));
  if (const launch_status status = launch(v, a.data(), b.data(), out.data(), c.n, c.config, stream.get()); !status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(status.what() == launch_status::kind::refused, status.message() + "\n  case: " + context);
  }
  launch_aftermath after;  // guards of C, A, B and both inputs against their pristine copies: one read-back
  after.guards(out, "C").guards(a, "A").guards(b, "B");
  after.unchanged(a.data(), input.a_pristine.data(), c.n * sizeof(float), "A")
      .unchanged(b.data(), input.b_pristine.data(), c.n * sizeof(float), "B");
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto problem = fault_after_sync(stream.get())) return check_result::fail(*problem + "\n  case: " + context);
  after.read();
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + "\n  case: " + context);
  if (const auto problem = after.input_problem()) return check_result::fail(*problem + "\n  case: " + context);

  const std::vector<float> actual = out.download();
  if (const std::string problem = judge_output(c, input, actual); !problem.empty()) {
    std::vector<double> wanted;  // for the dump; none for the cuRAND rows, which have no reference
    if (!uses_curand(v.computes)) wanted = *input.reference_for(c);
    return check_result::fail(problem + "\n  case: " + context + dump(c, context, input, wanted, actual));
  }
  return check_result::pass();
}

std::string judge_output(const access_case& c, const prepared_input& input, std::span<const float> actual) {
  if (actual.size() != c.n) return "C has " + std::to_string(actual.size()) + " elements, expected " + std::to_string(c.n);
  if (uses_curand(c.v->computes)) return check_random_indices(c, input, actual);
  const auto expected = input.reference_for(c);  // held here: the cache may let it go
  const comparison result = compare_exact(*expected, actual);
  return result.ok() ? std::string() : "C: " + result.describe("C");
}

}  // namespace kc::access::testing

// Reduction benchmark: reports, never asserts on time.
//
// For every correct variant and every block it supports, at n = 2^24 (seed 000's size) and 2^28:
// the median time of the whole n -> 1 reduction (all passes, as the report timed it; CUDA events,
// 3 warm-ups, 25 samples), GB/s = n·4 bytes / time, and that as a share of the device-to-device copy
// bandwidth measured in the same run (bytes read + written). Then seed 000's own table: kernels 1–5
// at 64 threads, n = 2^24, with step and cumulative speedups.
//
// Every timed run starts from a fresh copy of the input (untimed): the passes overwrite it.
// Each variant's last result is checked against the exact sum of its integer input, so a broken
// kernel never gets a time.
//
// Output: Markdown on stdout and in $KCONFORM_REPORT_DIR/reduction_benchmark.md (if set), plus a
// CSV beside it. Exits 77 (skip) without a GPU.
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/timing.hpp"
#include "kernels/reduction/reduction.hpp"
#include "reference/reduction_reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace kc;
using namespace kc::reduction;

constexpr int warmup = 3;
constexpr int samples = 25;

struct row {
  std::string variant;
  std::string catalog_id;
  std::size_t n = 0;
  int block = 0;
  timing_summary time;
  double gbps = 0.0;
  double share_of_copy = 0.0;
  bool correct = false;
};

std::string block_text(int block) { return block == 0 ? std::string("lib") : std::to_string(block); }

}  // namespace

int main() {
  const gpu::environment& env = gpu::current();
  if (!env.available) {
    std::printf("SKIPPED: %s\n", env.reason.c_str());
    return env.no_gpu_is_failure ? 1 : 77;
  }
  try {
    const double copy_gbps = measure_copy_bandwidth_gbps(std::size_t{1} << 30);
    std::vector<row> rows;
    for (const int log2n : {24, 28}) {
      const std::size_t n = std::size_t{1} << log2n;
      // Integers in [-1, 1]: non-zero data (zeros can run faster than real data), and the exact
      // sum is known, so the check below is exact for every variant at 2^24 and a 1e-6 relative
      // sanity check at 2^28 (where partial sums may pass 2^24).
      std::vector<float> host(n);
      fill_uniform_integers(host, case_seed(base_seed(), "benchmark" + std::to_string(n)), -1, 1);
      const double exact = reference::reduce_sum(host);
      const double abs_sum = reference::reduce_abs_sum(host);
      device_buffer<float> pristine(n), a(n);
      pristine.upload(host);
      host.clear();
      host.shrink_to_fit();

      for (const variant& v : correct_variants()) {
        for (const int block : v.swept_blocks()) {
          const reduce_config config{block, 0};
          const std::size_t scratch_size = std::max<std::size_t>(1, scratch_elements(v, n, config));
          device_buffer<float> scratch(scratch_size);
          reduce_outcome outcome;
          const timing_summary t = time_device_work(
              [&] { outcome = reduce(v, a.data(), n, scratch.data(), scratch_size, config); },
              [&] { KC_CUDA_TRY(cudaMemcpyAsync(a.data(), pristine.data(), n * sizeof(float), cudaMemcpyDeviceToDevice)); },
              warmup, samples);
          if (!outcome.status) throw std::runtime_error(std::string(v.name) + ": " + outcome.status.message());
          float result = 0.0f;
          KC_CUDA_TRY(cudaMemcpy(&result, outcome.result, sizeof(float), cudaMemcpyDeviceToHost));
          const bool correct = abs_sum <= 0x1p24 ? result == exact : std::fabs(result - exact) <= 1e-6 * abs_sum;
          const double gbps = static_cast<double>(n) * sizeof(float) / (t.median_ms * 1e-3) / 1e9;
          rows.push_back({std::string(v.name), std::string(v.catalog_id), n, block, t, gbps, gbps / copy_gbps, correct});
        }
      }
    }

    std::ostringstream md, csv;
    md.setf(std::ios::fixed);
    md << "# Reduction benchmark — " << env.device_name << "\n\n"
       << "Device-to-device copy bandwidth measured in this run: **" << static_cast<int>(copy_gbps)
       << " GB/s** (bytes read + written, 1 GiB copy). Times: median of " << samples << " samples after " << warmup
       << " warm-ups, CUDA events around the whole n -> 1 reduction (every pass).\n\n";

    // Best block per variant and size.
    md << "## Every variant at its best block\n\n| variant | id | n | best block | median ms | min–max ms | GB/s | % of copy BW | result |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    std::map<std::pair<std::string, std::size_t>, const row*> best;
    for (const row& r : rows) {
      auto& b = best[{r.variant, r.n}];
      if (b == nullptr || r.time.median_ms < b->time.median_ms) b = &r;
    }
    for (const variant& v : correct_variants())
      for (const std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28}) {
        const row& r = *best[{std::string(v.name), n}];
        md.precision(4);
        md << "| " << r.variant << " | " << r.catalog_id << " | 2^" << (n == (std::size_t{1} << 24) ? 24 : 28) << " | "
           << block_text(r.block) << " | " << r.time.median_ms << " | " << r.time.min_ms << "–" << r.time.max_ms << " | ";
        md.precision(1);
        md << r.gbps << " | " << 100.0 * r.share_of_copy << "% | " << (r.correct ? "ok" : "WRONG") << " |\n";
      }

    // Seed 000's table, redone here: at the report's configuration (64 threads, 2^24), and at 256
    // threads and 2^28, where the input is 20x the L2 and blocks are large enough that the
    // reduction technique, not the per-block overhead, decides the time.
    const char* seed000[] = {"InterleavedDivergent", "InterleavedStrided", "SequentialAddressing", "FirstAddDuringLoad",
                             "UnrolledLastWarp"};
    const double report_ms[] = {1.861, 1.818, 1.535, 0.809, 0.417};
    for (const auto& [log2n, block] : {std::pair{24, 64}, std::pair{28, 256}}) {
      md << "\n## Seed 000's table (kernels 1–5, " << block << " threads, n = 2^" << log2n << ")\n\n"
         << "| kernel | median ms | GB/s | step speedup | cumulative speedup | T4 in the report, 64 threads, 2^24 (ms) |\n"
            "|---|---|---|---|---|---|\n";
      double first = 0.0, previous = 0.0;
      for (int k = 0; k < 5; ++k)
        for (const row& r : rows)
          if (r.variant == seed000[k] && r.n == (std::size_t{1} << log2n) && r.block == block) {
            if (k == 0) first = previous = r.time.median_ms;
            const auto ratio = [](double x) { std::ostringstream o; o.setf(std::ios::fixed); o.precision(2); o << x << 'x'; return o.str(); };
            md.precision(4);
            md << "| K" << k + 1 << ' ' << r.variant << " | " << r.time.median_ms << " | ";
            md.precision(1);
            md << r.gbps << " | " << (k == 0 ? std::string("—") : ratio(previous / r.time.median_ms)) << " | "
               << (k == 0 ? std::string("—") : ratio(first / r.time.median_ms)) << " | ";
            md.precision(3);
            md << report_ms[k] << " |\n";
            previous = r.time.median_ms;
          }
    }

    md << "\n## All measurements\n\n| variant | n | block | median ms | GB/s | % of copy BW | result |\n|---|---|---|---|---|---|---|\n";
    csv << "gpu,variant,catalog_id,n,block,median_ms,min_ms,max_ms,samples,gbps,copy_gbps,share_of_copy,correct\n";
    for (const row& r : rows) {
      md.precision(4);
      md << "| " << r.variant << " | " << r.n << " | " << block_text(r.block) << " | " << r.time.median_ms << " | ";
      md.precision(1);
      md << r.gbps << " | " << 100.0 * r.share_of_copy << "% | " << (r.correct ? "ok" : "WRONG") << " |\n";
      csv << '"' << env.device_name << "\"," << r.variant << ',' << r.catalog_id << ',' << r.n << ',' << r.block << ','
          << r.time.median_ms << ',' << r.time.min_ms << ',' << r.time.max_ms << ',' << r.time.samples << ',' << r.gbps
          << ',' << copy_gbps << ',' << r.share_of_copy << ',' << (r.correct ? 1 : 0) << '\n';
    }
    std::cout << md.str();
    if (const char* dir = std::getenv("KCONFORM_REPORT_DIR"); dir != nullptr && *dir != '\0') {
      std::ofstream(std::string(dir) + "/reduction_benchmark.md") << md.str();
      std::ofstream(std::string(dir) + "/reduction_benchmark.csv") << csv.str();
    }
    for (const row& r : rows)
      if (!r.correct) {
        std::cerr << "a variant gave a wrong sum while being timed: see the table\n";
        return 1;
      }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "reduction benchmark failed: " << error.what() << '\n';
    return 1;
  }
}

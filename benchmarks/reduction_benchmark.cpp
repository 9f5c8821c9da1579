// Reduction benchmark: reports, never asserts on time.
//
// For every correct variant and every block it supports, at n = 2^24 (seed 000's size) and 2^28:
// the time of the whole n -> 1 reduction (all passes, as the report timed it), GB/s = n·4 bytes /
// median time, and that as a share of the device-to-device copy bandwidth measured in the same run
// (bytes read + written). Then seed 000's own table: kernels 1–5 at 64 threads, n = 2^24, with step
// and cumulative speedups. Every time is kc::perf::measure() on a stream of our own (a batch of
// short launches is replayed as a CUDA graph, and only a real stream can be captured).
//
// The passes overwrite the input, so it is restored from a pristine copy (untimed) before each timed
// region. A batch's later launches reduce what the previous launch left — the time is the same,
// float adds cost the same whatever the values — so each variant's sum is checked on one more run
// from the restored input, against the exact sum of its integer input: a broken kernel is marked.
//
// Output: Markdown on stdout and in $KCONFORM_REPORT_DIR/reduction_benchmark.md (if set), plus a
// CSV beside it written row by row as each point is measured. Exits 77 (skip) without a GPU.
#include "benchmarks/benchmark_output.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/measurement.hpp"
#include "kernels/reduction/reduction.hpp"
#include "reference/reduction_reference.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace kc;
using namespace kc::reduction;
using bench::fixed;

struct row {
  std::string variant;
  std::string catalog_id;
  std::size_t n = 0;
  int block = 0;
  perf::sample_stats time;
  double gbps = 0.0;
  double share_of_copy = 0.0;
  bool correct = false;

  double median_ms() const { return time.median_us / 1000.0; }
};

std::string block_text(int block) { return block == 0 ? std::string("lib") : std::to_string(block); }
std::string percent(double share) { return fixed(100.0 * share, 1) + "%"; }
std::string ratio(double x) { return fixed(x, 2) + "x"; }

// One input of n integers in [-1, 1] on the device, with a pristine copy to restore it from. Non-zero
// data (zeros can run faster than real data), and the exact sum is known, so the check is exact
// for every variant at 2^24 and a 1e-6 relative sanity check at 2^28 (where partial sums may pass 2^24).
struct reduction_input {
  explicit reduction_input(std::size_t size) : n(size), pristine(size), a(size) {
    std::vector<float> host(n);
    fill_uniform_integers(host, case_seed(base_seed(), "benchmark" + std::to_string(n)), -1, 1);
    exact = reference::reduce_sum(host);
    abs_sum = reference::reduce_abs_sum(host);
    pristine.upload(host);
  }
  void restore(cudaStream_t stream) {
    KC_CUDA_TRY(cudaMemcpyAsync(a.data(), pristine.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  }
  bool is_exact_sum(float result) const {
    return abs_sum <= 0x1p24 ? result == exact : std::fabs(result - exact) <= 1e-6 * abs_sum;
  }

  std::size_t n;
  device_buffer<float> pristine, a;
  double exact = 0.0, abs_sum = 0.0;
};

// Times one (variant, block) on `input`, then checks a fresh run's sum.
row measure_point(const variant& v, int block, reduction_input& input, double copy_gbps, cudaStream_t stream) {
  const std::size_t n = input.n;
  const reduce_config config{block, 0};
  const std::size_t scratch_size = std::max<std::size_t>(1, scratch_elements(v, n, config));
  device_buffer<float> scratch(scratch_size);
  reduce_outcome outcome;
  const auto run = [&](cudaStream_t s) { outcome = reduce(v, input.a.data(), n, scratch.data(), scratch_size, config, s); };
  const auto restore = [&](cudaStream_t s) { input.restore(s); };
  const perf::sample_stats time = perf::measure({run, restore, {}}, stream, bench::measure_defaults());

  restore(stream);
  run(stream);
  if (!outcome.status) throw std::runtime_error(std::string(v.name) + ": " + outcome.status.message());
  float result = 0.0f;
  KC_CUDA_TRY(cudaMemcpyAsync(&result, outcome.result, sizeof(float), cudaMemcpyDeviceToHost, stream));
  KC_CUDA_TRY(cudaStreamSynchronize(stream));
  const double gbps = static_cast<double>(n) * sizeof(float) / (time.median_us * 1e-6) / 1e9;
  return {std::string(v.name), std::string(v.catalog_id), n, block, time, gbps, gbps / copy_gbps, input.is_exact_sum(result)};
}

std::string csv_row(const std::string& gpu, const row& r, double copy_gbps) {
  std::ostringstream csv;
  csv << '"' << gpu << "\"," << r.variant << ',' << r.catalog_id << ',' << r.n << ',' << r.block << ','
      << bench::stats_csv_fields(r.time) << ',' << r.gbps << ',' << copy_gbps << ',' << r.share_of_copy << ','
      << (r.correct ? 1 : 0);
  return csv.str();
}

std::string best_block_table(const std::vector<row>& rows) {
  std::map<std::pair<std::string, std::size_t>, const row*> best;
  for (const row& r : rows) {
    const row*& b = best[{r.variant, r.n}];
    if (b == nullptr || r.time.median_us < b->time.median_us) b = &r;
  }
  std::ostringstream md;
  md << "## Every variant at its best block\n\n"
        "| variant | id | n | best block | median ms | q1–q3 ms | samples × batch | GB/s | % of copy BW | result |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const variant& v : correct_variants())
    for (const int log2n : {24, 28}) {
      const row& r = *best[{std::string(v.name), std::size_t{1} << log2n}];
      md << "| " << r.variant << " | " << r.catalog_id << " | 2^" << log2n << " | " << block_text(r.block) << " | "
         << bench::median_ms_text(r.time, 4) << " | " << bench::quartiles_ms_text(r.time, 4) << " | "
         << bench::sampling_text(r.time) << " | " << fixed(r.gbps, 1) << " | " << percent(r.share_of_copy) << " | "
         << (r.correct ? "ok" : "WRONG") << " |\n";
    }
  return md.str();
}

// Seed 000's table, redone: at the report's configuration (64 threads, 2^24), and at 256 threads and
// 2^28, where the input is 20x the L2 and blocks are large enough that the reduction technique, not
// the per-block overhead, decides the time.
std::string seed000_tables(const std::vector<row>& rows) {
  const char* kernels[] = {"InterleavedDivergent", "InterleavedStrided", "SequentialAddressing", "FirstAddDuringLoad",
                           "UnrolledLastWarp"};
  const double report_ms[] = {1.861, 1.818, 1.535, 0.809, 0.417};
  std::ostringstream md;
  for (const auto& [log2n, block] : {std::pair{24, 64}, std::pair{28, 256}}) {
    md << "\n## Seed 000's table (kernels 1–5, " << block << " threads, n = 2^" << log2n << ")\n\n"
       << "| kernel | median ms | GB/s | step speedup | cumulative speedup | T4 in the report, 64 threads, 2^24 (ms) |\n"
          "|---|---|---|---|---|---|\n";
    double first = 0.0, previous = 0.0;
    for (int k = 0; k < 5; ++k)
      for (const row& r : rows)
        if (r.variant == kernels[k] && r.n == (std::size_t{1} << log2n) && r.block == block) {
          if (k == 0) first = previous = r.median_ms();
          md << "| K" << k + 1 << ' ' << r.variant << " | " << fixed(r.median_ms(), 4) << " | " << fixed(r.gbps, 1) << " | "
             << (k == 0 ? std::string("—") : ratio(previous / r.median_ms())) << " | "
             << (k == 0 ? std::string("—") : ratio(first / r.median_ms())) << " | " << fixed(report_ms[k], 3) << " |\n";
          previous = r.median_ms();
        }
  }
  return md.str();
}

std::string all_measurements_table(const std::vector<row>& rows) {
  std::ostringstream md;
  md << "\n## All measurements\n\n"
        "| variant | n | block | median ms | q1–q3 ms | samples × batch | GB/s | % of copy BW | result |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const row& r : rows)
    md << "| " << r.variant << " | " << r.n << " | " << block_text(r.block) << " | " << bench::median_ms_text(r.time, 4)
       << " | " << bench::quartiles_ms_text(r.time, 4) << " | " << bench::sampling_text(r.time) << " | "
       << fixed(r.gbps, 1) << " | " << percent(r.share_of_copy) << " | " << (r.correct ? "ok" : "WRONG") << " |\n";
  return md.str();
}

}  // namespace

int main() {
  return bench::run_benchmark("reduction", [&](const gpu::environment& env, const cuda_stream& stream) {
    const perf::run_conditions at_start = perf::read_conditions();
    const std::size_t copy_bytes = std::size_t{1} << 30;
    const double copy_gbps = perf::copy_bandwidth_gbps(copy_bytes, stream.get());
    bench::csv_table csv("reduction_benchmark", "gpu,variant,catalog_id,n,block," + bench::stats_csv_header() +
                                                    ",gbps,copy_gbps,share_of_copy,correct");
    std::vector<row> rows;
    bench::stage_clock clock("reduction");
    for (const int log2n : {24, 28}) {
      reduction_input input(std::size_t{1} << log2n);
      clock.done("n = 2^" + std::to_string(log2n) + ": input and CPU sums");
      for (const variant& v : correct_variants())
        for (const int block : v.swept_blocks()) {
          rows.push_back(measure_point(v, block, input, copy_gbps, stream.get()));
          csv.add_row(csv_row(env.device_name, rows.back(), copy_gbps));
        }
      clock.done("n = 2^" + std::to_string(log2n) + ": GPU points, each sum checked");
    }
    const perf::run_conditions at_end = perf::read_conditions();

    std::ostringstream md;
    md << "# Reduction benchmark — " << env.device_name << "\n\n"
       << bench::conditions_markdown(at_start, at_end) << "\n"
       << "Device-to-device copy bandwidth measured in this run: **" << fixed(copy_gbps, 0)
       << " GB/s** (bytes read + written, 1 GiB copy). Each time is the whole n -> 1 reduction (every pass); the input "
          "is restored (untimed) before each timed region, and each sum is checked on a fresh run after the timing.\n\n"
       << best_block_table(rows) << seed000_tables(rows) << all_measurements_table(rows) << clock.markdown();
    bench::publish_markdown("reduction_benchmark", md.str());
    for (const row& r : rows)
      if (!r.correct) {
        std::cerr << "a variant gave a wrong sum on the run after its timing: see the table\n";
        return 1;
      }
    return 0;
  });
}

// What every benchmark writes besides its own tables: the run's conditions and the measurement
// method at the top of the Markdown, the timing statistics' columns, and the files themselves —
// Markdown on stdout and in $KCONFORM_REPORT_DIR/<name>.md, CSV in $KCONFORM_REPORT_DIR/<name>.csv.
#pragma once

#include "fixtures/cuda_stream.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/measurement.hpp"
#include "fixtures/perf_types.hpp"

#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kc::bench {

// The frame of every benchmark's main: "SKIPPED: <reason>" and exit 77 (a CTest skip) without a GPU —
// 1 where KCONFORM_REQUIRE_GPU makes a missing GPU a failure —; else `body` with the GPU's
// environment and a stream of its own, whose result is the exit status; an exception from it is
// reported as "<name> benchmark failed: <what>" and exits 1.
int run_benchmark(const char* name, const std::function<int(const gpu::environment&, const cuda_stream&)>& body);

// Where a benchmark's own seconds go (issue 21: the benchmarks are most of the run's alone phase):
// each stage's wall time since the previous one, printed to stderr as the stage ends (a live line in
// a terminal, the time line in a CTest log) and listed by markdown() at the end of the tables.
class stage_clock {
 public:
  explicit stage_clock(std::string benchmark_name);
  void done(const std::string& stage);  // the stage that ends now
  std::string markdown() const;         // "## Where this benchmark's time went"

 private:
  std::string name_;
  double start_s_ = 0.0, last_s_ = 0.0;
  std::vector<std::pair<std::string, double>> stages_;
};

// A CSV table written row by row, each row flushed as soon as it is measured, so a benchmark that
// hangs or dies leaves the rows it finished. Without a report directory, rows go nowhere.
class csv_table {
 public:
  csv_table(const std::string& benchmark_name, const std::string& header);
  void add_row(const std::string& row);

 private:
  std::ofstream file_;
};

// Prints the Markdown and writes it to $KCONFORM_REPORT_DIR/<benchmark_name>.md (if set).
void publish_markdown(const std::string& benchmark_name, const std::string& markdown);

// "## Conditions": GPU, versions, fingerprint, and the clocks read at the start and at the end (the
// `before` clocks of each read_conditions() call), then the measurement method in one sentence.
std::string conditions_markdown(const perf::run_conditions& at_start, const perf::run_conditions& at_end);

// measure()'s options for a benchmark's points: its defaults, but a point that follows another within
// 100 ms warms up for 2 ms, not 30 (measurement.hpp, step 1). Perf tests keep the full warm-up.
perf::measure_options measure_defaults();

// The statistics' CSV columns, per launch in ms: median_ms,q1_ms,q3_ms,min_ms,max_ms,cv,samples,
// batch,graph,low_clock_samples,clocks_ok — the header and one row's fields.
std::string stats_csv_header();
std::string stats_csv_fields(const perf::sample_stats& stats);

// Markdown cells: the median in ms, its q1–q3 in ms ("0.0362–0.0371"), and how it was sampled
// ("45 × 5, graph, queued": replayed as a graph, queued behind a hold; "(low clock)" when clocks_ok is false).
std::string median_ms_text(const perf::sample_stats& stats, int decimals);
std::string quartiles_ms_text(const perf::sample_stats& stats, int decimals);
std::string sampling_text(const perf::sample_stats& stats);

// A number with a fixed count of decimals.
std::string fixed(double value, int decimals);

}  // namespace kc::bench

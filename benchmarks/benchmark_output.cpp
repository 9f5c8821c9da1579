#include "benchmarks/benchmark_output.hpp"

#include "fixtures/measurement.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace kc::bench {
namespace {

std::string report_dir() {
  const char* dir = std::getenv("KCONFORM_REPORT_DIR");
  return dir != nullptr ? std::string(dir) : std::string();
}

// NVML reads 0 where it is missing (no driver library, a sandbox): say so rather than print 0 MHz.
std::string mhz(unsigned value) { return value == 0 ? std::string("not read") : std::to_string(value) + " MHz"; }

std::string runtime_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

double ms(double us) { return us / 1000.0; }

}  // namespace

int run_benchmark(const char* name, const std::function<int(const gpu::environment&, const cuda_stream&)>& body) {
  const gpu::environment& env = gpu::current();
  if (!env.available) {
    std::printf("SKIPPED: %s\n", env.reason.c_str());
    return env.no_gpu_is_failure ? 1 : 77;
  }
  try {
    const cuda_stream stream;
    return body(env, stream);
  } catch (const std::exception& error) {
    std::cerr << name << " benchmark failed: " << error.what() << '\n';
    return 1;
  }
}

namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

stage_clock::stage_clock(std::string benchmark_name) : name_(std::move(benchmark_name)), start_s_(now_s()), last_s_(start_s_) {}

void stage_clock::done(const std::string& stage) {
  const double now = now_s();
  stages_.emplace_back(stage, now - last_s_);
  std::fprintf(stderr, "[%s benchmark] %7.2f s  %s (%.2f s)\n", name_.c_str(), now - start_s_, stage.c_str(), now - last_s_);
  last_s_ = now;
}

std::string stage_clock::markdown() const {
  std::ostringstream md;
  md << "\n## Where this benchmark's time went\n\n| stage | seconds |\n|---|---|\n";
  for (const auto& [stage, seconds] : stages_) md << "| " << stage << " | " << fixed(seconds, 2) << " |\n";
  md << "| **all** | " << fixed(last_s_ - start_s_, 2) << " |\n";
  return md.str();
}

csv_table::csv_table(const std::string& benchmark_name, const std::string& header) {
  const std::string dir = report_dir();
  if (dir.empty()) return;
  const std::string path = dir + "/" + benchmark_name + ".csv";
  file_.open(path);
  if (!file_) {
    std::cerr << "cannot write " << path << ": the CSV rows go nowhere\n";
    return;
  }
  file_ << header << '\n' << std::flush;
}

void csv_table::add_row(const std::string& row) {
  if (file_.is_open()) file_ << row << '\n' << std::flush;
}

void publish_markdown(const std::string& benchmark_name, const std::string& markdown) {
  std::cout << markdown << std::flush;
  const std::string dir = report_dir();
  if (dir.empty()) return;
  const std::string path = dir + "/" + benchmark_name + ".md";
  if (!(std::ofstream(path) << markdown)) std::cerr << "cannot write " << path << '\n';
}

perf::measure_options measure_defaults() {
  perf::measure_options o;
  o.rewarm_ms = 2.0;
  return o;
}

std::string conditions_markdown(const perf::run_conditions& at_start, const perf::run_conditions& at_end) {
  // The method sentence is built from the benchmarks' defaults, so it cannot drift from them.
  const perf::measure_options defaults = measure_defaults();
  std::ostringstream md;
  md << "## Conditions\n\n"
     << "- GPU: " << at_start.gpu_name << ", " << at_start.sm_count << " SMs, compute capability " << at_start.cc_major
     << '.' << at_start.cc_minor << "\n"
     << "- Driver " << at_start.driver << ", CUDA runtime " << runtime_text(at_start.runtime_version) << "\n"
     << "- SM clock: expected " << mhz(at_start.expected_sm_clock_mhz) << "; " << mhz(at_start.sm_clock_before_mhz)
     << " before the benchmark, " << mhz(at_end.sm_clock_before_mhz) << " after\n"
     << "- Memory clock: " << mhz(at_start.mem_clock_before_mhz) << " before, " << mhz(at_end.mem_clock_before_mhz)
     << " after\n"
     << "- Fingerprint: `" << at_start.fingerprint << "`\n\n"
     << "Method: every time is `kc::perf::measure()` (docs/performance.md) — warm-up for " << fixed(defaults.warmup_ms, 0)
     << " ms (" << fixed(defaults.rewarm_ms, 0) << " ms and 2 launches for a point within " << fixed(defaults.recent_ms, 0)
     << " ms of the previous one: the GPU is still busy-clocked), timed regions of at least " << fixed(defaults.min_region_us, 0)
     << " µs (shorter launches batched, the batch replayed as one CUDA graph when it can be captured, and a replayed "
        "region queued behind a hold the host releases once the region is enqueued, so it times the device's work, not "
        "the host's launch), and samples until the median's 95% confidence interval is within ±"
     << fixed(100.0 * defaults.target_ci, 1) << "% or the " << fixed(defaults.budget_ms, 0)
     << " ms budget ends (at least " << defaults.min_samples
     << " samples); figures are per launch, the median with its q1–q3.\n";
  return md.str();
}

std::string stats_csv_header() {
  return "median_ms,q1_ms,q3_ms,min_ms,max_ms,cv,samples,batch,graph,low_clock_samples,clocks_ok";
}

std::string stats_csv_fields(const perf::sample_stats& s) {
  std::ostringstream row;
  row.precision(6);
  row << ms(s.median_us) << ',' << ms(s.q1_us) << ',' << ms(s.q3_us) << ',' << ms(s.min_us) << ',' << ms(s.max_us) << ','
      << s.cv << ',' << s.samples << ',' << s.batch << ',' << (s.graph ? 1 : 0) << ',' << s.low_clock_samples << ','
      << (s.clocks_ok ? 1 : 0);
  return row.str();
}

std::string median_ms_text(const perf::sample_stats& s, int decimals) { return fixed(ms(s.median_us), decimals); }

std::string quartiles_ms_text(const perf::sample_stats& s, int decimals) {
  return fixed(ms(s.q1_us), decimals) + "–" + fixed(ms(s.q3_us), decimals);
}

std::string sampling_text(const perf::sample_stats& s) {
  std::string text = std::to_string(s.samples) + " × " + std::to_string(s.batch);
  if (s.graph) text += s.queued ? ", graph, queued" : ", graph";
  if (!s.clocks_ok) text += " (low clock)";
  return text;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace kc::bench

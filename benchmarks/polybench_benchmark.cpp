// PolyBench benchmark (issue 10 §5): seed 004's tables redone. Reports, never asserts on time.
//
// For every correct variant of Conv2D, ATAX and covariance (the cuBLAS peers included), at every
// launch configuration the suite sweeps, at the seed's sizes: the GPU time (kc::perf::measure(), on
// a stream of our own), GFLOP/s, and GB/s of the compulsory traffic (each input read once, each
// output written once). Then, per kernel, the best configuration's speedup over PolyBench's serial
// CPU loop and over the same loop with OpenMP on every core of this host (benchmarks/
// reference/polybench/double_loops.*, in double: the loops the report's serial program ran), beside the report's
// speedups (GT 560M over its host). CPU times are wall-clock medians of a few runs (one where a run
// takes seconds). After its timing, each variant's best configuration is run once more through the
// conformance check (error bound, poison, guards); a wrong result fails the benchmark. The
// covariance OpenMP times include copying the data the loop centres (a few ms beside seconds); its
// serial loop is timed on the product's first 128 rows, the copy made before, and scaled by the
// pairs they hold.
//
// Output: Markdown on stdout and in $KCONFORM_REPORT_DIR/polybench_benchmark.md (if set), a CSV
// beside it. Exits 77 (skip) without a GPU.
#include "benchmarks/benchmark_output.hpp"
#include "reference/polybench/double_loops.hpp"
#include "fixtures/cublas_handle.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/measurement.hpp"
#include "kernels/polybench/atax/atax.hpp"
#include "kernels/polybench/conv2d/conv2d.hpp"
#include "kernels/polybench/covariance/covariance.hpp"
#include "tests/polybench/atax_cases.hpp"
#include "tests/polybench/atax_checks.hpp"
#include "tests/polybench/conv2d_cases.hpp"
#include "tests/polybench/conv2d_checks.hpp"
#include "tests/polybench/covariance_cases.hpp"
#include "tests/polybench/covariance_checks.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace kc;
using bench::fixed;

// One timed point.
struct row {
  std::string kernel;   // "Conv2D"
  std::string variant;  // "Conv2dDirect"
  std::string shape;    // "4096 x 4096"
  std::string config;   // "block 16x16"
  perf::sample_stats time;
  double flops = 0.0;   // floating-point operations per run
  double bytes = 0.0;   // compulsory traffic per run
  std::string check = "not checked (not the best configuration)";

  double ms() const { return time.median_us / 1000.0; }
  double gflops() const { return flops / (time.median_us * 1e-6) / 1e9; }
  double gbps() const { return bytes / (time.median_us * 1e-6) / 1e9; }
};

// A CPU loop's wall-clock median over up to `runs` runs, in ms: one where the first run takes a
// second or more (the clock's resolution and the start-up jitter are then below 0.1% of it, and the
// speedup it divides is reported to two digits; a second run cost 3.8 s each at COVAR 2048² with
// OpenMP on the H100's host, issue 21).
double cpu_ms(const std::function<void()>& loop, int runs) {
  constexpr double long_run_ms = 1000.0;
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    loop();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (r == 0 && ms.front() >= long_run_ms) break;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct speedup_row {
  std::string kernel, shape, best_variant, best_config;
  double gpu_ms = 0.0, serial_ms = 0.0, openmp_ms = 0.0;
  std::string report;  // the report's speedup at this size
};

std::string check_text(const check_result& r) { return r.passed() ? std::string("ok") : "WRONG: " + r.message; }

// Records the conformance check of a kernel's best (variant, configuration) on its row.
void mark_checked(std::vector<row>& rows, const std::string& kernel, std::string_view variant, const std::string& config,
                  const check_result& checked) {
  for (row& r : rows)
    if (r.kernel == kernel && r.variant == variant && r.config == config) r.check = check_text(checked);
}

// ---- Conv2D ----

void conv2d_points(std::size_t n, cudaStream_t stream, std::vector<row>& rows, std::vector<speedup_row>& speedups,
                   bench::stage_clock& clock) {
  namespace cv = kc::polybench::conv2d;
  const std::size_t count = n * n;
  std::vector<double> a(count);
  fill_uniform_reals(std::span<double>(a), case_seed(base_seed(), "PolybenchBenchmarkConv2d"), 0.0, 1.0);
  device_buffer<double> da(count), db(count);
  da.upload(a);
  const double interior = static_cast<double>(cv::interior_points(n, n));
  const cv::variant* best_v = nullptr;
  cv::conv2d_config best_config;
  double best_ms = 0.0;
  for (const cv::variant& v : cv::correct_variants())
    for (const cv::conv2d_config& config : cv::testing::swept_configs()) {
      const auto run = [&](cudaStream_t s) {
        if (const launch_status status = cv::launch(v, da.data(), db.data(), n, n, config, s); !status)
          throw std::runtime_error(status.message());
      };
      row r{"Conv2D", std::string(v.name), std::to_string(n) + " x " + std::to_string(n), config.describe(),
            perf::measure({run, {}, {}}, stream, bench::measure_defaults()), 17.0 * interior, 2.0 * 8.0 * static_cast<double>(count)};
      if (best_v == nullptr || r.ms() < best_ms) best_v = &v, best_config = config, best_ms = r.ms();
      rows.push_back(r);
    }
  clock.done("Conv2D " + std::to_string(n) + "²: GPU points");
  const cv::testing::conv2d_case c{best_v, {n, n}, best_config, cv::testing::input_kind::polybench};
  mark_checked(rows, "Conv2D", best_v->name, best_config.describe(), cv::testing::check_conv2d(c, *cv::testing::input_for(c)));
  clock.done("Conv2D: the best configuration's conformance check");

  std::vector<double> b(count, 0.0);
  const double serial = cpu_ms([&] { reference::polybench::loops::conv2d_serial(a, b, n, n); }, 3);
  const double openmp = cpu_ms([&] { reference::polybench::loops::conv2d_openmp(a, b, n, n); }, 5);
  clock.done("Conv2D: CPU serial and OpenMP loops");
  speedups.push_back({"Conv2D", std::to_string(n) + "²", std::string(best_v->name), best_config.describe(), best_ms,
                      serial, openmp, n == 4096 ? "6.25× (GT 560M, 4096²; 6.2–13× over 4096²–9000²)" : "—"});
}

// ---- ATAX ----

void atax_points(int n, cudaStream_t stream, std::vector<row>& rows, std::vector<speedup_row>& speedups, bench::stage_clock& clock) {
  namespace ax = kc::polybench::atax;
  const ax::atax_shape s{n, n};
  const std::size_t count = s.elements();
  std::vector<double> a(count), x(static_cast<std::size_t>(n));
  fill_uniform_reals(std::span<double>(a), case_seed(base_seed(), "PolybenchBenchmarkAtaxA"), -1.0, 1.0);
  fill_uniform_reals(std::span<double>(x), case_seed(base_seed(), "PolybenchBenchmarkAtaxX"), -1.0, 1.0);
  device_buffer<double> da(count), dx(x.size()), dtmp(x.size()), dy(x.size());
  da.upload(a);
  dx.upload(x);
  const ax::launch_context context{stream, process_cublas_handle()};
  const ax::variant* best_v = nullptr;
  ax::atax_config best_config;
  double best_ms = 0.0;
  for (const ax::variant& v : ax::correct_variants())
    for (const ax::atax_config& config : ax::testing::swept_configs(v)) {
      const auto run = [&](cudaStream_t st) {
        const ax::launch_context on{st, context.cublas};
        if (const launch_status status = ax::launch(v, da.data(), dx.data(), dtmp.data(), dy.data(), s, config, on); !status)
          throw std::runtime_error(status.message());
      };
      row r{"ATAX", std::string(v.name), s.describe(), config.describe(), perf::measure({run, {}, {}}, stream, bench::measure_defaults()),
            4.0 * static_cast<double>(count), 8.0 * (static_cast<double>(count) + 3.0 * n)};
      if (best_v == nullptr || r.ms() < best_ms) best_v = &v, best_config = config, best_ms = r.ms();
      rows.push_back(r);
    }
  clock.done("ATAX " + std::to_string(n) + "²: GPU points");
  const ax::testing::atax_case c{best_v, s, best_config, ax::testing::input_kind::random};
  mark_checked(rows, "ATAX", best_v->name, best_config.describe(), ax::testing::check_atax(c, *ax::testing::input_for(s, c.input), context.cublas));

  clock.done("ATAX: the best configuration's conformance check");
  std::vector<double> tmp(x.size()), y(x.size());
  const double serial = cpu_ms([&] { reference::polybench::loops::atax_serial(a, x, tmp, y, s.nx, s.ny); }, 3);
  const double openmp = cpu_ms([&] { reference::polybench::loops::atax_openmp(a, x, tmp, y, s.nx, s.ny); }, 5);
  clock.done("ATAX: CPU serial and OpenMP loops");
  speedups.push_back({"ATAX", std::to_string(n) + "²", std::string(best_v->name), best_config.describe(), best_ms, serial,
                      openmp, n == 4096 ? "32× (GT 560M, 4096²; 32–38× over 4096²–12000²)" : "—"});
}

// ---- covariance ----

// How many of the product's rows the serial covariance is timed on (128 of 1024: 23% of the pairs),
// and the OpenMP one (256: 44% of the pairs at 1024², 23% at 2048²; enough rows that every thread of
// a 64-core host gets a share, 4 rows at a time).
constexpr std::size_t serial_covariance_rows = 128;
constexpr std::size_t openmp_covariance_rows = 256;

// The seed's FLOAT_N. The data is restored from a pristine copy (untimed) before every timed region:
// every variant centres it in place.
void covariance_points(int n, bool run_serial, cudaStream_t stream, std::vector<row>& rows, std::vector<speedup_row>& speedups,
                       bench::stage_clock& clock) {
  namespace cov = kc::polybench::covariance;
  const cov::dims d{n, n};
  constexpr double float_n = 3214212.01;
  std::vector<double> data(d.data_elements());
  fill_uniform_reals(std::span<double>(data), case_seed(base_seed(), "PolybenchBenchmarkCovariance"), 0.0, 2.0);
  device_buffer<double> pristine(data.size()), work(data.size()), mean(static_cast<std::size_t>(n)), symmat(d.symmat_elements());
  pristine.upload(data);
  const cov::launch_context context{stream, process_cublas_handle()};
  const cov::variant* best_v = nullptr;
  cov::covariance_config best_config;
  double best_ms = 0.0;
  const double nm = static_cast<double>(d.data_elements());
  for (const cov::variant& v : cov::correct_variants())
    for (const cov::covariance_config& config : v.configs(d)) {
      const auto run = [&](cudaStream_t st) {
        const cov::launch_context on{st, context.cublas};
        if (const launch_status status = cov::launch(v, work.data(), mean.data(), symmat.data(), d, float_n, config, on); !status)
          throw std::runtime_error(status.message());
      };
      const auto restore = [&](cudaStream_t st) {
        KC_CUDA_TRY(cudaMemcpyAsync(work.data(), pristine.data(), data.size() * sizeof(double), cudaMemcpyDeviceToDevice, st));
      };
      // Mean and centring: 2 flops per element; the product: m²·n multiply-adds (both triangles, as
      // the seed computes them), 2 flops each. Traffic: data read and written back centred, mean and
      // symmat written.
      row r{"COVAR", std::string(v.name), d.describe(), config.describe(), perf::measure({run, restore, {}}, stream, bench::measure_defaults()),
            2.0 * nm + 2.0 * static_cast<double>(n) * nm, 8.0 * (2.0 * nm + n + static_cast<double>(d.symmat_elements()))};
      if (best_v == nullptr || r.ms() < best_ms) best_v = &v, best_config = config, best_ms = r.ms();
      rows.push_back(r);
    }
  clock.done("COVAR " + std::to_string(n) + "²: GPU points");
  const cov::testing::covariance_case c{best_v, d, best_config, cov::testing::float_n_setting::seed, cov::testing::input_kind::uniform_offset};
  mark_checked(rows, "COVAR", best_v->name, best_config.describe(), cov::testing::check_covariance(c, *cov::testing::input_for(c), context.cublas).result);

  clock.done("COVAR " + std::to_string(n) + "²: the best configuration's conformance check");
  std::vector<double> scratch = data, cpu_mean(static_cast<std::size_t>(n)), cpu_symmat(d.symmat_elements());
  // The serial loop on the product's first serial_covariance_rows rows, scaled by the pairs they hold
  // (a quarter of them at 1024²: the whole loop was 3.9 s of the run's alone phase, issue 21). Each
  // pair is the same n multiply-adds down two columns, the rows' shares of the work are exact.
  namespace loops = reference::polybench::loops;
  // A loop's milliseconds on the product's first `rows` rows, scaled to the whole product's pairs.
  const auto whole_loop_ms = [n](double ms, std::size_t rows) {
    return ms * static_cast<double>(loops::covariance_product_pairs(n, n)) /
           static_cast<double>(loops::covariance_product_pairs(n, rows));
  };
  const std::size_t rows_timed = std::min<std::size_t>(serial_covariance_rows, static_cast<std::size_t>(n));
  // One run, on `scratch` as copied above: the copy of the data it centres stays off the clock
  // (scaled with the loop, its ~15 ms would have counted ~4 times).
  const double serial =
      run_serial ? whole_loop_ms(cpu_ms([&] { loops::covariance_serial_first_rows(scratch, cpu_mean, cpu_symmat, n, n, float_n, rows_timed); }, 1),
                                 rows_timed)
                 : 0.0;
  // The OpenMP loop on the first openmp_covariance_rows rows, scaled the same way (the whole loop at
  // 2048² was 4.3 s of the main job's alone phase on an H200's 16-core host, issue 35). Its runs centre
  // `scratch` in place, again after the serial run: the same work as a first centring.
  const std::size_t openmp_rows = std::min<std::size_t>(openmp_covariance_rows, static_cast<std::size_t>(n));
  const double openmp = whole_loop_ms(
      cpu_ms([&] { loops::covariance_openmp_first_rows(scratch, cpu_mean, cpu_symmat, n, n, float_n, openmp_rows); }, 3), openmp_rows);
  clock.done(std::string("COVAR ") + std::to_string(n) + "²: CPU " + (run_serial ? "serial and " : "") + "OpenMP loops");
  speedups.push_back({"COVAR", std::to_string(n) + "²", std::string(best_v->name), best_config.describe(), best_ms, serial,
                      openmp, n == 1024 ? "74× (GT 560M, 1024²)" : n == 2048 ? "91× (GT 560M, 2000²; 68–96× over 1024²–3000²)" : "—"});
}

// ---- the tables ----

std::string points_table(const std::vector<row>& rows) {
  std::ostringstream md;
  md << "## Every variant and configuration\n\n"
        "GFLOP/s counts the multiplications and additions of the PolyBench loop (Conv2D 17 per interior point, "
        "ATAX 4·nx·ny, covariance m·n for the mean and centring plus m²·n for both triangles of the product); "
        "GB/s counts compulsory traffic only (each input read once, each output written once), so a variant "
        "that reads A twice shows it as a lower figure.\n\n"
        "| kernel | variant | shape | configuration | median ms | q1–q3 ms | samples × batch | GFLOP/s | GB/s | check |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const row& r : rows)
    md << "| " << r.kernel << " | " << r.variant << " | " << r.shape << " | " << r.config << " | "
       << bench::median_ms_text(r.time, 4) << " | " << bench::quartiles_ms_text(r.time, 4) << " | "
       << bench::sampling_text(r.time) << " | " << fixed(r.gflops(), 1) << " | " << fixed(r.gbps(), 1) << " | " << r.check
       << " |\n";
  return md.str();
}

std::string speedup_table(const std::vector<speedup_row>& speedups) {
  std::ostringstream md;
  md << "## Speedups at the seed's sizes\n\n"
        "Best GPU configuration against PolyBench's serial loop (one core) and the same loop with OpenMP on every "
        "core of this host (" << reference::polybench::loops::openmp_threads() << " threads), both in double. The "
        "serial covariance is timed on the first " << serial_covariance_rows << " rows of its product (symmat[j1][j2], "
        "j1 < " << serial_covariance_rows << "), the OpenMP one on the first " << openmp_covariance_rows << ", each "
        "scaled by the pairs they hold.\n\n"
        "| kernel | size | best variant, configuration | GPU ms | serial ms | OpenMP ms | × serial | × OpenMP | the report: × serial |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const speedup_row& s : speedups)
    md << "| " << s.kernel << " | " << s.shape << " | " << s.best_variant << ", " << s.best_config << " | "
       << fixed(s.gpu_ms, 4) << " | " << (s.serial_ms > 0 ? fixed(s.serial_ms, 1) : "not run") << " | "
       << fixed(s.openmp_ms, 2) << " | " << (s.serial_ms > 0 ? fixed(s.serial_ms / s.gpu_ms, 0) + "×" : "—") << " | "
       << fixed(s.openmp_ms / s.gpu_ms, 1) << "× | " << s.report << " |\n";
  return md.str();
}

}  // namespace

int main() {
  return bench::run_benchmark("polybench", [&](const gpu::environment& env, const cuda_stream& stream) {
    const perf::run_conditions at_start = perf::read_conditions();
    std::vector<row> rows;
    std::vector<speedup_row> speedups;
    bench::stage_clock clock("polybench");
    conv2d_points(4096, stream.get(), rows, speedups, clock);
    atax_points(4096, stream.get(), rows, speedups, clock);
    // PolyBench's serial covariance walks columns (stride m): ~1 s at 1024², ~10 s at 2048², so it
    // runs at 1024² only; the OpenMP loop runs at both.
    covariance_points(1024, true, stream.get(), rows, speedups, clock);
    covariance_points(2048, false, stream.get(), rows, speedups, clock);
    const perf::run_conditions at_end = perf::read_conditions();

    bench::csv_table csv("polybench_benchmark", "gpu,kernel,variant,shape,config," + bench::stats_csv_header() +
                                                    ",flops,bytes,gflops,gbps,check");
    for (const row& r : rows)
      csv.add_row('"' + env.device_name + "\"," + r.kernel + ',' + r.variant + ",\"" + r.shape + "\",\"" + r.config + "\"," +
                  bench::stats_csv_fields(r.time) + ',' + std::to_string(r.flops) + ',' + std::to_string(r.bytes) + ',' +
                  std::to_string(r.gflops()) + ',' + std::to_string(r.gbps()) + ",\"" + r.check + '"');
    std::ostringstream md;
    md << "# PolyBench benchmark (seed 004, double) — " << env.device_name << "\n\n"
       << bench::conditions_markdown(at_start, at_end) << "\n"
       << speedup_table(speedups) << "\n" << points_table(rows) << clock.markdown();
    bench::publish_markdown("polybench_benchmark", md.str());
    for (const row& r : rows)
      if (r.check.rfind("WRONG", 0) == 0) {
        std::cerr << "a variant's output failed the conformance check after its timing: see the table\n";
        return 1;
      }
    return 0;
  });
}

// Matmul benchmark: reports, never asserts on time.
//
// GFLOP/s = 2·n³ / time for every correct variant at n = 256, 1024 and 4096, with the
// configurations the report used or the natural ones (median of CUDA-event samples after warm-up;
// one cuBLAS handle for the whole run), and the CPU's time for the same products — the report's
// serial i-j-k loop and the OpenMP reference — at 256 and 1024, giving the report's speedup table.
// Every timed variant's result is checked exactly (integer inputs) at 256 and 1024.
//
// Output: Markdown on stdout and $KCONFORM_REPORT_DIR/matmul_benchmark.md, CSV beside it.
// Exits 77 (skip) without a GPU.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/timing.hpp"
#include "kernels/matmul/matmul.hpp"
#include "reference/matmul_reference.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace kc;
using namespace kc::matmul;

struct timed_config {
  const char* variant;
  matmul_config config;
};

// Per variant: the report's launch where it gave one, else the usual choices.
std::vector<timed_config> configs_for(int n) {
  std::vector<timed_config> list{
      {"OneOutputPerThread", {16, 1}}, {"OneOutputPerThread", {32, 1}}, {"PatchPerThread", {16, 2}},
      {"PatchPerThread", {8, 4}},      {"SharedTiled", {16, 16}},       {"SharedTiled", {32, 32}},
      {"CublasRowMajor", {0, 0}},
  };
  if (n / 32 <= 64) list.insert(list.begin(), {"SingleBlockPatch", {32, n / 32}});  // the report's MM2: 32·TW = n
  return list;
}

double host_ms(auto&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  const gpu::environment& env = gpu::current();
  if (!env.available) {
    std::printf("SKIPPED: %s\n", env.reason.c_str());
    return env.no_gpu_is_failure ? 1 : 77;
  }
  try {
    const cublas_handle handle;
    const launch_context context{nullptr, handle.get()};
    std::ostringstream md, csv;
    md.setf(std::ios::fixed);
    csv << "gpu,variant,catalog_id,n,block,tile_width,median_ms,min_ms,max_ms,samples,gflops,correct\n";
    md << "# Matmul benchmark — " << env.device_name << "\n\n"
       << "GFLOP/s = 2·n³ / median time (CUDA events; 2 warm-ups, 10 samples; 1 and 3 for the\n"
          "single-block kernel at n >= 1024, ~0.5 s a launch). Inputs: integers in [-8, 8]; at n <= 1024 every timed result is compared\n"
          "exactly with the CPU reference.\n\n"
          "| variant | id | config | n | median ms | GFLOP/s | result |\n|---|---|---|---|---|---|---|\n";
    std::map<std::pair<std::string, int>, double> best_ms;
    for (const int n : {256, 1024, 4096}) {
      const std::size_t elements = static_cast<std::size_t>(n) * n;
      std::vector<float> a(elements), b(elements);
      fill_uniform_integers(a, 1, -8, 8);
      fill_uniform_integers(b, 2, -8, 8);
      const std::vector<double> expected = n <= 1024 ? reference::matmul(a, b, n, n, n) : std::vector<double>{};
      device_buffer<float> da(elements), db(elements), dc(elements);
      da.upload(a);
      db.upload(b);
      const shape s{n, n, n};
      for (const timed_config& t : configs_for(n)) {
        const variant& v = *find_variant(t.variant);
        launch_status status = launch_status::ok();
        // The single-block kernel takes ~0.56 s a launch at n = 1024 (H200): 1 warm-up and 3 samples
        // (its spread is far below its gap to every other variant), else 2 and 10.
        const bool slow = v.catalog_id == "MM2" && n >= 1024;
        const timing_summary time = time_device_work(
            [&] { status = launch(v, da.data(), db.data(), dc.data(), s, t.config, context); }, slow ? 1 : 2, slow ? 3 : 10);
        if (!status) throw std::runtime_error(std::string(v.name) + ": " + status.message());
        bool correct = true;
        if (!expected.empty()) {
          const std::vector<float> c = dc.download();
          for (std::size_t i = 0; i < elements && correct; ++i) correct = c[i] == expected[i];
        }
        const double gflops = 2.0 * n * n * static_cast<double>(n) / (time.median_ms * 1e-3) / 1e9;
        auto& best = best_ms[{std::string(v.catalog_id), n}];
        if (best == 0.0 || time.median_ms < best) best = time.median_ms;
        md.precision(3);
        md << "| " << v.name << " | " << v.catalog_id << " | " << t.config.describe() << " | " << n << " | " << time.median_ms
           << " | ";
        md.precision(1);
        md << gflops << " | " << (expected.empty() ? "not checked" : correct ? "ok" : "WRONG") << " |\n";
        csv << '"' << env.device_name << "\"," << v.name << ',' << v.catalog_id << ',' << n << ',' << t.config.block << ','
            << t.config.tile_width << ',' << time.median_ms << ',' << time.min_ms << ',' << time.max_ms << ',' << time.samples
            << ',' << gflops << ',' << (correct ? 1 : 0) << '\n';
        if (!correct) throw std::runtime_error(std::string(v.name) + " gave a wrong product while being timed");
      }
    }

    md << "\n## The report's speedup table, redone (CPU: this machine's host; GPU: best config per kernel)\n\n"
          "| n | serial i-j-k ms | OpenMP reference ms | MM3 ms | MMs ms | cuBLAS ms | MM3 speedup over serial | cuBLAS speedup over serial |\n"
          "|---|---|---|---|---|---|---|---|\n";
    for (const int n : {256, 1024}) {
      const std::size_t elements = static_cast<std::size_t>(n) * n;
      std::vector<float> a(elements), b(elements), c(elements);
      fill_uniform_integers(a, 1, -8, 8);
      fill_uniform_integers(b, 2, -8, 8);
      const double serial = host_ms([&] { reference::matmul_serial_ijk(a, b, c, n, n, n); });
      const double openmp = host_ms([&] { (void)reference::matmul(a, b, n, n, n); });
      const double mm3 = best_ms[{"MM3", n}], mms = best_ms[{"MMs", n}], cublas = best_ms[{"MMc", n}];
      md.precision(3);
      md << "| " << n << " | " << serial << " | " << openmp << " | " << mm3 << " | " << mms << " | " << cublas << " | ";
      md.precision(0);
      md << serial / mm3 << "x | " << serial / cublas << "x |\n";
    }
    std::cout << md.str();
    if (const char* dir = std::getenv("KCONFORM_REPORT_DIR"); dir != nullptr && *dir != '\0') {
      std::ofstream(std::string(dir) + "/matmul_benchmark.md") << md.str();
      std::ofstream(std::string(dir) + "/matmul_benchmark.csv") << csv.str();
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "matmul benchmark failed: " << error.what() << '\n';
    return 1;
  }
}

// Access benchmark (issue 9 §7): seed 003's timing tables redone, with the counters beside the times
// and the report's K40 figures for comparison. Reports, never asserts on time.
//
//   access_benchmark              measure every point, print the Markdown, write the CSV
//   access_benchmark --launches   print the launches whose counters the tables show, one
//                                 "<Variant> <n> <block|S1|S2> <repeats>" per line (the wrapper,
//                                 access_benchmark.sh, profiles exactly these, in this order)
//   access_benchmark --metrics    print the ncu metrics the wrapper collects for them, comma-separated
//
// KCONFORM_ACCESS_COUNTERS names the CSV ctest_config/ncu_collect.sh wrote for those launches
// (launch,kernel,metric,value; launch k = line k of --launches); without it the counter columns
// say why they are empty.
//
// Three tables, all on the seed's data (A[i] = i + 1, B[i] = i + 2), blocks of 1024 unless a scenario
// picks the block:
//   1. access patterns AC1, AC2, AC3 and the hashed twins AC2r, AC3r at n = 32,768 and 4,194,304,
//      100 repeats. Each kernel is also timed at 1 repeat: T(100) − T(1) is the cost of 99 repeats of
//      the access alone, without the launch and without curand_init (which dominates the cuRAND
//      kernels on Hopper: each thread skips its generator 2^67·tid ahead, about 10 µs of work).
//   2. divergence DV1 vs DV2 at n = 4,194,304, 100 repeats.
//   3. occupancy scenarios S1 vs S2 (vector_add at 10,000 repeats, a hundredth of the seed's) at n = 32 ... 65,536,
//      with the theoretical occupancy from reference/occupancy (the calculator the suite checks
//      against the runtime) beside the achieved one.
// Every time is kc::perf::measure() on a stream of our own. After its timing, each point's kernel
// is run once more through the conformance suite's own check (check_access: exact reference or the
// cuRAND property oracles, poisoned output, guard zones); a wrong result marks the point and fails
// the benchmark.
//
// Output: Markdown on stdout and in $KCONFORM_REPORT_DIR/access_benchmark.md (if set), a CSV beside
// it. Exits 77 (skip) without a GPU.
#include "benchmarks/benchmark_output.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/measurement.hpp"
#include "kernels/access/access.hpp"
#include "reference/occupancy.hpp"
#include "tests/access/access_checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace kc;
using namespace kc::access;
using bench::fixed;

constexpr int seed_block = 1024;
constexpr int seed_repeats = 100;
// OC's repeats: 10,000, a hundredth of the seed's 1,000,000 (KCONFORM_ACCESS_OC_REPEATS=1000000 times
// the seed's count). A repeat is the same add over the same blocks, so the time is linear in the
// repeats past a launch's few µs (0.4–1.4 ms a launch at 10,000 here, on an H100, so the launch is
// under 1% of it), and the S2/S1 ratio, the scenario's finding, is the same: at 1,000,000 the 22
// timings took ~10 s of the run's time alone on the GPU, at 100,000 ~4 s, for the same ratios
// (0.70–1.00, issue 21). The profiled launches use 10,000 too (the counters are rates), which keeps
// ncu's replays short.
int oc_repeats() {
  const char* text = std::getenv("KCONFORM_ACCESS_OC_REPEATS");
  return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : 10'000;
}
constexpr int oc_profiled_repeats = 10'000;

// The counters, as ncu names them (the nvprof metrics the report used, in brackets).
// Sectors per request [gld_transactions_per_request] is derived: global-load sectors over the warp-level
// global loads that had an active lane. ncu's own ratio (l1tex_ratio below) divides by l1tex's request
// counter, which ncu cannot collect in the sectors' replay pass, so it replays every launch twice (the
// benchmark's ncu run took twice as long). The two denominators are equal on the generator-free kernels;
// on the cuRAND ones the instructions are slightly more (probably curand_init's loads that bypass the
// LSU pipe's requests), so those rows read a little lower: docs/architecture.md, "Where one GPU's
// seconds go", has the measurement. A counters file written before (l1tex_ratio) is still read.
constexpr const char* global_load_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* global_load_instructions = "smsp__inst_executed_op_global_ld_pred_on_any.sum";
constexpr const char* l1tex_ratio = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
constexpr const char* sectors_per_request = "sectors per request (derived)";  // the column's key, not an ncu name
constexpr const char* lanes_per_instruction = "smsp__thread_inst_executed_per_inst_executed.ratio";  // [warp_execution_efficiency × 32]
constexpr const char* achieved_occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";  // [achieved_occupancy]
// Per SM, the share of elapsed cycles with at least one warp resident, averaged over all SMs (the
// smsp__ form averages over the four schedulers of each SM, so one warp on an SM counts a quarter).
constexpr const char* sm_efficiency = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed";  // [sm_efficiency]

// ---- what is measured ----

struct point {
  std::string variant;
  std::size_t n = 0;
  std::string block_text;  // "1024", "S1", "S2"
  int repeats = 0;
  int profiled_repeats = 0;  // the repeats of its profiled launch; 0: not profiled

  access_config config() const {
    access_config c;
    c.repeats = repeats;
    c.seed = access::testing::index_seed(n);
    if (block_text == "S1" || block_text == "S2") {
      c.from = block_text == "S1" ? scenario::s1 : scenario::s2;
      c.block = scenario_block(c.from, n, 0);
    } else {
      c.block = std::atoi(block_text.c_str());
    }
    return c;
  }
};

const char* const pattern_variants[] = {"FullCoalesced", "NonCoalesced", "SemiCoalesced", "NonCoalescedHashed", "SemiCoalescedHashed"};
const std::size_t pattern_sizes[] = {32'768, 4'194'304};
const char* const divergence_variants[] = {"WarpNoDivergence", "WarpDivergence"};
constexpr std::size_t divergence_size = 4'194'304;

std::vector<std::size_t> scenario_sizes() {
  std::vector<std::size_t> sizes;
  for (std::size_t n = 32; n <= 65'536; n *= 2) sizes.push_back(n);
  return sizes;
}

// Every timed point, in table order. The 1-repeat twins of the pattern kernels are not profiled.
std::vector<point> all_points() {
  std::vector<point> points;
  for (const std::size_t n : pattern_sizes)
    for (const char* v : pattern_variants) {
      points.push_back({v, n, std::to_string(seed_block), seed_repeats, seed_repeats});
      points.push_back({v, n, std::to_string(seed_block), 1, 0});
    }
  for (const char* v : divergence_variants)
    points.push_back({v, divergence_size, std::to_string(seed_block), seed_repeats, seed_repeats});
  for (const std::size_t n : scenario_sizes())
    for (const char* s : {"S1", "S2"}) points.push_back({"VectorAdd", n, s, oc_repeats(), oc_profiled_repeats});
  return points;
}

// The profiled launches, in order: launch k of the profile target is the k-th profiled point.
std::vector<const point*> profiled(const std::vector<point>& points) {
  std::vector<const point*> launches;
  for (const point& p : points)
    if (p.profiled_repeats > 0) launches.push_back(&p);
  return launches;
}

// ---- the counters file ----

// metric -> value, per profiled launch; `why_missing` when there is no file.
struct counters {
  std::vector<std::map<std::string, double>> per_launch;
  std::string why_missing;

  const double* find(std::size_t launch, const char* metric) const {
    if (launch >= per_launch.size()) return nullptr;
    const auto it = per_launch[launch].find(metric);
    return it == per_launch[launch].end() ? nullptr : &it->second;
  }
};

counters read_counters(std::size_t launches) {
  counters c;
  const char* path = std::getenv("KCONFORM_ACCESS_COUNTERS");
  if (path == nullptr || *path == '\0') {
    c.why_missing = "no counters: run through benchmarks/access_benchmark.sh (ctest -L benchmark) to profile the launches with ncu";
    return c;
  }
  std::ifstream file(path);
  std::string line;
  if (!file || !std::getline(file, line) || line.rfind("launch,", 0) != 0) {
    c.why_missing = std::string("no counters: ") + path + " is missing or is not ncu_collect.sh's CSV";
    return c;
  }
  c.per_launch.resize(launches);
  while (std::getline(file, line)) {
    std::istringstream row(line);
    std::string id, kernel, metric, value;
    if (!std::getline(row, id, ',') || !std::getline(row, kernel, ',') || !std::getline(row, metric, ',') ||
        !std::getline(row, value))
      continue;
    const std::size_t launch = std::strtoull(id.c_str(), nullptr, 10);
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (launch < launches && end != value.c_str()) c.per_launch[launch][metric] = x;
  }
  for (std::map<std::string, double>& values : c.per_launch) {
    const auto sectors = values.find(global_load_sectors), instructions = values.find(global_load_instructions);
    const auto ratio = values.find(l1tex_ratio);
    if (sectors != values.end() && instructions != values.end() && instructions->second > 0.0)
      values[sectors_per_request] = sectors->second / instructions->second;
    else if (ratio != values.end())
      values[sectors_per_request] = ratio->second;
  }
  return c;
}

// The metrics access_benchmark.sh asks ncu for, comma-separated (what --metrics prints).
std::string profiled_metrics() {
  std::string list;
  for (const char* metric : {global_load_sectors, global_load_instructions, lanes_per_instruction, achieved_occupancy, sm_efficiency})
    list += (list.empty() ? "" : ",") + std::string(metric);
  return list;
}

// ---- the measurements ----

struct result {
  const point* p = nullptr;
  perf::sample_stats time;
  std::string check;  // "ok", or why the output is wrong
  int profiled_launch = -1;
  double theoretical_occupancy = 0.0;  // the calculator's, for the kernel at this block on this GPU

  double ms() const { return time.median_us / 1000.0; }
};

perf::measure_options options_for(const point& p) {
  perf::measure_options o = bench::measure_defaults();
  // KCONFORM_ACCESS_OC_REPEATS at 100,000 or more (the seed's count): launches of 4 ms and more, few
  // samples suffice. The default 10,000 (under 1.5 ms a launch) takes measure()'s defaults.
  if (p.repeats >= 100'000) {
    o.min_samples = 5;
    o.budget_ms = 200.0;
  }
  return o;
}

double theoretical_occupancy(const variant& v, const access_config& config) {
  const kernel_handle handle = kernel_handle_of(v, config);
  if (!handle) return 0.0;
  cudaFuncAttributes attributes{};
  KC_CUDA_TRY(cudaFuncGetAttributes(&attributes, handle.function));
  static const occupancy::sm_limits sm = [] {  // the device's SM, queried once
    cudaDeviceProp properties{};
    KC_CUDA_TRY(cudaGetDeviceProperties(&properties, gpu::current().device));
    return occupancy::sm_limits::from_device_properties(properties);
  }();
  const occupancy::outcome o = occupancy::calculate(sm,
                                                    {handle.block_threads, attributes.numRegs, attributes.sharedSizeBytes, 0, false});
  return o ? o.value->fraction : 0.0;
}

result measure_point(const point& p, cudaStream_t stream, std::map<std::size_t, std::unique_ptr<access::testing::seed_data_buffers>>& data) {
  const variant* v = find_variant(p.variant);
  if (v == nullptr) throw std::runtime_error("no access variant " + p.variant);
  std::unique_ptr<access::testing::seed_data_buffers>& buffers = data[p.n];
  if (!buffers) buffers = std::make_unique<access::testing::seed_data_buffers>(p.n);
  const access_config config = p.config();
  const auto run = [&](cudaStream_t s) {
    const launch_status status = launch(*v, buffers->a.data(), buffers->b.data(), buffers->c.data(), p.n, config, s);
    if (!status) throw std::runtime_error(p.variant + " refused: " + status.message());
  };
  result r;
  r.p = &p;
  r.time = perf::measure({run, {}, {}}, stream, options_for(p));
  const access::testing::access_case c{v, p.n, config, access::testing::input_kind::seed_data};
  const check_result checked = access::testing::check_access(c, *access::testing::input_for(c));
  r.check = checked.passed() ? std::string("ok") : checked.message;
  r.theoretical_occupancy = theoretical_occupancy(*v, config);
  return r;
}

// ---- the report's K40 figures (seed 003; it printed cudaEventElapsedTime / 1000, i.e. seconds:
// 0.00989 for AC1 at 4M and 100 repeats can only be seconds, 9.9 ms — 4M floats read and written
// 100 times in 9.9 µs would be 4 PB/s) ----

struct k40_pattern {
  std::size_t n;
  const char* variant;
  double ms;
  double transactions_per_request;
};
const k40_pattern k40_patterns[] = {
    {32'768, "FullCoalesced", 0.113152, 1.0},  {32'768, "SemiCoalesced", 0.788544, 13.414511},
    {32'768, "NonCoalesced", 1.68758, 30.633514}, {4'194'304, "FullCoalesced", 9.89446, 1.0},
    {4'194'304, "SemiCoalesced", 221.406, 13.412134}, {4'194'304, "NonCoalesced", 516.703, 31.093427},
};
const k40_pattern* k40_pattern_of(const point& p) {
  for (const k40_pattern& k : k40_patterns)
    if (k.n == p.n && p.variant == k.variant) return &k;
  return nullptr;
}

// DV at 4M, 1024 threads, 100 repeats: ms and warp execution efficiency.
const std::map<std::string, std::pair<double, double>> k40_divergence = {{"WarpNoDivergence", {12.4316, 100.0}},
                                                                         {"WarpDivergence", {38.5476, 34.80}}};

// OC: the report's table per n: S1 and S2 SM efficiency %, theoretical %, achieved %, time (s).
struct k40_scenario {
  double sm_efficiency[2], theoretical[2], achieved[2], seconds[2];
};
const std::map<std::size_t, k40_scenario> k40_scenarios = {
    {32, {{6.54, 6.55}, {25, 25}, {1.5, 1.5}, {0.35, 0.35}}},
    {64, {{6.54, 12.46}, {50, 25}, {2.9, 1.5}, {0.41, 0.41}}},
    {128, {{6.54, 18.83}, {100, 25}, {4.3, 1.5}, {0.69, 0.69}}},
    {256, {{6.54, 37.17}, {100, 25}, {8.8, 1.5}, {0.70, 0.69}}},
    {512, {{6.54, 68.48}, {100, 25}, {17, 1.6}, {0.71, 0.69}}},
    {1024, {{6.54, 78.32}, {100, 50}, {35, 2.8}, {0.74, 0.70}}},
    {2048, {{13.15, 96.32}, {100, 100}, {35, 4.7}, {0.75, 0.70}}},
    {4096, {{26.26, 95.91}, {100, 100}, {35, 9.4}, {0.75, 0.72}}},
    {8192, {{52.41, 95.10}, {100, 100}, {35, 18}, {0.75, 0.74}}},
    {16384, {{83.29, 83.28}, {100, 100}, {39, 39}, {0.91, 0.91}}},
    {32768, {{62.07, 62.11}, {100, 100}, {72, 72}, {1.6, 1.6}}},
    {65536, {{72.80, 72.80}, {100, 100}, {77, 75}, {2.49, 2.49}}},
};

// ---- the tables ----

std::string counter_text(const counters& k, const result& r, const char* metric, int decimals) {
  const double* x = r.profiled_launch < 0 ? nullptr : k.find(static_cast<std::size_t>(r.profiled_launch), metric);
  return x == nullptr ? std::string("—") : fixed(*x, decimals);
}
std::string ratio(double x) { return fixed(x, 2) + "×"; }

const result& find(const std::vector<result>& results, const std::string& variant, std::size_t n, int repeats,
                   const std::string& block = std::to_string(seed_block)) {
  for (const result& r : results)
    if (r.p->variant == variant && r.p->n == n && r.p->repeats == repeats && r.p->block_text == block) return r;
  throw std::logic_error("no result for " + variant);
}

std::string pattern_table(const std::vector<result>& results, const counters& k) {
  std::ostringstream md;
  md << "## Access patterns (AC1–AC3; block 1024, 100 repeats)\n\n"
        "T(100) is the kernel as the seed runs it; T(100) − T(1) is 99 repeats of the access alone (no launch, no "
        "curand_init). Sectors per request: 32-byte sectors per warp-level global load with an active lane (ncu, one "
        "replay pass; on the cuRAND rows 0.1–0.4% under l1tex's own per-request ratio, measured on an H200); the K40 counted 128-byte "
        "transactions, so a coalesced warp is 4 sectors here and 1 transaction there, and a 2 KiB group of random "
        "lanes is 64·(1 − (63/64)^32) = 25.3 sectors here and 16·(1 − (15/16)^32) = 14.0 lines there.\n\n"
        "| kernel | id | n | T(100) ms | q1–q3 ms | × AC1 | T(100) − T(1) ms | × AC1 | sectors / request | check | K40 ms | K40 × AC1 | K40 transactions / request |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const std::size_t n : pattern_sizes) {
    const result& ac1 = find(results, "FullCoalesced", n, seed_repeats);
    const double ac1_marginal = ac1.ms() - find(results, "FullCoalesced", n, 1).ms();
    const k40_pattern* k40_ac1 = nullptr;
    for (const char* name : pattern_variants) {
      const result& r = find(results, name, n, seed_repeats);
      const double marginal = r.ms() - find(results, name, n, 1).ms();
      const variant* v = find_variant(name);
      const k40_pattern* k40 = k40_pattern_of(*r.p);
      if (std::strcmp(name, "FullCoalesced") == 0) k40_ac1 = k40;
      md << "| " << name << " | " << v->catalog_id << " | " << n << " | " << bench::median_ms_text(r.time, 4) << " | "
         << bench::quartiles_ms_text(r.time, 4) << " | " << ratio(r.ms() / ac1.ms()) << " | " << fixed(marginal, 4)
         << " | " << (ac1_marginal > 0.001 ? ratio(marginal / ac1_marginal) : std::string("— (AC1's repeats cost ~0)"))
         << " | " << counter_text(k, r, sectors_per_request, 2) << " | " << r.check << " | "
         << (k40 ? fixed(k40->ms, 3) : "—") << " | " << (k40 && k40_ac1 ? ratio(k40->ms / k40_ac1->ms) : "—") << " | "
         << (k40 ? fixed(k40->transactions_per_request, 2) : "—") << " |\n";
    }
  }
  return md.str();
}

std::string divergence_table(const std::vector<result>& results, const counters& k) {
  std::ostringstream md;
  md << "\n## Divergence (DV1 vs DV2; n = 4,194,304, block 1024, 100 repeats)\n\n"
        "Warp execution efficiency = threads per executed warp instruction / 32 (ncu "
        "smsp__thread_inst_executed_per_inst_executed).\n\n"
        "| kernel | id | ms | q1–q3 ms | × DV1 | threads / instruction | warp execution efficiency | check | K40 ms | K40 × DV1 | K40 efficiency |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n";
  const result& dv1 = find(results, "WarpNoDivergence", divergence_size, seed_repeats);
  for (const char* name : divergence_variants) {
    const result& r = find(results, name, divergence_size, seed_repeats);
    const double* lanes = r.profiled_launch < 0 ? nullptr : k.find(static_cast<std::size_t>(r.profiled_launch), lanes_per_instruction);
    const auto& [k40_ms, k40_efficiency] = k40_divergence.at(name);
    md << "| " << name << " | " << find_variant(name)->catalog_id << " | " << bench::median_ms_text(r.time, 4) << " | "
       << bench::quartiles_ms_text(r.time, 4) << " | " << ratio(r.ms() / dv1.ms()) << " | "
       << (lanes ? fixed(*lanes, 2) : "—") << " | " << (lanes ? fixed(100.0 * *lanes / 32.0, 1) + "%" : "—") << " | "
       << r.check << " | " << fixed(k40_ms, 2) << " | " << ratio(k40_ms / k40_divergence.at("WarpNoDivergence").first)
       << " | " << fixed(k40_efficiency, 1) << "% |\n";
  }
  return md.str();
}

std::string scenario_table(const std::vector<result>& results, const counters& k, int sm_count) {
  std::ostringstream md;
  md << "\n## Occupancy scenarios (vector_add, " << oc_repeats() << " repeats; S1 and S2 side by side)\n\n"
     << "Theoretical occupancy: reference/occupancy's calculator for vector_add at that block on this GPU (checked "
        "against cudaOccupancyMaxActiveBlocksPerMultiprocessor by the occupancy tests). Achieved occupancy and SM "
        "efficiency (share of the elapsed cycles an SM had a warp, averaged over the SMs: nvprof's sm_efficiency) come from ncu, on "
        "launches of "
     << oc_profiled_repeats << " repeats. This GPU has " << sm_count
     << " SMs; the K40 had 15, and its times are in seconds, for the seed's 1,000,000 repeats.\n\n"
        "| n | block S1 / S2 | blocks S1 / S2 | theoretical occ. S1 / S2 | achieved occ. S1 / S2 | SM efficiency S1 / S2 | ms S1 | ms S2 | S2 / S1 | check | K40 s S1 / S2 | K40 SM eff. S1 / S2 | K40 achieved S1 / S2 |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const std::size_t n : scenario_sizes()) {
    const result& s1 = find(results, "VectorAdd", n, oc_repeats(), "S1");
    const result& s2 = find(results, "VectorAdd", n, oc_repeats(), "S2");
    const access_config c1 = s1.p->config(), c2 = s2.p->config();
    const k40_scenario& k40 = k40_scenarios.at(n);
    const std::string check = s1.check == "ok" && s2.check == "ok" ? "ok" : s1.check + " / " + s2.check;
    md << "| " << n << " | " << c1.block << " / " << c2.block << " | " << grid_for(n, c1.block) << " / "
       << grid_for(n, c2.block) << " | " << fixed(100.0 * s1.theoretical_occupancy, 1) << "% / "
       << fixed(100.0 * s2.theoretical_occupancy, 1) << "% | " << counter_text(k, s1, achieved_occupancy, 1) << "% / "
       << counter_text(k, s2, achieved_occupancy, 1) << "% | " << counter_text(k, s1, sm_efficiency, 1) << "% / "
       << counter_text(k, s2, sm_efficiency, 1) << "% | " << bench::median_ms_text(s1.time, 2) << " | "
       << bench::median_ms_text(s2.time, 2) << " | " << fixed(s2.ms() / s1.ms(), 3) << " | " << check << " | "
       << fixed(k40.seconds[0], 2) << " / " << fixed(k40.seconds[1], 2) << " | " << fixed(k40.sm_efficiency[0], 1)
       << "% / " << fixed(k40.sm_efficiency[1], 1) << "% | " << fixed(k40.achieved[0], 1) << "% / "
       << fixed(k40.achieved[1], 1) << "% |\n";
  }
  return md.str();
}

std::string csv_row(const std::string& gpu, const result& r, const counters& k) {
  const access_config c = r.p->config();
  std::ostringstream csv;
  csv << '"' << gpu << "\"," << r.p->variant << ',' << find_variant(r.p->variant)->catalog_id << ',' << r.p->n << ','
      << r.p->block_text << ',' << c.block << ',' << r.p->repeats << ',' << bench::stats_csv_fields(r.time) << ','
      << r.theoretical_occupancy;
  for (const char* metric : {sectors_per_request, lanes_per_instruction, achieved_occupancy, sm_efficiency}) {
    const double* x = r.profiled_launch < 0 ? nullptr : k.find(static_cast<std::size_t>(r.profiled_launch), metric);
    csv << ',';
    if (x != nullptr) csv << *x;
  }
  csv << ',' << (r.check == "ok" ? 1 : 0);
  return csv.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<point> points = all_points();
  const std::vector<const point*> launches = profiled(points);
  if (argc == 2 && std::strcmp(argv[1], "--launches") == 0) {
    for (const point* p : launches) std::printf("%s %zu %s %d\n", p->variant.c_str(), p->n, p->block_text.c_str(), p->profiled_repeats);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--metrics") == 0) {
    std::printf("%s\n", profiled_metrics().c_str());
    return 0;
  }
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--launches | --metrics]\n", argv[0]);
    return 2;
  }
  return bench::run_benchmark("access", [&](const gpu::environment& env, const cuda_stream& stream) {
    const counters k = read_counters(launches.size());
    const perf::run_conditions at_start = perf::read_conditions();
    bench::csv_table csv("access_benchmark", "gpu,variant,catalog_id,n,block_from,block,repeats," + bench::stats_csv_header() +
                                                 ",theoretical_occupancy,sectors_per_request,threads_per_instruction,"
                                                 "achieved_occupancy_pct,sm_efficiency_pct,correct");
    std::map<std::size_t, std::unique_ptr<access::testing::seed_data_buffers>> data;
    std::vector<result> results;
    int launch = 0;
    bench::stage_clock clock("access");
    std::string last_variant;
    for (const point& p : points) {
      if (!last_variant.empty() && p.variant != last_variant) clock.done(last_variant + ": GPU points, each checked");
      last_variant = p.variant;
      results.push_back(measure_point(p, stream.get(), data));
      if (p.profiled_repeats > 0) results.back().profiled_launch = launch++;
      csv.add_row(csv_row(env.device_name, results.back(), k));
    }
    if (!last_variant.empty()) clock.done(last_variant + ": GPU points, each checked");
    const perf::run_conditions at_end = perf::read_conditions();

    std::ostringstream md;
    md << "# Access benchmark (seed 003) — " << env.device_name << "\n\n"
       << bench::conditions_markdown(at_start, at_end) << "\n"
       << "Seed data (A[i] = i + 1, B[i] = i + 2). After its timing every point is run once more through the "
          "conformance suite's check (column *check*). K40 figures: seed 003's report (Tesla K40c).\n\n";
    if (!k.why_missing.empty()) md << "*" << k.why_missing << ".*\n\n";
    md << pattern_table(results, k) << divergence_table(results, k) << scenario_table(results, k, at_start.sm_count) << clock.markdown();
    bench::publish_markdown("access_benchmark", md.str());
    for (const result& r : results)
      if (r.check != "ok") {
        std::cerr << "a point's output failed the conformance check after its timing: see the tables\n";
        return 1;
      }
    return 0;
  });
}

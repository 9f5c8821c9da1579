// kconform_baseline: turns perf record runs into a per-GPU baseline file, and shows one.
//
//   kconform_baseline merge --out FILE [--min-runs N] RUN.jsonl...   each RUN file is one process run
//   kconform_baseline show FILE
//   kconform_baseline name "GPU NAME"                                 the file name a GPU's baseline has
//
// Exit status 0 on success, 2 on bad arguments or any error (the message says which file and why).
// The formats and the merge are fixtures/perf_baseline.hpp's; this file only parses arguments and prints.
#include "fixtures/perf_baseline.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int exit_error = 2;

void print_usage(std::FILE* to) {
  std::fputs(
      "usage: kconform_baseline merge --out FILE [--min-runs N] RUN.jsonl...\n"
      "       kconform_baseline show FILE\n"
      "       kconform_baseline name \"GPU NAME\"\n"
      "merge: each RUN.jsonl holds the records of one process run (KCONFORM_PERF_RECORD); the\n"
      "       baseline takes per point the median of the runs' medians (N, default 5, runs at least).\n",
      to);
}

int usage_error() {
  print_usage(stderr);
  return exit_error;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "kconform_baseline: %s\n", message.c_str());
  return exit_error;
}

std::size_t widest_key(const kc::perf::baseline& b) {
  std::size_t width = 3;  // "key"
  for (const kc::perf::baseline_point& p : b.points) width = std::max(width, p.key.str().size());
  return width;
}

void print_points(const kc::perf::baseline& b) {
  const int width = static_cast<int>(widest_key(b));
  std::printf("%-*s %12s %12s %12s %8s %5s %8s %6s %9s\n", width, "key", "median_us", "q1_us", "q3_us", "spread%", "runs",
              "samples", "batch", "regions");
  for (const kc::perf::baseline_point& p : b.points)
    std::printf("%-*s %12.3f %12.3f %12.3f %8.2f %5zu %8d %6d %9s\n", width, p.key.str().c_str(), p.median_us, p.q1_us,
                p.q3_us, 100.0 * p.run_spread, p.run_medians_us.size(), p.samples, p.batch, p.queued ? "queued" : "launched");
}

int merge(const std::vector<std::string_view>& args) {
  std::string out;
  int min_runs = 5;
  std::vector<std::string> inputs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--out" && i + 1 < args.size()) {
      out = args[++i];
    } else if (args[i] == "--min-runs" && i + 1 < args.size()) {
      const std::string_view n = args[++i];
      const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), min_runs);
      if (ec != std::errc() || end != n.data() + n.size() || min_runs < 1)
        return fail("--min-runs wants a whole number >= 1, not '" + std::string(n) + "'");
    } else if (args[i].starts_with("-")) {
      return usage_error();
    } else {
      inputs.emplace_back(args[i]);
    }
  }
  if (out.empty() || inputs.empty()) return usage_error();

  std::vector<std::vector<kc::perf::measurement_record>> runs;
  std::string error;
  for (const std::string& input : inputs) {
    auto records = kc::perf::load_run_records(input, &error);
    if (!records) return fail(error);
    runs.push_back(std::move(*records));
  }
  const std::optional<kc::perf::baseline> merged = kc::perf::merge_runs(runs, min_runs, &error);
  if (!merged) {
    fail(error);
    // merge_runs numbers runs from 0 in argument order: say which file each is.
    for (std::size_t r = 0; r < inputs.size(); ++r) std::fprintf(stderr, "  run %zu: %s\n", r, inputs[r].c_str());
    return exit_error;
  }
  if (!kc::perf::write_baseline(*merged, out, &error)) return fail(error);

  print_points(*merged);
  std::printf("wrote %s: %zu points, %d runs, %s\n", out.c_str(), merged->points.size(), merged->runs,
              merged->gpu_name.c_str());
  return 0;
}

int show(const std::string& path) {
  std::string error;
  const std::optional<kc::perf::baseline> b = kc::perf::load_baseline(path, &error);
  if (!b) return fail(error);
  std::printf("format:      %s\ngpu:         %s\nfingerprint: %s\ndriver:      %s\ncommit:      %s\n"
              "date:        %s\nruns:        %d\npoints:      %zu\n\n",
              b->format.c_str(), b->gpu_name.c_str(), b->fingerprint.c_str(), b->driver.c_str(), b->commit.c_str(),
              b->date.c_str(), b->runs, b->points.size());
  print_points(*b);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + std::min(argc, 1), argv + argc);
  if (args.empty()) return usage_error();
  const std::string_view command = args[0];
  if (command == "--help" || command == "-h") {
    print_usage(stdout);
    return 0;
  }
  if (command == "merge") return merge({args.begin() + 1, args.end()});
  if (command == "show" && args.size() == 2) return show(std::string(args[1]));
  if (command == "name" && args.size() == 2) {
    std::printf("%s\n", kc::perf::baseline_file_name(args[1]).c_str());
    return 0;
  }
  return usage_error();
}

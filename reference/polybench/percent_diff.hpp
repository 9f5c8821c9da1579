// PolyBench/GPU's own correctness figure, reported beside kconform's verdict so PolyBench users can
// compare (issue 10 §2). It is *not* the verdict: the verdict is the error bound's.
//
// PolyBench/GPU compares each GPU value with its CPU value by percentDiff, and counts the elements
// whose difference exceeds a per-benchmark threshold (percent): 0.05 for 2DCONV, 0.5 for ATAX, 1.05
// for COVAR. Two values both below 0.01 in magnitude count as equal (difference 0), whatever they
// are; otherwise the difference is 100·|(cpu − gpu) / (cpu + 1e-8)|. Both blind spots matter here:
// small values are never compared, and a 1.05% threshold cannot see an error of 0.1%.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace kc::reference::polybench {

inline constexpr double conv2d_threshold_percent = 0.05;
inline constexpr double atax_threshold_percent = 0.5;
inline constexpr double covariance_threshold_percent = 1.05;

// PolyBench's percentDiff(cpu, gpu), in percent.
double percent_diff(double cpu, double gpu);

struct percent_diff_summary {
  std::size_t compared = 0;
  std::size_t over_threshold = 0;  // PolyBench's "Non-Matching CPU-GPU Outputs Beyond Error Threshold"
  double max_percent = 0.0;
  double threshold_percent = 0.0;
  bool polybench_passes() const { return over_threshold == 0; }
  // "PolyBench check (threshold 1.05%): 0 of 1048576 beyond, max 0.0003%: it would pass"
  std::string describe() const;
};

// cpu[i] against gpu[i] for every i (callers pass only the elements PolyBench compares, e.g. the interior).
percent_diff_summary percent_diff_over(std::span<const double> cpu, std::span<const double> gpu, double threshold_percent);

}  // namespace kc::reference::polybench

#include "reference/polybench/percent_diff.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kc::reference::polybench {

double percent_diff(double cpu, double gpu) {
  if (std::fabs(cpu) < 0.01 && std::fabs(gpu) < 0.01) return 0.0;
  return 100.0 * std::fabs((cpu - gpu) / (cpu + 1e-8));
}

std::string percent_diff_summary::describe() const {
  std::ostringstream out;
  out << "PolyBench check (threshold " << threshold_percent << "%): " << over_threshold << " of " << compared
      << " beyond, max " << max_percent << "%: it would " << (polybench_passes() ? "pass" : "fail");
  return out.str();
}

percent_diff_summary percent_diff_over(std::span<const double> cpu, std::span<const double> gpu, double threshold_percent) {
  percent_diff_summary s;
  s.threshold_percent = threshold_percent;
  const std::size_t n = std::min(cpu.size(), gpu.size());
  for (std::size_t i = 0; i < n; ++i) {
    const double d = percent_diff(cpu[i], gpu[i]);
    ++s.compared;
    // A NaN (an unwritten, poisoned output) is beyond any threshold, as PolyBench's > test would not say.
    if (!(d <= threshold_percent)) ++s.over_threshold;
    if (!(d <= s.max_percent)) s.max_percent = std::isnan(d) ? d : std::max(s.max_percent, d);
  }
  return s;
}

}  // namespace kc::reference::polybench

// How each verdict looks on the page: a CSS class (on chart marks, table rows and the counts) and a
// colour written into the SVG itself, so a chart copied out of the page keeps its meaning. The
// colours follow the verdict's weight: SLOW fails the run (red), FAST and AMBIGUOUS are news
// (blue, amber), OK is quiet (green), NO_BASELINE has nothing to judge against (grey).
#pragma once

#include "fixtures/perf_types.hpp"

namespace kc::perf_report {

struct verdict_style {
  const char* css_class;  // "v-slow"
  const char* colour;     // marks: dots, bars, the verdict text
  const char* tint;       // the row's background in the table
};

inline verdict_style style_of(perf::verdict v) {
  switch (v) {
    case perf::verdict::slow: return {"v-slow", "#c62828", "#fdecea"};
    case perf::verdict::fast: return {"v-fast", "#1565c0", "#e8f0fb"};
    case perf::verdict::ambiguous: return {"v-ambiguous", "#c27c0e", "#fdf5e2"};
    case perf::verdict::ok: return {"v-ok", "#2e7d32", "#ffffff"};
    case perf::verdict::no_baseline: return {"v-no-baseline", "#757575", "#f5f5f5"};
  }
  return {"v-unknown", "#000000", "#ffffff"};
}

// The verdicts in the order the page counts them.
inline constexpr perf::verdict all_verdicts[] = {perf::verdict::ok, perf::verdict::slow, perf::verdict::fast,
                                                  perf::verdict::ambiguous, perf::verdict::no_baseline};

}  // namespace kc::perf_report

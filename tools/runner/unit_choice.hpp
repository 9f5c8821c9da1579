// The entries of kconform_runner's --units list, and which cases of a program's listing they take.
//
// A run takes one unit (--unit, optionally --shard i/n: the i-th of n contiguous slices of its cases),
// every unit (no --unit), or a list of units in shared processes (--units a,b,c). An entry of that
// list may be a slice itself, "<unit>@<i>/<n>", reported as "<unit>.<i>of<n>" (the full run's
// shard names, though cut from other cases: the quick run's): gpu-quick's parts
// (ctest_config/KconformTesting.cmake) split a unit larger than a part that way, so no one unit
// sets the quick run's critical path (issue 35: matmul's PatchPerThread, 2,690 cases, 10.3 s in a
// process of its own on an H100 at 7a7ffcf).
// Slices are contiguous in listing order, so cases that share a prepared input stay together, and
// are cut from the cases left after the cost and name filters (the cases the run would take). A
// slice is its own unit to the runner: its own report, and its own hang streak.
#pragma once

#include "tools/runner/case_listing.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kc::runner {

struct unit_choice {
  std::string unit;  // as listed
  int slice = 1, slices = 1;
  // "<unit>" or "<unit>.<i>of<n>": the name its cases are reported under.
  std::string reported() const;
};

// "<unit>" or "<unit>@<i>/<n>" (1 <= i <= n); nullopt for anything else (an empty unit, a bad slice).
std::optional<unit_choice> parse_unit_choice(const std::string& text);

// Why a --units list cannot be run as given (a unit both whole and sliced, a slice twice, slices
// of one unit cut in different counts), or empty if it can.
std::string unit_choices_problem(const std::vector<unit_choice>& choices);

struct chosen_case {
  std::string name;
  std::string reported_unit;  // the choice's reported() (--units), or the listed unit
};

// The cases of `listing` in the chosen units that `wanted` keeps, in listing order, each with the
// unit it is reported under; a sliced unit's cases are those of its slice only
// (begin = count·(i−1)/n, end = count·i/n, as --shard cuts a unit).
std::vector<chosen_case> choose_cases(const std::vector<listed_case>& listing, const std::vector<unit_choice>& choices,
                                      const std::function<bool(const listed_case&)>& wanted);

}  // namespace kc::runner

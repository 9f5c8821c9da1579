// What a GoogleTest program says it contains: its cases, each with the unit it belongs to.
//
// A unit is a set of cases the runner runs in one process (one CUDA context) and CTest sees as one
// test: "SharedTiled", "PatchPerThread.Large", "KnownBad". A case declares its unit through the
// printed parameter (`--gtest_list_tests` shows it after "# GetParam() = "): a parameter whose
// PrintTo writes "unit:<name>" (fixtures/suite_case.hpp) puts the case in that unit; any other case
// falls in the unit named after its suite.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kc::runner {

struct listed_case {
  std::string name;  // "Matmul/Conformance.MatchesReference/SharedTiled_M33N65K17_B16TW16_Real"
  std::string unit;  // "SharedTiled"
  double cost = 1;   // relative work, for ordering units (CTest COST): "cost:<number>" if printed
};

// Parses `--gtest_list_tests` output.
std::vector<listed_case> parse_gtest_listing(const std::string& listing);

struct unit_summary {
  std::size_t cases = 0;
  double cost = 0;
};
std::map<std::string, unit_summary> summarise_units(const std::vector<listed_case>& cases);

}  // namespace kc::runner

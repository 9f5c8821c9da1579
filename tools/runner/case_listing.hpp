// What a GoogleTest program says it contains: its cases, each with the unit it belongs to.
//
// A unit is a set of cases the runner runs in one process (one CUDA context) and CTest sees as one
// test: "SharedTiled", "PatchPerThread.Large", "KnownBad". A case declares its unit through the
// printed parameter (`--gtest_list_tests` shows it after "# GetParam() = "): a parameter whose
// PrintTo writes "unit:<name>" (fixtures/suite_case.hpp) puts the case in that unit; any other case
// falls in the unit named after its suite.
#pragma once

#include <map>
#include <optional>
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

// A program's unfiltered `--gtest_list_tests` output, kept in a file between the runner's calls:
// CTest's registration lists every program once (`kconform_runner list`), and each of its units'
// runs would list it again — a process start each, ~0.4 s for a program that links cuBLAS. The
// file holds the program's fingerprint (path, size, modification time); a listing recorded for
// another build of the program is never used.
std::string program_fingerprint(const std::string& exe);
// The recorded listing, if the file holds one for the program as it is now.
std::optional<std::string> read_listing_cache(const std::string& cache_file, const std::string& exe);
// Records a listing (written to a temporary file, then renamed into place: a reader sees the old
// file or the new one, never half of one). False if it could not be written.
bool write_listing_cache(const std::string& cache_file, const std::string& exe, const std::string& listing);

}  // namespace kc::runner

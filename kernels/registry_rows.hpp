// What every family's registry shares: how the suite is expected to catch a known-bad row, and
// looking a row up by name in a family's correct and known-bad lists.
#pragma once

#include <span>
#include <string_view>

namespace kc {

// How the suite is expected to catch a known-bad row.
enum class caught_by {
  value_checks,  // a wrong value, a guard, a poisoned (unwritten) output, a changed input, a failed property
  racecheck,     // right answers on the GPU at hand; compute-sanitizer racecheck reports the race
  memcheck,      // right answers (the bad access's value is discarded); memcheck on exact-size buffers
  initcheck,     // right answers; initcheck on unpoisoned buffers sees the read of unwritten memory
};
const char* name_of(caught_by detection);  // "value checks", "racecheck", ...

// The row called `name` in either list; nullptr if absent.
template <class Variant>
const Variant* find_row(std::span<const Variant> correct, std::span<const Variant> known_bad, std::string_view name) {
  for (const auto list : {correct, known_bad})
    for (const Variant& v : list)
      if (v.name == name) return &v;
  return nullptr;
}

}  // namespace kc

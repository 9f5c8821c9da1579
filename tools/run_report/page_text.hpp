// Small text helpers the run page's sections share (HTML escaping itself is perf_report's
// html_escape, so both pages escape alike).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kc::run_report {

// An HTML id from a prefix and any name: letters, digits, '-' and '_' kept, others as '-', and a
// hash of the name appended so names differing only in punctuation stay apart. No escaping needed.
std::string element_id(std::string_view prefix, std::string_view name);

// "1 case", "3 cases".
std::string counted(std::size_t n, std::string_view one, std::string_view many);

// Seconds with two decimals below 100, none above ("0.42", "12.35", "332").
std::string format_seconds(double seconds);

// The last `lines` lines of `text`, with a note of how many were left out before them.
std::string last_lines(std::string_view text, std::size_t lines);

}  // namespace kc::run_report

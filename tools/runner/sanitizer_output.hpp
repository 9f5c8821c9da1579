// Reading compute-sanitizer's report (its --log-file, never the program's output), to give each hazard to the case
// whose start marker (fixtures/case_progress.hpp) precedes it in the tool's channel.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace kc::runner {

// True for the first line of one reported hazard or error ("========= Invalid __global__ read ...",
// "========= Error: Race reported ...", "========= Warning: ... Potential RAW hazard ...",
// "========= Uninitialized __global__ memory read ..."), false for its detail lines (indented), the
// banner and the summaries. The head may follow other text on the line (text written into the
// channel without a newline, before the tool's report).
bool is_hazard_head(const std::string& line);

// Where the hazard head starts in `line` (its "========= "), or npos: what to quote of a line that
// has other text glued in front.
std::size_t hazard_head_at(const std::string& line);

// `text` as a report may show it to people: valid UTF-8 kept, every byte of an invalid sequence, a
// control character (C0 but tab, DEL, C1) and a bidirectional override or isolate shown as '?' (the
// submission can write into the tool's channel, and reports are read in terminals and browsers),
// cut on a character's boundary at `limit` bytes with " [...]" after it.
std::string shown_text(const std::string& text, std::size_t limit);

// The case markers the program under the tool writes into the tool's channel (KCONFORM_TOOL_LOG,
// fixtures/case_progress.hpp), found anywhere in the line for the same reason as a hazard head.
// case_name is empty for the program-end marker.
struct tool_marker {
  std::string case_name;
};
std::optional<tool_marker> parse_tool_marker(const std::string& line);

}  // namespace kc::runner

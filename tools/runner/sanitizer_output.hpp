// Reading compute-sanitizer's report (its --log-file, never the program's output), to give each hazard to the case
// whose start marker (fixtures/case_progress.hpp) precedes it in the tool's channel.
#pragma once

#include <optional>
#include <string>

namespace kc::runner {

// True for the first line of one reported hazard or error ("========= Invalid __global__ read ...",
// "========= Error: Race reported ...", "========= Warning: ... Potential RAW hazard ...",
// "========= Uninitialized __global__ memory read ..."), false for its detail lines (indented), the
// banner and the summaries. The head may follow other text on the line (text written into the
// channel without a newline, before the tool's report).
bool is_hazard_head(const std::string& line);

// The case markers the program under the tool writes into the tool's channel (KCONFORM_TOOL_LOG,
// fixtures/case_progress.hpp). case_name is empty for the program-end marker.
struct tool_marker {
  std::string case_name;
};
std::optional<tool_marker> parse_tool_marker(const std::string& line);

}  // namespace kc::runner

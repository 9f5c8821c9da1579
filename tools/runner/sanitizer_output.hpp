// Reading compute-sanitizer's report out of a test process's output, to give each hazard to the case
// whose gtest "[ RUN      ]" line precedes it.
#pragma once

#include <string>

namespace kc::runner {

// True for the first line of one reported hazard or error ("========= Invalid __global__ read ...",
// "========= Error: Race reported ...", "========= Warning: ... Potential RAW hazard ...",
// "========= Uninitialized __global__ memory read ..."), false for its detail lines (indented), the
// banner and the summaries.
bool is_hazard_head(const std::string& line);

}  // namespace kc::runner

// What a failed case's message says about replaying and examining it. The checks end a failure's
// description with "  replay: <command>" (fixtures/replay.hpp) and, when they dumped the data,
// "  data: <path>" (fixtures/failure_dump.hpp); gtest's EXPECT_TRUE wraps the description in
// "Actual: false (...)", so the last such line may carry that closing parenthesis.
#pragma once

#include "tools/run_report/run_folder.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kc::run_report {

// The text after "replay: " on the message's first replay line; "" when there is none.
std::string replay_line(std::string_view message);

// The path after "data: " as the run wrote it (on the machine that ran it); "" when there is none.
std::string data_dump_path(std::string_view message);

// The case's dump as a file name under failures/ (the data line's file name, looked up among the
// folder's dumps, so a report copied elsewhere still links it); "" when the folder has none for it.
std::string dump_file_of(const unit_case& c, const std::vector<std::string>& failure_dumps);

// The case a reader should start from: of `failed`, the one with the least recorded `work`
// property (elements or multiply-adds; the first on ties); nullopt when none recorded its work.
std::optional<std::size_t> smallest_failure(const std::vector<const unit_case*>& failed);

}  // namespace kc::run_report

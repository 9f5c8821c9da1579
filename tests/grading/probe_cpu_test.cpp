// The submission probe (grading/probe_main.cpp) on a stand-in submission that prints while it loads
// and while its traits are read: the probe's stdout must hold the traits JSON and nothing else (what
// the submission prints goes to stderr, probe.log), or the grading program could not read
// traits.json and no case would run (issue 20's second reader found a score of 0 for a printf).
#include "fixtures/json_text.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace {

// Runs the probe with stdout captured and stderr discarded; the output and the exit status.
std::pair<std::string, int> run_probe(const std::string& family, const std::string& library) {
  const std::string command = std::string("'") + KC_PROBE + "' " + family + " '" + library + "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (pipe == nullptr) return {out, -1};
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

TEST(SubmissionProbe, WhatTheSubmissionPrintsNeverReachesTheTraits) {
  const auto [out, status] = run_probe("matmul", KC_PRINTS_IN_TRAITS_SUBMISSION);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out.find("hello"), std::string::npos) << out;
  EXPECT_EQ(out.find("debug"), std::string::npos) << out;
  std::string error;
  const std::optional<kc::json::value> traits = kc::json::parse(out, &error);
  ASSERT_TRUE(traits.has_value()) << error << "\n" << out;
  const kc::json::value* family = traits->find("family");
  ASSERT_NE(family, nullptr) << out;
  ASSERT_NE(family->as_string(), nullptr) << out;
  EXPECT_EQ(*family->as_string(), "matmul");
}

TEST(SubmissionProbe, AnUnknownFamilyIsAUsageError) {
  EXPECT_EQ(run_probe("no_such_family", KC_PRINTS_IN_TRAITS_SUBMISSION).second, 2);
}

}  // namespace

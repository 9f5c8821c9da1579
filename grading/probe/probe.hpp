// What the submission probe (probe_main.cpp) gives each family's traits reader
// (grading/probe/<family>_traits.cpp): the checks every family makes, and the registration that adds
// a family to the probe's list. A reader calls the submission's traits function, checks that the
// traits describe something gradable (signature_problem otherwise: exit 3, the reason on stderr)
// and returns them as JSON, "family" first: the grading program's case list comes from that object.
#pragma once

#include "fixtures/json_text.hpp"

#include <span>
#include <string>
#include <vector>

namespace kc::probe {

[[noreturn]] void signature_problem(const std::string& why);
// The entry point `name`, or a signature problem that names the contract header to follow.
void* entry(void* library, const char* name, const char* contract);
// traits.abi must be this grader's KC_SUBMISSION_ABI.
void check_abi(int abi);
// A traits array of blocks (threads per block) with unused entries 0: the blocks declared, in order,
// each 1 to 1024 and listed once (a block listed twice would name two cases alike, which GoogleTest
// refuses), at least one; else a signature problem. `hint` ends the "no block" message.
std::vector<int> declared_blocks(std::span<const int> entries, const std::string& hint);
json::array as_json(const std::vector<int>& values);

using traits_reader = json::value (*)(void* library);
// A static object of this type in a family's file adds the family to the probe.
struct family_registration {
  family_registration(const char* family, traits_reader read);
};

}  // namespace kc::probe

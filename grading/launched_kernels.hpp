// The kernels a submission launched (grading/submission_guard.cpp notes every launch inside the
// submission's library, launch_record.hpp), as the grading program reads them, and the check that an
// entry point naming a kernel names the one actually launched: the occupancy family judges
// kc_occupancy_answer for kc_vector_add_kernel(), so that kernel must be the one kc_vector_add runs,
// not a trivial one answered for instead (issue 20).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kc::grading {

struct launched_kernels {
  std::vector<const void*> kernels;  // distinct, first launched first
  unsigned long long launches = 0;   // launch calls, successful or not
  bool more = false;                 // more distinct kernels were launched than the record lists
};

// The guard's export: kc_grader_launched_kernels(kernels, capacity, &launches, &more) -> distinct count.
using launched_kernels_entry = std::size_t (*)(const void**, std::size_t, unsigned long long*, int*);

// What `entry` recorded since it was last read (reading starts it over).
launched_kernels read_launched_kernels(launched_kernels_entry entry);

// The submission's record; nullopt for a library built without the guard (by hand, not by
// scripts/grade.sh), where nothing can be checked.
std::optional<launched_kernels> take_launched_kernels();

// "" when `named` (what `naming_entry` returned) is the one kernel `seen` holds; otherwise why not, in
// words a student can act on. `call` says what was run ("kc_vector_add at block 96, n = 1536"),
// `name_of` names a kernel (its function's name, or its address).
std::string named_kernel_problem(const void* named, const launched_kernels& seen, const std::string& naming_entry,
                                 const std::string& call, const std::function<std::string(const void*)>& name_of);

}  // namespace kc::grading

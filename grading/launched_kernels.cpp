#include "grading/launched_kernels.hpp"

#include "grading/launch_record.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <exception>

namespace kc::grading {

launched_kernels read_launched_kernels(launched_kernels_entry entry) {
  launched_kernels out;
  // Room for more than the guard lists (launch_record's max_listed), so `more` comes from the guard.
  std::vector<const void*> listed(2 * kconform_guard::launch_record::max_listed, nullptr);
  int more = 0;
  const std::size_t count = entry(listed.data(), listed.size(), &out.launches, &more);
  listed.resize(std::min(count, listed.size()));
  out.kernels = std::move(listed);
  out.more = more != 0 || count > out.kernels.size();
  return out;
}

std::optional<launched_kernels> take_launched_kernels() {
  launched_kernels_entry entry = nullptr;
  try {
    entry = reinterpret_cast<launched_kernels_entry>(submission_entry("kc_grader_launched_kernels"));
  } catch (const std::exception&) {
    return std::nullopt;  // built without the guard, or its export hidden: the caller fails the case
  }
  return read_launched_kernels(entry);
}

std::string named_kernel_problem(const void* named, const launched_kernels& seen, const std::string& naming_entry,
                                 const std::string& call, const std::function<std::string(const void*)>& name_of) {
  const std::string rule = "the contract asks for one kernel, launched by the launcher and returned by " + naming_entry +
                           ", because the answer is judged for the kernel that actually runs";
  if (seen.launches == 0) return call + " launched no kernel, so " + naming_entry + " cannot be checked: " + rule;
  if (seen.kernels.size() > 1 || seen.more) {
    std::string names;
    for (const void* k : seen.kernels) names += (names.empty() ? "" : ", ") + name_of(k);
    if (seen.more) names += ", and more";
    return call + " launched " + (seen.more ? "more than " : "") + std::to_string(seen.kernels.size()) +
           " different kernel" + (seen.kernels.size() == 1 && !seen.more ? "" : "s") + " (" + names + "): " + rule;
  }
  if (seen.kernels.front() == named) return "";
  return naming_entry + " returned " + name_of(named) + ", but " + call + " launched " + name_of(seen.kernels.front()) +
         " (" + std::to_string(seen.launches) + " launch" + (seen.launches == 1 ? "" : "es") + "): " + rule +
         ". Return the kernel your launcher launches.";
}

}  // namespace kc::grading

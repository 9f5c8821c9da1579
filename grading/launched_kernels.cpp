#include "grading/launched_kernels.hpp"

#include "grading/launch_record.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <cstdint>
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
  // The executor reads the guard's record after every call (grading/executor/remote_submission.hpp);
  // kernels are its tokens (the kernels' addresses there), compared, never dereferenced here.
  const remote::launched_readout readout = remote::take_launched();
  if (!readout.guard_found) return std::nullopt;  // built without the guard, or its export hidden
  launched_kernels out;
  for (const std::uint64_t k : readout.kernels) out.kernels.push_back(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(k)));
  out.launches = readout.launches;
  out.more = readout.more;
  return out;
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

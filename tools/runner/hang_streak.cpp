#include "tools/runner/hang_streak.hpp"

#include "tools/runner/memory_failures.hpp"

namespace kc::runner {

bool is_hang(const case_result& r) {
  return r.status == case_status::failed &&
         (r.message.rfind("hang:", 0) == 0 || r.message.find("did not finish within") != std::string::npos);
}

std::map<std::string, hang_streak> streaks_at_limit(const std::vector<std::string>& order,
                                                    const std::map<std::string, case_result>& results,
                                                    const std::function<std::string(const std::string&)>& key_of,
                                                    std::size_t limit) {
  struct running {
    hang_streak streak;
    bool stopped = false;  // reached the key's first unresolved case
  };
  std::map<std::string, running> keys;
  for (const std::string& name : order) {
    running& k = keys[key_of(name)];
    if (k.stopped) continue;
    const auto found = results.find(name);
    if (found == results.end()) {
      k.stopped = true;
      continue;
    }
    k.streak.cases = is_hang(found->second) || is_memory_kill(found->second) ? k.streak.cases + 1 : 0;
    k.streak.memory_kill = is_memory_kill(found->second);
  }
  std::map<std::string, hang_streak> at_limit;
  for (const auto& [key, k] : keys)
    if (limit > 0 && k.streak.cases >= limit) at_limit[key] = k.streak;
  return at_limit;
}

}  // namespace kc::runner

#include "tools/runner/hang_streak.hpp"

namespace kc::runner {

std::map<std::string, hang_streak> streaks_at_limit(
    const std::vector<std::string>& order, const std::function<const case_result*(const std::string&)>& resolved,
    const std::function<std::string(const std::string&)>& key_of,
    const std::function<bool(const case_result&)>& counts, const std::function<bool(const case_result&)>& memory_kill,
    std::size_t limit) {
  struct running {
    hang_streak streak;
    bool stopped = false;  // reached the key's first unresolved case
  };
  std::map<std::string, running> keys;
  for (const std::string& name : order) {
    running& k = keys[key_of(name)];
    if (k.stopped) continue;
    const case_result* r = resolved(name);
    if (r == nullptr) {
      k.stopped = true;
      continue;
    }
    k.streak.cases = counts(*r) ? k.streak.cases + 1 : 0;
    k.streak.memory_kill = memory_kill(*r);
  }
  std::map<std::string, hang_streak> at_limit;
  for (const auto& [key, k] : keys)
    if (limit > 0 && k.streak.cases >= limit) at_limit[key] = k.streak;
  return at_limit;
}

}  // namespace kc::runner

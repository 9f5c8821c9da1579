#include "kernels/access/access.hpp"

#include <bit>
#include <sstream>

namespace kc::access {

const char* name_of(scenario s) {
  switch (s) {
    case scenario::none: return "";
    case scenario::s1: return "S1";
    case scenario::s2: return "S2";
  }
  return "";
}

int scenario_s1_block(std::size_t n) { return n >= 1024 ? 1024 : static_cast<int>(n == 0 ? 1 : n); }

int scenario_s2_block(std::size_t n) {
  if (n <= 512) return 32;
  const std::size_t per_sixteenth = std::bit_ceil(n) / 16;
  return per_sixteenth >= 1024 ? 1024 : static_cast<int>(per_sixteenth < 32 ? 32 : per_sixteenth);
}

int scenario_block(scenario s, std::size_t n, int given_block) {
  switch (s) {
    case scenario::s1: return scenario_s1_block(n);
    case scenario::s2: return scenario_s2_block(n);
    case scenario::none: break;
  }
  return given_block;
}

std::string access_config::describe() const {
  std::ostringstream out;
  out << "block " << block;
  if (from != scenario::none) out << " (" << name_of(from) << ')';
  out << ", " << repeats << " repeats, index seed " << seed;
  return out.str();
}

std::size_t grid_for(std::size_t n, int block) {
  return block <= 0 ? 0 : (n + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
}

const char* name_of(body b) {
  switch (b) {
    case body::coalesced: return "coalesced";
    case body::curand_random: return "cuRAND random index";
    case body::curand_group: return "cuRAND index inside the warp's group";
    case body::hashed_random: return "hashed random index";
    case body::hashed_group: return "hashed index inside the warp's group";
    case body::branch_by_warp: return "branch by (tid/32) % 4";
    case body::branch_by_thread: return "branch by tid % 4";
  }
  return "?";
}

bool uses_curand(body b) { return b == body::curand_random || b == body::curand_group; }

launch_status validate(const variant& v, std::size_t n, const access_config& config, const device_limits& limits) {
  const std::string who = std::string(v.name) + " (" + std::string(v.catalog_id) + ")";
  if (n == 0) return launch_status::refused(who + ": n = 0: there is nothing to access; n must be at least 1");
  if (n > max_elements)
    return launch_status::refused(who + ": n = " + std::to_string(n) +
                                  " exceeds 2^32 - 1: seed 003's indices are 32-bit; split the array");
  if (const std::string why = block_1d_problem(config.block, limits); !why.empty()) return launch_status::refused(who + ": " + why);
  if ((v.computes == body::curand_group || v.computes == body::hashed_group) && n < group_floats)
    return launch_status::refused(who + ": n = " + std::to_string(n) + " < 512: the warp's group is one of floor(n / 512) "
                                  "whole 512-float groups (KERNELS.md §6), and there is none; n must be at least 512");
  if (v.whole_warps && config.block % warp_lanes != 0)
    return launch_status::refused(who + ": block " + std::to_string(config.block) +
                                  " is not a multiple of 32: the group is chosen per warp, so a block must hold whole "
                                  "warps (try " + std::to_string(config.block / 32 * 32 == 0 ? 32 : config.block / 32 * 32) +
                                  " or " + std::to_string((config.block / 32 + 1) * 32) + ")");
  if (config.repeats < 1)
    return launch_status::refused(who + ": repeats = " + std::to_string(config.repeats) +
                                  ": each thread must run its body at least once");
  const std::size_t grid = grid_for(n, config.block);
  if (grid > static_cast<std::size_t>(limits.max_grid_x))
    return launch_status::refused(who + ": n = " + std::to_string(n) + " needs " + std::to_string(grid) + " blocks of " +
                                  std::to_string(config.block) + ", more than this device's " +
                                  std::to_string(limits.max_grid_x) + "; use a larger block");
  if (v.constraint != nullptr)
    if (std::string why = v.constraint(n, config); !why.empty()) return launch_status::refused(who + ": " + why);
  return launch_status::ok();
}

launch_status launch(const variant& v, const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                     cudaStream_t stream) {
  if (launch_status status = validate(v, n, config, device_limits::of_current_device()); !status) return status;
  return v.launch(a, b, c, n, config, stream);
}

launch_status launch_by_name(std::string_view name, const float* a, const float* b, float* c, std::size_t n,
                             const access_config& config, cudaStream_t stream) {
  for (const variant& v : correct_variants())
    if (v.name == name) return launch(v, a, b, c, n, config, stream);
  return launch_status::refused("no correct access variant is named \"" + std::string(name) + "\"");
}

}  // namespace kc::access

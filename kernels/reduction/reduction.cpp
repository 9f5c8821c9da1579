// Validation, pass planning and the seed-000 multi-pass driver: host code, no kernels.
#include "kernels/reduction/reduction.hpp"

#include <algorithm>
#include <sstream>

namespace kc::reduction {

std::string reduce_config::describe() const {
  std::ostringstream out;
  if (block == 0) out << "block chosen by the library";
  else out << "block " << block;
  out << ", grid ";
  if (grid == 0) out << "auto";
  else out << grid;
  return out.str();
}

namespace {
std::size_t ceil_log2(std::size_t n) {
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  return bits;
}
}  // namespace

std::size_t pass_geometry::summation_depth() const {
  const std::size_t per_thread = chunk_elements / static_cast<std::size_t>(block);
  const std::size_t chunks_per_block = (chunks() + grid - 1) / grid;
  // Items a thread adds in sequence, then the block tree, +1 for the add into the zero-initialised
  // accumulator some variants start from.
  return chunks_per_block * per_thread + ceil_log2(static_cast<std::size_t>(block)) + 1;
}

std::size_t multipass_plan::summation_depth() const {
  std::size_t depth = 0;
  for (const pass_geometry& pass : passes) depth += pass.summation_depth();
  return depth;
}

std::vector<int> variant::swept_blocks() const {
  if (!has_pass() && !full_blocks) return {0};
  const block_rule& rule = has_pass() ? pass.blocks : *full_blocks;
  const int step = std::max(1, rule.multiple_of);
  const auto allowed = [&](int b) { return b >= rule.min_block && b <= rule.max_block && b <= 1024 && b % step == 0; };
  std::vector<int> blocks;
  if (rule.power_of_two) {
    for (int b = 1; b <= 1024; b *= 2)
      if (allowed(b)) blocks.push_back(b);
    return blocks;
  }
  for (const int k : {1, 3, 7, 8, 31, 32})
    if (allowed(k * step)) blocks.push_back(k * step);
  const int smallest = (std::max(rule.min_block, 1) + step - 1) / step * step;
  const int largest = std::min(rule.max_block, 1024) / step * step;
  for (const int b : {smallest, largest})
    if (allowed(b)) blocks.push_back(b);
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

namespace {

bool is_power_of_two(long long x) { return x > 0 && (x & (x - 1)) == 0; }

std::string allowed_blocks(const block_rule& rule) {
  std::ostringstream out;
  if (rule.power_of_two) {
    const char* separator = "";
    for (int b = 1; b <= rule.max_block; b *= 2)
      if (b >= rule.min_block) {
        out << separator << b;
        separator = ", ";
      }
  } else {
    out << "a multiple of " << rule.multiple_of << " from " << rule.min_block << " to " << rule.max_block;
  }
  return out.str();
}

std::size_t grid_for(const variant& v, std::size_t n, int block, const device_limits& limits) {
  const std::size_t chunk = static_cast<std::size_t>(block) * v.pass.elements_per_thread;
  const std::size_t chunks = (n + chunk - 1) / chunk;
  if (v.pass.grid == grid_policy::one_block_per_chunk) return chunks;
  // Grid-stride: as many blocks as can be resident at once, no more than there are chunks.
  const std::size_t resident_per_sm = std::max(1, limits.max_threads_per_multiprocessor / block);
  return std::max<std::size_t>(1, std::min(chunks, resident_per_sm * limits.multiprocessors));
}

}  // namespace

launch_status validate_pass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits) {
  std::ostringstream why;
  if (!v.has_pass()) {
    why << v.name << " is a library reduction: it has no single pass to launch";
    return launch_status::refused(why.str());
  }
  if (n == 0) return launch_status::refused("n = 0: there is nothing to reduce (n must be >= 1)");
  const block_rule& rule = v.pass.blocks;
  const int block = config.block;
  if (block > limits.max_threads_per_block) {
    why << "block " << block << " exceeds this device's limit of " << limits.max_threads_per_block
        << " threads per block";
    return launch_status::refused(why.str());
  }
  if (block < rule.min_block || block > rule.max_block) {
    why << "block " << block << " is outside " << v.name << "'s range: use " << allowed_blocks(rule);
    return launch_status::refused(why.str());
  }
  if (rule.power_of_two && !is_power_of_two(block)) {
    why << "block " << block << " is not a power of two: " << v.name
        << " halves the active threads each step, so it needs one of " << allowed_blocks(rule);
    return launch_status::refused(why.str());
  }
  if (block % rule.multiple_of != 0) {
    why << "block " << block << " is not a multiple of " << rule.multiple_of << " (whole warps): use "
        << allowed_blocks(rule);
    return launch_status::refused(why.str());
  }
  const std::size_t chunk = static_cast<std::size_t>(block) * v.pass.elements_per_thread;
  const std::size_t chunks = (n + chunk - 1) / chunk;
  if (config.grid < 0) return launch_status::refused("grid must be >= 0 (0 lets the variant choose)");
  if (config.grid > 0) {
    if (v.pass.grid == grid_policy::one_block_per_chunk && static_cast<std::size_t>(config.grid) < chunks) {
      why << "grid " << config.grid << " covers " << static_cast<std::size_t>(config.grid) * chunk << " of n = " << n
          << " elements (block " << block << ", " << v.pass.elements_per_thread
          << " per thread): needs >= " << chunks << " blocks";
      return launch_status::refused(why.str());
    }
    if (config.grid > limits.max_grid_x) {
      why << "grid " << config.grid << " exceeds this device's limit of " << limits.max_grid_x << " blocks";
      return launch_status::refused(why.str());
    }
  } else if (grid_for(v, n, block, limits) > static_cast<std::size_t>(limits.max_grid_x)) {
    why << "n = " << n << " needs " << chunks << " blocks of " << block << " threads, more than this device's grid limit of "
        << limits.max_grid_x << ": use a larger block or a grid-stride variant";
    return launch_status::refused(why.str());
  }
  return launch_status::ok();
}

pass_geometry plan_pass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits) {
  pass_geometry g;
  g.n = n;
  g.block = config.block;
  g.chunk_elements = static_cast<std::size_t>(config.block) * v.pass.elements_per_thread;
  g.grid = config.grid > 0 ? static_cast<std::size_t>(config.grid) : grid_for(v, n, config.block, limits);
  return g;
}

launch_status launch_pass(const variant& v, float* in, std::size_t n, float* out, const reduce_config& config,
                          cudaStream_t stream) {
  const device_limits& limits = device_limits::of_current_device();
  if (launch_status status = validate_pass(v, n, config, limits); !status) return status;
  return v.pass.launch(in, out, plan_pass(v, n, config, limits), stream);
}

multipass_plan plan_multipass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits) {
  multipass_plan plan;
  const int smallest = std::max(32, v.pass.blocks.min_block);
  std::size_t remaining = n;
  do {
    reduce_config pass_config = config;
    if (!plan.passes.empty()) {
      // Later passes: the same block, shrunk to the power of two that covers what is left.
      const std::size_t threads_needed = (remaining + v.pass.elements_per_thread - 1) / v.pass.elements_per_thread;
      std::size_t covering = 1;
      while (covering < threads_needed) covering *= 2;
      pass_config.block = static_cast<int>(std::min<std::size_t>(config.block, std::max<std::size_t>(smallest, covering)));
      pass_config.grid = 0;
    }
    const pass_geometry pass = plan_pass(v, remaining, pass_config, limits);
    if (plan.passes.size() % 2 == 0) plan.scratch_elements = std::max(plan.scratch_elements, pass.grid);
    plan.passes.push_back(pass);
    remaining = pass.grid;
  } while (remaining > 1);
  plan.result_in_scratch = plan.passes.size() % 2 == 1;
  return plan;
}

std::size_t multipass_scratch(const variant& v, std::size_t n, const reduce_config& config) {
  return plan_multipass(v, n, config, device_limits::of_current_device()).scratch_elements;
}

std::size_t scratch_elements(const variant& v, std::size_t n, const reduce_config& config) {
  return v.scratch != nullptr ? v.scratch(v, n, config) : multipass_scratch(v, n, config);
}

reduce_outcome run_multipass(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_size,
                             const reduce_config& config, cudaStream_t stream, const pass_observer* observer) {
  reduce_outcome outcome;
  const device_limits& limits = device_limits::of_current_device();
  if (outcome.status = validate_pass(v, n, config, limits); !outcome.status) return outcome;
  outcome.plan = plan_multipass(v, n, config, limits);
  if (scratch_size < outcome.plan.scratch_elements) {
    outcome.status = launch_status::refused("scratch holds " + std::to_string(scratch_size) + " floats; this plan needs " +
                                            std::to_string(outcome.plan.scratch_elements));
    return outcome;
  }
  float* const buffers[2] = {a, scratch};
  for (std::size_t k = 0; k < outcome.plan.passes.size(); ++k) {
    const pass_geometry& pass = outcome.plan.passes[k];
    outcome.status = v.pass.launch(buffers[k % 2], buffers[(k + 1) % 2], pass, stream);
    if (!outcome.status) return outcome;
    if (observer != nullptr && observer->after_pass != nullptr)
      observer->after_pass(observer->context, k, pass, buffers[(k + 1) % 2], stream);
  }
  outcome.result = buffers[outcome.plan.passes.size() % 2];
  return outcome;
}

reduce_outcome reduce(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_size,
                      const reduce_config& config, cudaStream_t stream, const pass_observer* observer) {
  const full_reduce_fn reducer = v.reduce != nullptr ? v.reduce : &run_multipass;
  return reducer(v, a, n, scratch, scratch_size, config, stream, observer);
}

}  // namespace kc::reduction

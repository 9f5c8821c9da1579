#include "tests/matmul/report_cases.hpp"

#include "fixtures/suite_case.hpp"

namespace kc::matmul::testing {

std::string report_case::name() const {
  const ::kc::matmul::variant* v = find_variant(variant);
  return std::string(v != nullptr ? v->catalog_id : "X") + 'N' + std::to_string(n) + "TW" + std::to_string(tile_width) + 'B' +
         std::to_string(block) + 'G' + std::to_string(grid);
}

void PrintTo(const report_case& c, std::ostream* os) { print_case(c, os); }

std::vector<report_case> report_cases() {
  return {
      {"SingleBlock", 32, 1, 32, 1},  // MM1: grid 1x1, block 32x32
      // MM2: one 32x32 block; (n, TILE_WIDTH) = (64,16) (128,16) (128,32) (512,16) (1024,32) (2048,64)
      {"SingleBlockPatch", 64, 16, 32, 1},
      {"SingleBlockPatch", 128, 16, 32, 1},
      {"SingleBlockPatch", 128, 32, 32, 1},
      {"SingleBlockPatch", 512, 16, 32, 1},
      {"SingleBlockPatch", 1024, 32, 32, 1},
      {"SingleBlockPatch", 2048, 64, 32, 1},
      // MM3: (n, block, grid)
      {"OneOutputPerThread", 256, 1, 4, 64},
      {"OneOutputPerThread", 256, 1, 8, 32},
      {"OneOutputPerThread", 1024, 1, 32, 32},
      {"OneOutputPerThread", 2048, 1, 32, 64},
      {"OneOutputPerThread", 4096, 1, 32, 128},
      // MM4: (n, TILE_WIDTH, block, grid)
      {"PatchPerThread", 256, 16, 4, 4},
      {"PatchPerThread", 256, 8, 4, 8},
      {"PatchPerThread", 512, 16, 32, 1},
      {"PatchPerThread", 512, 16, 16, 2},
      {"PatchPerThread", 1024, 8, 32, 4},
      {"PatchPerThread", 1024, 4, 8, 32},
      {"PatchPerThread", 2048, 16, 8, 16},
      {"PatchPerThread", 2048, 8, 8, 32},
  };
}

int report_grid(const variant& v, const shape& s, const matmul_config& config) {
  if (v.catalog_id == "MM3") return one_output_per_thread_grid(s, config).x;
  if (v.catalog_id == "MM4") return patch_per_thread_grid(s, config).x;
  return 1;  // MM1, MM2: one block
}

}  // namespace kc::matmul::testing

// Stands in for tests/submissions/reduction/sets_seed.cu in seed_latch_cpu_tests: it sets
// KCONFORM_SEED from its static initialiser (which runs inside the grader's dlopen) and from an entry
// point, as a submission that wants to choose its own inputs would. No CUDA: the test needs no GPU.
#include <cstdlib>

namespace {
struct at_load {
  at_load() { setenv("KCONFORM_SEED", "1", 1); }
} const chosen_at_load;
}  // namespace

extern "C" {

// Sets KCONFORM_SEED to `seed` and returns 0 (setenv's result).
__attribute__((visibility("default"))) int fake_choose_seed(const char* seed) { return setenv("KCONFORM_SEED", seed, 1); }
}

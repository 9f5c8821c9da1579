// The kernels a submission launched (issue 20: the occupancy answer was judged for whatever kernel
// kc_vector_add_kernel() named, launched or not). The record kept inside the submission's library
// (grading/launch_record.hpp), the grader's reading of it and its check (grading/launched_kernels.hpp),
// and two occupancy examples built as scripts/grade.sh builds a submission — the contract header forced
// in, hidden visibility, grading/submission_guard.cpp linked with the --wrap flags of
// submission_guard_calls.txt — then loaded with dlopen(RTLD_LOCAL), as the grading program loads one.
// Without a GPU the runtime refuses kc_vector_add's launch, after the wrapper has noted it; with one,
// the kernel runs, at n = 1 on buffers of its own.
#include "grading/launch_record.hpp"
#include "grading/launched_kernels.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>

namespace kc::grading {
namespace {

// Stand-ins for kernels and a cudaKernel_t handle: only their addresses are used.
const char vector_add_stand_in = 0, empty_stand_in = 0, handle_stand_in = 0;
const void* const vector_add = &vector_add_stand_in;
const void* const empty_kernel = &empty_stand_in;
const void* const handle = &handle_stand_in;

std::string name_of(const void* kernel) {
  if (kernel == vector_add) return "vector_add";
  if (kernel == empty_kernel) return "empty_kernel";
  std::ostringstream text;
  text << kernel;
  return text.str();
}

TEST(LaunchRecord, ListsEachKernelOnceInFirstLaunchOrder) {
  kconform_guard::launch_record record;
  record.launched(empty_kernel);
  record.launched(vector_add);
  record.launched(empty_kernel);
  const void* out[4] = {};
  const auto t = record.take(out, 4);
  EXPECT_EQ(t.listed, 2u);
  EXPECT_EQ(t.launches, 3u);
  EXPECT_FALSE(t.more);
  EXPECT_EQ(out[0], empty_kernel);
  EXPECT_EQ(out[1], vector_add);
}

// CUDA 13's triple-chevron launch passes the handle __cudaGetKernel gave for the function.
TEST(LaunchRecord, ALaunchByHandleIsNotedAsTheFunctionTheHandleWasGotFor) {
  kconform_guard::launch_record record;
  record.name_handle(handle, vector_add);
  record.launched(handle);
  record.launched(vector_add);
  const void* out[2] = {};
  const auto t = record.take(out, 2);
  EXPECT_EQ(t.listed, 1u) << "a launch by handle and one by function are the same kernel";
  EXPECT_EQ(t.launches, 2u);
  EXPECT_EQ(out[0], vector_add);
}

TEST(LaunchRecord, TakingStartsOverAndKeepsTheHandlesNames) {
  kconform_guard::launch_record record;
  record.name_handle(handle, vector_add);
  record.launched(empty_kernel);
  (void)record.take(nullptr, 0);
  const void* out[2] = {};
  EXPECT_EQ(record.take(out, 2).launches, 0u) << "taking starts over";
  record.launched(handle);
  const auto t = record.take(out, 2);
  EXPECT_EQ(t.listed, 1u);
  EXPECT_EQ(out[0], vector_add) << "the handle's name outlives a take (each launch site gets its handle once)";
}

TEST(LaunchRecord, PastTheListItSaysThereWereMore) {
  kconform_guard::launch_record record;
  static char kernels[kconform_guard::launch_record::max_listed + 3];
  for (char& k : kernels) record.launched(&k);
  const void* out[2] = {};
  const auto t = record.take(out, 2);
  EXPECT_EQ(t.listed, kconform_guard::launch_record::max_listed) << "the count, past the caller's capacity too";
  EXPECT_TRUE(t.more);
  EXPECT_EQ(out[0], &kernels[0]);
  EXPECT_EQ(out[1], &kernels[1]);
}

launched_kernels seen(std::vector<const void*> kernels, unsigned long long launches, bool more = false) {
  return {std::move(kernels), launches, more};
}

const std::string call = "kc_vector_add at block 96 (n = 1536, grid 16, 100 repeats)";

TEST(NamedKernel, TheOneKernelLaunchedPasses) {
  EXPECT_EQ(named_kernel_problem(vector_add, seen({vector_add}, 3), "kc_vector_add_kernel()", call, name_of), "");
}

TEST(NamedKernel, AnotherKernelNamedFailsNamingBoth) {
  const std::string problem =
      named_kernel_problem(empty_kernel, seen({vector_add}, 1), "kc_vector_add_kernel()", call, name_of);
  EXPECT_NE(problem.find("kc_vector_add_kernel() returned empty_kernel, but " + call + " launched vector_add (1 launch)"),
            std::string::npos)
      << problem;
  EXPECT_NE(problem.find("Return the kernel your launcher launches"), std::string::npos) << problem;
}

TEST(NamedKernel, NoLaunchFails) {
  const std::string problem = named_kernel_problem(vector_add, seen({}, 0), "kc_vector_add_kernel()", call, name_of);
  EXPECT_NE(problem.find(call + " launched no kernel"), std::string::npos) << problem;
}

// The contract asks for one kernel: the answer would otherwise be about one of several that run.
TEST(NamedKernel, MoreThanOneKernelFailsEvenWhenTheNamedOneIsAmongThem) {
  const std::string problem =
      named_kernel_problem(vector_add, seen({empty_kernel, vector_add}, 2), "kc_vector_add_kernel()", call, name_of);
  EXPECT_NE(problem.find("launched 2 different kernels (empty_kernel, vector_add)"), std::string::npos) << problem;
  const std::string more =
      named_kernel_problem(vector_add, seen({vector_add}, 40, true), "kc_vector_add_kernel()", call, name_of);
  EXPECT_NE(more.find("launched more than 1 different kernels (vector_add, and more)"), std::string::npos) << more;
}

// The guard's export as the grader reads it.
std::size_t fake_export(const void** kernels, std::size_t capacity, unsigned long long* launches, int* more) {
  if (capacity >= 2) kernels[0] = vector_add, kernels[1] = empty_kernel;
  *launches = 5;
  *more = 0;
  return 2;
}

TEST(ReadLaunchedKernels, ReadsTheGuardsExport) {
  const launched_kernels read = read_launched_kernels(fake_export);
  ASSERT_EQ(read.kernels.size(), 2u);
  EXPECT_EQ(read.kernels[0], vector_add);
  EXPECT_EQ(read.kernels[1], empty_kernel);
  EXPECT_EQ(read.launches, 5u);
  EXPECT_FALSE(read.more);
}

// ---- built and loaded as a submission ----

struct loaded_example {
  void* library = nullptr;
  const char* (*vector_add)(const float*, const float*, float*, std::size_t, int, int, void*) = nullptr;
  const void* (*named)() = nullptr;
  launched_kernels_entry launches = nullptr;
};

loaded_example load(const char* path) {
  loaded_example e;
  e.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (e.library == nullptr) {
    ADD_FAILURE() << "could not load " << path << ": " << dlerror();
    return e;
  }
  e.vector_add = reinterpret_cast<decltype(e.vector_add)>(dlsym(e.library, "kc_vector_add"));
  e.named = reinterpret_cast<decltype(e.named)>(dlsym(e.library, "kc_vector_add_kernel"));
  e.launches = reinterpret_cast<launched_kernels_entry>(dlsym(e.library, "kc_grader_launched_kernels"));
  EXPECT_NE(e.vector_add, nullptr);
  EXPECT_NE(e.named, nullptr);
  EXPECT_NE(e.launches, nullptr) << "the guard's export is missing: built without submission_guard.cpp?";
  return e;
}

// What kc_vector_add launched at block 32, n = 1, checked against what kc_vector_add_kernel() names.
std::string problem_of(const loaded_example& e, launched_kernels* out) {
  float* buffers = nullptr;  // A, B and C, one float each, where there is a GPU
  if (cudaMalloc(reinterpret_cast<void**>(&buffers), 3 * sizeof(float)) != cudaSuccess) buffers = nullptr;
  (void)cudaGetLastError();
  (void)read_launched_kernels(e.launches);
  (void)e.vector_add(buffers, buffers == nullptr ? nullptr : buffers + 1, buffers == nullptr ? nullptr : buffers + 2, 1,
                     32, 1, nullptr);
  *out = read_launched_kernels(e.launches);
  if (buffers != nullptr) {
    (void)cudaDeviceSynchronize();
    (void)cudaFree(buffers);
  }
  (void)cudaGetLastError();
  return named_kernel_problem(e.named(), *out, "kc_vector_add_kernel()", "kc_vector_add at block 32 (n = 1)",
                              [](const void* k) {
                                std::ostringstream text;
                                text << k;
                                return text.str();
                              });
}

TEST(GuardedSubmission, TheKernelTheCorrectExampleLaunchesIsTheOneItNames) {
  const loaded_example e = load(KC_OCCUPANCY_CORRECT);
  ASSERT_TRUE(e.vector_add && e.named && e.launches);
  launched_kernels seen_launches;
  EXPECT_EQ(problem_of(e, &seen_launches), "");
  EXPECT_EQ(seen_launches.launches, 1u) << "the triple-chevron launch went through the guard's wrapper";
  ASSERT_EQ(seen_launches.kernels.size(), 1u);
  EXPECT_EQ(seen_launches.kernels[0], e.named());
}

TEST(GuardedSubmission, AnExampleThatNamesAnotherKernelIsCaught) {
  const loaded_example e = load(KC_OCCUPANCY_ANSWERS_FOR_ANOTHER_KERNEL);
  ASSERT_TRUE(e.vector_add && e.named && e.launches);
  launched_kernels seen_launches;
  const std::string problem = problem_of(e, &seen_launches);
  EXPECT_NE(problem.find("kc_vector_add_kernel() returned"), std::string::npos) << problem;
  EXPECT_EQ(seen_launches.launches, 1u);
  ASSERT_EQ(seen_launches.kernels.size(), 1u);
  EXPECT_NE(seen_launches.kernels[0], e.named());
}

}  // namespace
}  // namespace kc::grading

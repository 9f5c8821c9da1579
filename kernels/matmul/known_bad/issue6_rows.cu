// KNOWN-BAD. Bugs that gave right values in every case of the suite before issue 6, each caught by
// a check that issue 6 added:
//   CublasTf32              cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH: inputs rounded to TF32 (11
//                           significant bits). Exact on integers in [-8, 8]; caught by WideInteger
//                           inputs (odd magnitudes above 2^11) and by the real-input bound.
//   CublasIgnoresStream     the right call, but on the default stream instead of the caller's:
//                           caught by launching behind a delayed input copy on a non-blocking stream.
//   WrongLeadingDimension   one output per thread, A indexed with n as its leading dimension
//                           (a[row·n + j]): right whenever n = k, so every square shape passes;
//                           caught by running known-bad rows over the rectangular shapes too.
//   DebugStoreInA           one output per thread plus a leftover debug store of C[0][0] into A[0]:
//                           C is usually right (A[0] is read early), but A is changed; caught by the
//                           A-and-B-unchanged check.
// (TiledReadsPastRowEnd, also issue 6, is one more slip of the tiled kernel: tiled_bugs.cu.)
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul::detail {
namespace {

enum class mm3_bug { a_leading_dimension_n, debug_store_in_a };

// One output per thread (MM3) with one slip.
template <mm3_bug Bug>
__global__ void one_output_with_bug(const float* a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  const std::size_t a_leading = Bug == mm3_bug::a_leading_dimension_n ? n : k;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += a[static_cast<std::size_t>(row) * a_leading + j] * b[static_cast<std::size_t>(j) * n + col];
  c[static_cast<std::size_t>(row) * n + col] = sum;
  if constexpr (Bug == mm3_bug::debug_store_in_a)
    if (row == 0 && col == 0) const_cast<float*>(a)[0] = sum;  // the leftover debug store
}

template <mm3_bug Bug>
launch_status launch_one_output_with_bug(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                         cudaStream_t stream, const char* name) {
  const grid_2d g = one_output_per_thread_grid(s, config);
  one_output_with_bug<Bug><<<dim3(g.x, g.y), dim3(config.block, config.block), 0, stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch(name);
}

}  // namespace

// Both reuse the correct MMc launcher (cublas_row_major.cpp), so the only bug is the one named.
launch_status launch_cublas_tf32(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                 const launch_context& context) {
  if (context.cublas == nullptr) return launch_status::refused("cuBLAS needs a handle");
  cublasSetMathMode(context.cublas, CUBLAS_TF32_TENSOR_OP_MATH);
  const launch_status status = launch_cublas_row_major(a, b, c, s, config, context);
  cublasSetMathMode(context.cublas, CUBLAS_DEFAULT_MATH);  // the handle is shared: leave it as found
  return status;
}

launch_status launch_cublas_ignores_stream(const float* a, const float* b, float* c, const shape& s,
                                           const matmul_config& config, const launch_context& context) {
  return launch_cublas_row_major(a, b, c, s, config, {nullptr, context.cublas});  // the bug: stream 0
}

launch_status launch_wrong_leading_dimension(const float* a, const float* b, float* c, const shape& s,
                                             const matmul_config& config, const launch_context& context) {
  return launch_one_output_with_bug<mm3_bug::a_leading_dimension_n>(a, b, c, s, config, context.stream,
                                                                    "A with leading dimension n");
}

launch_status launch_debug_store_in_a(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                      const launch_context& context) {
  return launch_one_output_with_bug<mm3_bug::debug_store_in_a>(a, b, c, s, config, context.stream, "debug store into A");
}

}  // namespace kc::matmul::detail

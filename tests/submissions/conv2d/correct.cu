// Example submission: seed 004's Convolution kernel as the report wrote it (Άσκηση 1; the kernel is
// correct as written: kernels/polybench/conv2d/direct.cu), int indices and all, with its launch
// grid ceil(nj / bx) × ceil(ni / by) around it and the blocks 16×16 (the seed's) and 32×8
// (PolyBench/GPU's) declared. Only the glue is new: the contract passes a as const double*, the
// seed's kernel takes double *a, so the launcher casts; the PDF's stray "]" in a[(Row + 0)*nj] is
// left out. Expected: full marks (verdict: passed), performance about the reference's (Conv2dDirect
// is this kernel).
#include "kconform_conv2d_submission.h"

__global__ void Convolution(double *a, double *b, int ni, int nj)
{
      int Col = blockDim.x*blockIdx.x + threadIdx.x;
      int Row = blockDim.y*blockIdx.y + threadIdx.y;
      double c11, c12, c13, c21, c22, c23, c31, c32, c33;
      c11 = +0.2; c21 = +0.5; c31 = -0.8;
      c12 = -0.3; c22 = +0.6; c32 = -0.9;
      c13 = +0.4; c23 = +0.7; c33 = +0.10;
      if ((Row>0)&& (Col>0)&& (Row < ni-1) && (Col < nj-1)) {
             b[Row*nj + Col] = c11 * a[(Row - 1)*nj + (Col - 1)] + c12 * a[(Row + 0)*nj + (Col - 1)]
                    + c13 * a[(Row + 1)*nj + (Col - 1)]
                    + c21 * a[(Row - 1)*nj + (Col + 0)] + c22 * a[(Row + 0)*nj + (Col + 0)]
                    + c23 * a[(Row + 1)*nj + (Col + 0)]
                    + c31 * a[(Row - 1)*nj + (Col + 1)] + c32 * a[(Row + 0)*nj + (Col + 1)]
                    + c33 * a[(Row + 1)*nj + (Col + 1)];
      }
}

kc_conv2d_traits kc_conv2d_submission_traits(void) {
  kc_conv2d_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.configs[0] = {16, 16};
  t.configs[1] = {32, 8};
  return t;
}

const char* kc_conv2d(const double* a, double* b, int ni, int nj, int block_x, int block_y, cudaStream_t stream) {
  const unsigned numBlocksX = (nj - 1) / block_x + 1;
  const unsigned numBlocksY = (ni - 1) / block_y + 1;
  const dim3 dimBlock(block_x, block_y, 1), dimGrid(numBlocksX, numBlocksY, 1);
  Convolution<<<dimGrid, dimBlock, 0, stream>>>(const_cast<double*>(a), b, ni, nj);
  return nullptr;
}

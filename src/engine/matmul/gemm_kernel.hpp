// The matrix kernels under TMATMUL and TGEMV, over row-major panels: c[i][j] (i < m, j < n) adds
// a[i][kk] * b[kk][j] for kk = 0, 1, ..., k - 1 in that order, one step at a time.
#pragma once

#include <cstdint>

namespace pto::engine::matmul {

// f32: each step is one fused multiply-add (rounded once), on every CPU.
void gemm_f32(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc);

// i32: exact, wrapping.
void gemm_i32(int m, int n, int k, const int32_t* a, int lda, const int32_t* b, int ldb, int32_t* c, int ldc);

}  // namespace pto::engine::matmul

// The matrix kernels under TMATMUL and TGEMV: c[i][j] (i < m, j < n) is init[i][j] plus
// a[i][kk] * b[kk][j] for kk = 0, 1, ..., k - 1 in that order, one step at a time.
#pragma once

#include <cstdint>

namespace pto::engine::matmul {

// A matrix as the kernels read or write it: element (row, col) lies at
//   data[row * ld + (col / chunk) * chunk_step + col % chunk].
// A row-major matrix is one chunk (chunk covers every column, chunk_step unused); a fractal tile of
// row-major boxes stacked down columns (Nz) has ld = chunk = the box's columns and chunk_step = its
// rows times that, so the kernels read and write the cube's tiles in place. ld 0 repeats row 0 (a bias).
// b, init and c are read as vectors of up to 16 lanes: their chunks are multiples of 16 columns or
// cover every column.
template <typename T>
struct Panel {
    T* data = nullptr;
    int ld = 0;
    int chunk = 1;
    int64_t chunk_step = 0;

    T* at(int row, int col) const { return data + int64_t(row) * ld + int64_t(col / chunk) * chunk_step + col % chunk; }
};

// f32: each step is one fused multiply-add (rounded once), on every CPU. Without init.data, init is 0.
void gemm_f32(int m, int n, int k, Panel<const float> a, Panel<const float> b, Panel<const float> init,
              Panel<float> c);

// i32: exact, wrapping.
void gemm_i32(int m, int n, int k, Panel<const int32_t> a, Panel<const int32_t> b, Panel<const int32_t> init,
              Panel<int32_t> c);

}  // namespace pto::engine::matmul

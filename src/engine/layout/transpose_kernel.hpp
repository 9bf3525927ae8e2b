// TTRANS's kernel over unboxed row-major tiles (transpose_kernel.cpp).
#pragma once

#include <cstdint>

namespace pto::engine::layout {

// dst[c][r] = src[r][c] for r < rows, c < cols; the strides are in elements.
struct Transpose {
    const void* src;
    int64_t src_stride;
    void* dst;
    int64_t dst_stride;
    int rows, cols;
};

// For 1-, 2- and 4-byte elements (the bits are moved, whatever they encode).
void transpose_rows(int element_bytes, const Transpose& t);

}  // namespace pto::engine::layout

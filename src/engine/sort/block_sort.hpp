// The row loop of TSORT32: cuts rows into 32-element blocks and writes each block's (value, index)
// pairs in sorted order. Compiled for every SIMD target Highway knows; the best one the running CPU
// supports is picked at run time.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pto::engine::sort32 {

// Rows of plain row-major tiles; strides in bytes. An index stride of 0 shares one index row.
struct SortRows {
    const std::byte* values;
    int64_t value_stride;
    const std::byte* indices;
    int64_t index_stride;
    std::byte* pairs;
    int64_t pair_stride;
    int rows;
    int cols;  // values per row; the last block is shorter when cols % 32 != 0
};

void sort_f32_rows(const SortRows& job);
void sort_f16_rows(const SortRows& job);

}  // namespace pto::engine::sort32

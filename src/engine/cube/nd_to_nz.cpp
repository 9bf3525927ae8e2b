// pto.mte_gm_l1_frac: a row-major (nd2nz) or column-major (dn2nz) matrix repacked into the Nz blocks of
// L1 on its way in.
#include <pto/engine/ops/cube.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <cstring>
#include <string>

namespace pto::engine::cube {

namespace {

constexpr int kBlockBytes = 32;

int64_t source_offset(const NdToNz& p, int64_t g, int64_t r, int64_t c)
{
    const int64_t along = p.transposed_source ? c : r, across = p.transposed_source ? r : c;
    return g * p.src_matrix_stride + along * p.src_row_stride + across * p.element_bytes;
}

int64_t block_offset(const NdToNz& p, int64_t g, int64_t r, int64_t column_block)
{
    return kBlockBytes * (g * p.dst_matrix_blocks + column_block * p.dst_column_blocks + r * p.dst_row_blocks);
}

// Bytes of one small-C0 matrix: its rows of 4 lanes, up to the next 32-byte boundary.
int64_t small_c0_matrix_bytes(const NdToNz& p)
{
    const int64_t row = kSmallC0Lanes * p.element_bytes;
    return (p.rows * row + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
}

// The element (r, c) of matrix g, or (checked mode) RUN_UNINIT_READ when nothing wrote it.
const std::byte* source_element(const NdToNz& p, int64_t g, int64_t r, int64_t c)
{
    const std::byte* from = p.src + source_offset(p, g, r, c);
    if (runtime::checked() && runtime::first_unwritten(from, std::size_t(p.element_bytes)) >= 0)
        runtime::fail({"RUN_UNINIT_READ", "", "src",
                       "reads element (" + std::to_string(r) + ", " + std::to_string(c) + ") of matrix " + std::to_string(g) +
                           ", which nothing has written",
                       "initialised data", "never-written bytes", ""});
    return from;
}

void small_c0(const NdToNz& p)
{
    const int64_t row = kSmallC0Lanes * p.element_bytes, bytes = small_c0_matrix_bytes(p);
    for (int64_t g = 0; g < p.groups; ++g) {
        std::byte* matrix = p.dst + kBlockBytes * g * p.dst_matrix_blocks;
        std::memset(matrix, 0, std::size_t(bytes));
        for (int64_t r = 0; r < p.rows; ++r)
            for (int64_t c = 0; c < p.cols; ++c)
                std::memcpy(matrix + r * row + c * p.element_bytes, source_element(p, g, r, c), std::size_t(p.element_bytes));
        runtime::mark_written(matrix, std::size_t(bytes));
    }
}

}  // namespace

int64_t nd_to_nz_source_extent(const NdToNz& p)
{
    if (p.rows <= 0 || p.cols <= 0 || p.groups <= 0) return 0;
    return source_offset(p, p.groups - 1, p.rows - 1, p.cols - 1) + p.element_bytes;
}

int64_t nd_to_nz_destination_extent(const NdToNz& p)
{
    if (p.rows <= 0 || p.cols <= 0 || p.groups <= 0) return 0;
    if (p.small_c0) return kBlockBytes * (p.groups - 1) * p.dst_matrix_blocks + small_c0_matrix_bytes(p);
    const int64_t per_block = kBlockBytes / p.element_bytes;
    return block_offset(p, p.groups - 1, p.rows - 1, (p.cols - 1) / per_block) + kBlockBytes;
}

void nd_to_nz(const NdToNz& p)
{
    if (p.small_c0) return small_c0(p);
    const int64_t per_block = kBlockBytes / p.element_bytes;
    const int64_t column_blocks = (p.cols + per_block - 1) / per_block;
    for (int64_t g = 0; g < p.groups; ++g)
        for (int64_t r = 0; r < p.rows; ++r)
            for (int64_t b = 0; b < column_blocks; ++b) {
                std::byte block[kBlockBytes] = {};
                const int64_t lanes = std::min(per_block, p.cols - b * per_block);
                for (int64_t lane = 0; lane < lanes; ++lane)
                    std::memcpy(block + lane * p.element_bytes, source_element(p, g, r, b * per_block + lane), std::size_t(p.element_bytes));
                std::byte* to = p.dst + block_offset(p, g, r, b);
                std::memcpy(to, block, kBlockBytes);
                runtime::mark_written(to, kBlockBytes);
            }
}

}  // namespace pto::engine::cube

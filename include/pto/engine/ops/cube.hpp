// Engine entry points of the cube micro-instructions (PTO-AS `pto.mte_*`; `pto.mad*` run TMATMUL's
// kernel): strided byte copies between the core's memories, the ND -> Nz repack of a matrix on its
// way into L1, element copies between cube tile layouts, and the fixpipe's writeback of an
// accumulator. The caller has resolved every pointer and checked that each access stays in its memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <pto/engine/descriptor.hpp>

namespace pto::engine::cube {

// One level of a strided copy: `count` repetitions, the source and destination advancing by their
// strides (bytes) between them.
struct BurstLevel {
    int64_t count = 1;
    int64_t src_stride = 0;
    int64_t dst_stride = 0;
};

// `pto.mte_gm_ub`'s pad(...): a destination row is `left` fill elements, the burst, `right` fill
// elements, then fill up to the next multiple of 32 bytes.
struct RowPadding {
    std::array<std::byte, 8> value{};  // the bits of one fill element
    int element_bytes = 1;
    int64_t left = 0, right = 0;
    // The bytes one padded row of a `length`-byte burst takes.
    int64_t row_bytes(int64_t length) const { return (left * element_bytes + length + right * element_bytes + 31) / 32 * 32; }
};

// `length` bytes per burst, repeated over `levels` (innermost first). The bytes of a burst are
// copied as they are; `widen` (`pto.mte_l1_bt`): 16-bit floats of `from` widened to f32 instead;
// `padding`: each destination row padded around the burst.
struct BurstCopy {
    std::byte* dst = nullptr;
    const std::byte* src = nullptr;
    int64_t length = 0;
    std::span<const BurstLevel> levels;
    DType from = DType::U8, to = DType::U8;  // differ only when widening
    const RowPadding* padding = nullptr;
};
// Where source and destination overlap, every burst reads the source as it was before the copy.
void copy_bursts(const BurstCopy& copy);
// The byte extent [0, end) a pattern touches from its source (`source`) or destination base.
int64_t burst_extent(int64_t length, std::span<const BurstLevel> levels, bool source);

// `pto.mte_gm_l1_frac`: `groups` matrices of rows x cols elements, each matrix g read from
// src + g * src_matrix_stride, element (r, c) at byte r * src_row_stride + c * e (nd2nz) or
// c * src_row_stride + r * e (dn2nz), written as 32-byte blocks of C = 32 / e elements: element (r, c)
// of matrix g to dst + 32 * (g * dst_matrix_blocks + (c / C) * dst_column_blocks + r * dst_row_blocks)
// + (c % C) * e. The lanes of a block past the last column are written as zero.
// Small-C0 packing (`small_c0`, cols <= 4): row r of matrix g is 4 lanes at
// dst + 32 * g * dst_matrix_blocks + 4 * e * r, lanes past the last column zero, and the rows after the
// last up to the next 32-byte boundary are written as zero.
struct NdToNz {
    std::byte* dst = nullptr;
    const std::byte* src = nullptr;
    int element_bytes = 2;
    int64_t rows = 0, cols = 0, groups = 1;
    bool transposed_source = false;  // dn2nz
    int64_t src_row_stride = 0, src_matrix_stride = 0;
    int64_t dst_row_blocks = 1, dst_column_blocks = 0, dst_matrix_blocks = 0;
    bool small_c0 = false;
};
inline constexpr int kSmallC0Lanes = 4;
void nd_to_nz(const NdToNz& repack);
// The bytes nd_to_nz reads from src and writes from dst on.
int64_t nd_to_nz_source_extent(const NdToNz& repack);
int64_t nd_to_nz_destination_extent(const NdToNz& repack);

// Copies rows x cols elements (their bits) from src to dst in each tile's layout; `transpose`: element
// (r, c) of dst is element (c, r) of src.
void copy_elements(const TileDesc& dst, const TileDesc& src, int rows, int cols, bool transpose);

// The fixpipe's writeback of the m x n top-left of an accumulator (f32 or i32), element by element:
//   q = x * scale(column)            pre_quant: one scale, or one per column from a table (else 1)
//   q = relu(q)                      pre_relu: negative q -> 0 (normal), -> q * slope (scalar or per column)
//   q = min(q, clip)                 when a clip value is given
//   converted to the destination type under the saturation mode, then written (or combined with what
//   the destination holds: atomic add, max or min).
enum class FixpipeLayout : uint8_t { Nz, ND, DN };  // Nz: box_columns-wide boxes, dst_stride rows apart
enum class FixpipeRelu : uint8_t { None, Normal, Scalar, Vector };
enum class FixpipeSaturation : uint8_t { Default, Saturate, PreserveNan, None };
enum class FixpipeAtomic : uint8_t { None, Add, Max, Min };
struct Fixpipe {
    const TileDesc* src = nullptr;  // the accumulator (Nz, 16 x 16 boxes)
    std::byte* dst = nullptr;
    DType dst_dtype = DType::F32;
    int64_t m = 0, n = 0;
    // Result (r, c) is accumulator element (src_row + r * src_row_step, src_col + c): a part of the
    // accumulator (one half of a dual-destination writeback), its rows spread out by nz2dn's loop0 stride.
    int64_t src_row = 0, src_col = 0, src_row_step = 1;
    FixpipeLayout layout = FixpipeLayout::ND;
    int64_t dst_stride = 0;  // elements between rows (ND), columns (DN); rows between box columns (Nz)
    int64_t box_columns = 16;  // Nz: 16, or 8 when an f32 result is split into 32-byte boxes
    bool has_scale = false;
    float scale = 1.0f;
    const std::byte* scale_table = nullptr;  // one scale per column, of scale_dtype
    DType scale_dtype = DType::F32;
    FixpipeRelu relu = FixpipeRelu::None;
    float slope = 0.0f;
    const std::byte* slope_table = nullptr;  // one slope per column, of slope_dtype
    DType slope_dtype = DType::F32;
    bool has_clip = false;
    double clip = 0.0;
    FixpipeSaturation saturation = FixpipeSaturation::Default;
    FixpipeAtomic atomic = FixpipeAtomic::None;
};
void fixpipe(const Fixpipe& writeback);
// Bytes from dst to the end of the last element the writeback writes.
int64_t fixpipe_extent(const Fixpipe& writeback);

}  // namespace pto::engine::cube

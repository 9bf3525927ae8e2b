// Runtime descriptors of the operands of an instruction. The C++ templates and the PTO-AS interpreter
// both describe their operands with these, and every engine kernel takes only these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/rules.hpp>
#include <pto/runtime/registers.hpp>

namespace pto::engine {

struct TileDesc {
    std::byte* data = nullptr;
    DType dtype = DType::F32;
    TileType loc = TileType::Vec;
    int32_t rows = 0;        // capacity
    int32_t cols = 0;
    int32_t valid_rows = 0;  // the valid region, always within the capacity
    int32_t valid_cols = 0;
    BLayout blayout = BLayout::RowMajor;
    SLayout slayout = SLayout::NoneBox;
    int32_t fractal_bytes = TileConfig::fractalABSize;
    PadValue pad = PadValue::Null;

    constexpr int element_bits() const { return dtype_bits(dtype); }
    constexpr bool boxed() const { return slayout != SLayout::NoneBox; }
    constexpr int64_t elements() const { return int64_t(rows) * cols; }
    constexpr int64_t bytes() const { return elements() * element_bits() / 8; }

    // Rows and columns of one fractal box (1x1 when unboxed).
    constexpr int box_rows() const { return rules::box_rows(slayout, fractal_bytes, element_bits()); }
    constexpr int box_cols() const { return rules::box_cols(slayout, fractal_bytes, element_bits()); }

    // Element index (in elements from data) of logical position (r, c) within the capacity.
    constexpr int64_t offset(int64_t r, int64_t c) const
    {
        if (!boxed()) return blayout == BLayout::RowMajor ? r * cols + c : c * rows + r;
        const int64_t br = box_rows(), bc = box_cols();
        const int64_t box_elems = br * bc;
        const int64_t inner_r = r % br, inner_c = c % bc;
        const int64_t outer_r = r / br, outer_c = c / bc;
        const int64_t inner = slayout == SLayout::RowMajor ? inner_r * bc + inner_c : inner_c * br + inner_r;
        // Column-major boxes-of-boxes (Nz) walk down a column of boxes first; row-major (Zn, Zz) along a row.
        const int64_t box = blayout == BLayout::ColMajor ? outer_c * (rows / br) + outer_r : outer_r * (cols / bc) + outer_c;
        return box * box_elems + inner;
    }

    // Bytes from `data` to the end of the valid region's last element (0 when the region is empty).
    // Offsets grow with the row and with the column in every layout, so element
    // (valid_rows - 1, valid_cols - 1) lies last.
    constexpr int64_t valid_span_bytes() const
    {
        if (valid_rows <= 0 || valid_cols <= 0) return 0;
        return ((offset(valid_rows - 1, valid_cols - 1) + 1) * element_bits() + 7) / 8;
    }

    // Unboxed row-major tiles keep each row contiguous: kernels take the fast path on those.
    constexpr bool rows_contiguous() const { return !boxed() && blayout == BLayout::RowMajor; }
};

// A convolution tile (pto::ConvTile): a dense array of 1 to 6 dimensions, the last innermost, in a
// buffer of `buffer_bytes` bytes of its memory.
// The img2col configuration a ConvTile carries (its public getters and setters): the feature map (what
// SETFMATRIX loads), the pad value (SET_IMG2COL_PADDING), the repeat parameters (SET_IMG2COL_RPT), and
// what TIMG2COL passes with each call (filter, stride, dilation, channels, transpose).
struct Img2colConfig {
    runtime::FmatrixRegister fmatrix;
    uint16_t filter_h = 1, filter_w = 1;
    uint16_t dilation_h = 1, dilation_w = 1;
    uint16_t stride_h = 1, stride_w = 1;
    uint16_t channel_size = 0;
    bool transpose = false;
    runtime::Img2colRepeat repeat;
    uint32_t pad_value_bits = 0;  // the pad value's bits, as SET_IMG2COL_PADDING loads them
};

struct ConvTileDesc {
    static constexpr int kMaxDims = 6;

    std::byte* data = nullptr;
    DType dtype = DType::F32;
    TileType loc = TileType::Mat;
    Layout layout = Layout::NC1HWC0;
    int dims = 0;
    int64_t shape[kMaxDims] = {1, 1, 1, 1, 1, 1};
    int64_t buffer_bytes = 0;

    constexpr int64_t elements() const
    {
        int64_t n = 1;
        for (int d = 0; d < dims; ++d) n *= shape[d];
        return n;
    }
};

// A scalar operand of an instruction, as the bit pattern of the tile element type it combines with (a
// float's 32 bits, a half's 16, an integer's two's complement), zero-extended to 64 bits.
using ScalarBits = uint64_t;

template <typename T>
ScalarBits scalar_bits(const T& value)
{
    static_assert(sizeof(T) <= sizeof(ScalarBits) && std::is_trivially_copyable_v<T>);
    ScalarBits bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}

// A global tensor view: five dimensions, strides in elements.
struct GlobalDesc {
    std::byte* data = nullptr;
    DType dtype = DType::F32;
    Layout layout = Layout::ND;
    int64_t shape[5] = {1, 1, 1, 1, 1};
    int64_t stride[5] = {1, 1, 1, 1, 1};
};

}  // namespace pto::engine

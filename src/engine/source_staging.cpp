#include "engine/source_staging.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/tile_element.hpp"

namespace pto::engine {

namespace {

bool shares_bytes(const TileDesc& a, const TileDesc& b)
{
    const auto a_begin = reinterpret_cast<uintptr_t>(a.data), b_begin = reinterpret_cast<uintptr_t>(b.data);
    const auto a_end = a_begin + static_cast<uintptr_t>(a.bytes()), b_end = b_begin + static_cast<uintptr_t>(b.bytes());
    return a_begin < b_end && b_begin < a_end;
}

// `extent` elements rounded up to whole bytes, so that every line of the copy starts on a byte.
int32_t whole_bytes(int32_t extent, int element_bits)
{
    const int32_t per_byte = element_bits < 8 ? 8 / element_bits : 1;
    return (extent + per_byte - 1) / per_byte * per_byte;
}

}  // namespace

bool same_mapping(const TileDesc& a, const TileDesc& b)
{
    if (a.data != b.data || a.element_bits() != b.element_bits() || a.blayout != b.blayout || a.slayout != b.slayout) {
        return false;
    }
    if (a.boxed()) return a.rows == b.rows && a.cols == b.cols && a.fractal_bytes == b.fractal_bytes;
    return a.blayout == BLayout::RowMajor ? a.cols == b.cols : a.rows == b.rows;  // the line stride
}

TileDesc readable_source(const TileDesc& src, const TileDesc& dst, int slot)
{
    return same_mapping(src, dst) ? src : source_apart_from(src, dst, slot);
}

TileDesc source_apart_from(const TileDesc& src, const TileDesc& dst, int slot)
{
    if (!shares_bytes(src, dst)) return src;

    TileDesc copy = src;
    copy.slayout = SLayout::NoneBox;
    copy.blayout = !dst.boxed() && dst.blayout == BLayout::ColMajor ? BLayout::ColMajor : BLayout::RowMajor;
    const bool row_lines = copy.blayout == BLayout::RowMajor;
    copy.rows = row_lines ? src.valid_rows : whole_bytes(src.valid_rows, src.element_bits());
    copy.cols = row_lines ? whole_bytes(src.valid_cols, src.element_bits()) : src.valid_cols;

    thread_local std::vector<std::byte> buffers[4];
    std::vector<std::byte>& buffer = buffers[slot];
    if (buffer.size() < static_cast<std::size_t>(copy.bytes())) buffer.resize(static_cast<std::size_t>(copy.bytes()));
    copy.data = buffer.data();

    for (int r = 0; r < src.valid_rows; ++r) {
        for (int c = 0; c < src.valid_cols; ++c) {
            copy_element(copy.data, copy.offset(r, c), src.data, src.offset(r, c), src.element_bits());
        }
    }
    return copy;
}

}  // namespace pto::engine

#include "engine/convert/tile_conversion.hpp"

#include <pto/engine/access.hpp>
#include <pto/numeric/convert.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "engine/convert/vector_conversions.hpp"
#include "engine/tile_element.hpp"

namespace pto::engine::convert {

namespace {

// Bytes that hold `count` elements of `bits` each.
std::size_t bytes_of(int64_t count, int bits) { return static_cast<std::size_t>((count * bits + 7) / 8); }

// A per-thread buffer of at least `bytes` bytes, grown once rather than per instruction.
std::byte* scratch(std::vector<std::byte>& buffer, std::size_t bytes)
{
    if (buffer.size() < bytes) buffer.resize(bytes);
    return buffer.data();
}

// One conversion applied to contiguous lines of elements: the vectorised prefix where there is one,
// numeric::convert for the rest.
class LineConverter {
public:
    LineConverter(DType dst, DType src, RoundMode mode, SaturationMode sat)
        : dst_(dst), src_(src), mode_(mode), sat_(sat), vector_(vector_conversion(dst, src, mode, sat))
    {
    }

    // `count` elements as numeric::convert counts them. `out` may be `in` itself, but no other overlap.
    void operator()(std::byte* out, const std::byte* in, int64_t count) const
    {
        int64_t done = 0;
        if (vector_) {  // whole-byte elements only
            done = static_cast<int64_t>(convert_whole_vectors(*vector_, out, in, static_cast<std::size_t>(count)));
            if (done == count) return;
            out += done * dtype_bits(dst_) / 8;
            in += done * dtype_bits(src_) / 8;
        }
        const int64_t rest = count - done;
        if (out == in) {  // numeric::convert reads from memory other than it writes
            thread_local std::vector<std::byte> copy;
            const std::size_t bytes = bytes_of(rest, dtype_bits(src_));
            in = static_cast<const std::byte*>(std::memcpy(scratch(copy, bytes), in, bytes));
        }
        numeric::convert(dst_, out, src_, in, static_cast<std::size_t>(rest), mode_, sat_);
    }

private:
    DType dst_;
    DType src_;
    RoundMode mode_;
    SaturationMode sat_;
    std::optional<VectorConversion> vector_;
};

// Columns of unboxed column-major tiles are contiguous; a column of 4-bit elements may start inside a
// byte, so those convert by rows.
bool converts_by_columns(const TileDesc& dst, const TileDesc& src)
{
    const auto column_major = [](const TileDesc& t) { return !t.boxed() && t.blayout == BLayout::ColMajor; };
    return column_major(dst) && column_major(src) && dst.element_bits() >= 8 && src.element_bits() >= 8;
}

void convert_columns(const TileDesc& dst, const TileDesc& src, const LineConverter& convert_line)
{
    for (int c = 0; c < dst.valid_cols; ++c) {
        convert_line(element_address(dst, dst.offset(0, c)), element_address(src, src.offset(0, c)), dst.valid_rows);
    }
}

// Rows of any layout: a row that is not contiguous in its tile goes through a per-thread row buffer,
// element by element.
void convert_rows(const TileDesc& dst, const TileDesc& src, const LineConverter& convert_line)
{
    thread_local std::vector<std::byte> src_buffer, dst_buffer;
    const int64_t count = dst.valid_cols;
    for (int r = 0; r < dst.valid_rows; ++r) {
        const std::byte* in = element_address(src, src.offset(r, 0));
        if (!src.rows_contiguous()) {
            std::byte* row = scratch(src_buffer, bytes_of(src.valid_cols, src.element_bits()));
            for (int c = 0; c < src.valid_cols; ++c) copy_element(row, c, src.data, src.offset(r, c), src.element_bits());
            in = row;
        }
        if (dst.rows_contiguous()) {
            convert_line(element_address(dst, dst.offset(r, 0)), in, count);
            continue;
        }
        std::byte* row = scratch(dst_buffer, bytes_of(dst.valid_cols, dst.element_bits()));
        convert_line(row, in, count);
        for (int c = 0; c < dst.valid_cols; ++c) copy_element(dst.data, dst.offset(r, c), row, c, dst.element_bits());
    }
}

}  // namespace

void convert_tile(const TileDesc& dst, const TileDesc& src, RoundMode mode, SaturationMode sat)
{
    const LineConverter convert_line(dst.dtype, src.dtype, mode, sat);
    if (converts_by_columns(dst, src)) {
        convert_columns(dst, src, convert_line);
    } else {
        convert_rows(dst, src, convert_line);
    }
}

}  // namespace pto::engine::convert

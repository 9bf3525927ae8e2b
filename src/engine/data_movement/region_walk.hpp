// Walking a rows x cols region of two operands (a tile and a global tensor, or two tiles) in
// stretches: runs of consecutive logical elements along one axis that both operands hold at a fixed
// element step. The per-stretch work is a template parameter, so each kernel is one tight loop (a
// memcpy when both steps are 1) and every address computation happens once per stretch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <pto/engine/descriptor.hpp>

namespace pto::engine::data_movement {

enum class Axis { Rows, Cols };

// `length` consecutive logical elements along an axis, `step` elements apart in storage.
struct Stretch {
    int64_t offset;  // element index of the first one
    int64_t step;
    int64_t length;
};

// A tile seen from `origin` (row0, col0): logical (r, c) of the operand is (row0 + r, col0 + c) of the tile.
struct TileOperand {
    const TileDesc& tile;
    int64_t row0 = 0;
    int64_t col0 = 0;

    std::byte* base() const { return tile.data; }

    // The axis along which consecutive elements are adjacent in storage (within a fractal box when boxed).
    Axis contiguous_axis() const
    {
        if (!tile.boxed()) return tile.blayout == BLayout::RowMajor ? Axis::Cols : Axis::Rows;
        return tile.slayout == SLayout::RowMajor ? Axis::Cols : Axis::Rows;
    }

    Stretch stretch(int64_t r, int64_t c, Axis axis, int64_t remaining) const
    {
        const int64_t tr = row0 + r, tc = col0 + c;
        const int64_t offset = tile.offset(tr, tc);
        if (!tile.boxed()) {
            const bool row_major = tile.blayout == BLayout::RowMajor;
            const int64_t step = axis == Axis::Cols ? (row_major ? 1 : tile.rows) : (row_major ? tile.cols : 1);
            return {offset, step, remaining};
        }
        const int64_t br = tile.box_rows(), bc = tile.box_cols();
        const bool inner_row_major = tile.slayout == SLayout::RowMajor;
        if (axis == Axis::Cols) return {offset, inner_row_major ? 1 : br, std::min(remaining, bc - tc % bc)};
        return {offset, inner_row_major ? bc : 1, std::min(remaining, br - tr % br)};
    }
};

// Calls op(dst_stretch, src_stretch, n) over rows x cols, walking along `axis` (choose the axis along
// which the destination, the side written, is contiguous).
template <typename Dst, typename Src, typename Op>
void walk_region(const Dst& dst, const Src& src, int64_t rows, int64_t cols, Axis axis, Op&& op)
{
    if (axis == Axis::Cols) {
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = 0; c < cols;) {
                const Stretch d = dst.stretch(r, c, axis, cols - c);
                const Stretch s = src.stretch(r, c, axis, cols - c);
                const int64_t n = std::min(d.length, s.length);
                op(d, s, n);
                c += n;
            }
        }
    } else {
        for (int64_t c = 0; c < cols; ++c) {
            for (int64_t r = 0; r < rows;) {
                const Stretch d = dst.stretch(r, c, axis, rows - r);
                const Stretch s = src.stretch(r, c, axis, rows - r);
                const int64_t n = std::min(d.length, s.length);
                op(d, s, n);
                r += n;
            }
        }
    }
}

}  // namespace pto::engine::data_movement

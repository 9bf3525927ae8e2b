// Walking a rows x cols region of two operands (a tile and a global tensor, or two tiles) in
// stretches: runs of consecutive logical elements along one axis that both operands hold at a fixed
// element step. The per-stretch work is a template parameter, so each kernel is one tight loop (a
// memcpy when both steps are 1) and every address computation happens once per stretch.
#pragma once

#include <algorithm>
#include <bit>
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

// A region of an operand laid out as panels side by side: row-major panels `width` columns wide, element
// (r, c) of the region at first + (c / width) * panel_step + r * pitch + c % width; or column-major panels
// `width` rows high, the same with r and c swapped. Plain row- and column-major storage is one panel.
// Copies between two such regions move whole panel lines at a time instead of a stretch at a time.
struct Panels {
    bool row_major;
    int64_t first, width, panel_step, pitch;

    // Element `along` of line `across` (a row of row-major panels, a column of column-major ones).
    int64_t at(int64_t across, int64_t along) const
    {
        return first + (along / width) * panel_step + across * pitch + along % width;
    }
};

// A tile seen from `origin` (row0, col0): logical (r, c) of the operand is (row0 + r, col0 + c) of the tile.
// The box geometry is worked out once per move: a stretch is then found with shifts and masks (boxes
// have power-of-two sides) instead of TileDesc::offset's divisions.
struct TileOperand {
    const TileDesc& tile;
    int64_t row0 = 0;
    int64_t col0 = 0;

    TileOperand(const TileDesc& t, int64_t r0 = 0, int64_t c0 = 0)
        : tile(t), row0(r0), col0(c0), br_(t.box_rows()), bc_(t.box_cols()),
          shifts_(t.boxed() && std::has_single_bit(uint64_t(br_)) && std::has_single_bit(uint64_t(bc_))),
          row_shift_(std::countr_zero(uint64_t(br_))), col_shift_(std::countr_zero(uint64_t(bc_))),
          box_step_(t.blayout == BLayout::ColMajor ? int64_t(br_) * bc_ : int64_t(br_) * bc_ * (t.cols / bc_)),
          box_column_step_(t.blayout == BLayout::ColMajor ? int64_t(br_) * bc_ * (t.rows / br_) : int64_t(br_) * bc_)
    {
    }

    std::byte* base() const { return tile.data; }

    // The axis along which consecutive elements are adjacent in storage (within a fractal box when boxed).
    Axis contiguous_axis() const
    {
        if (!tile.boxed()) return tile.blayout == BLayout::RowMajor ? Axis::Cols : Axis::Rows;
        return tile.slayout == SLayout::RowMajor ? Axis::Cols : Axis::Rows;
    }

    // Element index of tile position (r, c).
    int64_t offset(int64_t r, int64_t c) const
    {
        if (!shifts_) return tile.offset(r, c);
        const int64_t inner_r = inner(r, br_), inner_c = inner(c, bc_);
        const int64_t inner = tile.slayout == SLayout::RowMajor ? (inner_r << col_shift_) + inner_c
                                                                : (inner_c << row_shift_) + inner_r;
        return (r >> row_shift_) * box_step_ + (c >> col_shift_) * box_column_step_ + inner;
    }

    // The region from the origin as panels: plain storage, an Nz tile from a box column, a Zn tile from
    // a box row; none for the other box arrangements.
    bool panels(int64_t /*rows*/, int64_t /*cols*/, Panels& out) const
    {
        const int64_t first = tile.offset(row0, col0);
        if (!tile.boxed()) {
            const bool row_major = tile.blayout == BLayout::RowMajor;
            const int64_t pitch = row_major ? tile.cols : tile.rows;
            out = {row_major, first, pitch, 0, pitch};
            return true;
        }
        const int64_t br = tile.box_rows(), bc = tile.box_cols();
        if (tile.blayout == BLayout::ColMajor && tile.slayout == SLayout::RowMajor && col0 % bc == 0 &&
            tile.rows % br == 0) {
            out = {true, first, bc, tile.rows * bc, bc};
            return true;
        }
        if (tile.blayout == BLayout::RowMajor && tile.slayout == SLayout::ColMajor && row0 % br == 0 &&
            tile.cols % bc == 0) {
            out = {false, first, br, tile.cols * br, br};
            return true;
        }
        return false;
    }

    Stretch stretch(int64_t r, int64_t c, Axis axis, int64_t remaining) const
    {
        const int64_t tr = row0 + r, tc = col0 + c;
        const int64_t offset = this->offset(tr, tc);
        if (!tile.boxed()) {
            const bool row_major = tile.blayout == BLayout::RowMajor;
            const int64_t step = axis == Axis::Cols ? (row_major ? 1 : tile.rows) : (row_major ? tile.cols : 1);
            return {offset, step, remaining};
        }
        const bool inner_row_major = tile.slayout == SLayout::RowMajor;
        if (axis == Axis::Cols) return {offset, inner_row_major ? 1 : br_, std::min(remaining, bc_ - inner(tc, bc_))};
        return {offset, inner_row_major ? bc_ : 1, std::min(remaining, br_ - inner(tr, br_))};
    }

private:
    // Position of x inside its box of side `side`.
    int64_t inner(int64_t x, int64_t side) const { return shifts_ ? x & (side - 1) : x % side; }

    int64_t br_, bc_;
    bool shifts_;
    int row_shift_, col_shift_;
    int64_t box_step_;         // elements from a box to the one below it
    int64_t box_column_step_;  // elements from a box to the one right of it
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

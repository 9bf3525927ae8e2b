// Plain reference models for the data-movement tests: where each logical element of a global tensor's
// 2-D view and of a tile lives, found by enumerating storage in order (no index arithmetic shared with
// the engine), plus small helpers for random operands and diagnostics.
#pragma once

#include "support/element_bits.hpp"
#include "support/test_support.hpp"

#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace dmtest {

using pto::engine::DType;

// Every element type the family moves (all but the packed int4).
inline const std::vector<DType>& movable_types()
{
    static const std::vector<DType> types = {DType::F32,      DType::F16,     DType::BF16,   DType::I8,     DType::I16,
                                             DType::I32,      DType::I64,     DType::U8,     DType::U16,    DType::U32,
                                             DType::U64,      DType::F8E4M3,  DType::F8E5M2, DType::F8E8M0, DType::HiF8,
                                             DType::F4E2M1x2, DType::F4E1M2x2};
    return types;
}

inline int bits_of(DType t)
{
    return pto::engine::dtype_bits(t);
}

// Bytes holding `elements` elements of `t` (4-bit ones two to a byte).
inline size_t storage_bytes(int64_t elements, DType t)
{
    return static_cast<size_t>((elements * bits_of(t) + 7) / 8);
}

// Elements of `t` in a 32-byte line of an unboxed tile (4-bit types: 32, their C++ type naming a byte).
inline int line_elements(DType t)
{
    return 256 / std::max(8, bits_of(t));
}

// A 5-D global tensor in a host buffer (element offsets, in elements).
struct Global {
    pto::Layout layout = pto::Layout::ND;
    int64_t shape[5] = {1, 1, 1, 1, 1};
    int64_t stride[5] = {1, 1, 1, 1, 1};

    int64_t rows() const
    {
        if (layout == pto::Layout::DN) return shape[3];
        if (layout == pto::Layout::NZ) return shape[2] * shape[3];
        return shape[0] * shape[1] * shape[2] * shape[3];
    }
    int64_t cols() const
    {
        if (layout == pto::Layout::DN) return shape[0] * shape[1] * shape[2] * shape[4];
        if (layout == pto::Layout::NZ) return shape[0] * shape[1] * shape[4];
        return shape[4];
    }
    // Elements the buffer must hold: the farthest element plus one.
    int64_t span() const
    {
        int64_t far = 0;
        for (int d = 0; d < 5; ++d)
            far += (shape[d] - 1) * stride[d];
        return far + 1;
    }

    // offset[r * cols() + c]: element offset of logical (r, c), by visiting every 5-D index.
    std::vector<int64_t> offsets() const
    {
        std::vector<int64_t> out(static_cast<size_t>(rows() * cols()), -1);
        for (int64_t i0 = 0; i0 < shape[0]; ++i0)
            for (int64_t i1 = 0; i1 < shape[1]; ++i1)
                for (int64_t i2 = 0; i2 < shape[2]; ++i2)
                    for (int64_t i3 = 0; i3 < shape[3]; ++i3)
                        for (int64_t i4 = 0; i4 < shape[4]; ++i4) {
                            int64_t r, c;
                            if (layout == pto::Layout::DN) {
                                r = i3;
                                c = ((i0 * shape[1] + i1) * shape[2] + i2) * shape[4] + i4;
                            } else if (layout == pto::Layout::NZ) {
                                r = i2 * shape[3] + i3;
                                c = (i0 * shape[1] + i1) * shape[4] + i4;
                            } else {
                                r = ((i0 * shape[1] + i1) * shape[2] + i2) * shape[3] + i3;
                                c = i4;
                            }
                            out[static_cast<size_t>(r * cols() + c)] =
                                i0 * stride[0] + i1 * stride[1] + i2 * stride[2] + i3 * stride[3] + i4 * stride[4];
                        }
        return out;
    }

    pto::engine::GlobalDesc desc(std::byte* data, DType t) const
    {
        pto::engine::GlobalDesc g;
        g.data = data;
        g.dtype = t;
        g.layout = layout;
        for (int d = 0; d < 5; ++d) {
            g.shape[d] = shape[d];
            g.stride[d] = stride[d];
        }
        return g;
    }
};

// A random int in [lo, hi].
inline int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A row-major Vec tile descriptor of `rows` x `cols` elements of `t` over `storage` (filled with 3s),
// all of it valid, for the tests that call the engine's checks directly.
inline pto::engine::TileDesc vec_tile(std::vector<std::byte>& storage, DType t, int rows, int cols)
{
    storage.assign(storage_bytes(int64_t(rows) * cols, t), std::byte{3});
    pto::engine::TileDesc tile;
    tile.dtype = t;
    tile.rows = tile.valid_rows = rows;
    tile.cols = tile.valid_cols = cols;
    tile.data = storage.data();
    return tile;
}

// An accumulator (Nz, 1024-byte fractals) descriptor of `rows` x `cols` elements of `t` over `storage`.
inline pto::engine::TileDesc acc_tile(std::vector<std::byte>& storage, DType t, int rows, int cols)
{
    pto::engine::TileDesc acc = vec_tile(storage, t, rows, cols);
    acc.loc = pto::TileType::Acc;
    acc.blayout = pto::BLayout::ColMajor;
    acc.slayout = pto::SLayout::RowMajor;
    acc.fractal_bytes = pto::TileConfig::fractalCSize;
    return acc;
}

// A dense 2-D ND tensor of `rows` x `cols` elements of `t` over `storage` (zeroed).
inline pto::engine::GlobalDesc flat_global(std::vector<std::byte>& storage, DType t, int rows, int cols)
{
    storage.assign(storage_bytes(int64_t(rows) * cols, t), std::byte{0});
    Global g;
    g.shape[3] = rows;
    g.shape[4] = cols;
    g.stride[3] = cols;
    return g.desc(storage.data(), t);
}

// Dense strides for `shape` in `layout` with a little random padding between lines, so that strides
// differ from shapes.
inline void pad_strides(Global& g, std::mt19937& rng, bool allow_gaps)
{
    std::uniform_int_distribution<int> gap(0, allow_gaps ? 3 : 0);
    const bool column_major = g.layout == pto::Layout::DN;
    // DN keeps dimension 3 contiguous; ND and NZ keep dimension 4 contiguous.
    const int order[5] = {column_major ? 3 : 4, column_major ? 4 : 3, 2, 1, 0};
    int64_t next = 1;
    for (int k = 0; k < 5; ++k) {
        const int d = order[k];
        g.stride[d] = next;
        next = next * g.shape[d] + (k == 0 ? 0 : gap(rng));
        if (k == 0) next += gap(rng);
    }
}

// Box shape of a boxed tile (1 x 1 when unboxed).
inline void box_shape(pto::SLayout s, int fractal_bytes, int element_bits, int& box_rows, int& box_cols)
{
    if (s == pto::SLayout::NoneBox) {
        box_rows = box_cols = 1;
    } else if (fractal_bytes == 1024) {
        box_rows = box_cols = 16;
    } else if (s == pto::SLayout::RowMajor) {
        box_rows = 16;
        box_cols = 256 / element_bits;
    } else {
        box_rows = 256 / element_bits;
        box_cols = 16;
    }
}

// index[r * cols + c]: storage element of logical (r, c) of a tile, by walking its storage in order.
inline std::vector<int64_t> tile_offsets(const pto::engine::TileDesc& t)
{
    std::vector<int64_t> out(static_cast<size_t>(t.rows) * t.cols, -1);
    int64_t next = 0;
    if (t.slayout == pto::SLayout::NoneBox) {
        if (t.blayout == pto::BLayout::RowMajor) {
            for (int r = 0; r < t.rows; ++r)
                for (int c = 0; c < t.cols; ++c)
                    out[size_t(r) * t.cols + c] = next++;
        } else {
            for (int c = 0; c < t.cols; ++c)
                for (int r = 0; r < t.rows; ++r)
                    out[size_t(r) * t.cols + c] = next++;
        }
        return out;
    }
    int br, bc;
    box_shape(t.slayout, t.fractal_bytes, t.element_bits(), br, bc);
    const int boxes_down = t.rows / br, boxes_across = t.cols / bc;
    auto visit_box = [&](int box_r, int box_c) {
        if (t.slayout == pto::SLayout::RowMajor) {
            for (int ir = 0; ir < br; ++ir)
                for (int ic = 0; ic < bc; ++ic)
                    out[size_t(box_r * br + ir) * t.cols + box_c * bc + ic] = next++;
        } else {
            for (int ic = 0; ic < bc; ++ic)
                for (int ir = 0; ir < br; ++ir)
                    out[size_t(box_r * br + ir) * t.cols + box_c * bc + ic] = next++;
        }
    };
    if (t.blayout == pto::BLayout::ColMajor) {
        for (int box_c = 0; box_c < boxes_across; ++box_c)
            for (int box_r = 0; box_r < boxes_down; ++box_r)
                visit_box(box_r, box_c);
    } else {
        for (int box_r = 0; box_r < boxes_down; ++box_r)
            for (int box_c = 0; box_c < boxes_across; ++box_c)
                visit_box(box_r, box_c);
    }
    return out;
}

// Random bytes; never all zero.
inline std::vector<std::byte> random_bytes(size_t n, std::mt19937& rng)
{
    std::vector<std::byte> out(n);
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& b : out)
        b = static_cast<std::byte>(byte(rng));
    if (n) out[0] = std::byte{0x5A};
    return out;
}

using pto::test::element_at;
using pto::test::set_element;

using pto::test::diagnostic_of;
using pto::test::mentions;
using pto::test::ScopedChecked;
using pto::test::ScopedTarget;

}  // namespace dmtest

// TMATMUL's operands into the kernels' panels, and a staged result back into its tile.
#include "engine/matmul/operand_panels.hpp"

#include <pto/numeric/convert.hpp>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "engine/matmul/panel_packing.hpp"

namespace pto::engine::matmul {

namespace {

// Calls run(r, c, offset, n, along_rows) for runs of n elements the tile holds contiguously from element
// `offset`: logical (r, c) onwards along its row, or down its column when along_rows. One run per line
// of a fractal box (a whole row or column when unboxed), each box's position found once.
template <typename Run>
void for_each_run(const TileDesc& t, int rows, int cols, Run&& run)
{
    if (!t.boxed()) {
        if (t.blayout == BLayout::RowMajor) {
            for (int r = 0; r < rows; ++r) run(r, 0, t.offset(r, 0), cols, false);
        } else {
            for (int c = 0; c < cols; ++c) run(0, c, t.offset(0, c), rows, true);
        }
        return;
    }
    const int br = t.box_rows(), bc = t.box_cols();
    const bool inner_row_major = t.slayout == SLayout::RowMajor;
    for (int r0 = 0; r0 < rows; r0 += br)
        for (int c0 = 0; c0 < cols; c0 += bc) {
            const int64_t base = t.offset(r0, c0);
            const int box_rows = std::min(br, rows - r0), box_cols = std::min(bc, cols - c0);
            if (inner_row_major) {
                for (int ir = 0; ir < box_rows; ++ir) run(r0 + ir, c0, base + int64_t(ir) * bc, box_cols, false);
            } else {
                for (int ic = 0; ic < box_cols; ++ic) run(r0, c0 + ic, base + int64_t(ic) * br, box_rows, true);
            }
        }
}

// n contiguous elements of type `from` widened into 32-bit `to` words (exact), the common types by
// vectors.
void widen_run(DType from, const std::byte* in, DType to, uint32_t* out, int64_t n)
{
    switch (from) {
        case DType::F32:
        case DType::I32:
            std::memcpy(out, in, size_t(n) * 4);
            return;
        case DType::F16:
            return widen_halves(Element::Half, in, out, n);
        case DType::BF16:
            return widen_halves(Element::Bfloat, in, out, n);
        case DType::I8:
            for (int64_t e = 0; e < n; ++e) out[e] = uint32_t(int32_t(int8_t(in[e])));
            return;
        default:
            numeric::convert(to, out, from, in, size_t(n), RoundMode::CAST_NONE, SaturationMode::OFF);
    }
}

// Per-thread scratch, one buffer per use, grown once and reused.
enum Scratch { kLeft, kRight, kResult, kInitial, kBox };

uint32_t* scratch(Scratch which, int64_t words)
{
    thread_local std::vector<uint32_t> buffers[5];
    if (int64_t(buffers[which].size()) < words) buffers[which].resize(size_t(words));
    return buffers[which].data();
}

// Rows x cols of `tile` into the row-major panel `panel` of 32-bit `work` (ld = cols).
void to_panel(const TileDesc& tile, int rows, int cols, DType work, uint32_t* panel)
{
    const int in_bytes = tile.element_bits() / 8;
    uint32_t staged[64];
    for_each_run(tile, rows, cols, [&](int r, int c, int64_t offset, int n, bool along_rows) {
        uint32_t* out = panel + int64_t(r) * cols + c;
        const std::byte* in = tile.data + offset * in_bytes;
        if (!along_rows) return widen_run(tile.dtype, in, work, out, n);
        for (int done = 0; done < n; done += 64) {  // a column: rows apart
            const int count = std::min(64, n - done);
            widen_run(tile.dtype, in + int64_t(done) * in_bytes, work, staged, count);
            for (int e = 0; e < count; ++e) out[int64_t(done + e) * cols] = staged[e];
        }
    });
}

Words row_major(const uint32_t* panel, int cols) { return {panel, cols, cols, 0}; }

// The geometry of a tile whose rows the kernel walks in place: unboxed row-major, or Nz (row-major boxes
// stacked down columns, so that row r of a column of boxes lies r box-widths from its top).
std::optional<Panel<uint32_t>> in_place(const TileDesc& t)
{
    auto* words = reinterpret_cast<uint32_t*>(t.data);
    if (t.rows_contiguous()) return Panel<uint32_t>{words, t.cols, t.cols, 0};
    if (t.boxed() && t.blayout == BLayout::ColMajor && t.slayout == SLayout::RowMajor) {
        const int bc = t.box_cols();
        return Panel<uint32_t>{words, bc, bc, int64_t(t.rows / t.box_rows()) * t.box_rows() * bc};
    }
    return std::nullopt;
}

// Whether the kernel may read or write n columns of p as vectors (see Panel).
bool vectors_fit(const Panel<uint32_t>& p, int n) { return p.chunk % 16 == 0 || p.chunk >= n; }

// Rows x cols of a tile walked in place, as words of `work`: the tile's own when it holds them, else
// the span of the region widened into scratch `which` in the tile's layout.
Words in_place_words(const TileDesc& t, Panel<uint32_t> p, int rows, int cols, DType work, Scratch which)
{
    if (t.dtype == work) return {p.data, p.ld, p.chunk, p.chunk_step};
    const int64_t count = t.offset(rows - 1, cols - 1) + 1;
    uint32_t* words = scratch(which, count);
    widen_run(t.dtype, t.data, work, words, count);
    return {words, p.ld, p.chunk, p.chunk_step};
}

// Zn with 16-column boxes (every Right type): each box of k x n transposed into its strip of 16
// columns, the strips k rows (whole boxes) apart; f16 and bf16 widen as they are transposed.
Words packed_zn(const TileDesc& b, int k, int n, DType work)
{
    const int br = b.box_rows(), box_words = br * 16, in_bytes = b.element_bits() / 8;
    const int box_rows = (k + br - 1) / br, strips = (n + 15) / 16;
    const int64_t strip_words = int64_t(box_rows) * box_words;
    uint32_t* packed = scratch(kRight, strip_words * strips);
    uint32_t* staged = scratch(kBox, box_words);
    const Element from = b.dtype == DType::F16 ? Element::Half : b.dtype == DType::BF16 ? Element::Bfloat : Element::Word;
    for (int kb = 0; kb < box_rows; ++kb)
        for (int s = 0; s < strips; ++s) {
            const std::byte* in = b.data + b.offset(int64_t(kb) * br, int64_t(s) * 16) * in_bytes;
            uint32_t* out = packed + s * strip_words + int64_t(kb) * box_words;
            if (from != Element::Word || b.dtype == work) {
                pack_zn_box(from, in, br, out);
            } else {  // widened by the general conversion first
                widen_run(b.dtype, in, work, staged, box_words);
                pack_zn_box(Element::Word, reinterpret_cast<const std::byte*>(staged), br, out);
            }
        }
    return {packed, 16, 16, strip_words};
}

// Whether reading `in` while writing `out` in place, block by block, reads every value before it is
// overwritten: the same tile, or apart.
bool reads_before_writes(const TileDesc& in, const TileDesc& out)
{
    if (in.data == out.data)
        return in.rows == out.rows && in.cols == out.cols && in.blayout == out.blayout && in.slayout == out.slayout &&
               in.fractal_bytes == out.fractal_bytes;
    return in.data + in.bytes() <= out.data || out.data + out.bytes() <= in.data;
}

}  // namespace

Words left_panel(const TileDesc& a, int m, int k, DType work)
{
    if (const auto p = in_place(a)) return in_place_words(a, *p, m, k, work, kLeft);
    uint32_t* panel = scratch(kLeft, int64_t(m) * k);
    to_panel(a, m, k, work, panel);
    return row_major(panel, k);
}

Words right_panel(const TileDesc& b, int k, int n, DType work)
{
    if (b.boxed() && b.blayout == BLayout::RowMajor && b.slayout == SLayout::ColMajor && b.box_cols() == 16)
        return packed_zn(b, k, n, work);
    if (const auto p = in_place(b); p && vectors_fit(*p, n)) return in_place_words(b, *p, k, n, work, kRight);
    uint32_t* panel = scratch(kRight, int64_t(k) * n);
    to_panel(b, k, n, work, panel);
    return row_major(panel, n);
}

Words initial_panel(const MatmulOperands& o, int m, int n, DType work)
{
    if (o.bias) {  // one row, read m times
        uint32_t* row = scratch(kInitial, n);
        to_panel(*o.bias, 1, n, work, row);
        return {row, 0, n, 0};
    }
    if (!o.c_in) return {};
    const TileDesc& c_in = *o.c_in;
    if (const auto p = in_place(c_in); p && vectors_fit(*p, n) && reads_before_writes(c_in, o.c))
        return in_place_words(c_in, *p, m, n, work, kInitial);
    uint32_t* panel = scratch(kInitial, int64_t(m) * n);
    to_panel(c_in, m, n, work, panel);
    return row_major(panel, n);
}

Panel<uint32_t> result_panel(const TileDesc& c, int m, int n)
{
    if (const auto p = in_place(c); p && vectors_fit(*p, n)) return *p;
    return {scratch(kResult, int64_t(m) * n), n, n, 0};
}

void finish_result(const Panel<uint32_t>& result, const TileDesc& c, int m, int n)
{
    if (result.data == reinterpret_cast<uint32_t*>(c.data)) return;
    auto* words = reinterpret_cast<uint32_t*>(c.data);
    for_each_run(c, m, n, [&](int r, int col, int64_t offset, int count, bool along_rows) {
        const uint32_t* in = result.data + int64_t(r) * n + col;
        if (!along_rows) {
            std::memcpy(words + offset, in, size_t(count) * 4);
        } else {
            for (int e = 0; e < count; ++e) words[offset + e] = in[int64_t(e) * n];
        }
    });
}

}  // namespace pto::engine::matmul

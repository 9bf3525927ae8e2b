// Checked-mode bookkeeping of tile operands: the valid region of a tile, as groups of runs of
// consecutive bytes, checked and marked in the runtime's shadow state with one lookup per operand.
#include <pto/engine/access.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <string>

namespace pto::engine {

namespace {

// `lines` runs of `count` consecutive storage elements, `pitch` elements apart from element `first` on.
struct Runs {
    int64_t first, count, pitch, lines;
};

// Calls fn(runs) for groups of runs that together cover the region `w` of `t` (and nothing else);
// stops at the first false.
template <typename Fn>
bool for_each_runs(const TileDesc& t, const Window& w, Fn&& fn)
{
    const auto [row0, col0, rows, cols] = w;
    if (row0 == 0 && col0 == 0 && rows == t.rows && cols == t.cols) return fn(Runs{0, t.elements(), 0, 1});
    // Elements are consecutive along a row of an unboxed row-major tile or of a box with row-major
    // inner layout, along a column otherwise.
    const bool along_rows = t.boxed() ? t.slayout == SLayout::RowMajor : t.blayout == BLayout::RowMajor;
    const int line = along_rows ? cols : rows, lines = along_rows ? rows : cols;
    const int line0 = along_rows ? col0 : row0;  // where each line starts along itself
    if (!t.boxed()) {
        const int pitch = along_rows ? t.cols : t.rows;
        const int64_t first = t.offset(row0, col0);
        if (line == pitch) return fn(Runs{first, int64_t(line) * lines, 0, 1});
        if (int64_t(pitch) * t.element_bits() % 8 == 0) return fn(Runs{first, line, pitch, lines});
    }
    // Boxes split lines into runs; lines of 4-bit elements an odd pitch apart go one at a time.
    const int box = along_rows ? t.box_cols() : t.box_rows();
    for (int i = 0; i < lines; ++i)
        for (int j = 0; j < line;) {
            const int n = t.boxed() ? std::min(box - (line0 + j) % box, line - j) : line;
            const int64_t first = along_rows ? t.offset(row0 + i, col0 + j) : t.offset(row0 + j, col0 + i);
            if (!fn(Runs{first, n, 0, 1})) return false;
            j += n;
        }
    return true;
}

// The bytes holding `count` elements from element `first` (sub-byte elements share their bytes).
struct Bytes {
    std::byte* data;
    std::size_t size;
};
Bytes bytes_of(const TileDesc& t, int64_t first, int64_t count)
{
    const int bits = t.element_bits();
    const int64_t begin = first * bits / 8, end = ((first + count) * bits + 7) / 8;
    return {t.data + begin, static_cast<std::size_t>(end - begin)};
}

// The byte ranges of runs, as the shadow state takes them: each run's bytes, a whole number of bytes apart.
struct ByteRuns {
    std::byte* data;
    std::size_t size, pitch, lines;
};
ByteRuns bytes_of(const TileDesc& t, const Runs& runs)
{
    const auto [data, size] = bytes_of(t, runs.first, runs.count);
    return {data, size, static_cast<std::size_t>(runs.pitch * t.element_bits() / 8), static_cast<std::size_t>(runs.lines)};
}

// The memory holding the tile, found by its first byte (a window TASSIGNed near the end of a memory
// has a capacity that runs past it).
runtime::ShadowView shadow_of(const TileDesc& t) { return {t.data, 1}; }

struct Element {
    int row, col;
};
// The first element of rows x cols of `t`, in row order, with a never-written byte; only called when
// there is one.
Element first_unwritten_element(const TileDesc& t, const Window& w, const runtime::ShadowView& shadow)
{
    for (int r = w.row0; r < w.row0 + w.rows; ++r)
        for (int c = w.col0; c < w.col0 + w.cols; ++c) {
            const auto [p, n] = bytes_of(t, t.offset(r, c), 1);
            if (shadow.first_unwritten(p, n) >= 0) return {r, c};
        }
    return {w.row0 + w.rows, w.col0 + w.cols};
}

}  // namespace

void require_written(const TileDesc& tile, const char* operand)
{
    require_written(tile, tile.valid_rows, tile.valid_cols, operand);
}

// The common case (everything written) costs one scan of the shadow bits per run; finding the
// element to report walks the region in row order.
void require_written(const ConvTileDesc& tile, const char* operand)
{
    if (!runtime::checked()) return;
    const auto bytes = static_cast<std::size_t>(tile.elements() * dtype_bits(tile.dtype) / 8);
    if (const int64_t unwritten = runtime::first_unwritten(tile.data, bytes); unwritten >= 0) {
        runtime::fail({"RUN_UNINIT_READ", "", operand,
                       "reads byte " + std::to_string(unwritten) + " of the convolution tile, which nothing has written",
                       "initialised data", "never-written bytes", ""});
    }
}

void require_written(const TileDesc& tile, int rows, int cols, const char* operand)
{
    require_written(tile, Window{0, 0, rows, cols}, operand);
}

void require_written(const TileDesc& tile, const Window& window, const char* operand)
{
    if (!runtime::checked()) return;
    const runtime::ShadowView shadow = shadow_of(tile);
    const bool all_written = for_each_runs(tile, window, [&](const Runs& runs) {
        const auto [p, n, pitch, lines] = bytes_of(tile, runs);
        return shadow.first_unwritten(p, n, pitch, lines) < 0;
    });
    if (all_written) return;
    const Element bad = first_unwritten_element(tile, window, shadow);
    runtime::fail({"RUN_UNINIT_READ", "", operand,
                   "reads element (" + std::to_string(bad.row) + ", " + std::to_string(bad.col) +
                       ") of its valid region, which nothing has written",
                   "initialised data", "never-written bytes", ""});
}

void mark_written(const TileDesc& tile, int rows, int cols) { mark_written(tile, Window{0, 0, rows, cols}); }

void mark_written(const TileDesc& tile, const Window& window)
{
    if (!runtime::checked()) return;
    const runtime::ShadowView shadow = shadow_of(tile);
    for_each_runs(tile, window, [&](const Runs& runs) {
        const auto [p, n, pitch, lines] = bytes_of(tile, runs);
        shadow.mark_written(p, n, pitch, lines);
        return true;
    });
}

void mark_written(const TileDesc& tile) { mark_written(tile, tile.valid_rows, tile.valid_cols); }

void mark_storage_prefix_written(const TileDesc& tile, int64_t elements)
{
    TileDesc flat = tile;
    flat.rows = flat.valid_rows = 1;
    flat.cols = int32_t(tile.elements());
    flat.blayout = BLayout::RowMajor;
    flat.slayout = SLayout::NoneBox;
    mark_written(flat, 1, int(elements));
}

}  // namespace pto::engine

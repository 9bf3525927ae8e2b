#include <pto/engine/access.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>

namespace pto::engine {

namespace {

// Calls fn(address, bytes) for each contiguous run of the region rows x cols of `t`.
template <typename Fn>
bool for_each_run(const TileDesc& t, int rows, int cols, Fn&& fn)
{
    const int bits = t.element_bits();
    if (t.rows_contiguous()) {
        for (int r = 0; r < rows; ++r) {
            if (!fn(r, 0, element_address(t, t.offset(r, 0)), (int64_t(cols) * bits + 7) / 8)) return false;
        }
        return true;
    }
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (!fn(r, c, element_address(t, t.offset(r, c)), (bits + 7) / 8)) return false;
        }
    }
    return true;
}

}  // namespace

void require_written(const TileDesc& tile, const char* operand)
{
    require_written(tile, tile.valid_rows, tile.valid_cols, operand);
}

void require_written(const TileDesc& tile, int rows, int cols, const char* operand)
{
    if (!runtime::checked()) return;
    for_each_run(tile, rows, cols, [&](int r, int c, std::byte* p, int64_t n) {
        const int64_t bad = runtime::first_unwritten(p, static_cast<std::size_t>(n));
        if (bad < 0) return true;
        const int64_t col = tile.rows_contiguous() ? bad * 8 / tile.element_bits() : c;
        runtime::fail({"RUN_UNINIT_READ", "", operand,
                       "reads element (" + std::to_string(r) + ", " + std::to_string(col) +
                           ") of its valid region, which nothing has written",
                       "initialised data", "never-written bytes", ""});
    });
}

void mark_written(const TileDesc& tile, int rows, int cols)
{
    if (!runtime::checked()) return;
    for_each_run(tile, rows, cols, [](int, int, std::byte* p, int64_t n) {
        runtime::mark_written(p, static_cast<std::size_t>(n));
        return true;
    });
}

void mark_written(const TileDesc& tile) { mark_written(tile, tile.valid_rows, tile.valid_cols); }

}  // namespace pto::engine

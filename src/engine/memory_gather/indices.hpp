// Indices of MGATHER / MSCATTER: where they are read from, and what an index at or past the table's
// extent becomes. Indices are 32-bit words read as uint32_t before anything else happens to them, so a
// negative int32 index is a large value (out of range for every table smaller than 2^31 entries).
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

#include "gm_table.hpp"
#include "runtime/order_checker.hpp"
#include "words.hpp"

namespace pto::engine::memory_gather {

// What a kernel does with an out-of-range index. An Undefined policy runs as Clamp, so nothing outside
// the table is ever touched; in checked mode its out-of-range indices were reported before any kernel.
enum class IndexRule : uint8_t { Clamp, Wrap, Drop };  // Drop: a gather writes zero, a scatter skips

constexpr IndexRule index_rule(GatherOOB oob)
{
    switch (oob) {
        case GatherOOB::Wrap: return IndexRule::Wrap;
        case GatherOOB::Zero: return IndexRule::Drop;
        default: return IndexRule::Clamp;
    }
}

constexpr IndexRule index_rule(ScatterOOB oob)
{
    switch (oob) {
        case ScatterOOB::Wrap: return IndexRule::Wrap;
        case ScatterOOB::Skip: return IndexRule::Drop;
        default: return IndexRule::Clamp;
    }
}

// The in-range index `index` stands for, or `extent` when the rule drops it.
template <IndexRule Rule>
inline uint64_t remap(uint32_t index, uint64_t extent)
{
    if (index < extent) [[likely]] return index;
    if constexpr (Rule == IndexRule::Clamp) return extent - 1;
    else if constexpr (Rule == IndexRule::Wrap) return index % extent;
    else return extent;
}

template <typename Fn>
inline void with_rule(IndexRule rule, Fn&& fn)
{
    switch (rule) {
        case IndexRule::Clamp: fn(std::integral_constant<IndexRule, IndexRule::Clamp>{}); return;
        case IndexRule::Wrap: fn(std::integral_constant<IndexRule, IndexRule::Wrap>{}); return;
        case IndexRule::Drop: fn(std::integral_constant<IndexRule, IndexRule::Drop>{}); return;
    }
}

// Indices in an unboxed UB tile, by logical position.
struct TileIndices {
    const std::byte* data;
    int64_t row_step;
    int64_t col_step;

    explicit TileIndices(const TileDesc& t)
        : data(t.data),
          row_step(t.blayout == BLayout::RowMajor ? t.cols : 1),
          col_step(t.blayout == BLayout::RowMajor ? 1 : t.rows)
    {}
    uint32_t operator()(int64_t r, int64_t c) const { return load<uint32_t>(data, r * row_step + c * col_step); }

    // The k-th index of a Row-mode tile, shaped [1, R] or [R, 1].
    static auto line(const TileDesc& t)
    {
        const TileIndices at(t);
        const int64_t step = t.valid_rows == 1 ? at.col_step : at.row_step;
        return [data = t.data, step](int64_t k) { return load<uint32_t>(data, k * step); };
    }
};

// Tells the synchronisation check (checked mode) which table bytes an index-driven transfer over
// rows x cols positions touches: `cols` elements of each indexed table row (Row mode, `row_index(r)`)
// or each indexed element (Elem mode, `index_at(r, c)`), after `Rule`; `atomic` for atomic combines.
template <IndexRule Rule, typename Table, typename RowIndex, typename ElemIndex>
void note_table_footprint(const Table& table, int element_bytes, uint64_t extent, Coalesce mode, int rows, int cols,
                          RowIndex&& row_index, ElemIndex&& index_at, bool write, bool atomic = false)
{
    if (!runtime::order::checking()) return;
    const auto note = [&](int64_t offset) {
        runtime::order::note_global_access(table.data + offset * element_bytes, std::size_t(element_bytes), 0, 1, write, atomic);
    };
    for (int r = 0; r < rows; ++r) {
        if (mode == Coalesce::Row) {
            const uint64_t row = remap<Rule>(row_index(r), extent);
            if (row == extent) continue;
            for (int c = 0; c < cols; ++c) note(table.offset(row, uint64_t(c)));
            continue;
        }
        for (int c = 0; c < cols; ++c) {
            const uint64_t e = remap<Rule>(index_at(r, c), extent);
            if (e != extent) note(table.flat_offset(e));
        }
    }
}

// Indices in a GM tensor viewed as [Shape[0] * ... * Shape[3], Shape[4]].
struct GlobalIndices {
    const GlobalDesc* g;

    uint32_t operator()(int64_t r, int64_t c) const
    {
        return load<uint32_t>(g->data, view_row_offset(*g, r) + c * g->stride[4]);
    }

    // The k-th index in row-major order of the whole view.
    static auto line(const GlobalDesc& g)
    {
        return [at = GlobalIndices{&g}](int64_t k) { return at(k / at.g->shape[4], k % at.g->shape[4]); };
    }
};

// The first index at or past `extent` over rows x cols positions (row-major), for checked mode.
struct OutOfRange {
    bool found = false;
    int64_t row = 0;
    int64_t col = 0;
    uint32_t index = 0;
};

template <typename IndexAt>
OutOfRange first_out_of_range(int64_t rows, int64_t cols, uint64_t extent, IndexAt&& index_at)
{
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            const uint32_t i = index_at(r, c);
            if (i >= extent) return {true, r, c, i};
        }
    }
    return {};
}

// Reports an out-of-range index of an Undefined policy (checked mode) with `code`, naming the
// position it serves (`side` is "destination" or "source"), the index and the table's extent.
[[noreturn]] void report_index_out_of_range(const char* code, const char* side, const char* policy, Coalesce mode,
                                            const OutOfRange& bad, uint64_t extent);

}  // namespace pto::engine::memory_gather

// The MGATHER kernels, shared by the GM -> UB and GM -> L1 entry points. Each is a template on the
// element word, the out-of-range rule, the table addressing (ND or NZ) and where indices come from, so
// the per-element loop has no run-time dispatch in it.
#pragma once

#include <cstring>
#include <type_traits>

#include <pto/engine/access.hpp>
#include <pto/engine/descriptor.hpp>

#include "gm_table.hpp"
#include "indices.hpp"
#include "words.hpp"

namespace pto::engine::memory_gather {

// Row coalesce: dst[r, c] = table[row_index(r), c] over dst's valid region; a dropped row reads zeros.
template <typename Word, IndexRule Rule, typename Table, typename RowIndex>
void gather_rows(const TileDesc& dst, const Table& table, uint64_t table_rows, RowIndex&& row_index)
{
    const int valid_cols = dst.valid_cols;
    for (int r = 0; r < dst.valid_rows; ++r) {
        const uint64_t row = remap<Rule>(row_index(r), table_rows);
        if constexpr (Rule == IndexRule::Drop) {
            if (row == table_rows) {
                for (int c = 0; c < valid_cols; ++c) store<Word>(dst.data, dst.offset(r, c), Word{0});
                continue;
            }
        }
        if constexpr (std::is_same_v<Table, NdTable>) {
            const std::byte* source = table.data + table.offset(row, 0) * int64_t(sizeof(Word));
            if (dst.rows_contiguous()) {
                std::memcpy(element_address(dst, dst.offset(r, 0)), source, size_t(valid_cols) * sizeof(Word));
                continue;
            }
            for (int c = 0; c < valid_cols; ++c) store<Word>(dst.data, dst.offset(r, c), load<Word>(source, c));
        } else {
            for (int c = 0; c < valid_cols; ++c) {
                store<Word>(dst.data, dst.offset(r, c), load<Word>(table.data, table.offset(row, uint64_t(c))));
            }
        }
    }
}

// The element an Elem-mode index selects, or zero when the rule drops it.
template <typename Word, IndexRule Rule, typename Table>
inline Word gather_one(const Table& table, uint64_t table_size, uint32_t index)
{
    const uint64_t e = remap<Rule>(index, table_size);
    if constexpr (Rule == IndexRule::Drop) {
        if (e == table_size) return Word{0};
    }
    return load<Word>(table.data, table.flat_offset(e));
}

// Elem coalesce: dst[r, c] = table[index_at(r, c)] over dst's valid region.
template <typename Word, IndexRule Rule, typename Table, typename ElemIndex>
void gather_elements(const TileDesc& dst, const Table& table, uint64_t table_size, ElemIndex&& index_at)
{
    const int valid_cols = dst.valid_cols;
    for (int r = 0; r < dst.valid_rows; ++r) {
        if (dst.rows_contiguous()) {
            std::byte* row = element_address(dst, dst.offset(r, 0));
            for (int c = 0; c < valid_cols; ++c) {
                store<Word>(row, c, gather_one<Word, Rule>(table, table_size, index_at(r, c)));
            }
        } else {
            for (int c = 0; c < valid_cols; ++c) {
                store<Word>(dst.data, dst.offset(r, c), gather_one<Word, Rule>(table, table_size, index_at(r, c)));
            }
        }
    }
}

// Elem coalesce into the NZ image of `nz` (Rows x Cols, stored at nz.data) the way A5's SIMT executor
// builds it: one lane per linear NZ offset, mapped back to its (r, c); lanes outside the valid region
// write zero, so padding needs no separate pass.
template <typename Word, IndexRule Rule, typename Table, typename ElemIndex>
void gather_nz_image_by_offset(const TileDesc& nz, const Table& table, uint64_t table_size, ElemIndex&& index_at)
{
    const int64_t c0 = nz.box_cols();
    const int64_t block_elements = int64_t(nz.rows) * c0;  // one column of fractals
    const int64_t total = nz.elements();
    for (int64_t offset = 0; offset < total; ++offset) {
        const int64_t r = (offset % block_elements) / c0;
        const int64_t c = (offset / block_elements) * c0 + offset % c0;
        const bool valid = r < nz.valid_rows && c < nz.valid_cols;
        store<Word>(nz.data, offset, valid ? gather_one<Word, Rule>(table, table_size, index_at(r, c)) : Word{0});
    }
}

}  // namespace pto::engine::memory_gather

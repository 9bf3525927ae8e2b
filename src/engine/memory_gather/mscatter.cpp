// MSCATTER: a UB tile written into a GM table through a UB index tile, as plain stores or atomic
// combines. Sources are applied in row-major order of the source's valid region, so of two plain stores
// to one slot the later (larger flat source index) survives: ScatterConflict::Last. Under
// ScatterConflict::Default the device leaves the survivor unspecified, so checked mode reports two
// colliding stores of different values.
#include <pto/engine/ops/memory_gather.hpp>

#include <pto/engine/access.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/global_atomics.hpp"
#include "gm_table.hpp"
#include "indices.hpp"
#include "operand_rules.hpp"
#include "words.hpp"

namespace pto::engine {

using namespace memory_gather;

namespace {

// --- how a source element combines with the table slot it lands on ---------------------------------

struct PlainStore {
    template <typename T>
    T operator()(T, T incoming) const { return incoming; }
};

// Integers wrap; 16-bit floats add in fp32 and round once to the element type.
struct AtomicAdd {
    template <typename T>
    T operator()(T current, T incoming) const
    {
        if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            return static_cast<T>(static_cast<U>(static_cast<U>(current) + static_cast<U>(incoming)));
        } else if constexpr (std::is_floating_point_v<T>) {
            return current + incoming;
        } else {
            return T(float(current) + float(incoming));
        }
    }
};

// Float maximum and minimum follow fmax / fmin: a NaN loses to a number.
struct AtomicMax {
    template <typename T>
    T operator()(T current, T incoming) const
    {
        if constexpr (std::is_integral_v<T>) return std::max(current, incoming);
        else return T(std::fmax(float(current), float(incoming)));
    }
};

struct AtomicMin {
    template <typename T>
    T operator()(T current, T incoming) const
    {
        if constexpr (std::is_integral_v<T>) return std::min(current, incoming);
        else return T(std::fmin(float(current), float(incoming)));
    }
};

// --- kernels ------------------------------------------------------------------------------------

// Row coalesce: table[row_index(r), c] = combine(table[...], src[r, c]) over src's valid region.
template <typename T, IndexRule Rule, typename Combine, typename RowIndex>
void scatter_rows(const NdTable& table, uint64_t table_rows, const TileDesc& src, RowIndex&& row_index, Combine combine)
{
    const int valid_cols = src.valid_cols;
    for (int r = 0; r < src.valid_rows; ++r) {
        const uint64_t row = remap<Rule>(row_index(r), table_rows);
        if constexpr (Rule == IndexRule::Drop) {
            if (row == table_rows) continue;
        }
        std::byte* target = table.data + table.offset(row, 0) * int64_t(sizeof(T));
        if constexpr (std::is_same_v<Combine, PlainStore>) {
            if (src.rows_contiguous()) {
                std::memcpy(target, element_address(src, src.offset(r, 0)), size_t(valid_cols) * sizeof(T));
                continue;
            }
        }
        for (int c = 0; c < valid_cols; ++c) {
            store<T>(target, c, combine(load<T>(target, c), load<T>(src.data, src.offset(r, c))));
        }
    }
}

// Elem coalesce: table[index_at(r, c)] = combine(table[...], src[r, c]) over src's valid region.
template <typename T, IndexRule Rule, typename Combine, typename ElemIndex>
void scatter_elements(const NdTable& table, uint64_t table_size, const TileDesc& src, ElemIndex&& index_at,
                      Combine combine)
{
    for (int r = 0; r < src.valid_rows; ++r) {
        for (int c = 0; c < src.valid_cols; ++c) {
            const uint64_t e = remap<Rule>(index_at(r, c), table_size);
            if constexpr (Rule == IndexRule::Drop) {
                if (e == table_size) continue;
            }
            const int64_t slot = table.flat_offset(e);
            store<T>(table.data, slot, combine(load<T>(table.data, slot), load<T>(src.data, src.offset(r, c))));
        }
    }
}

template <typename T, typename Combine>
void run_scatter(const GlobalDesc& table, uint64_t extent, const TileDesc& src, const TileDesc& idx, Coalesce mode,
                 IndexRule rule, Combine combine)
{
    with_rule(rule, [&](auto r) {
        constexpr IndexRule Rule = decltype(r)::value;
        note_table_footprint<Rule>(NdTable(table), int(sizeof(T)), extent, mode, src.valid_rows, src.valid_cols, TileIndices::line(idx),
                                   TileIndices(idx), true, !std::is_same_v<Combine, PlainStore>);
        if (mode == Coalesce::Row) scatter_rows<T, Rule>(NdTable(table), extent, src, TileIndices::line(idx), combine);
        else scatter_elements<T, Rule>(NdTable(table), extent, src, TileIndices(idx), combine);
    });
}

// Calls fn(T{}) for the one of `Types` whose tag is `t` (the operand checks admitted only those).
template <typename... Types, typename Fn>
void with_type(DType t, Fn&& fn)
{
    (void)((dtype_of<Types> == t ? (fn(Types{}), true) : false) || ...);
}

// --- checked mode: colliding plain stores under ScatterConflict::Default ---------------------------

std::string source_position(Coalesce mode, int64_t position, int valid_cols)
{
    if (mode == Coalesce::Row) return "source row " + std::to_string(position);
    return "source (" + std::to_string(position / valid_cols) + ", " + std::to_string(position % valid_cols) + ")";
}

// Whether sources a and b (flat positions over the valid region; rows in Row mode) hold equal bits.
bool same_source_bits(const TileDesc& src, Coalesce mode, int64_t a, int64_t b)
{
    const int64_t bytes = src.element_bits() / 8;
    const auto element = [&](int64_t r, int64_t c) { return src.data + src.offset(r, c) * bytes; };
    if (mode == Coalesce::Elem) {
        const int vc = src.valid_cols;
        return std::memcmp(element(a / vc, a % vc), element(b / vc, b % vc), size_t(bytes)) == 0;
    }
    for (int c = 0; c < src.valid_cols; ++c) {
        if (std::memcmp(element(a, c), element(b, c), size_t(bytes)) != 0) return false;
    }
    return true;
}

void report_conflicting_stores(const TileDesc& src, const TileDesc& idx, Coalesce mode, IndexRule rule, uint64_t extent)
{
    // (slot, flat source position) of every store, reused between calls so checking allocates only while
    // the largest scatter seen so far grows.
    thread_local std::vector<std::pair<uint64_t, int64_t>> stores;
    stores.clear();
    const bool rows = mode == Coalesce::Row;
    const int64_t sources = rows ? src.valid_rows : int64_t(src.valid_rows) * src.valid_cols;
    const TileIndices at(idx);
    const auto line = TileIndices::line(idx);
    with_rule(rule, [&](auto r) {
        constexpr IndexRule Rule = decltype(r)::value;
        for (int64_t k = 0; k < sources; ++k) {
            const uint32_t index = rows ? line(k) : at(k / src.valid_cols, k % src.valid_cols);
            const uint64_t slot = remap<Rule>(index, extent);
            if (Rule == IndexRule::Drop && slot == extent) continue;
            stores.emplace_back(slot, k);
        }
    });
    std::sort(stores.begin(), stores.end());
    for (size_t i = 1; i < stores.size(); ++i) {
        const auto& [slot, first] = stores[i - 1];
        const int64_t second = stores[i].second;
        if (stores[i].first != slot || same_source_bits(src, mode, first, second)) continue;
        runtime::fail({"RUN_SCATTER_CONFLICT", "", "idx",
                       source_position(mode, first, src.valid_cols) + " and " +
                           source_position(mode, second, src.valid_cols) + " store different values to table " +
                           (rows ? "row " : "element ") + std::to_string(slot) +
                           "; under ScatterConflict::Default the surviving store is unspecified",
                       "distinct destinations or equal values (ScatterConflict::Last keeps the later store)",
                       "a collision", ""});
    }
}

}  // namespace

void mscatter(const GlobalDesc& table, const TileDesc& src, const TileDesc& idx, Coalesce mode, ScatterAtomicOp atomic,
              ScatterOOB oob, ScatterConflict conflict)
{
    PTO_HOLD_BACK("MSCATTER", mscatter, table, src, idx, mode, atomic, oob, conflict);
    runtime::InstructionScope scope("MSCATTER");
    const profile::Profile& p = runtime::active_profile();
    check_tile_descriptor(src, "src");
    check_tile_descriptor(idx, "idx");
    check_global_view(table, "table");
    StopAtFirstFinding stop;
    check_mscatter(p, table, src, idx, mode, atomic, stop);
    const TableGeometry geo = ub_table_geometry(p, table, src);
    check_global_reach(table, geo.reach(mode), "table");
    require_written(src, "src");
    require_written(idx, "idx");

    const uint64_t extent = geo.extent(mode);
    const IndexRule rule = index_rule(oob);
    if (runtime::checked()) {
        if (oob == ScatterOOB::Undefined) {
            const auto line = TileIndices::line(idx);
            const OutOfRange bad =
                mode == Coalesce::Row
                    ? first_out_of_range(src.valid_rows, 1, extent, [&](int64_t r, int64_t) { return line(r); })
                    : first_out_of_range(src.valid_rows, src.valid_cols, extent, TileIndices(idx));
            if (bad.found) report_index_out_of_range("RUN_SCATTER_INDEX", "source", "ScatterOOB::Undefined", mode, bad, extent);
        }
        if (atomic == ScatterAtomicOp::None && conflict == ScatterConflict::Default) {
            report_conflicting_stores(src, idx, mode, rule, extent);
        }
    }

    std::unique_lock<std::mutex> atomics;
    if (atomic != ScatterAtomicOp::None) atomics = lock_global_atomics();
    switch (atomic) {
        case ScatterAtomicOp::None:
            with_word(src.element_bits() / 8, [&](auto word) {
                run_scatter<decltype(word)>(table, extent, src, idx, mode, rule, PlainStore{});
            });
            return;
        case ScatterAtomicOp::Add:
            with_type<int32_t, uint32_t, float, half, bfloat16_t>(src.dtype, [&](auto type) {
                run_scatter<decltype(type)>(table, extent, src, idx, mode, rule, AtomicAdd{});
            });
            return;
        case ScatterAtomicOp::Max:
            with_type<int32_t, uint32_t, float>(src.dtype, [&](auto type) {
                run_scatter<decltype(type)>(table, extent, src, idx, mode, rule, AtomicMax{});
            });
            return;
        case ScatterAtomicOp::Min:
            with_type<int32_t, uint32_t, float>(src.dtype, [&](auto type) {
                run_scatter<decltype(type)>(table, extent, src, idx, mode, rule, AtomicMin{});
            });
            return;
    }
}

}  // namespace pto::engine

// Run-time legality checks of the MGATHER / MSCATTER operands: the predicates of
// pto/profile/rules_memory_gather.hpp applied to descriptors and the active profile, each broken rule
// reported with its LEGAL_* code (RUN_* for run-time facts), naming the operand and the values.
#pragma once

#include <cstdint>
#include <string>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/profile/profile.hpp>

#include "gm_table.hpp"

namespace pto::engine::memory_gather {

// The diagnostic codes of one instruction's rules (the two instructions share the rules, not the codes).
struct RuleCodes {
    const char* dtype;
    const char* index_dtype;
    const char* table_dtype;
    const char* location;
    const char* table_layout;
    const char* tile_layout;
    const char* index_layout;
    const char* align;
    const char* index_shape;
    const char* valid_shape;
    const char* table_width;
    const char* table_stride;
    const char* nz_shape;
};

inline constexpr RuleCodes kGatherCodes{
    "LEGAL_MGATHER_DTYPE",        "LEGAL_MGATHER_INDEX_DTYPE",  "LEGAL_MGATHER_TABLE_DTYPE",
    "LEGAL_MGATHER_LOCATION",     "LEGAL_MGATHER_TABLE_LAYOUT", "LEGAL_MGATHER_TILE_LAYOUT",
    "LEGAL_MGATHER_INDEX_LAYOUT", "LEGAL_MGATHER_ALIGN",        "LEGAL_MGATHER_INDEX_SHAPE",
    "LEGAL_MGATHER_VALID_SHAPE",  "LEGAL_MGATHER_TABLE_WIDTH",  "LEGAL_MGATHER_TABLE_STRIDE",
    "LEGAL_MGATHER_NZ_SHAPE",
};

inline constexpr RuleCodes kScatterCodes{
    "LEGAL_MSCATTER_DTYPE",        "LEGAL_MSCATTER_INDEX_DTYPE",  "LEGAL_MSCATTER_TABLE_DTYPE",
    "LEGAL_MSCATTER_LOCATION",     "LEGAL_MSCATTER_TABLE_LAYOUT", "LEGAL_MSCATTER_TILE_LAYOUT",
    "LEGAL_MSCATTER_INDEX_LAYOUT", "LEGAL_MSCATTER_ALIGN",        "LEGAL_MSCATTER_INDEX_SHAPE",
    "LEGAL_MSCATTER_VALID_SHAPE",  "LEGAL_MSCATTER_TABLE_WIDTH",  "LEGAL_MSCATTER_TABLE_STRIDE",
    "LEGAL_MSCATTER_NZ_SHAPE",
};

// "[rows, cols]", as diagnostics print shapes.
std::string shape_text(int64_t rows, int64_t cols);

// RUN_NULL_POINTER / RUN_VALID_SHAPE: a descriptor that points somewhere and keeps its valid region inside
// its capacity (tiles built by the C++ front door always do; descriptors from elsewhere may not).
void check_tile_descriptor(const TileDesc& tile, const char* operand);

// The element type of the data tile on this profile.
void check_element_dtype(const RuleCodes& codes, const profile::Profile& p, DType element, const char* operand);

// The table's layout, which `allowed` says the rule accepts (`expected` names what it accepts).
void check_table_layout(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table, bool allowed,
                        const char* expected);

// The UB data tile (MGATHER's dst, MSCATTER's src) paired with a table of `table_layout`.
void check_ub_data_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& tile, const char* operand,
                        Layout table_layout);

// The UB index tile against the data tile's valid shape.
void check_ub_index_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& idx, Coalesce mode,
                         const TileDesc& data);

// The table's view, element type and geometry for a GM <-> UB transfer of `data`'s valid region.
TableGeometry check_ub_table(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table,
                             Coalesce mode, const TileDesc& data, const char* operand);

// Shared by every form: the table stores the data tile's element type.
void check_table_dtype(const RuleCodes& codes, const GlobalDesc& table, DType element, const char* operand);

}  // namespace pto::engine::memory_gather

// How a PTO-AS tile instruction spells its modes: the attributes and operand shapes that select an
// engine entry point and its enum arguments. The interpreter lowers with these and the verifier checks
// the same choices, so a program is verified as it runs.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/profile/profile.hpp>

#include "asm/ir.hpp"
#include "asm/op_table.hpp"

namespace pto::as {

// An enum-like attribute's value in lower case (`#pto<coalesce row>` gives "row"), or empty when none
// of `names` is present.
std::string enum_attr(const Operation& op, std::initializer_list<std::string_view> names);

// The enum `table` names `value` as, else `fallback`.
template <typename E>
E pick(std::string_view value, std::initializer_list<std::pair<std::string_view, E>> table, E fallback)
{
    for (const auto& [name, e] : table)
        if (value == name) return e;
    return fallback;
}

// TGATHER's form follows from its operand counts: two destinations compare, one source selects by mask.
enum class TgatherForm : uint8_t { Index, Mask, Compare };
TgatherForm tgather_form(std::size_t sources, std::size_t destinations);

CmpMode cmp_mode_of(const Operation& op);
// Empty when the op names no pattern.
std::optional<MaskPattern> mask_pattern_of(const Operation& op);
GatherAxis gather_axis_of(const Operation& op);

// The vector tile the engine reads for a scalar comparison threshold: one row, an element per row of
// `src` (valid columns = src's valid rows), of the first threshold type the profile accepts (int32 on
// cpu and a2a3, uint32 on a5), as a C++ kernel on that target would declare it.
engine::TileDesc scalar_threshold_tile(const profile::Profile& p, const engine::TileDesc& src);

// MGATHER's form: a UB index tile gathers into UB; a GM index gathers into L1, staging through a scratch
// when a third source is given.
enum class MgatherForm : uint8_t { UbIndex, L1, L1Scratch };
MgatherForm mgather_form(bool index_is_tile, std::size_t sources);

Coalesce coalesce_of(const Operation& op, const OpInfo& info);
GatherOOB gather_oob_of(const Operation& op);
GatherExec gather_exec_of(const Operation& op);
ScatterAtomicOp scatter_atomic_of(const Operation& op);
ScatterOOB scatter_oob_of(const Operation& op);
ScatterConflict scatter_conflict_of(const Operation& op);

}  // namespace pto::as

// Static checks of a PTO-AS module: structure first (known operations, arity, operand kinds and forms,
// attribute values, SSA dominance, region terminators), then legality on a target profile: each tile
// instruction's definition runs the engine's own operand checks (the same constexpr rule predicates the
// C++ front door static_asserts) on descriptors built from the operand types; rules that read a `?`
// extent are left to the run.
#pragma once

#include <string_view>
#include <vector>

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>

#include "asm/ir.hpp"
#include "asm/sync_order.hpp"

namespace pto::as {

namespace codes {
inline constexpr std::string_view kUnknownOp = "STRUCT_UNKNOWN_OP";
inline constexpr std::string_view kOperandCount = "STRUCT_OPERAND_COUNT";
inline constexpr std::string_view kStructResultCount = "STRUCT_RESULT_COUNT";
inline constexpr std::string_view kOperandKind = "STRUCT_OPERAND_KIND";
inline constexpr std::string_view kMissingAttribute = "STRUCT_MISSING_ATTRIBUTE";
inline constexpr std::string_view kAttributeValue = "STRUCT_ATTRIBUTE_VALUE";
inline constexpr std::string_view kUseBeforeDef = "STRUCT_USE_BEFORE_DEF";
inline constexpr std::string_view kTerminator = "STRUCT_TERMINATOR";
inline constexpr std::string_view kYieldCount = "STRUCT_YIELD_COUNT";
inline constexpr std::string_view kUnknownCallee = "STRUCT_UNKNOWN_CALLEE";
inline constexpr std::string_view kDestinations = "STRUCT_DESTINATIONS";
}  // namespace codes

// Every problem found, each with the operation's file:line:col; empty when the module is valid. The
// ordering check (ORDER_*) comes last; `sync` says which functions it covers.
std::vector<Diagnostic> verify(const Module& module, profile::Target target, SyncChecking sync = SyncChecking::Auto);

}  // namespace pto::as

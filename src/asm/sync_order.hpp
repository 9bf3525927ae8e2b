// The ORDER_* check of PTO-AS: a static proof, per function, that every pair of tile instructions on
// different pipes touching the same storage is ordered by set_flag / wait_flag (or record_event /
// wait_event, or a PIPE_ALL barrier), and that flags are set and waited in pairs.
//
// The device runs each pipe in order and the pipes concurrently; only flags and barriers order one
// pipe after another. The check follows, for every pipe, which operations of every other pipe are
// known to have finished before its next operation starts (a flag carries the setting pipe's
// knowledge to the waiting pipe, so orderings compose), and compares that with the last reads and
// writes of each storage: tiles by allocation, or by byte range for tiles at constant addresses;
// global memory by the pointer a view comes from.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <pto/runtime/diagnostic.hpp>

#include "asm/ir.hpp"

namespace pto::as {

namespace codes {
inline constexpr std::string_view kMissingSync = "ORDER_MISSING_SYNC";
inline constexpr std::string_view kWaitWithoutSet = "ORDER_WAIT_WITHOUT_SET";
inline constexpr std::string_view kSetTwice = "ORDER_SET_TWICE";
inline constexpr std::string_view kUnwaitedSet = "ORDER_UNWAITED_SET";
inline constexpr std::string_view kAnalysisLimit = "ORDER_ANALYSIS_LIMIT";
}  // namespace codes

enum class SyncChecking : uint8_t {
    // A function without any synchronisation operation is written for automatic synchronisation (the
    // assembler inserts it) and is not checked; a function with one is checked.
    Auto,
    // Every function is checked, also one without any synchronisation operation.
    Explicit,
};

// Every ordering problem of the module's functions, each at its operation's file:line:col.
std::vector<Diagnostic> check_sync_order(const Module& module, SyncChecking mode);

}  // namespace pto::as

// SYNCALL in text (docs/isa's pto.syncall; pto/intrinsics/syncall.hpp in C++):
//
//   pto.syncall {core_type = #pto.sync_core_type<Mix>}                        the hard form
//   pto.syncall(%ws : !pto.ptr<i32>) {mode = #pto.sync_all_mode<Soft>}        the soft form, every core
//   pto.syncall(%ws, %used : !pto.ptr<i32>, i32) {mode = #pto.sync_all_mode<Soft>, core_type = ...}
//
// core_type names the participant set (AIVOnly, the default; AICOnly; Mix), mode the implementation
// (Hard, the default; Soft, which counts arrivals in the workspace's first int32 and takes the number
// of participants, 0 for all of them). A hard SYNCALL given a workspace ignores it, as in C++.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pto/common/type.hpp>

#include "asm/ir.hpp"

namespace pto::as {

struct SyncallForm {
    SyncCoreType core_type = SyncCoreType::AIVOnly;
    bool soft = false;
};

struct SyncallProblem {
    std::string code, what, expected, actual;
};

// Reads a pto.syncall; every problem goes to `problems` (the form is nothing if there is one).
std::optional<SyncallForm> read_syncall(const Operation& op, std::vector<SyncallProblem>& problems);

}  // namespace pto::as

// SYNCALL's barrier over the cores of a launch (pto/intrinsics/syncall.hpp calls these).
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>

namespace pto::runtime {

// Returns once every core of `type` in the launch has called it as often as this one (the cube cores,
// the vector cores, or all; a block of a plain launch is both). A core of another kind calling it is
// RUN_SYNCALL_CORE; outside launches the calling thread is the only core.
void syncall(SyncCoreType type);
// The soft form: every arriving core adds one to *counter, and waits until the counter reaches the end
// of its round of `used_cores` arrivals (0: every core of `type`).
void syncall_soft(SyncCoreType type, int32_t* counter, int32_t used_cores);

}  // namespace pto::runtime

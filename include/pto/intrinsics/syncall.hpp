// SYNCALL: every core of a participant set waits until all of them arrive (pto/runtime/syncall.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/global_tensor.hpp>
#include <pto/common/type.hpp>
#include <pto/runtime/syncall.hpp>

namespace pto {

// The hard form (the device's cross-core flags).
template <SyncCoreType CoreType = SyncCoreType::AIVOnly>
PTO_INST void SYNCALL()
{
    runtime::syncall(CoreType);
}

// The soft form counts arrivals in the first int32 of gmWorkspace (zero before the first use); a hard
// Mode ignores the workspace. usedCores = 0: every core of CoreType in the launch.
template <SyncAllMode Mode, SyncCoreType CoreType = SyncCoreType::AIVOnly, typename GlobalData,
          std::enable_if_t<is_global_data_v<GlobalData>, int> = 0>
PTO_INST void SYNCALL(GlobalData& gmWorkspace, int32_t usedCores = 0)
{
    if constexpr (Mode == SyncAllMode::Hard) {
        (void)gmWorkspace;
        (void)usedCores;
        runtime::syncall(CoreType);
    } else {
        static_assert(sizeof(typename GlobalData::DType) == sizeof(int32_t), "the soft SYNCALL's workspace holds int32 counters");
        runtime::syncall_soft(CoreType, reinterpret_cast<int32_t*>(gmWorkspace.data()), usedCores);
    }
}

}  // namespace pto

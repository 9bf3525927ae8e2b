// The public CPU simulator's memory set-up calls that go with TASSIGN.
#pragma once

#include <pto/cpu/NPUMemoryModel.hpp>
#include <pto/intrinsics/assign.hpp>

namespace pto {

// The architecture of every thread from now on, and of the calling thread with fresh memories.
inline void NPU_MEMORY_INIT(NPUArch arch = NPUArch::A2A3)
{
    NPUMemoryModel::SetDefaultArch(arch);
    NPUMemoryModel::Instance().Initialize(arch);
}
inline void NPU_MEMORY_CLEAR() { NPUMemoryModel::Instance().Clear(); }

}  // namespace pto

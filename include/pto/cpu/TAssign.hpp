// The public CPU simulator's memory set-up calls that go with TASSIGN.
#pragma once

#include <pto/cpu/NPUMemoryModel.hpp>
#include <pto/intrinsics/assign.hpp>

namespace pto {

inline void NPU_MEMORY_INIT(NPUArch arch = NPUArch::A2A3) { NPUMemoryModel::Instance().Initialize(arch); }
inline void NPU_MEMORY_CLEAR() { NPUMemoryModel::Instance().Clear(); }

}  // namespace pto

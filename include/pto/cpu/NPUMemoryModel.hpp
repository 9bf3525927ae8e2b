// The run-time architecture selection of the public CPU simulator: NPUMemoryModel::Instance() is the
// calling thread's view of its core's on-chip memories. Initialize(arch) selects the architecture for
// the thread (under the cpu profile: its capacities and run-time rules; under a2a3 or a5 only the
// compiled target may be selected, another is RUN_TARGET_MISMATCH) and gives the thread fresh memories.
#pragma once

#include <pto/common/type.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>

namespace pto {

enum class NPUArch { A2A3, A5 };

class NPUMemoryModel {
public:
    static NPUMemoryModel& Instance()
    {
        thread_local NPUMemoryModel model;
        return model;
    }

    void Initialize(NPUArch arch)
    {
        runtime::select_thread_target(arch == NPUArch::A5 ? profile::Target::A5 : profile::Target::A2A3);
        arch_ = arch;
        initialized_ = true;
    }
    bool IsInitialized() const { return initialized_; }
    NPUArch GetArch() const { return arch_; }

    // Every memory of the thread's core fresh again (zero; poisoned in checked mode).
    void Clear() { runtime::clear_memories(); }

    char* GetUBBase() { return base(TileType::Vec); }
    char* GetL1Base() { return base(TileType::Mat); }
    char* GetL0ABase() { return base(TileType::Left); }
    char* GetL0BBase() { return base(TileType::Right); }
    char* GetL0CBase() { return base(TileType::Acc); }

private:
    static char* base(TileType loc) { return reinterpret_cast<char*>(runtime::memory_base(loc)); }

    NPUArch arch_ = NPUArch::A2A3;
    bool initialized_ = false;
};

}  // namespace pto

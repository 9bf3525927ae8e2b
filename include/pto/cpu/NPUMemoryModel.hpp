// The run-time architecture selection of the public CPU simulator: NPUMemoryModel::Instance() is the
// calling thread's view of its core's on-chip memories. Initialize(arch) selects the architecture for
// the thread (under the cpu profile: its capacities and run-time rules; under a2a3 or a5 only the
// compiled target may be selected, another is RUN_TARGET_MISMATCH) and gives the thread fresh memories;
// SetDefaultArch(arch) does so, under the same rule, for every thread that makes no selection of its own.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include <pto/common/type.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_matmul.hpp>
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

    // The architecture of every thread that does not Initialize its own.
    static void SetDefaultArch(NPUArch arch)
    {
        runtime::select_default_target(target_of(arch));
        default_arch() = arch;
    }

    void Initialize(NPUArch arch)
    {
        runtime::select_thread_target(target_of(arch));
        arch_ = arch;
        initialized_ = true;
        clear_registers();
    }
    bool IsInitialized() const { return initialized_; }
    // A block of a launch answers with its launching thread's selection, whichever thread runs it.
    NPUArch GetArch() const
    {
        if (initialized_) return arch_;
        if (const auto t = runtime::selected_thread_target()) return *t == profile::Target::A5 ? NPUArch::A5 : NPUArch::A2A3;
        return default_arch();
    }

    // Every memory of the thread's core fresh again (zero; poisoned in checked mode), registers zero.
    void Clear()
    {
        runtime::clear_memories();
        clear_registers();
    }
    // Back to the default architecture, with fresh memories and zero registers.
    void Reset()
    {
        runtime::reset_thread_target();
        initialized_ = false;
        clear_registers();
    }

    char* GetUBBase() { return base(TileType::Vec); }
    char* GetL1Base() { return base(TileType::Mat); }
    char* GetL0ABase() { return base(TileType::Left); }
    char* GetL0BBase() { return base(TileType::Right); }
    char* GetL0CBase() { return base(TileType::Acc); }
    // The thread's 16 64-bit configuration registers (the public simulator's REG region): SET_QUANT_SCALAR
    // and SET_QUANT_VECTOR write registers 0 and 1, the fixpipe of TPUSH<Pipe, TileProd, TConfig> reads them.
    // They start over, zero, with each core the thread runs (each block of a launch).
    char* GetREGBase() { return reinterpret_cast<char*>(current_registers().data()); }
    // Register `index` as an instruction writes it, and as one reads it: empty when no instruction has
    // written it since the core's registers were last cleared.
    void WriteRegister(uint32_t index, uint64_t value)
    {
        current_registers().at(index) = value;
        written_ |= 1u << index;
    }
    std::optional<uint64_t> ReadRegister(uint32_t index)
    {
        const auto& registers = current_registers();  // first: another core's registers are unset here
        if (!(written_ >> index & 1u)) return std::nullopt;
        return registers.at(index);
    }

    // The on-chip address of p: its byte offset in the memory of the thread's core that holds it (0 when
    // no on-chip memory holds it).
    uint64_t GetNPUAddr(const void* p) const
    {
        const auto* byte = static_cast<const std::byte*>(p);
        for (TileType loc : {TileType::Vec, TileType::Mat, TileType::Left, TileType::Right, TileType::Acc, TileType::Bias,
                             TileType::Scaling, TileType::ScaleLeft, TileType::ScaleRight}) {
            const std::byte* first = runtime::memory_base(loc);
            if (first && byte >= first && byte < first + runtime::memory_size(loc)) return uint64_t(byte - first);
        }
        return 0;
    }

private:
    void clear_registers()
    {
        registers_ = {};
        written_ = 0;
        epoch_ = runtime::core_epoch();
    }
    std::array<uint64_t, 16>& current_registers()
    {
        if (epoch_ != runtime::core_epoch()) clear_registers();
        return registers_;
    }
    static char* base(TileType loc) { return reinterpret_cast<char*>(runtime::memory_base(loc)); }
    static profile::Target target_of(NPUArch arch)
    {
        return arch == NPUArch::A5 ? profile::Target::A5 : profile::Target::A2A3;
    }
    static NPUArch& default_arch()
    {
        static NPUArch arch = NPUArch::A2A3;
        return arch;
    }

    NPUArch arch_ = NPUArch::A2A3;
    bool initialized_ = false;
    std::array<uint64_t, 16> registers_{};
    uint32_t written_ = 0;  // a bit per register
    uint64_t epoch_ = 0;    // of the core they belong to
};

// A Left or Right tile's MX scales live at its address shifted right by SHIFT_MX_ADDR (TGET_SCALE_ADDR
// binds a scale tile there; rules::kMxScaleShift).
constexpr uint32_t SHIFT_MX_ADDR = rules::kMxScaleShift;

template <typename T>
uint64_t GetScaleAddr(T* p)
{
    return NPUMemoryModel::Instance().GetNPUAddr(p) >> SHIFT_MX_ADDR;
}

}  // namespace pto

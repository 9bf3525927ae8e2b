// The engine's instructions, derived from the one list of them (pto/isa/instructions.def). Each has a
// definition (src/engine/definition.hpp) that both front doors read; a test proves that each door
// reaches every one.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace pto::engine {

enum class Instr : uint16_t {
#define PTO_INSTRUCTION(NAME) NAME,
#include <pto/isa/instructions.def>
#undef PTO_INSTRUCTION
    Count,
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Instr::Count)> kInstrNames = {
#define PTO_INSTRUCTION(NAME) #NAME,
#include <pto/isa/instructions.def>
#undef PTO_INSTRUCTION
};

constexpr std::string_view instr_name(Instr i) { return kInstrNames[static_cast<std::size_t>(i)]; }

}  // namespace pto::engine

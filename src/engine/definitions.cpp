// The table of every instruction's definition, in the order of pto/isa/instructions.def.
#include "engine/definition.hpp"

namespace pto::engine {

namespace {

constexpr const InstrDef* kDefinitions[] = {
#define PTO_INSTRUCTION(NAME) &definitions::NAME,
#include <pto/isa/instructions.def>
#undef PTO_INSTRUCTION
};
static_assert(std::size(kDefinitions) == std::size_t(Instr::Count));

}  // namespace

std::span<const InstrDef* const> instruction_definitions() { return kDefinitions; }

const InstrDef& definition_of(Instr instr) { return *kDefinitions[std::size_t(instr)]; }

pipe_t instruction_pipe(Instr instr, TileType src, TileType dst) { return definition_of(instr).pipe(src, dst); }

}  // namespace pto::engine

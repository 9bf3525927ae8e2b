// The table of every instruction's definition, in the order of pto/isa/instructions.def.
#include "engine/definition.hpp"

#include <pto/numeric/convert.hpp>

#include <cmath>

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

ScalarBits encode_scalar(DType dtype, const ScalarValue& value)
{
    ScalarBits bits = 0;
    if (dtype_is_float(dtype)) {
        numeric::from_double(dtype, &bits, 0, value.as_double(), RoundMode::CAST_RINT, SaturationMode::OFF);
        return bits;
    }
    const int64_t integer = value.is_float ? std::llrint(value.f) : value.i;
    const int width = dtype_bits(dtype);
    return width >= 64 ? ScalarBits(integer) : ScalarBits(integer) & ((ScalarBits{1} << width) - 1);
}

pipe_t instruction_pipe(Instr instr, TileType src, TileType dst) { return definition_of(instr).pipe(src, dst); }

}  // namespace pto::engine

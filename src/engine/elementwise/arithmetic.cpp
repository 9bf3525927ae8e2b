// TADD, TSUB, TMUL, TDIV: the element-wise tile-tile arithmetic, four operations over the one binary
// kernel (binary_kernel.hpp).
#include <pto/engine/ops/elementwise.hpp>

#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <concepts>
#include <limits>
#include <string>
#include <type_traits>

#include "engine/elementwise/binary_kernel.hpp"
#include "engine/elementwise/operations.hpp"

namespace pto::engine {

namespace {

using namespace elementwise;

}  // namespace

void tadd(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TADD");
    run_binary_instruction<Add, rules::tadd_dtype_ok>("LEGAL_TADD_DTYPE", dst, src0, src1);
}

void tsub(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TSUB");
    run_binary_instruction<Sub, rules::tsub_dtype_ok>("LEGAL_TSUB_DTYPE", dst, src0, src1);
}

void tmul(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TMUL");
    run_binary_instruction<Mul, rules::tmul_dtype_ok>("LEGAL_TMUL_DTYPE", dst, src0, src1);
}

void tdiv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, DivAlgorithm /*algorithm*/)
{
    // Both algorithms yield the correctly rounded IEEE quotient here; the device's DEFAULT algorithm
    // trades accuracy for speed in an undocumented way that a simulator cannot reproduce.
    runtime::InstructionScope scope("TDIV");
    run_binary_instruction<Div, rules::tdiv_dtype_ok>("LEGAL_TDIV_DTYPE", dst, src0, src1);
}

}  // namespace pto::engine

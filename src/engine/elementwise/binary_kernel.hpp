// The kernel every element-wise binary tile-tile instruction runs: dst(r, c) = Op(src0(r, c), src1(r, c))
// over dst's valid region, for one element type T, chosen once per call by the caller. Op is a
// two-operand functor of operations.hpp; the kernel is ElementKernel's two-tile form, which also runs
// Op's check_sources before anything is written.
//
// Included by the .cpp of each instruction family, which instantiates it: no kernel lives in a
// public header.
#pragma once

#include <pto/engine/access.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/elementwise/binary_operands.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/element_kernel.hpp"

namespace pto::engine::elementwise {

template <typename Op, typename T>
struct BinaryKernel {
    static void run(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
    {
        ElementKernel<Op, T, 2>::run(dst, {Operand::tile(src0), Operand::tile(src1)});
    }
};

// A binary instruction from its operands to its written destination: the operand checks, the checked-mode
// bookkeeping, the element type chosen once, the kernel. `DTypeOk` is the instruction's element-type
// rule (reported as `dtype_code`); only the types the cpu profile allows get a kernel instantiated.
// The caller opens the runtime::InstructionScope naming the instruction.
template <typename Op, bool (*DTypeOk)(const profile::Profile&, DType)>
void run_binary_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    const BinaryRules rules{dtype_code, DTypeOk};
    StopAtFirstFinding stop;
    check_binary_operands(runtime::active_profile(), rules, dst, src0, src1, stop);
    require_written(src0, "src0");
    require_written(src1, "src1");
    const bool ran = visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        if constexpr (DTypeOk(profile::kCpu, dtype_of<T>)) {
            BinaryKernel<Op, T>::run(dst, src0, src1);
            return true;
        } else {
            return false;
        }
    });
    if (!ran) fail_no_kernel(rules, dst.dtype);
    mark_written(dst);
}

}  // namespace pto::engine::elementwise

// An element-wise instruction from its operands to its written destination, one template per operand
// kind: the operand checks, the checked-mode bookkeeping, the element type chosen once, the kernel of the
// instruction's functor. `DTypeOk` is the instruction's element-type rule (reported as `dtype_code`);
// only the types the cpu profile allows get a kernel instantiated. The caller opens the
// runtime::InstructionScope naming the instruction.
#pragma once

#include <pto/engine/access.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/legality.hpp>
#include <pto/engine/ops/elementwise.hpp>
#include <pto/profile/rules_elementwise.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/elementwise/binary_kernel.hpp"
#include "engine/elementwise/binary_operands.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/math_kernel.hpp"
#include "engine/elementwise/scalar_kernel.hpp"
#include "engine/elementwise/ternary_kernel.hpp"
#include "engine/elementwise/unary_kernel.hpp"

namespace pto::engine::elementwise {

using DTypeRule = bool (*)(const profile::Profile&, DType);

// Whether an instruction reads dst's old value (TMULADDDST, TAXPY, ...).
enum class ReadsDst : bool { No, Yes };

// Checks the operands (in checked mode, WARN_CPU_ONLY for what only the cpu profile takes: an element type
// of the row's CPU_DTYPES, a layout), requires the sources written, runs `kernel.template operator()<T>()`
// for dst's element type and marks dst written.
template <DTypeRule DTypeOk, typename Kernel>
void run_instruction(const char* dtype_code, const TileDesc& dst, std::initializer_list<NamedTile> sources,
                     Kernel&& kernel, ReadsDst reads_dst = ReadsDst::No)
{
    const BinaryRules rules{dtype_code, DTypeOk};
    const std::span<const NamedTile> named(sources.begin(), sources.size());
    StopAtFirstFinding stop;
    check_elementwise_operands(runtime::active_profile(), rules, dst, named, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& sink) {
        check_elementwise_operands(p, rules, dst, named, sink);
    });
    for (const NamedTile& source : sources) require_written(source.tile, source.name);
    if (reads_dst == ReadsDst::Yes) require_written(dst, "dst");
    const bool ran = visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        if constexpr (DTypeOk(profile::kCpu, dtype_of<T>)) {
            kernel.template operator()<T>();
            return true;
        } else {
            return false;
        }
    });
    if (!ran) fail_no_kernel(rules, dst.dtype);
    mark_written(dst);
}

template <typename Op, DTypeRule DTypeOk>
void run_unary_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{src, "src"}}, [&]<typename T>() { UnaryKernel<Op, T>::run(dst, src); });
}

template <typename Op, DTypeRule DTypeOk>
void run_binary_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{src0, "src0"}, {src1, "src1"}},
                             [&]<typename T>() { BinaryKernel<Op, T>::run(dst, src0, src1); });
}

template <typename Op, DTypeRule DTypeOk>
void run_scalar_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src, ScalarBits scalar,
                            ScalarSide side)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{src, "src"}},
                             [&]<typename T>() { ScalarKernel<Op, T>::run(dst, src, scalar, side); });
}

// Three operands, each a tile, a scalar or dst's old value (ternary_kernel.hpp).
template <typename Op, DTypeRule DTypeOk>
void run_ternary_instruction(const char* dtype_code, const TileDesc& dst, std::initializer_list<NamedTile> tiles,
                             const Operand& a, const Operand& b, const Operand& c)
{
    const bool reads_dst = a.kind() == Operand::Kind::Destination || b.kind() == Operand::Kind::Destination ||
                           c.kind() == Operand::Kind::Destination;
    run_instruction<DTypeOk>(dtype_code, dst, tiles, [&]<typename T>() { TernaryKernel<Op, T>::run(dst, a, b, c); },
                             reads_dst ? ReadsDst::Yes : ReadsDst::No);
}

// TAXPY's widening form: dst = scalar * src0 + dst in f32, src0 and scalar f16 (widening_axpy.cpp).
void run_widening_axpy(const BinaryRules& rules, const TileDesc& dst, const TileDesc& src0, ScalarBits scalar);

// TAXPY: the three-operand kernel when src0 has dst's type; an f16 src0 into an f32 dst widens.
template <typename Op, DTypeRule DTypeOk>
void run_axpy_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src0, ScalarBits scalar)
{
    if (dst.dtype == DType::F32 && src0.dtype == DType::F16) {
        run_widening_axpy({dtype_code, DTypeOk, rules::taxpy_source_dtype_ok}, dst, src0, scalar);
        return;
    }
    run_ternary_instruction<Op, DTypeOk>(dtype_code, dst, {{src0, "src0"}}, Operand::tile(src0), Operand::scalar(scalar),
                                         Operand::destination());
}

// The device computes the DEFAULT algorithm where HIGH_PRECISION is not implemented (a2a3); so does the
// simulation of that target.
inline MathAccuracy math_accuracy(int precision)
{
    return precision != 0 && runtime::active_profile().target != profile::Target::A2A3 ? MathAccuracy::High
                                                                                       : MathAccuracy::Default;
}

template <DTypeRule DTypeOk>
void run_math_instruction(const char* dtype_code, MathFn fn, int precision, const TileDesc& dst, const TileDesc& src)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{src, "src"}}, [&]<typename T>() { math_kernel(fn, math_accuracy(precision), dst, src); });
}

template <DTypeRule DTypeOk>
void run_pow_instruction(const char* dtype_code, int precision, const TileDesc& dst, const TileDesc& base,
                         const TileDesc& exponent)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{base, "base"}, {exponent, "exp"}},
                             [&]<typename T>() { pow_kernel(math_accuracy(precision), dst, base, &exponent, 0); });
}

template <DTypeRule DTypeOk>
void run_pow_scalar_instruction(const char* dtype_code, int precision, const TileDesc& dst, const TileDesc& base,
                                ScalarBits exponent)
{
    run_instruction<DTypeOk>(dtype_code, dst, {{base, "base"}},
                             [&]<typename T>() { pow_kernel(math_accuracy(precision), dst, base, nullptr, exponent); });
}

}  // namespace pto::engine::elementwise

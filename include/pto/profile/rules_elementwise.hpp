// Legality rules of the element-wise instructions, one constexpr predicate per rule. The intrinsics call
// them in static_assert; the engine calls the same predicates at run time and reports the rule's code.
#pragma once

#include <cstdint>
#include <initializer_list>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

namespace elementwise {

// A set of element types, one bit per engine::DType.
class DTypeSet {
public:
    constexpr DTypeSet() = default;
    constexpr DTypeSet(std::initializer_list<engine::DType> types)
    {
        for (engine::DType t : types) bits_ |= bit(t);
    }
    constexpr bool contains(engine::DType t) const { return (bits_ & bit(t)) != 0; }
    constexpr DTypeSet operator|(DTypeSet other) const { return DTypeSet(bits_ | other.bits_); }

private:
    constexpr explicit DTypeSet(uint32_t bits) : bits_(bits) {}
    static constexpr uint32_t bit(engine::DType t) { return uint32_t{1} << static_cast<unsigned>(t); }
    uint32_t bits_ = 0;
};

// The element types an instruction accepts on each real target, and those only the cpu profile adds.
// The cpu profile accepts the union of the three, so that a kernel written for either target, or for the
// public CPU simulation, runs on it.
struct TargetDTypes {
    DTypeSet a2a3;
    DTypeSet a5;
    DTypeSet cpu_only = {};

    constexpr DTypeSet on(profile::Target t) const
    {
        switch (t) {
            case profile::Target::A2A3: return a2a3;
            case profile::Target::A5: return a5;
            case profile::Target::Cpu: break;
        }
        return a2a3 | a5 | cpu_only;
    }
};

// The element types of each element-wise instruction, from its row in pto/isa/instructions.def:
// k<NAME>DTypes.
#define PTO_ISA_DTYPES(...) __VA_ARGS__
#define PTO_ELEMENTWISE(NAME, entry, Op, Kind, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    inline constexpr TargetDTypes k##NAME##DTypes{                                                  \
        {PTO_ISA_DTYPES A2A3_DTYPES}, {PTO_ISA_DTYPES A5_DTYPES}, {PTO_ISA_DTYPES CPU_DTYPES}};
using enum engine::DType;
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE

}  // namespace elementwise

// Rules LEGAL_<NAME>_DTYPE (`<entry>_dtype_ok`, e.g. tadd_dtype_ok): the element type is one the
// profile's target supports for the instruction (the cpu profile: also its CPU_DTYPES).
#define PTO_ELEMENTWISE(NAME, entry, Op, Kind, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    constexpr bool entry##_dtype_ok(const profile::Profile& p, engine::DType t)            \
    {                                                                                        \
        return elementwise::k##NAME##DTypes.on(p.target).contains(t);                        \
    }
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
#undef PTO_ISA_DTYPES

// Rules LEGAL_TADDRELUCONV_DTYPE and LEGAL_TSUBRELUCONV_DTYPE: relu(src0 +- src1) converted, from one
// source type to the documented destination (every target).
constexpr bool relu_conversion_pair_ok(engine::DType dst, engine::DType src)
{
    using enum engine::DType;
    return (src == F32 && dst == F16) || (src == F16 && dst == I8) || (src == I16 && dst == I8);
}

// Rule LEGAL_TADDDEQRELU_DTYPE: two int32 sources, an f16 result (every target).
constexpr bool tadddeqrelu_dtype_ok(engine::DType dst, engine::DType src0, engine::DType src1)
{
    return dst == engine::DType::F16 && src0 == engine::DType::I32 && src1 == engine::DType::I32;
}

// Rule LEGAL_ELEMWISE_DTYPE: every operand has the destination's element type.
constexpr bool elementwise_same_dtype(engine::DType dst, engine::DType src) { return dst == src; }

// Rule LEGAL_ELEMWISE_DTYPE for TAXPY: src0 has dst's element type, or is f16 accumulated into an f32 dst
// (every target; the page's one widening form).
constexpr bool taxpy_source_dtype_ok(engine::DType dst, engine::DType src)
{
    return dst == src || (dst == engine::DType::F32 && src == engine::DType::F16);
}

// Rule LEGAL_ELEMWISE_LOCATION: element-wise arithmetic runs on the vector unit, on tiles in UB.
constexpr bool elementwise_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_ELEMWISE_LAYOUT: the real targets take unboxed row-major tiles only; the cpu profile
// takes every layout, including operands whose layouts differ.
constexpr bool elementwise_layout_ok(const profile::Profile& p, BLayout b, SLayout s)
{
    return p.target == profile::Target::Cpu || (b == BLayout::RowMajor && s == SLayout::NoneBox);
}

// Rule RUN_VALID_SHAPE: a source's valid shape equals the destination's. A DYNAMIC extent is only
// known at run time, so at compile time it satisfies the rule.
constexpr bool elementwise_valid_extent_ok(int dst_extent, int src_extent)
{
    return dst_extent == DYNAMIC || src_extent == DYNAMIC || dst_extent == src_extent;
}

}  // namespace pto::rules

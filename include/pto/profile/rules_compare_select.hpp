// Legality rules of the comparison and selection instructions (TCMP, TCMPS, TSEL, TSELS), one constexpr
// predicate per rule, with its code in the comment above it. The intrinsics call them in
// static_assert; the engine and the verifier call the same predicates.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_elementwise.hpp>

namespace pto::rules {

namespace compare_select {
using enum engine::DType;
using elementwise::TargetDTypes;
inline constexpr TargetDTypes kTcmpDTypes{{I32, F16, F32}, {U32, I32, U16, I16, U8, I8, F32, F16, BF16}};
inline constexpr TargetDTypes kTcmpsDTypes{{I32, F32, F16, U16, I16}, {I32, U32, F32, I16, U16, F16, U8, I8, BF16}};
inline constexpr TargetDTypes kTselDTypes{{I16, U16, I32, U32, F16, BF16, F32},
                                          {I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32}};
inline constexpr TargetDTypes kTselsDTypes{{I16, U16, I32, U32, F16, BF16, F32},
                                           {I8, U8, I16, U16, I32, U32, I64, U64, F16, F32}};
// The predicate mask's element type: 8 predicates per uint8 on A2/A3, 32 per uint32 on A5.
inline constexpr TargetDTypes kMaskDTypes{{U8}, {U32}};
}  // namespace compare_select

// Rules LEGAL_TCMP_DTYPE, LEGAL_TCMPS_DTYPE, LEGAL_TSEL_DTYPE, LEGAL_TSELS_DTYPE: the compared or
// selected element type is one the profile's target supports.
constexpr bool tcmp_dtype_ok(const profile::Profile& p, engine::DType t) { return compare_select::kTcmpDTypes.on(p.target).contains(t); }
constexpr bool tcmps_dtype_ok(const profile::Profile& p, engine::DType t) { return compare_select::kTcmpsDTypes.on(p.target).contains(t); }
constexpr bool tsel_dtype_ok(const profile::Profile& p, engine::DType t) { return compare_select::kTselDTypes.on(p.target).contains(t); }
constexpr bool tsels_dtype_ok(const profile::Profile& p, engine::DType t) { return compare_select::kTselsDTypes.on(p.target).contains(t); }

// Rule LEGAL_PREDICATE_MASK_DTYPE: the packed predicate mask a comparison writes has the target's mask
// element type (uint8 on a2a3, uint32 on a5, either on cpu). A selection reads any unsigned mask type.
constexpr bool predicate_mask_dtype_ok(const profile::Profile& p, engine::DType t)
{
    return compare_select::kMaskDTypes.on(p.target).contains(t);
}
constexpr bool selection_mask_dtype_ok(engine::DType t)
{
    return t == engine::DType::U8 || t == engine::DType::U16 || t == engine::DType::U32;
}

// Rule LEGAL_TCMP_INT32_MODE: A2/A3 compares int32 tiles for equality only, whatever the mode asks
// (the device silently compares EQ); ptosim refuses the other modes there instead.
constexpr bool int32_compare_mode_ok(const profile::Profile& p, engine::DType t, CmpMode mode)
{
    return p.target != profile::Target::A2A3 || t != engine::DType::I32 || mode == CmpMode::EQ;
}

// The words of packed predicate mask one row of `columns` elements needs, for a mask element of
// `mask_bits` bits.
constexpr int predicate_words(int columns, int mask_bits) { return (columns + mask_bits - 1) / mask_bits; }

}  // namespace pto::rules

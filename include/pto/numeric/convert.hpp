// Element-wise conversion between tile element types, as TCVT performs it: which (destination,
// source) pairs each target allows, the defaults the ISA picks, and the bit-exact conversion itself
// for every RoundMode and SaturationMode. The semantics are listed in src/numeric/convert.cpp.
//
// Counting convention for packed types. `count` and `index` count elements, and an element of the
// packed 4-bit types (I4, F4E2M1x2, F4E1M2x2) is one 4-bit value: element i is in byte i / 2, in the
// low nibble when i is even.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::numeric {

namespace detail {

constexpr uint32_t dtype_bit(engine::DType t)
{
    return uint32_t{1} << static_cast<int>(t);
}

template <class... T>
constexpr uint32_t dtype_set(T... types)
{
    return (uint32_t{0} | ... | dtype_bit(types));
}

// The TCVT page's table of supported conversions: for each source type, the destination types.
// A2/A3 (Atlas A2/A3) and A5 (Ascend 950) differ; the page lists both side by side.
constexpr uint32_t a2a3_destinations(engine::DType src)
{
    using enum engine::DType;
    switch (src) {
        case F32: return dtype_set(F16, F32, BF16, I16, I32, I64);
        case F16: return dtype_set(F32, I32, I16, I8, U8, I4);
        case BF16: return dtype_set(F32, I32);
        case I16: return dtype_set(F16, F32);
        case I32: return dtype_set(F32, I16, I64, F16);  // I32 -> F16 is the A2/A3 "deq" path
        case I64: return dtype_set(F32, I32);
        case U8: return dtype_set(F16);
        case I8: return dtype_set(F16);
        case I4: return dtype_set(F16);
        default: return 0;
    }
}

constexpr uint32_t a5_destinations(engine::DType src)
{
    using enum engine::DType;
    switch (src) {
        case F32: return dtype_set(F32, F16, BF16, I16, I32, I64, F8E4M3, F8E5M2, HiF8);
        case F16: return dtype_set(F32, I32, I16, I8, U8, HiF8);
        case BF16: return dtype_set(F32, I32, F16, F4E1M2x2, F4E2M1x2);
        case I16: return dtype_set(U8, F16, F32, U32, I32);
        case I32: return dtype_set(F32, I16, U16, I64, U8);
        case I64: return dtype_set(F32, I32);
        case U8: return dtype_set(F16, U16);
        case I8: return dtype_set(F16, I16, I32);
        case U32: return dtype_set(U8, U16, I16);
        case F8E4M3: return dtype_set(F32);
        case F8E5M2: return dtype_set(F32);
        case HiF8: return dtype_set(F32);
        case F4E1M2x2: return dtype_set(BF16);
        case F4E2M1x2: return dtype_set(BF16);
        default: return 0;
    }
}

}  // namespace detail

// Whether TCVT converts src to dst on `target`. The cpu profile is permissive: it allows the union
// of the real targets.
constexpr bool conversion_allowed_on(profile::Target target, engine::DType dst, engine::DType src)
{
    uint32_t destinations = 0;
    switch (target) {
        case profile::Target::A2A3: destinations = detail::a2a3_destinations(src); break;
        case profile::Target::A5: destinations = detail::a5_destinations(src); break;
        case profile::Target::Cpu:
            destinations = detail::a2a3_destinations(src) | detail::a5_destinations(src);
            break;
    }
    return (destinations & detail::dtype_bit(dst)) != 0;
}

// Whether any target's TCVT converts src to dst.
constexpr bool conversion_allowed(engine::DType dst, engine::DType src)
{
    return conversion_allowed_on(profile::Target::Cpu, dst, src);
}

// The saturation TCVT uses when the call names none. The narrowing conversions PyTorch performs by
// keeping the low bits default to OFF so results match a PyTorch golden; all others default to ON.
// (A2/A3 lists I64 -> I32 among them, A5 does not; the union is used.)
constexpr SaturationMode default_saturation(engine::DType dst, engine::DType src)
{
    using enum engine::DType;
    const bool pytorch_narrowing = (src == F16 && (dst == U8 || dst == I8 || dst == I16)) ||
                                   (src == F32 && dst == I16) || (src == I32 && dst == I16) ||
                                   (src == I64 && dst == I32);
    return pytorch_narrowing ? SaturationMode::OFF : SaturationMode::ON;
}

// The rounding CAST_NONE stands for: RINT wherever the conversion loses precision (the Ascend
// definition of CAST_NONE), except into HiF8, whose only round-to-nearest is ties away (CAST_ROUND).
// Every other mode stands for itself.
constexpr RoundMode effective_round_mode(engine::DType dst, RoundMode mode)
{
    if (mode != RoundMode::CAST_NONE) return mode;
    return dst == engine::DType::HiF8 ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT;
}

// Converts `count` elements of src (type srcType) into dst (type dstType), rounding each value once
// with `mode` and handling out-of-range values and NaN as `sat` says. Works for every pair of types,
// not only those conversion_allowed() accepts. F32 -> F32 is the ISA's round-only form: each value
// rounds to an integral value. A destination I4 element that shares its byte with one outside the
// range keeps that neighbour (so does a 4-bit float's). src and dst must not overlap.
void convert(engine::DType dstType, void* dst, engine::DType srcType, const void* src, std::size_t count,
             RoundMode mode, SaturationMode sat);

// Value `index` of a buffer of type t, as a double (exact except for 64-bit integers beyond 2^53,
// which round to nearest even).
double to_double(engine::DType t, const void* storage, std::size_t index);

// Stores v as value `index` of a buffer of type t, rounded once as convert() would from a binary64
// source.
void from_double(engine::DType t, void* storage, std::size_t index, double v, RoundMode mode, SaturationMode sat);

}  // namespace pto::numeric

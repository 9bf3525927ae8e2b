// How the element-wise kernels hold and compute each element type (Format<T>), and the one switch from
// a run-time element type to the C++ type the kernels are instantiated for.
#pragma once

#include <pto/common/numeric.hpp>
#include <pto/engine/dtype.hpp>

#include <bit>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace pto::engine::elementwise {

// How the kernels hold and compute each element type: the storage of one element, the type `apply`
// computes in, the exact widening into it, and the single rounding of a result back to the storage.
// half and bfloat16 use the conversions of pto/common/numeric.hpp, so they round exactly as the C++
// element types and TCVT do.
template <typename T>
struct Format;

template <>
struct Format<float> {
    using Storage = float;
    using Compute = float;
    static Compute widen(Storage v) { return v; }
    static Storage narrow(Compute result) { return result; }
};

// One rounding of the float result is the correctly rounded half result for +, -, *, /: float has
// 24 >= 2*11+2 significand bits, and every such result of halves is a normal float.
template <>
struct Format<half> {
    using Storage = uint16_t;
    using Compute = float;
    static Compute widen(Storage v) { return static_cast<float>(half::from_bits(v)); }
    static Storage narrow(Compute result) { return half(result).bits; }
};

// bfloat16 results of +, -, * are correctly rounded from float as well: the float result is exact
// wherever float is short of bits (a sum of bfloat16 subnormals is a multiple of 2^-133; a product has
// at most 16 significant bits, exact in float down to 2^-134, and below that rounds to 0 in bfloat16
// either way), and elsewhere float has 24 >= 2*8+2 bits. So are quotients (the cpu profile's bf16
// TDIV): float's grid is 2^16 times finer than bfloat16's in every binade, subnormals included (2^-149
// against 2^-133), and a quotient of two 8-bit significands that is not a bfloat16 midpoint lies at
// least 2^-9 of a bfloat16 unit away from one, so float never rounds it onto one (checked for every
// pair with a quotient below 2^-124 or an operand that is zero, subnormal, infinite or NaN). fmod is
// exact, and TREM's correction is one addition.
template <>
struct Format<bfloat16_t> {
    using Storage = uint16_t;
    using Compute = float;
    static Compute widen(Storage v) { return static_cast<float>(bfloat16_t::from_bits(v)); }
    static Storage narrow(Compute result) { return bfloat16_t(result).bits; }
};

template <std::integral T>
struct Format<T> {
    using Storage = T;
    using Compute = T;
    static Compute widen(Storage v) { return v; }
    static Storage narrow(Compute result) { return result; }
};

// The storage of a scalar operand, which arrives as its bit pattern in the element's encoding (the low
// bits of `bits`: a float's 32 bits, a half's 16, an integer's two's complement).
template <typename T>
typename Format<T>::Storage storage_from_bits(uint64_t bits)
{
    using S = typename Format<T>::Storage;
    if constexpr (std::is_same_v<S, float>) return std::bit_cast<float>(static_cast<uint32_t>(bits));
    else return static_cast<S>(bits);
}

// Calls fn.template operator()<T>() with the C++ element type of `dtype`, for the types the element-wise
// kernels compute; false for any other type.
template <typename Fn>
bool visit_arithmetic_type(DType dtype, Fn&& fn)
{
    switch (dtype) {
        case DType::F32: return fn.template operator()<float>();
        case DType::F16: return fn.template operator()<half>();
        case DType::BF16: return fn.template operator()<bfloat16_t>();
        case DType::I8: return fn.template operator()<int8_t>();
        case DType::I16: return fn.template operator()<int16_t>();
        case DType::I32: return fn.template operator()<int32_t>();
        case DType::I64: return fn.template operator()<int64_t>();
        case DType::U8: return fn.template operator()<uint8_t>();
        case DType::U16: return fn.template operator()<uint16_t>();
        case DType::U32: return fn.template operator()<uint32_t>();
        case DType::U64: return fn.template operator()<uint64_t>();
        default: return false;
    }
}

}  // namespace pto::engine::elementwise

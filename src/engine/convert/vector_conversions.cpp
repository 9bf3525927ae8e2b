// The vectorised conversions of vector_conversions.hpp, written once with Highway and compiled for each
// SIMD target it knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the
// best one the running CPU supports. Each vector is loaded before its result is stored, so dst may be
// src itself.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/convert/vector_conversions.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <pto/numeric/convert.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "engine/convert/vector_conversions.hpp"
#include "engine/simd/float16_bits-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::convert {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using D16 = hn::Rebind<uint16_t, DF>;

// Calls step(i) for each whole vector [i, i + Lanes) of `count` elements; returns how many it covered.
template <class Step>
HWY_INLINE std::size_t for_each_vector(std::size_t count, Step step)
{
    const std::size_t lanes = hn::Lanes(DF());
    std::size_t i = 0;
    for (; i + lanes <= count; i += lanes) step(i);
    return i;
}

HWY_INLINE std::size_t half_to_float(float* out, const uint16_t* in, std::size_t count)
{
    const DF df;
    const D16 d16;
    return for_each_vector(count, [&](std::size_t i) { hn::StoreU(HalfBits::widen(df, hn::LoadU(d16, in + i)), df, out + i); });
}

// The bfloat16 bits become the upper half of the float's; a NaN is made quiet.
HWY_INLINE std::size_t bfloat16_to_float(uint32_t* out, const uint16_t* in, std::size_t count)
{
    const DU du;
    const DI di;
    const D16 d16;
    return for_each_vector(count, [&](std::size_t i) {
        const auto bits = hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, in + i)));
        const auto magnitude = hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7fffffff)));
        const auto is_nan = hn::RebindMask(du, magnitude > hn::Set(di, 0x7f800000));
        hn::StoreU(hn::Or(bits, hn::IfThenElseZero(is_nan, hn::Set(du, 0x400000))), du, out + i);
    });
}

// float -> half or bfloat16 (Format), nearest even. Saturating, NaN becomes +0 and a result that rounded
// to infinity (an infinity, or a finite value past the largest) the largest finite value of its sign.
template <class Format>
HWY_INLINE std::size_t narrow_float(uint16_t* out, const float* in, std::size_t count, bool saturate,
                                    uint16_t infinity)
{
    const DF df;
    const D16 d16;
    if (!saturate) {
        return for_each_vector(count, [&](std::size_t i) {
            hn::StoreU(Format::narrow(df, d16, hn::LoadU(df, in + i)), d16, out + i);
        });
    }
    return for_each_vector(count, [&](std::size_t i) {
        const auto v = hn::LoadU(df, in + i);
        const auto rounded = Format::narrow(df, d16, hn::IfThenZeroElse(hn::IsNaN(v), v));
        const auto overflowed = hn::And(rounded, hn::Set(d16, 0x7fff)) == hn::Set(d16, infinity);
        hn::StoreU(hn::IfThenElse(overflowed, hn::Sub(rounded, hn::Set(d16, 1)), rounded), d16, out + i);
    });
}

// v rounded to an integral value in direction M; CAST_ODD truncates here and fixes the last bit later.
template <RoundMode M>
HWY_INLINE hn::Vec<DF> round_integral(DF df, hn::Vec<DF> v)
{
    if constexpr (M == RoundMode::CAST_RINT) return hn::Round(v);
    if constexpr (M == RoundMode::CAST_FLOOR) return hn::Floor(v);
    if constexpr (M == RoundMode::CAST_CEIL) return hn::Ceil(v);
    if constexpr (M == RoundMode::CAST_ROUND) {  // v - trunc(v) is exact, so the tie test is too
        const auto truncated = hn::Trunc(v);
        const auto away = hn::Abs(hn::Sub(v, truncated)) >= hn::Set(df, 0.5f);
        return hn::Add(truncated, hn::IfThenElseZero(away, hn::CopySign(hn::Set(df, 1.0f), v)));
    }
    return hn::Trunc(v);  // CAST_TRUNC, CAST_ODD
}

// float -> int32, saturating: NaN becomes 0, values beyond the range its ends.
template <RoundMode M>
HWY_INLINE std::size_t float_to_int32(int32_t* out, const float* in, std::size_t count)
{
    const DF df;
    const DI di;
    return for_each_vector(count, [&](std::size_t i) {
        const auto v = hn::LoadU(df, in + i);
        const auto integral = hn::IfThenZeroElse(hn::IsNaN(v), round_integral<M>(df, v));
        // Clamped into int32 before the conversion, so that no target's out-of-range behaviour matters.
        const auto in_range = hn::Min(hn::Max(integral, hn::Set(df, -0x1p31f)), hn::Set(df, 0x1.fffffep30f));
        auto result = hn::ConvertTo(di, in_range);
        result = hn::IfThenElse(hn::RebindMask(di, integral >= hn::Set(df, 0x1p31f)),
                                hn::Set(di, std::numeric_limits<int32_t>::max()), result);
        if constexpr (M == RoundMode::CAST_ODD) {  // an inexact even magnitude moves one away from zero
            const auto inexact = hn::RebindMask(di, hn::Abs(hn::Sub(v, integral)) > hn::Zero(df));  // NaN: false
            const auto even = hn::And(result, hn::Set(di, 1)) == hn::Zero(di);
            const auto away = hn::IfThenElse(hn::RebindMask(di, v < hn::Zero(df)), hn::Set(di, -1), hn::Set(di, 1));
            result = hn::Add(result, hn::IfThenElseZero(hn::And(inexact, even), away));
        }
        hn::StoreU(result, di, out + i);
    });
}

// int32 -> float, nearest even (the conversion instruction's rounding in the default environment).
HWY_INLINE std::size_t int32_to_float(float* out, const int32_t* in, std::size_t count)
{
    const DF df;
    const DI di;
    return for_each_vector(count, [&](std::size_t i) { hn::StoreU(hn::ConvertTo(df, hn::LoadU(di, in + i)), df, out + i); });
}

HWY_INLINE std::size_t float_to_int32(RoundMode mode, int32_t* out, const float* in, std::size_t count)
{
    switch (mode) {
        case RoundMode::CAST_RINT: return float_to_int32<RoundMode::CAST_RINT>(out, in, count);
        case RoundMode::CAST_ROUND: return float_to_int32<RoundMode::CAST_ROUND>(out, in, count);
        case RoundMode::CAST_FLOOR: return float_to_int32<RoundMode::CAST_FLOOR>(out, in, count);
        case RoundMode::CAST_CEIL: return float_to_int32<RoundMode::CAST_CEIL>(out, in, count);
        case RoundMode::CAST_TRUNC: return float_to_int32<RoundMode::CAST_TRUNC>(out, in, count);
        case RoundMode::CAST_ODD: return float_to_int32<RoundMode::CAST_ODD>(out, in, count);
        case RoundMode::CAST_NONE: break;
    }
    return 0;
}

std::size_t ConvertWholeVectors(const VectorConversion& c, void* dst, const void* src, std::size_t count)
{
    switch (c.pair) {
        case VectorPair::F16ToF32:
            return half_to_float(static_cast<float*>(dst), static_cast<const uint16_t*>(src), count);
        case VectorPair::Bf16ToF32:
            return bfloat16_to_float(static_cast<uint32_t*>(dst), static_cast<const uint16_t*>(src), count);
        case VectorPair::F32ToF16:
            return narrow_float<HalfBits>(static_cast<uint16_t*>(dst), static_cast<const float*>(src), count,
                                          c.saturate, 0x7c00);
        case VectorPair::F32ToBf16:
            return narrow_float<BfloatBits>(static_cast<uint16_t*>(dst), static_cast<const float*>(src), count,
                                            c.saturate, 0x7f80);
        case VectorPair::F32ToI32:
            return float_to_int32(c.mode, static_cast<int32_t*>(dst), static_cast<const float*>(src), count);
        case VectorPair::I32ToF32:
            return int32_to_float(static_cast<float*>(dst), static_cast<const int32_t*>(src), count);
    }
    return 0;
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::convert
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::convert {

HWY_EXPORT(ConvertWholeVectors);

std::optional<VectorConversion> vector_conversion(DType dst, DType src, RoundMode mode, SaturationMode sat)
{
    using enum DType;
    const RoundMode effective = numeric::effective_round_mode(dst, mode);
    const bool rint = effective == RoundMode::CAST_RINT;
    const bool known_mode = effective >= RoundMode::CAST_RINT && effective <= RoundMode::CAST_ODD;
    // Saturation acts on f32 -> f16 / bf16 (their finite ranges are smaller) as `sat` says; f32 -> i32
    // saturates in both modes (numeric: 32-bit integer destinations of float sources saturate).
    const bool saturate = sat == SaturationMode::ON;
    if (dst == F32 && src == F16) return VectorConversion{VectorPair::F16ToF32, effective, false};
    if (dst == F32 && src == BF16) return VectorConversion{VectorPair::Bf16ToF32, effective, false};
    if (dst == F16 && src == F32 && rint) return VectorConversion{VectorPair::F32ToF16, effective, saturate};
    if (dst == BF16 && src == F32 && rint) return VectorConversion{VectorPair::F32ToBf16, effective, saturate};
    if (dst == I32 && src == F32 && known_mode) return VectorConversion{VectorPair::F32ToI32, effective, true};
    if (dst == F32 && src == I32 && rint) return VectorConversion{VectorPair::I32ToF32, effective, false};
    return std::nullopt;
}

std::size_t convert_whole_vectors(const VectorConversion& c, void* dst, const void* src, std::size_t count)
{
    return HWY_DYNAMIC_DISPATCH(ConvertWholeVectors)(c, dst, src, count);
}

}  // namespace pto::engine::convert
#endif  // HWY_ONCE

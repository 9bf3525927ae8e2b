// TCVT's element conversion: every value is decoded exactly and rounded once into the destination,
// with integer arithmetic only, so results never depend on the host's floating-point environment.
//
// Semantics. The TCVT page gives the supported pairs and says the rounding mode applies and that the
// saturation mode is forwarded to the hardware; the vendor headers name the saturation bit ("ON:
// clamp to the destination's range; OFF: keep the low bits", e.g. 300.0 -> int8 is 127 or 44) and
// the Ascend C documentation defines CAST_NONE and the saturation behaviour of NaN and infinity. The
// rest is decided here:
//
//  1. Rounding. RINT ties to even, ROUND ties away from zero, FLOOR/CEIL/TRUNC are directed, ODD
//     (von Neumann) keeps the truncated value and sets its last bit when inexact. "Even" and "odd"
//     are the last bit of the destination encoding (the integer itself for integers); for the
//     power-of-two-only parts of HiF8 and E8M0 that is the parity of the exponent code.
//  2. CAST_NONE is RINT (Ascend: "RINT where the conversion loses precision"), except into HiF8,
//     where it is ROUND, the only round-to-nearest HiF8 hardware has. (The A2/A3 vendor code maps
//     CAST_NONE and CAST_ODD of float -> int to TRUNC; the documented meaning is used instead.)
//  3. Saturation only acts when the destination cannot hold every source value: float -> integer,
//     a narrower integer range, a smaller finite float range (F32 -> F16, BF16 -> FP4, ...). Widening
//     conversions (F16 -> F32, E4M3 -> F32, FP4 -> BF16, I8 -> I32, ...) are exact in both modes and
//     carry NaN and infinities through.
//  4. SaturationMode::ON: out-of-range values clamp to the destination's largest/smallest finite
//     value; +-infinity becomes the largest finite value of its sign; NaN becomes +0 (zero for
//     integers). E8M0 has no zero: there NaN stays NaN and negative values clamp to 2^-127.
//  5. SaturationMode::OFF, float destination: IEEE 754 overflow - RINT/ROUND go to infinity, TRUNC
//     and ODD to the largest finite value, FLOOR/CEIL by direction. Formats without infinity use
//     their NaN instead (E4M3, E8M0) or saturate anyway (FP4, which has neither). NaN stays NaN: its
//     sign and leading payload bits are kept and it is made quiet (E4M3's and HiF8's single NaN
//     carries no payload). HiF8 and E8M0 have no -0: zeros become 0x00 / 2^-127.
//  6. SaturationMode::OFF, integer destination: integer sources keep the low bits of the exact value
//     (two's complement wrap). Float sources are rounded, saturated into the int32 range and then
//     keep the low bits when the destination is narrower than 32 bits (the vendor's two-step
//     float -> int32 -> narrow path, e.g. +inf -> int16 is -1); 32- and 64-bit destinations saturate.
//     NaN converts to 0 in both modes.
//  7. F32 -> F32 is the ISA's round-only form: each value rounds to an integral value (sign of zero
//     kept, NaN made quiet); saturation does not apply.
//  8. The I32 -> F16 "deq" path of A2/A3 is a plain rounding conversion here (no dequant scale).
//  9. Pairs outside the TCVT table convert by the same rules; conversion_allowed() tells which pairs
//     the ISA has.
#include <pto/numeric/convert.hpp>

#include <array>
#include <cstddef>
#include <utility>

#include "element_codec.hpp"
#include "fast_paths.hpp"

namespace pto::numeric {
namespace {

using namespace internal;

static_assert(static_cast<int>(Rounding::NearestEven) == static_cast<int>(RoundMode::CAST_RINT) &&
                  static_cast<int>(Rounding::NearestAway) == static_cast<int>(RoundMode::CAST_ROUND) &&
                  static_cast<int>(Rounding::Down) == static_cast<int>(RoundMode::CAST_FLOOR) &&
                  static_cast<int>(Rounding::Up) == static_cast<int>(RoundMode::CAST_CEIL) &&
                  static_cast<int>(Rounding::TowardZero) == static_cast<int>(RoundMode::CAST_TRUNC) &&
                  static_cast<int>(Rounding::Odd) == static_cast<int>(RoundMode::CAST_ODD),
              "detail::Rounding mirrors pto::RoundMode");

Rounding rounding_for(DType dst, RoundMode mode)
{
    const auto value = static_cast<int>(effective_round_mode(dst, mode));
    return value >= 1 && value <= 6 ? static_cast<Rounding>(value) : Rounding::NearestEven;
}

// ---- which policy a conversion uses -----------------------------------------------------------

// The finite values a type holds. Only compared with other ranges, so the 64-bit integer limits may
// round to the nearest double.
struct ValueRange {
    double lowest;
    double highest;
    bool is_float;
};

constexpr ValueRange range_of(DType t)
{
    using enum DType;
    const auto integers = [](double lo, double hi) { return ValueRange{lo, hi, false}; };
    const auto floats = [](double largest) { return ValueRange{-largest, largest, true}; };
    switch (t) {
        case F32: return floats(0x1.fffffep127);
        case F16: return floats(65504.0);
        case BF16: return floats(0x1.fep127);
        case F8E4M3: return floats(448.0);
        case F8E5M2: return floats(57344.0);
        case F8E8M0: return {0x1p-127, 0x1p127, true};  // unsigned: nothing below 2^-127
        case HiF8: return floats(32768.0);
        case F4E2M1x2: return floats(6.0);
        case F4E1M2x2: return floats(1.75);
        case I8: return integers(-0x1p7, 0x1p7 - 1);
        case I16: return integers(-0x1p15, 0x1p15 - 1);
        case I32: return integers(-0x1p31, 0x1p31 - 1);
        case I64: return integers(-0x1p63, 0x1p63);
        case U8: return integers(0, 0x1p8 - 1);
        case U16: return integers(0, 0x1p16 - 1);
        case U32: return integers(0, 0x1p32 - 1);
        case U64: return integers(0, 0x1p64);
        case I4: return integers(-8, 7);
    }
    return floats(0);
}

constexpr ValueRange kBinary64Range{-0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023, true};

// Decisions 3 to 6: whether saturation acts at all, and what each mode then does.
OutOfRange policy_for(DType dst, const ValueRange& src, SaturationMode sat)
{
    const ValueRange d = range_of(dst);
    const bool holds_every_value = d.lowest <= src.lowest && d.highest >= src.highest && (d.is_float || !src.is_float);
    if (holds_every_value) return d.is_float ? OutOfRange::Propagate : OutOfRange::KeepLowBits;
    if (sat == SaturationMode::ON) return OutOfRange::Saturate;
    if (d.is_float) return OutOfRange::Propagate;
    if (!src.is_float) return OutOfRange::KeepLowBits;
    return engine::dtype_bits(dst) < 32 ? OutOfRange::KeepLowBitsOfInt32 : OutOfRange::Saturate;
}

// ---- the general path: one value at a time through Exact ------------------------------------

using Decoder = Exact (*)(const void*, std::size_t);
using Encoder = void (*)(void*, std::size_t, const Exact&, Rounding, OutOfRange);
using TypedLoop = void (*)(void*, const void*, std::size_t, Rounding, OutOfRange);

template <std::size_t... I>
constexpr std::array<Decoder, sizeof...(I)> make_decoders(std::index_sequence<I...>)
{
    return {&decode<static_cast<DType>(I)>...};
}

template <std::size_t... I>
constexpr std::array<Encoder, sizeof...(I)> make_encoders(std::index_sequence<I...>)
{
    return {&encode<static_cast<DType>(I)>...};
}

constexpr auto kDecoders = make_decoders(std::make_index_sequence<engine::kDTypeCount>{});
constexpr auto kEncoders = make_encoders(std::make_index_sequence<engine::kDTypeCount>{});

// The ISA's pairs get a loop of their own with decode and encode inlined; any other pair goes
// through kDecoders and kEncoders value by value.
template <DType Dst, DType Src>
[[gnu::flatten]] void convert_values(void* dst, const void* src, std::size_t values, Rounding r, OutOfRange policy)
{
    for (std::size_t i = 0; i < values; ++i) encode<Dst>(dst, i, decode<Src>(src, i), r, policy);
}

template <std::size_t Pair>
constexpr TypedLoop typed_loop()
{
    constexpr auto dst = static_cast<DType>(Pair / engine::kDTypeCount);
    constexpr auto src = static_cast<DType>(Pair % engine::kDTypeCount);
    if constexpr (conversion_allowed(dst, src)) return &convert_values<dst, src>;
    else return nullptr;
}

template <std::size_t... Pair>
constexpr std::array<TypedLoop, sizeof...(Pair)> make_typed_loops(std::index_sequence<Pair...>)
{
    return {typed_loop<Pair>()...};
}

constexpr auto kTypedLoops = make_typed_loops(std::make_index_sequence<engine::kDTypeCount * engine::kDTypeCount>{});

constexpr std::size_t pair_index(DType dst, DType src)
{
    return static_cast<std::size_t>(dst) * engine::kDTypeCount + static_cast<std::size_t>(src);
}

void convert_one_by_one(DType dstType, void* dst, DType srcType, const void* src, std::size_t values, Rounding r,
                        OutOfRange policy)
{
    if (const TypedLoop loop = kTypedLoops[pair_index(dstType, srcType)]) {
        loop(dst, src, values, r, policy);
        return;
    }
    const Decoder decode_value = kDecoders[static_cast<std::size_t>(srcType)];
    const Encoder encode_value = kEncoders[static_cast<std::size_t>(dstType)];
    for (std::size_t i = 0; i < values; ++i) encode_value(dst, i, decode_value(src, i), r, policy);
}

}  // namespace

void convert(DType dstType, void* dst, DType srcType, const void* src, std::size_t count, RoundMode mode,
             SaturationMode sat)
{
    const Rounding r = rounding_for(dstType, mode);
    if (dstType == DType::F32 && srcType == DType::F32) {
        round_to_integral(dst, src, count, r);
        return;
    }
    const OutOfRange policy = policy_for(dstType, range_of(srcType), sat);
    if (convert_integers(dstType, dst, srcType, src, count, policy)) return;
    if (r == Rounding::NearestEven && convert_rint(dstType, dst, srcType, src, count, policy)) return;
    convert_one_by_one(dstType, dst, srcType, src, count, r, policy);
}

double to_double(DType t, const void* storage, std::size_t index)
{
    const Exact x = kDecoders[static_cast<std::size_t>(t)](storage, index);
    return detail::bit_cast<double>(detail::encode(detail::kBinary64, x, Rounding::NearestEven, false));
}

void from_double(DType t, void* storage, std::size_t index, double v, RoundMode mode, SaturationMode sat)
{
    kEncoders[static_cast<std::size_t>(t)](storage, index, detail::unpack_double(v), rounding_for(t, mode),
                                           policy_for(t, kBinary64Range, sat));
}

}  // namespace pto::numeric

// half and bfloat16 vectors as their bit patterns, widened exactly to float in registers and rounded
// back once to nearest even, for the engine's Highway code (the element-wise line loops, TCVT's
// conversions). Each matches the conversion of pto/common/numeric.hpp bit for bit (NaNs quiet, keeping
// sign and leading payload), which scalar tails use. The F16C instructions of the AVX2 and AVX-512
// targets convert half exactly so; elsewhere integer code does, since Highway's emulated half
// conversions truncate and mishandle infinities (and its bfloat16 demotion truncates everywhere).
//
// A per-target header: a foreach_target translation unit includes it after <hwy/highway.h>, once for
// each SIMD target.
#if defined(PTOSIM_ENGINE_SIMD_FLOAT16_BITS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTOSIM_ENGINE_SIMD_FLOAT16_BITS_INL_H_
#undef PTOSIM_ENGINE_SIMD_FLOAT16_BITS_INL_H_
#else
#define PTOSIM_ENGINE_SIMD_FLOAT16_BITS_INL_H_
#endif

#include <hwy/highway.h>

#include <pto/common/numeric.hpp>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace pto::engine::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

#if defined(HWY_DISABLE_F16C)
inline constexpr bool kF16c = false;
#else
inline constexpr bool kF16c = HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL;
#endif

struct HalfBits {
    static constexpr int16_t kInfinity = 0x7c00;  // the exponent bits; a larger magnitude is a NaN
    static constexpr int16_t kQuiet = 0x0200;     // the bit that makes a NaN quiet
    static float scalar_widen(uint16_t h) { return static_cast<float>(half::from_bits(h)); }
    static uint16_t scalar_narrow(float f) { return half(f).bits; }

    template <class DF, class V16>
    static hn::Vec<DF> widen(DF df, V16 bits16)
    {
        if constexpr (kF16c) {
            return hn::PromoteTo(df, hn::BitCast(hn::Rebind<hwy::float16_t, DF>(), bits16));
        }
        const hn::RebindToSigned<DF> di;
        const auto h = hn::PromoteTo(di, hn::BitCast(hn::Rebind<int16_t, DF>(), bits16));
        const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(di, 0x8000)));
        const auto magnitude = hn::And(h, hn::Set(di, 0x7fff));
        // Normal: move exponent and fraction into place and rebias 15 -> 127. Subnormal: fraction * 2^-24,
        // exact through an int conversion (no float subnormal arithmetic). Infinity / NaN: all-ones
        // exponent, a NaN made quiet.
        const auto normal = hn::Add(hn::ShiftLeft<13>(magnitude), hn::Set(di, (127 - 15) << 23));
        const auto subnormal = hn::BitCast(di, hn::Mul(hn::ConvertTo(df, magnitude), hn::Set(df, 0x1p-24f)));
        const auto nan_quiet = hn::IfThenElseZero(magnitude > hn::Set(di, 0x7c00), hn::Set(di, 0x400000));
        const auto special = hn::Or(hn::Or(hn::ShiftLeft<13>(magnitude), hn::Set(di, 0x7f800000)), nan_quiet);
        auto bits = hn::IfThenElse(magnitude < hn::Set(di, 0x400), subnormal, normal);
        bits = hn::IfThenElse(magnitude > hn::Set(di, 0x7bff), special, bits);
        return hn::BitCast(df, hn::Or(bits, sign));
    }

    template <class DF, class D16>
    static hn::Vec<D16> narrow(DF df, D16 d16, hn::Vec<DF> v)
    {
        if constexpr (kF16c) {
            return hn::BitCast(d16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
        }
        const hn::RebindToSigned<DF> di;
        const auto bits = hn::BitCast(di, v);
        const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(di, 0x8000));
        const auto magnitude = hn::And(bits, hn::Set(di, 0x7fffffff));
        // Normal: round the 13 dropped fraction bits to nearest even, rebias 127 -> 15 (a carry moves
        // into the exponent). Subnormal: adding 0.5, whose ulp is 2^-24, makes the float unit round.
        const auto odd = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(di, 1));
        const auto normal = hn::ShiftRight<13>(hn::Add(hn::Sub(magnitude, hn::Set(di, 0x38000000 - 0xfff)), odd));
        const auto shifted = hn::Add(hn::BitCast(df, magnitude), hn::Set(df, 0.5f));
        const auto subnormal = hn::Sub(hn::BitCast(di, shifted), hn::Set(di, 0x3f000000));
        const auto nan = hn::Or(hn::Set(di, 0x7e00), hn::And(hn::ShiftRight<13>(magnitude), hn::Set(di, 0x3ff)));
        auto r = hn::IfThenElse(magnitude < hn::Set(di, 0x38800000), subnormal, normal);
        r = hn::IfThenElse(magnitude > hn::Set(di, 0x477fefff), hn::Set(di, 0x7c00), r);  // from 65520: infinity
        r = hn::IfThenElse(magnitude > hn::Set(di, 0x7f800000), nan, r);
        return hn::DemoteTo(d16, hn::Or(r, sign));  // every lane is within [0, 0xffff]: nothing saturates
    }
};

struct BfloatBits {
    static constexpr int16_t kInfinity = 0x7f80;
    static constexpr int16_t kQuiet = 0x0040;
    static float scalar_widen(uint16_t h) { return static_cast<float>(bfloat16_t::from_bits(h)); }
    static uint16_t scalar_narrow(float f) { return bfloat16_t(f).bits; }

    template <class DF, class V16>
    static hn::Vec<DF> widen(DF df, V16 bits16)
    {
        const hn::RebindToUnsigned<DF> du;
        return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du, bits16)));
    }

    template <class DF, class D16>
    static hn::Vec<D16> narrow(DF, D16 d16, hn::Vec<DF> v)
    {
        const hn::RebindToUnsigned<DF> du;
        const hn::RebindToSigned<DF> di;
        const auto bits = hn::BitCast(du, v);
        const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1));
        const auto rounded = hn::ShiftRight<16>(hn::Add(hn::Add(bits, hn::Set(du, 0x7fff)), odd));
        const auto quiet_nan = hn::Or(hn::ShiftRight<16>(bits), hn::Set(du, 0x40));
        const auto magnitude = hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7fffffff)));
        const auto is_nan = hn::RebindMask(du, magnitude > hn::Set(di, 0x7f800000));
        return hn::DemoteTo(d16, hn::BitCast(di, hn::IfThenElse(is_nan, quiet_nan, rounded)));  // within [0, 0xffff]
    }

    // The float's bfloat16, rounded to nearest even, in the high half of the 32-bit lane (the low half is
    // left over): adding 0x7fff, or 0x8000 when the kept part is odd, carries exactly when rounding up.
    // NaNs are not handled: callers pass only arithmetic results on bfloat16 operands, whose NaNs are
    // quiet with a zero low half, which the addition leaves as it is.
    template <class DF>
    static hn::Vec<hn::RebindToUnsigned<DF>> round_to_high_half(DF, hn::Vec<DF> v)
    {
        const hn::RebindToUnsigned<DF> du;
        const auto bits = hn::BitCast(du, v);
        const auto odd = hn::TestBit(bits, hn::Set(du, 0x10000));
        return hn::Add(bits, hn::IfThenElse(odd, hn::Set(du, 0x8000), hn::Set(du, 0x7fff)));
    }
};

}  // namespace pto::engine::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // PTOSIM_ENGINE_SIMD_FLOAT16_BITS_INL_H_

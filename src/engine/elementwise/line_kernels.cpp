// The line loops of line_kernels.hpp, written once with Highway and compiled for each SIMD target it
// knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/elementwise/line_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <pto/common/numeric.hpp>

#include <type_traits>

#include "engine/elementwise/line_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::elementwise {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Whole vectors through `vector_op`, the tail of each line through `scalar_op`. Each vector is loaded
// before the result is stored, so a destination line may be the same memory as a source line.
template <typename T, typename VectorOp, typename ScalarOp>
HWY_INLINE void for_each_line(Lines<T> d, Lines<const T> a, Lines<const T> b, LineShape shape, VectorOp vector_op,
                              ScalarOp scalar_op)
{
    const hn::ScalableTag<T> tag;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(tag));
    for (int64_t i = 0; i < shape.count; ++i) {
        T* out = d.line(i);
        const T* x = a.line(i);
        const T* y = b.line(i);
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) {
            hn::StoreU(vector_op(hn::LoadU(tag, x + j), hn::LoadU(tag, y + j)), tag, out + j);
        }
        for (; j < shape.length; ++j) out[j] = scalar_op(x[j], y[j]);
    }
}

void FloatLines(ArithOp op, Lines<float> d, Lines<const float> a, Lines<const float> b, LineShape shape)
{
    // Vectors and scalars share these lambdas: both spell IEEE arithmetic with the same operators.
    const auto add = [](auto x, auto y) { return x + y; };
    const auto sub = [](auto x, auto y) { return x - y; };
    const auto mul = [](auto x, auto y) { return x * y; };
    const auto div = [](auto x, auto y) { return x / y; };
    switch (op) {
        case ArithOp::Add: return for_each_line(d, a, b, shape, add, add);
        case ArithOp::Sub: return for_each_line(d, a, b, shape, sub, sub);
        case ArithOp::Mul: return for_each_line(d, a, b, shape, mul, mul);
        case ArithOp::Div: return for_each_line(d, a, b, shape, div, div);
    }
}

// half and bfloat16, as bit patterns, widened exactly to float in registers and rounded back once to
// nearest even. Each matches the conversion of pto/common/numeric.hpp bit for bit (NaNs quiet, keeping
// sign and leading payload), which the scalar tails use. The F16C instructions of the AVX2 and AVX-512
// targets convert half exactly so; elsewhere integer code does, since Highway's emulated half
// conversions truncate and mishandle infinities (and its bfloat16 demotion truncates everywhere).
#if defined(HWY_DISABLE_F16C)
inline constexpr bool kF16c = false;
#else
inline constexpr bool kF16c = HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL;
#endif

struct HalfBits {
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
};

// Whole vectors widened, computed in float and narrowed in registers; the tail element by element.
template <typename Format, typename Op>
HWY_INLINE void for_each_line_16(Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape,
                                 Op op)
{
    const hn::ScalableTag<float> df;
    const hn::Rebind<uint16_t, decltype(df)> d16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    for (int64_t i = 0; i < shape.count; ++i) {
        uint16_t* out = d.line(i);
        const uint16_t* x = a.line(i);
        const uint16_t* y = b.line(i);
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) {
            const auto vx = Format::widen(df, hn::LoadU(d16, x + j));
            const auto vy = Format::widen(df, hn::LoadU(d16, y + j));
            hn::StoreU(Format::narrow(df, d16, op(vx, vy)), d16, out + j);
        }
        for (; j < shape.length; ++j) {
            out[j] = Format::scalar_narrow(op(Format::scalar_widen(x[j]), Format::scalar_widen(y[j])));
        }
    }
}

template <typename Format>
HWY_INLINE void float16_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b,
                              LineShape shape)
{
    switch (op) {
        case ArithOp::Add: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x + y; });
        case ArithOp::Sub: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x - y; });
        case ArithOp::Mul: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x * y; });
        case ArithOp::Div: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x / y; });
    }
}

void HalfLines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    float16_lines<HalfBits>(op, d, a, b, shape);
}

void BfloatLines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    float16_lines<BfloatBits>(op, d, a, b, shape);
}

template <typename T>
HWY_INLINE void wrapping_lines(WrapOp op, Lines<T> d, Lines<const T> a, Lines<const T> b, LineShape shape)
{
    // Scalar tails compute in at least `unsigned`, so that promoted 8/16-bit operands cannot overflow int.
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;
    const auto add = [](T x, T y) { return static_cast<T>(W{x} + W{y}); };
    const auto sub = [](T x, T y) { return static_cast<T>(W{x} - W{y}); };
    const auto mul = [](T x, T y) { return static_cast<T>(W{x} * W{y}); };
    switch (op) {
        case WrapOp::Add: return for_each_line(d, a, b, shape, [](auto x, auto y) { return x + y; }, add);
        case WrapOp::Sub: return for_each_line(d, a, b, shape, [](auto x, auto y) { return x - y; }, sub);
        case WrapOp::Mul:
            if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
                return for_each_line(d, a, b, shape, [](auto x, auto y) { return x * y; }, mul);
            } else {
                // Highway has no 8- or 64-bit lane multiply: plain loops, which the compiler may vectorise.
                for (int64_t i = 0; i < shape.count; ++i) {
                    T* out = d.line(i);
                    const T* x = a.line(i);
                    const T* y = b.line(i);
                    for (int64_t j = 0; j < shape.length; ++j) out[j] = mul(x[j], y[j]);
                }
                return;
            }
    }
}

void U8Lines(WrapOp op, Lines<uint8_t> d, Lines<const uint8_t> a, Lines<const uint8_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U16Lines(WrapOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U32Lines(WrapOp op, Lines<uint32_t> d, Lines<const uint32_t> a, Lines<const uint32_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U64Lines(WrapOp op, Lines<uint64_t> d, Lines<const uint64_t> a, Lines<const uint64_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::elementwise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::elementwise {

HWY_EXPORT(FloatLines);
HWY_EXPORT(HalfLines);
HWY_EXPORT(BfloatLines);
HWY_EXPORT(U8Lines);
HWY_EXPORT(U16Lines);
HWY_EXPORT(U32Lines);
HWY_EXPORT(U64Lines);

void float_lines(ArithOp op, Lines<float> d, Lines<const float> a, Lines<const float> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(FloatLines)(op, d, a, b, shape);
}
void half_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(HalfLines)(op, d, a, b, shape);
}
void bfloat16_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(BfloatLines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint8_t> d, Lines<const uint8_t> a, Lines<const uint8_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U8Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U16Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint32_t> d, Lines<const uint32_t> a, Lines<const uint32_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U32Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint64_t> d, Lines<const uint64_t> a, Lines<const uint64_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U64Lines)(op, d, a, b, shape);
}

}  // namespace pto::engine::elementwise
#endif  // HWY_ONCE

// The elementary functions of math_lines.hpp, written once with Highway for float and double lanes and
// compiled for each SIMD target (foreach_target re-includes this file per target).
//
// The algorithms are the textbook ones, with Taylor coefficients rather than fitted ones:
//   exp  x = k ln2 + r, |r| <= ln2/2 (Cody-Waite: k ln2_hi is exact); e^x = 2^k e^r.
//   log  x = 2^k m, m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f); log(1 + f) = 2 atanh(s)
//        = f - f^2/2 + s (f^2/2 + R) exactly, R the tail of the atanh series in s^2; log x = k ln2 + log m.
//   pow  exp(y log|x|) in double, then C's special cases.
// Float lanes (DEFAULT) use fused multiply-adds, emulated exactly where the target has no FMA
// instruction; double lanes (HIGH_PRECISION) multiply and add separately. Every target thus gives the
// same bits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/elementwise/math_lines.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

#include "engine/simd/float16_bits-inl.hpp"
#include "engine/simd/multiply_add-inl.hpp"
#include "engine/elementwise/math_lines.hpp"

#ifndef PTOSIM_ENGINE_ELEMENTWISE_MATH_LINES_ONCE
#define PTOSIM_ENGINE_ELEMENTWISE_MATH_LINES_ONCE
namespace pto::engine::elementwise {

// The layout of an IEEE binary format and the polynomial lengths that reach its precision.
template <typename T>
struct Ieee;

template <>
struct Ieee<float> {
    using Bits = uint32_t;
    static constexpr int kFractionBits = 23;
    static constexpr Bits kBias = 127;
    static constexpr Bits kDefaultNaN = 0xffc00000u;
    static constexpr Bits kSqrtHalfBits = 0x3f3504f3u;  // sqrt(1/2)
    // ln2 = kLn2Hi + kLn2Lo, kLn2Hi with 15 significant bits: k * kLn2Hi is exact for |k| < 2^9.
    static constexpr float kLn2Hi = 0x1.62e4p-1f;
    static constexpr float kLn2Lo = 0x1.7f7d1cp-20f;
    // |r| <= ln2/2: the first omitted Taylor term of e^r, r^8/8!, is below 2^-27.
    static constexpr int kExpDegree = 7;
    // |s| <= 0.172: the first omitted term of R, 2 s^10 / 11, is below 2^-29 of log m.
    static constexpr int kAtanhTerms = 4;
};

template <>
struct Ieee<double> {
    using Bits = uint64_t;
    static constexpr int kFractionBits = 52;
    static constexpr Bits kBias = 1023;
    static constexpr Bits kDefaultNaN = 0xfff8000000000000u;
    static constexpr Bits kSqrtHalfBits = 0x3fe6a09e667f3bcdu;
    // 44 significant bits: k * kLn2Hi is exact for |k| < 2^9.
    static constexpr double kLn2Hi = 0x1.62e42fefa38p-1;
    static constexpr double kLn2Lo = 0x1.ef35793c7673p-45;
    // r^14/14! < 2^-57.
    static constexpr int kExpDegree = 13;
    // 2 s^22 / 23 < 2^-56 of log m.
    static constexpr int kAtanhTerms = 10;
};

// 1/n!, n = 0..N, and 2/(2j+1), j = 1..N: the coefficients, rounded once from long double.
template <typename T, int N>
constexpr std::array<T, N + 1> inverse_factorials()
{
    std::array<T, N + 1> c{};
    long double factorial = 1;
    for (int n = 0; n <= N; ++n) {
        if (n > 0) factorial *= n;
        c[n] = static_cast<T>(1.0L / factorial);
    }
    return c;
}

template <typename T, int N>
constexpr std::array<T, N + 1> atanh_coefficients()
{
    std::array<T, N + 1> c{};
    for (int j = 1; j <= N; ++j) c[j] = static_cast<T>(2.0L / (2 * j + 1));
    return c;
}

}  // namespace pto::engine::elementwise
#endif  // PTOSIM_ENGINE_ELEMENTWISE_MATH_LINES_ONCE

HWY_BEFORE_NAMESPACE();
namespace pto::engine::elementwise {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;
using ::pto::engine::HWY_NAMESPACE::multiply_add;
using ::pto::engine::HWY_NAMESPACE::round_to_float;

// --- the functions on vectors of float or double ----------------------------------------------------

template <class D>
using Vec = hn::Vec<D>;

// Adding and subtracting 1.5 * 2^F rounds to the nearest integer (ties to even) for |x| < 2^(F-1), and
// leaves that integer in the low bits of the sum.
template <class D>
HWY_INLINE Vec<D> rounding_shift(D d)
{
    using T = hn::TFromD<D>;
    return hn::Set(d, static_cast<T>(1.5) * static_cast<T>(typename Ieee<T>::Bits{1} << Ieee<T>::kFractionBits));
}

template <class D>
HWY_INLINE Vec<D> round_to_integer(D d, Vec<D> x)
{
    return hn::Sub(hn::Add(x, rounding_shift(d)), rounding_shift(d));
}

// 2^k for an integer k within the normal exponent range: k + bias moved into the exponent field.
// Shifting the rounding sum left by F drops its own exponent and leading fraction bit.
template <class D>
HWY_INLINE Vec<D> exp2_of_integer(D d, Vec<D> k)
{
    using T = hn::TFromD<D>;
    const hn::RebindToUnsigned<D> du;
    const auto in_fraction = hn::BitCast(du, hn::Add(k, rounding_shift(d)));
    return hn::BitCast(d, hn::ShiftLeft<Ieee<T>::kFractionBits>(hn::Add(in_fraction, hn::Set(du, Ieee<T>::kBias))));
}

template <class D>
HWY_INLINE Vec<D> default_nan(D d)
{
    using T = hn::TFromD<D>;
    const hn::RebindToUnsigned<D> du;
    return hn::BitCast(d, hn::Set(du, Ieee<T>::kDefaultNaN));
}

// x = k ln2 + r, and e^r: the part of e^x that all inputs share.
template <class D>
struct ExpReduced {
    Vec<D> k, power_of_r;
};

template <class D>
HWY_INLINE ExpReduced<D> exp_reduce(D d, Vec<D> x)
{
    using T = hn::TFromD<D>;
    using C = Ieee<T>;
    const auto k = round_to_integer(d, hn::Mul(x, hn::Set(d, static_cast<T>(1.442695040888963407359924681L))));
    const auto r = multiply_add(d, hn::Neg(k), hn::Set(d, C::kLn2Lo), hn::Sub(x, hn::Mul(k, hn::Set(d, C::kLn2Hi))));
    static constexpr auto c = inverse_factorials<T, C::kExpDegree>();
    auto p = hn::Set(d, c[C::kExpDegree]);
    for (int n = C::kExpDegree - 1; n >= 0; --n) p = multiply_add(d, p, r, hn::Set(d, c[n]));
    return {k, p};
}

// e^x for every x but NaN.
template <class D>
HWY_INLINE Vec<D> exp_of_number(D d, Vec<D> x)
{
    using T = hn::TFromD<D>;
    // e^-110 and e^100 are 0 and infinity in float after rounding; within these bounds 2^k is two
    // factors of normal floats, so underflow and overflow happen once, in the last product.
    const auto clamped = hn::Min(hn::Max(x, hn::Set(d, T{-110})), hn::Set(d, T{100}));
    const auto [k, p] = exp_reduce(d, clamped);
    const auto k_half = round_to_integer(d, hn::Mul(k, hn::Set(d, T{0.5})));
    return hn::Mul(hn::Mul(p, exp2_of_integer(d, k_half)), exp2_of_integer(d, hn::Sub(k, k_half)));
}

// Whether every lane's e^x is a normal number (as for the inputs a kernel mostly sees), so that it is
// e^r with k added to its exponent: the same bits exp_of_number gives them, in fewer steps.
template <class D>
HWY_INLINE bool exp_all_normal(D d, Vec<D> x)
{
    using T = hn::TFromD<D>;
    // |k| <= 125 for float, and e^r >= 2^-1/2: 2^-126 at least.
    constexpr T kLargestK = std::numeric_limits<T>::max_exponent - 3;
    return hn::AllTrue(d, hn::Lt(hn::Abs(x), hn::Set(d, kLargestK * static_cast<T>(0.69314718055994530942L))));
}

template <class D>
HWY_INLINE Vec<D> exp_of(D d, Vec<D> x)
{
    if (exp_all_normal(d, x)) {
        const hn::RebindToUnsigned<D> du;
        const auto [k, p] = exp_reduce(d, x);
        const auto k_in_exponent = hn::ShiftLeft<Ieee<hn::TFromD<D>>::kFractionBits>(
            hn::BitCast(du, hn::Add(k, rounding_shift(d))));
        return hn::BitCast(d, hn::Add(hn::BitCast(du, p), k_in_exponent));
    }
    return hn::IfThenElse(hn::IsNaN(x), hn::Add(x, x), exp_of_number(d, x));
}

// log x for finite x > 0, x already scaled into the normal range; `bias` is the exponent bias plus
// the binades the scaling added.
template <class D>
HWY_INLINE Vec<D> log_of_scaled(D d, Vec<D> x, Vec<D> bias)
{
    using T = hn::TFromD<D>;
    using C = Ieee<T>;
    using Bits = typename C::Bits;
    constexpr int F = C::kFractionBits;
    const hn::RebindToUnsigned<D> du;
    const Bits sqrt_half_bits = C::kSqrtHalfBits;
    const Bits one_bits = C::kBias << F;
    const auto two_pow_f = hn::Set(d, static_cast<T>(Bits{1} << F));
    // Offsetting the bits by those of 1 - sqrt(1/2) makes the exponent field count binades from
    // sqrt(1/2) rather than from 1; the fraction then rebuilds m in [sqrt(1/2), sqrt(2)).
    const auto bits = hn::Add(hn::BitCast(du, x), hn::Set(du, one_bits - sqrt_half_bits));
    const auto m = hn::BitCast(
        d, hn::Add(hn::And(bits, hn::Set(du, (Bits{1} << F) - 1)), hn::Set(du, sqrt_half_bits)));
    // The exponent field as a number: OR-ed into the fraction of 2^F, which is then subtracted.
    const auto field = hn::Sub(hn::BitCast(d, hn::Or(hn::ShiftRight<F>(bits), hn::BitCast(du, two_pow_f))), two_pow_f);
    const auto k = hn::Sub(field, bias);

    const auto f = hn::Sub(m, hn::Set(d, T{1}));
    const auto s = hn::Div(f, hn::Add(f, hn::Set(d, T{2})));
    const auto z = hn::Mul(s, s);
    const auto half_f2 = hn::Mul(hn::Mul(f, f), hn::Set(d, T{0.5}));
    static constexpr auto c = atanh_coefficients<T, C::kAtanhTerms>();
    auto tail = hn::Set(d, c[C::kAtanhTerms]);
    for (int j = C::kAtanhTerms - 1; j >= 1; --j) tail = multiply_add(d, tail, z, hn::Set(d, c[j]));
    tail = hn::Mul(tail, z);
    // k ln2_hi + (f - (f^2/2 - (s (f^2/2 + R) + k ln2_lo))): the small terms first.
    const auto small = multiply_add(d, s, hn::Add(half_f2, tail), hn::Mul(k, hn::Set(d, C::kLn2Lo)));
    return hn::Add(hn::Mul(k, hn::Set(d, C::kLn2Hi)), hn::Sub(f, hn::Sub(half_f2, small)));
}

// log x for finite x > 0, normal or subnormal: a subnormal is first scaled by 2^F.
template <class D>
HWY_INLINE Vec<D> log_of_positive(D d, Vec<D> x)
{
    using T = hn::TFromD<D>;
    using C = Ieee<T>;
    constexpr int F = C::kFractionBits;
    const hn::RebindToUnsigned<D> du;
    const auto subnormal = hn::Lt(x, hn::BitCast(d, hn::Set(du, typename C::Bits{1} << F)));
    const auto scaled = hn::IfThenElse(subnormal, hn::Mul(x, hn::Set(d, static_cast<T>(typename C::Bits{1} << F))), x);
    const auto bias = hn::IfThenElse(subnormal, hn::Set(d, static_cast<T>(C::kBias + F)), hn::Set(d, static_cast<T>(C::kBias)));
    return log_of_scaled(d, scaled, bias);
}

template <class D>
HWY_INLINE Vec<D> log_of(D d, Vec<D> x)
{
    using T = hn::TFromD<D>;
    const auto infinity = hn::Set(d, std::numeric_limits<T>::infinity());
    // Every lane normal, positive and finite, as a kernel's inputs mostly are: the same bits in fewer steps.
    const auto normal = hn::And(hn::Ge(x, hn::Set(d, std::numeric_limits<T>::min())), hn::Lt(x, infinity));
    if (hn::AllTrue(d, normal)) return log_of_scaled(d, x, hn::Set(d, static_cast<T>(Ieee<T>::kBias)));
    const auto zero = hn::Zero(d);
    auto y = log_of_positive(d, x);
    y = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(infinity), y);
    y = hn::IfThenElse(hn::Lt(x, zero), default_nan(d), y);
    y = hn::IfThenElse(hn::Eq(x, infinity), infinity, y);
    return hn::IfThenElse(hn::IsNaN(x), hn::Add(x, x), y);
}

template <class D>
HWY_INLINE auto is_integer(D d, Vec<D> y)
{
    using T = hn::TFromD<D>;
    // From 2^F on every value is an integer (and the rounding trick no longer applies).
    const auto large = hn::Ge(hn::Abs(y), hn::Set(d, static_cast<T>(typename Ieee<T>::Bits{1} << Ieee<T>::kFractionBits)));
    return hn::Or(large, hn::Eq(round_to_integer(d, y), y));
}

template <class D>
HWY_INLINE Vec<D> pow_of(D d, Vec<D> x, Vec<D> y)
{
    using T = hn::TFromD<D>;
    const auto one = hn::Set(d, T{1});
    const auto magnitude = exp_of_number(d, hn::Mul(y, log_of(d, hn::Abs(x))));
    const auto integer = is_integer(d, y);
    const auto odd = hn::AndNot(is_integer(d, hn::Mul(y, hn::Set(d, T{0.5}))), integer);
    auto r = hn::IfThenElse(odd, hn::CopySign(magnitude, x), magnitude);
    const auto negative_finite = hn::And(hn::Lt(x, hn::Zero(d)), hn::IsFinite(x));
    r = hn::IfThenElse(hn::AndNot(integer, negative_finite), default_nan(d), r);
    r = hn::IfThenElse(hn::Or(hn::IsNaN(x), hn::IsNaN(y)), hn::Add(x, y), r);
    const auto minus_one_to_infinity = hn::And(hn::Eq(x, hn::Neg(one)), hn::IsInf(y));
    const auto is_one = hn::Or(hn::Or(hn::Eq(y, hn::Zero(d)), hn::Eq(x, one)), minus_one_to_infinity);
    return hn::IfThenElse(is_one, one, r);
}

// --- the kernels: a function and the lanes it computes in -----------------------------------------

struct Exp {
    template <class D>
    Vec<D> operator()(D d, Vec<D> x) const { return exp_of(d, x); }
};
struct Log {
    template <class D>
    Vec<D> operator()(D d, Vec<D> x) const { return log_of(d, x); }
};
struct Sqrt {
    template <class D>
    Vec<D> operator()(D, Vec<D> x) const { return hn::Sqrt(x); }
};
struct Rsqrt {
    template <class D>
    Vec<D> operator()(D d, Vec<D> x) const { return hn::Div(hn::Set(d, hn::TFromD<D>{1}), hn::Sqrt(x)); }
};
struct Recip {
    template <class D>
    Vec<D> operator()(D d, Vec<D> x) const { return hn::Div(hn::Set(d, hn::TFromD<D>{1}), x); }
};
struct Pow {
    template <class D>
    Vec<D> operator()(D d, Vec<D> x, Vec<D> y) const { return pow_of(d, x, y); }
};

// `Fn` in float lanes.
template <class Fn>
struct InFloat {
    using Tag = hn::ScalableTag<float>;
    template <class DF, class... V>
    Vec<DF> operator()(DF df, V... x) const { return Fn{}(df, x...); }
};

// `Fn` in double lanes, rounded once to float.
template <class Fn>
struct InDouble {
    using Tag = hn::Rebind<float, hn::ScalableTag<double>>;
    template <class DF, class... V>
    Vec<DF> operator()(DF df, V... x) const
    {
        const hn::Rebind<double, DF> dd;
        return round_to_float(df, Fn{}(dd, hn::PromoteTo(dd, x)...));
    }
};

// Calls visit(kernel) with the kernel of (fn, accuracy).
template <class Visit>
HWY_INLINE void with_kernel(MathFn fn, MathAccuracy accuracy, Visit visit)
{
    const bool high = accuracy == MathAccuracy::High;
    switch (fn) {
        case MathFn::Exp: return high ? visit(InDouble<Exp>{}) : visit(InFloat<Exp>{});
        case MathFn::Log: return high ? visit(InDouble<Log>{}) : visit(InFloat<Log>{});
        case MathFn::Sqrt: return visit(InFloat<Sqrt>{});
        case MathFn::Recip: return visit(InFloat<Recip>{});
        case MathFn::Rsqrt: return high ? visit(InDouble<Rsqrt>{}) : visit(InFloat<Rsqrt>{});
    }
}

// --- the line loop --------------------------------------------------------------------------------

// float elements as they are (the 16-bit formats are HalfBits and BfloatBits).
struct FloatBits {
    template <class DF>
    static Vec<DF> widen(DF, Vec<DF> v) { return v; }
    template <class DF>
    static Vec<DF> narrow(DF, DF, Vec<DF> v) { return v; }
};

// Whole vectors, widened to float lanes, through the kernel and narrowed back. The tail of a line goes
// through the same code, from a padded copy, so that every element gets the same bits wherever it
// stands. Each vector is loaded before its result is stored, so a destination line may be a source.
template <class Format, typename S, class Kernel, class... Sources>
HWY_INLINE void for_each_line(Kernel kernel, Lines<S> d, LineShape shape, Sources... sources)
{
    const typename Kernel::Tag df;
    const hn::Rebind<S, decltype(df)> ds;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto apply = [&](S* out, const auto*... in) {
        hn::StoreU(Format::narrow(df, ds, kernel(df, Format::widen(df, hn::LoadU(ds, in))...)), ds, out);
    };
    constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
    for (int64_t i = 0; i < shape.count; ++i) {
        S* out = d.line(i);
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) apply(out + j, (sources.line(i) + j)...);
        if (j == shape.length) continue;
        const size_t tail = static_cast<size_t>(shape.length - j);
        const auto padded = [&](const S* from) {
            std::array<S, kMaxLanes> copy{};
            std::memcpy(copy.data(), from, tail * sizeof(S));
            return copy;
        };
        std::array<S, kMaxLanes> result{};
        [&](auto... inputs) { apply(result.data(), inputs.data()...); }(padded(sources.line(i) + j)...);
        std::memcpy(out + j, result.data(), tail * sizeof(S));
    }
}

void FloatMathLines(MathFn fn, MathAccuracy accuracy, Lines<float> d, Lines<const float> a, LineShape shape)
{
    with_kernel(fn, accuracy, [&](auto kernel) { for_each_line<FloatBits>(kernel, d, shape, a); });
}
void HalfMathLines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a, LineShape shape)
{
    with_kernel(fn, accuracy, [&](auto kernel) { for_each_line<HalfBits>(kernel, d, shape, a); });
}
void BfloatMathLines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a, LineShape shape)
{
    with_kernel(fn, accuracy, [&](auto kernel) { for_each_line<BfloatBits>(kernel, d, shape, a); });
}

// Both accuracies compute pow in double: in float, the rounding of y log x alone is worth up to
// |y log x| * 2^-24 relative in the result, about a hundred ulp near the ends of the range.
void FloatPowLines(Lines<float> d, Lines<const float> base, Lines<const float> exponent, LineShape shape)
{
    for_each_line<FloatBits>(InDouble<Pow>{}, d, shape, base, exponent);
}
void HalfPowLines(Lines<uint16_t> d, Lines<const uint16_t> base, Lines<const uint16_t> exponent, LineShape shape)
{
    for_each_line<HalfBits>(InDouble<Pow>{}, d, shape, base, exponent);
}
void BfloatPowLines(Lines<uint16_t> d, Lines<const uint16_t> base, Lines<const uint16_t> exponent, LineShape shape)
{
    for_each_line<BfloatBits>(InDouble<Pow>{}, d, shape, base, exponent);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::elementwise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::elementwise {

HWY_EXPORT(FloatMathLines);
HWY_EXPORT(HalfMathLines);
HWY_EXPORT(BfloatMathLines);
HWY_EXPORT(FloatPowLines);
HWY_EXPORT(HalfPowLines);
HWY_EXPORT(BfloatPowLines);

void float_math_lines(MathFn fn, MathAccuracy accuracy, Lines<float> d, Lines<const float> a, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(FloatMathLines)(fn, accuracy, d, a, shape);
}
void half_math_lines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(HalfMathLines)(fn, accuracy, d, a, shape);
}
void bfloat16_math_lines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a,
                         LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(BfloatMathLines)(fn, accuracy, d, a, shape);
}
void float_pow_lines(MathAccuracy, Lines<float> d, Lines<const float> base, Lines<const float> exponent,
                     LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(FloatPowLines)(d, base, exponent, shape);
}
void half_pow_lines(MathAccuracy, Lines<uint16_t> d, Lines<const uint16_t> base, Lines<const uint16_t> exponent,
                    LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(HalfPowLines)(d, base, exponent, shape);
}
void bfloat16_pow_lines(MathAccuracy, Lines<uint16_t> d, Lines<const uint16_t> base, Lines<const uint16_t> exponent,
                        LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(BfloatPowLines)(d, base, exponent, shape);
}

namespace {

constexpr LineShape kOneElement{1, 1};

template <typename T>
Lines<T> element_line(T& x)
{
    return {&x, 1};
}

}  // namespace

float math_element(MathFn fn, MathAccuracy accuracy, float x)
{
    float r;
    float_math_lines(fn, accuracy, element_line(r), element_line<const float>(x), kOneElement);
    return r;
}
uint16_t half_math_element(MathFn fn, MathAccuracy accuracy, uint16_t x)
{
    uint16_t r;
    half_math_lines(fn, accuracy, element_line(r), element_line<const uint16_t>(x), kOneElement);
    return r;
}
uint16_t bfloat16_math_element(MathFn fn, MathAccuracy accuracy, uint16_t x)
{
    uint16_t r;
    bfloat16_math_lines(fn, accuracy, element_line(r), element_line<const uint16_t>(x), kOneElement);
    return r;
}
float pow_element(MathAccuracy accuracy, float base, float exponent)
{
    float r;
    float_pow_lines(accuracy, element_line(r), element_line<const float>(base), element_line<const float>(exponent),
                    kOneElement);
    return r;
}
uint16_t half_pow_element(MathAccuracy accuracy, uint16_t base, uint16_t exponent)
{
    uint16_t r;
    half_pow_lines(accuracy, element_line(r), element_line<const uint16_t>(base),
                   element_line<const uint16_t>(exponent), kOneElement);
    return r;
}
uint16_t bfloat16_pow_element(MathAccuracy accuracy, uint16_t base, uint16_t exponent)
{
    uint16_t r;
    bfloat16_pow_lines(accuracy, element_line(r), element_line<const uint16_t>(base),
                       element_line<const uint16_t>(exponent), kOneElement);
    return r;
}

}  // namespace pto::engine::elementwise
#endif  // HWY_ONCE

// The element types themselves: layout, names, conversions, arithmetic, comparisons and limits,
// against the independent model in reference.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include <pto/common/numeric.hpp>

#include "numeric/reference.hpp"

namespace {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;
using ref::Real;

// ---- layout and names -----------------------------------------------------------------------------

template <class T, std::size_t Size>
constexpr bool is_plain_storage =
    sizeof(T) == Size && std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T> &&
    std::is_trivially_default_constructible_v<T> && offsetof(T, bits) == 0;

static_assert(is_plain_storage<half, 2>);
static_assert(is_plain_storage<bfloat16_t, 2>);
static_assert(is_plain_storage<float8_e4m3_t, 1>);
static_assert(is_plain_storage<float8_e5m2_t, 1>);
static_assert(is_plain_storage<float8_e8m0_t, 1>);
static_assert(is_plain_storage<hifloat8_t, 1>);
static_assert(is_plain_storage<float4_e2m1x2_t, 1>);
static_assert(is_plain_storage<float4_e1m2x2_t, 1>);
static_assert(is_plain_storage<pto::int4b_t, 1>);

static_assert(std::is_same_v<pto::half, ::half> && std::is_same_v<pto::bfloat16_t, ::bfloat16_t>);
static_assert(std::is_same_v<pto::hifloat8_t, ::hifloat8_t> && std::is_same_v<pto::float4_e1m2x2_t, ::float4_e1m2x2_t>);
static_assert(std::is_same_v<float16_t, half> && std::is_same_v<aclFloat16, half> && std::is_same_v<float32_t, float>);
static_assert(std::is_same_v<pto::float16_t, half> && std::is_same_v<pto::aclFloat16, half>);

// Usable in constant expressions.
static_assert(half(1.5f).bits == 0x3E00);
static_assert(bfloat16_t(-2.0f).bits == 0xC000);
static_assert(float(half::from_bits(0x3C00)) == 1.0f);
static_assert(std::numeric_limits<half>::max().bits == 0x7BFF);

// Mixed arithmetic behaves like a native narrow float: floats win, integers convert to the type.
static_assert(std::is_same_v<decltype(half{} + 1.0f), float>);
static_assert(std::is_same_v<decltype(1.0 * bfloat16_t{}), double>);
static_assert(std::is_same_v<decltype(half{} + 1), half>);
static_assert(std::is_same_v<decltype(2 / hifloat8_t{}), hifloat8_t>);
static_assert(std::is_same_v<decltype(half{} + half{}), half>);
static_assert(std::is_same_v<decltype(half{} < 1.0f), bool>);

// ---- helpers ------------------------------------------------------------------------------------

template <class T>
constexpr DType dtype_of()
{
    if constexpr (std::is_same_v<T, half>) return DType::F16;
    else if constexpr (std::is_same_v<T, bfloat16_t>) return DType::BF16;
    else if constexpr (std::is_same_v<T, float8_e4m3_t>) return DType::F8E4M3;
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return DType::F8E5M2;
    else if constexpr (std::is_same_v<T, float8_e8m0_t>) return DType::F8E8M0;
    else return DType::HiF8;
}

// The rounding the constructors use: to nearest even, HiFloat8 to nearest away.
template <class T>
constexpr RoundMode native_rounding()
{
    return std::is_same_v<T, hifloat8_t> ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT;
}

uint32_t float_bits(float f)
{
    return ref::float_bits(f);
}

float float_of(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

bool is_nan_code(DType t, uint64_t code)
{
    return ref::decode(t, code).kind == ref::Value::Kind::NaN;
}

Real real_of(DType t, uint64_t code)
{
    const ref::Value v = ref::decode(t, code);
    if (v.kind == ref::Value::Kind::NaN) return NAN;
    if (v.kind == ref::Value::Kind::Infinite) return v.negative ? -INFINITY : INFINITY;
    return v.signed_value();
}

ref::Value value_of(Real v)
{
    ref::Value value;
    if (std::isnan(v)) {
        value.kind = ref::Value::Kind::NaN;
        value.negative = std::signbit(v);
        return value;
    }
    value.negative = std::signbit(v);
    if (std::isinf(v)) value.kind = ref::Value::Kind::Infinite;
    else value.magnitude = std::fabs(v);
    return value;
}

// A long double result rounded the way the type's constructor rounds a wider value.
uint64_t model_rounding(DType t, Real v, RoundMode mode)
{
    return ref::Expectation(ref::pair_of(t, ref::kBinary64Source), value_of(v), 0)(mode, SaturationMode::OFF);
}

// Test inputs for binary32 -> type: every F16 and BF16 value widened plus random patterns.
std::vector<uint32_t> binary32_inputs()
{
    std::vector<uint32_t> inputs;
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const ref::Value v = ref::decode(DType::F16, h);
        const uint32_t sign = (h & 0x8000) << 16;
        if (v.kind == ref::Value::Kind::Finite) inputs.push_back(sign | float_bits(static_cast<float>(v.magnitude)));
        else inputs.push_back(sign | 0x7F800000 | (h & 0x3FF) << 13);
        inputs.push_back(h << 16);
    }
    std::mt19937 rng(11);
    for (int i = 0; i < 300000; ++i) inputs.push_back(static_cast<uint32_t>(rng()));
    return inputs;
}

// ---- conversions ------------------------------------------------------------------------------

template <class T>
void expect_exact_widening()
{
    const DType t = dtype_of<T>();
    for (uint32_t code = 0; code < (1u << ref::value_bits(t)); ++code) {
        const float f = T::from_bits(static_cast<typename T::storage>(code));
        const ref::Value v = ref::decode(t, code);
        if (v.kind == ref::Value::Kind::NaN) {
            EXPECT_TRUE(std::isnan(f)) << ref::name(t) << " 0x" << std::hex << code;
        } else {
            EXPECT_EQ(static_cast<Real>(f), real_of(t, code)) << ref::name(t) << " 0x" << std::hex << code;
            EXPECT_EQ(std::signbit(f), v.negative) << ref::name(t) << " 0x" << std::hex << code;
        }
    }
}

template <class T>
void expect_rounding_from_float(const std::vector<uint32_t>& inputs)
{
    const DType t = dtype_of<T>();
    int mismatches = 0;
    for (const uint32_t bits : inputs) {
        const T value = float_of(bits);
        const uint64_t want = ref::expected(t, DType::F32, bits, native_rounding<T>(), SaturationMode::OFF);
        if (value.bits != want && mismatches++ < 5) {
            ADD_FAILURE() << ref::name(t) << "(0x" << std::hex << bits << "f): expected 0x" << want << ", got 0x"
                          << +value.bits;
        }
    }
    EXPECT_EQ(mismatches, 0) << ref::name(t);
}

template <class T>
void expect_rounding_from_double_and_integers()
{
    const DType t = dtype_of<T>();
    std::mt19937_64 rng(5);
    for (int i = 0; i < 20000; ++i) {
        const uint64_t bits = (rng() & 0x800FFFFFFFFFFFFFull) | ((900 + rng() % 250) << 52);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        EXPECT_EQ(T(d).bits, ref::expected_from_binary64(t, d, native_rounding<T>(), SaturationMode::OFF))
            << ref::name(t) << " from " << d;
        const int64_t i64 = static_cast<int64_t>(rng()) >> (rng() % 64);
        EXPECT_EQ(T(i64).bits, ref::expected(t, DType::I64, static_cast<uint64_t>(i64), native_rounding<T>(),
                                             SaturationMode::OFF))
            << ref::name(t) << " from " << i64;
        const auto u32 = static_cast<uint32_t>(rng() >> (rng() % 64));
        EXPECT_EQ(T(u32).bits, ref::expected(t, DType::U32, u32, native_rounding<T>(), SaturationMode::OFF))
            << ref::name(t) << " from " << u32;
    }
}

TEST(NumericTypes, WideningToFloatIsExact)
{
    expect_exact_widening<half>();
    expect_exact_widening<bfloat16_t>();
    expect_exact_widening<float8_e4m3_t>();
    expect_exact_widening<float8_e5m2_t>();
    expect_exact_widening<float8_e8m0_t>();
    expect_exact_widening<hifloat8_t>();
}

TEST(NumericTypes, ConstructionFromFloatRoundsOnce)
{
    const std::vector<uint32_t> inputs = binary32_inputs();
    expect_rounding_from_float<half>(inputs);
    expect_rounding_from_float<bfloat16_t>(inputs);
    expect_rounding_from_float<float8_e4m3_t>(inputs);
    expect_rounding_from_float<float8_e5m2_t>(inputs);
    expect_rounding_from_float<float8_e8m0_t>(inputs);
    expect_rounding_from_float<hifloat8_t>(inputs);
}

TEST(NumericTypes, ConstructionFromDoubleAndIntegersRoundsOnce)
{
    expect_rounding_from_double_and_integers<half>();
    expect_rounding_from_double_and_integers<bfloat16_t>();
    expect_rounding_from_double_and_integers<float8_e4m3_t>();
    expect_rounding_from_double_and_integers<float8_e5m2_t>();
    expect_rounding_from_double_and_integers<float8_e8m0_t>();
    expect_rounding_from_double_and_integers<hifloat8_t>();
    // Through binary64 this would round twice: 2^62 + 2^54 + 1 is just above a BF16 tie.
    EXPECT_EQ(bfloat16_t((int64_t{1} << 62) + (int64_t{1} << 54) + 1).bits, 0x5E81);
    // Through binary32 this would round twice: 1 + 2^-11 + 2^-40 is just above a half tie.
    EXPECT_EQ(half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits, 0x3C01);
}

// ---- arithmetic -----------------------------------------------------------------------------------

enum class Op { Add, Subtract, Multiply, Divide };

template <class T>
T apply(Op op, T a, T b)
{
    switch (op) {
        case Op::Add: return a + b;
        case Op::Subtract: return a - b;
        case Op::Multiply: return a * b;
        default: return a / b;
    }
}

Real apply(Op op, Real a, Real b)
{
    switch (op) {
        case Op::Add: return a + b;
        case Op::Subtract: return a - b;
        case Op::Multiply: return a * b;
        default: return a / b;
    }
}


// a op b for the given operand codes must equal the exact result rounded once. long double holds
// products exactly and rounds sums and quotients to 64 bits, more than twice any format's precision
// plus two, so rounding that once more is the correctly rounded result.
template <class T>
int count_arithmetic_mismatches(Op op, const std::vector<std::pair<uint64_t, uint64_t>>& operands)
{
    const DType t = dtype_of<T>();
    int mismatches = 0;
    for (const auto& [x, y] : operands) {
        const T a = T::from_bits(static_cast<typename T::storage>(x));
        const T b = T::from_bits(static_cast<typename T::storage>(y));
        const uint64_t got = apply(op, a, b).bits;
        const uint64_t want = model_rounding(t, apply(op, real_of(t, x), real_of(t, y)), native_rounding<T>());
        const bool same = is_nan_code(t, want) ? is_nan_code(t, got) : got == want;
        if (!same && mismatches++ < 5) {
            ADD_FAILURE() << ref::name(t) << " op " << static_cast<int>(op) << " on 0x" << std::hex << x << ", 0x" << y
                          << ": expected 0x" << want << ", got 0x" << got;
        }
    }
    return mismatches;
}

std::vector<std::pair<uint64_t, uint64_t>> sixteen_bit_operands(DType t)
{
    std::vector<uint64_t> specials = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01,
                                      0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3800, 0x4000, 0x3555, 0x0080,
                                      0x7F7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F80, 0x3F81, 0x0100};
    std::vector<std::pair<uint64_t, uint64_t>> operands;
    for (const uint64_t a : specials) {
        for (const uint64_t b : specials) operands.emplace_back(a, b);
    }
    std::mt19937 rng(t == DType::F16 ? 21 : 22);
    for (int i = 0; i < 250000; ++i) operands.emplace_back(rng() & 0xFFFF, rng() & 0xFFFF);
    // Operands of similar magnitude, where sums cancel and quotients land near ties.
    for (int i = 0; i < 100000; ++i) {
        const uint64_t a = rng() & 0xFFFF;
        operands.emplace_back(a, (a ^ (rng() & 0x807F)) & 0xFFFF);
    }
    return operands;
}

std::vector<std::pair<uint64_t, uint64_t>> every_eight_bit_pair()
{
    std::vector<std::pair<uint64_t, uint64_t>> operands;
    for (uint64_t a = 0; a < 256; ++a) {
        for (uint64_t b = 0; b < 256; ++b) operands.emplace_back(a, b);
    }
    return operands;
}

TEST(NumericTypes, HalfArithmeticRoundsOnce)
{
    const auto operands = sixteen_bit_operands(DType::F16);
    for (const Op op : {Op::Add, Op::Subtract, Op::Multiply, Op::Divide}) {
        EXPECT_EQ(count_arithmetic_mismatches<half>(op, operands), 0);
    }
}

TEST(NumericTypes, Bfloat16ArithmeticRoundsOnce)
{
    const auto operands = sixteen_bit_operands(DType::BF16);
    for (const Op op : {Op::Add, Op::Subtract, Op::Multiply, Op::Divide}) {
        EXPECT_EQ(count_arithmetic_mismatches<bfloat16_t>(op, operands), 0);
    }
}

TEST(NumericTypes, EightBitArithmeticRoundsOnceForEveryPair)
{
    const auto operands = every_eight_bit_pair();
    for (const Op op : {Op::Add, Op::Subtract, Op::Multiply, Op::Divide}) {
        EXPECT_EQ(count_arithmetic_mismatches<float8_e4m3_t>(op, operands), 0);
        EXPECT_EQ(count_arithmetic_mismatches<float8_e5m2_t>(op, operands), 0);
        EXPECT_EQ(count_arithmetic_mismatches<float8_e8m0_t>(op, operands), 0);
        EXPECT_EQ(count_arithmetic_mismatches<hifloat8_t>(op, operands), 0);
    }
}

TEST(NumericTypes, NegationAndCompoundAssignment)
{
    for (uint32_t code = 0; code < 0x10000; ++code) {
        const half h = half::from_bits(static_cast<uint16_t>(code));
        if (is_nan_code(DType::F16, code)) EXPECT_TRUE(std::isnan(float(-h)));
        else EXPECT_EQ((-h).bits, code ^ 0x8000);
    }
    EXPECT_EQ((-hifloat8_t(0.0f)).bits, 0x00);  // HiFloat8 has no -0
    half h = 1.0f;
    h += half(0.5f);
    EXPECT_EQ(h.bits, 0x3E00);
    h *= 2;
    EXPECT_EQ(h.bits, 0x4200);
    h -= 1.0f;
    EXPECT_EQ(h.bits, 0x4000);
    h /= 4.0;
    EXPECT_EQ(h.bits, 0x3800);
    bfloat16_t b = 1.0f;
    b += std::ldexp(1.0f, -8);  // a tie in bfloat16: stays at 1 (even)
    EXPECT_EQ(b.bits, 0x3F80);
}

TEST(NumericTypes, Fp4PairsWorkElementWise)
{
    for (uint32_t x = 0; x < 256; ++x) {
        for (uint32_t y = 0; y < 256; ++y) {
            const auto a = float4_e2m1x2_t::from_bits(static_cast<uint8_t>(x));
            const auto b = float4_e2m1x2_t::from_bits(static_cast<uint8_t>(y));
            const auto sum = a + b;
            for (int i = 0; i < 2; ++i) {
                const Real exact =
                    real_of(DType::F4E2M1x2, (x >> (4 * i)) & 0xF) + real_of(DType::F4E2M1x2, (y >> (4 * i)) & 0xF);
                EXPECT_EQ((sum.bits >> (4 * i)) & 0xFu, model_rounding(DType::F4E2M1x2, exact, RoundMode::CAST_RINT));
            }
        }
    }
    const float4_e1m2x2_t pair(0.25f, -1.75f);
    EXPECT_EQ(pair.bits, 0xF1);
    EXPECT_EQ(pair.element(0), 0.25f);
    EXPECT_EQ(pair.element(1), -1.75f);
    EXPECT_EQ(float(pair), 0.25f);
    EXPECT_EQ(float4_e1m2x2_t(5.0f).bits, 0x07);  // no infinity: saturates to 1.75
    EXPECT_TRUE(float4_e2m1x2_t(0.0f, 1.0f) == float4_e2m1x2_t(-0.0f, 1.0f));
    EXPECT_TRUE(float4_e2m1x2_t(0.0f, 1.0f) != float4_e2m1x2_t(0.0f, 1.5f));
}

// ---- comparisons --------------------------------------------------------------------------------------

enum class Order { Unordered, Less, Equal, Greater };

Order order_of(Real u, Real v)
{
    if (std::isnan(u) || std::isnan(v)) return Order::Unordered;
    return u < v ? Order::Less : u > v ? Order::Greater : Order::Equal;
}

template <class T>
void expect_ieee_comparisons(const std::vector<std::pair<uint64_t, uint64_t>>& operands)
{
    const DType t = dtype_of<T>();
    int mismatches = 0;
    for (const auto& [x, y] : operands) {
        const T a = T::from_bits(static_cast<typename T::storage>(x));
        const T b = T::from_bits(static_cast<typename T::storage>(y));
        const Order order = order_of(real_of(t, x), real_of(t, y));
        const bool ok = (a == b) == (order == Order::Equal) && (a != b) == (order != Order::Equal) &&
                        (a < b) == (order == Order::Less) && (a > b) == (order == Order::Greater) &&
                        (a <= b) == (order == Order::Less || order == Order::Equal) &&
                        (a >= b) == (order == Order::Greater || order == Order::Equal);
        if (!ok && mismatches++ < 5) ADD_FAILURE() << ref::name(t) << " 0x" << std::hex << x << " vs 0x" << y;
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(NumericTypes, ComparisonsFollowIeee)
{
    expect_ieee_comparisons<half>(sixteen_bit_operands(DType::F16));
    expect_ieee_comparisons<bfloat16_t>(sixteen_bit_operands(DType::BF16));
    expect_ieee_comparisons<hifloat8_t>(every_eight_bit_pair());
    expect_ieee_comparisons<float8_e4m3_t>(every_eight_bit_pair());
    EXPECT_TRUE(half::from_bits(0x0000) == half::from_bits(0x8000));
    EXPECT_FALSE(half::from_bits(0x7E00) == half::from_bits(0x7E00));
    EXPECT_TRUE(half(1.5f) == 1.5f);
    EXPECT_TRUE(2 > half(1.5f));
    EXPECT_TRUE(half(1.5f) < 1.75);
    EXPECT_FALSE(bfloat16_t(NAN) < 1);
}

// ---- numeric_limits -----------------------------------------------------------------------------

TEST(NumericTypes, NumericLimits)
{
    using H = std::numeric_limits<half>;
    EXPECT_TRUE(H::is_specialized && H::is_signed && H::is_iec559 && H::has_infinity && H::has_quiet_NaN);
    EXPECT_EQ(float(H::max()), 65504.0f);
    EXPECT_EQ(float(H::lowest()), -65504.0f);
    EXPECT_EQ(float(H::min()), std::ldexp(1.0f, -14));
    EXPECT_EQ(float(H::denorm_min()), std::ldexp(1.0f, -24));
    EXPECT_EQ(float(H::epsilon()), std::ldexp(1.0f, -10));
    EXPECT_EQ(float(half(1.0f) + H::epsilon()), 1.0f + std::ldexp(1.0f, -10));
    EXPECT_EQ(float(H::round_error()), 0.5f);
    EXPECT_TRUE(std::isinf(float(H::infinity())) && float(H::infinity()) > 0);
    EXPECT_TRUE(std::isnan(float(H::quiet_NaN())) && std::isnan(float(H::signaling_NaN())));
    EXPECT_EQ(H::digits, 11);
    EXPECT_EQ(H::max_exponent, 16);
    EXPECT_EQ(H::min_exponent, -13);

    using B = std::numeric_limits<bfloat16_t>;
    EXPECT_TRUE(B::is_specialized && B::is_iec559);
    EXPECT_EQ(float(B::max()), 0x1.FEp127f);
    EXPECT_EQ(float(B::lowest()), -0x1.FEp127f);
    EXPECT_EQ(float(B::min()), std::numeric_limits<float>::min());
    EXPECT_EQ(float(B::denorm_min()), std::ldexp(1.0f, -133));
    EXPECT_EQ(float(B::epsilon()), std::ldexp(1.0f, -7));
    EXPECT_TRUE(std::isinf(float(B::infinity())));
    EXPECT_TRUE(std::isnan(float(B::quiet_NaN())) && std::isnan(float(B::signaling_NaN())));
    EXPECT_EQ(B::digits, 8);
    EXPECT_EQ(B::max_exponent, 128);
    EXPECT_EQ(B::min_exponent, -125);
}

// The limits of a packed fp4 pair, checked against the values of its 16 encodings: max the largest,
// lowest its negation, min the smallest normal (2^(min_exponent - 1)), denorm_min the smallest
// positive, epsilon the step above 1; each sets element 0 only.
template <class Pair>
void expect_float4_pair_limits()
{
    using L = std::numeric_limits<Pair>;
    float largest = 0, smallest_positive = HUGE_VALF, above_one = HUGE_VALF;
    for (uint8_t code = 0; code < 16; ++code) {
        const float v = Pair::from_bits(code).element(0);
        largest = std::max(largest, v);
        if (v > 0) smallest_positive = std::min(smallest_positive, v);
        if (v > 1) above_one = std::min(above_one, v);
    }
    EXPECT_TRUE(L::is_specialized && L::is_signed && !L::is_integer && !L::is_iec559);
    EXPECT_FALSE(L::has_infinity || L::has_quiet_NaN || L::has_signaling_NaN);
    EXPECT_EQ(L::max().element(0), largest);
    EXPECT_EQ(L::lowest().element(0), -largest);
    EXPECT_EQ(L::denorm_min().element(0), smallest_positive);
    EXPECT_EQ(L::epsilon().element(0), above_one - 1.0f);
    EXPECT_EQ(L::min().element(0), std::ldexp(1.0f, L::min_exponent - 1));
    EXPECT_EQ(L::min().element(0), 1.0f);
    EXPECT_LE(largest, std::ldexp(1.0f, L::max_exponent));
    EXPECT_GE(largest, std::ldexp(1.0f, L::max_exponent - 1));
    for (const Pair v : {L::max(), L::lowest(), L::min(), L::epsilon(), L::denorm_min()})
        EXPECT_EQ(v.element(1), 0.0f);
    EXPECT_EQ(L::infinity().bits, 0);
}

TEST(NumericTypes, Float4PairNumericLimits)
{
    expect_float4_pair_limits<float4_e2m1x2_t>();
    EXPECT_EQ(std::numeric_limits<float4_e2m1x2_t>::max().element(0), 6.0f);
    EXPECT_EQ(std::numeric_limits<float4_e2m1x2_t>::digits, 2);
    expect_float4_pair_limits<float4_e1m2x2_t>();
    EXPECT_EQ(std::numeric_limits<float4_e1m2x2_t>::max().element(0), 1.75f);
    EXPECT_EQ(std::numeric_limits<float4_e1m2x2_t>::digits, 3);
}

// ---- int4b_t --------------------------------------------------------------------------------------

TEST(NumericTypes, Int4KeepsTheLowNibbleAndSignExtends)
{
    for (int32_t v = -40; v <= 40; ++v) {
        const pto::int4b_t x = v;
        const int low = v & 0xF;
        EXPECT_EQ(x.bits, low);
        EXPECT_EQ(static_cast<int8_t>(x), low >= 8 ? low - 16 : low);
    }
}

}  // namespace

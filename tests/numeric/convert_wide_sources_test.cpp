// F32 and the 32/64-bit integer sources, converted to every element type with every RoundMode and
// both saturation modes: every F16 and BF16 value widened, the rounding boundaries (ties, midpoints,
// largest finite values, overflow thresholds, subnormals, signed zeros, infinities, NaNs) and random
// bit patterns, against the independent model in reference.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "numeric/conversion_check.hpp"

namespace {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;
using ref::Real;

uint64_t binary32_bits(float f)
{
    return ref::float_bits(f);
}

// The binary32 encoding of a finite long double that binary32 holds exactly.
uint64_t exact_binary32(Real v)
{
    const float f = static_cast<float>(v);
    EXPECT_EQ(static_cast<Real>(f), v) << "test value not exact in binary32";
    return binary32_bits(f);
}

// Every F16 and BF16 encoding widened to binary32, NaN payloads (signalling ones too) kept.
std::vector<uint64_t> widened_half_and_bfloat16()
{
    std::vector<uint64_t> values;
    for (uint64_t h = 0; h < 0x10000; ++h) {
        const ref::Value v = ref::decode(DType::F16, h);
        const uint64_t sign = (h & 0x8000) << 16;
        if (v.kind == ref::Value::Kind::Finite) values.push_back(sign | exact_binary32(v.magnitude));
        else values.push_back(sign | 0x7F800000 | (h & 0x3FF) << 13);
    }
    for (uint64_t b = 0; b < 0x10000; ++b) values.push_back(b << 16);
    return values;
}

// Rounding boundaries of binary32 sources that no table walk produces.
std::vector<uint64_t> binary32_boundaries()
{
    std::vector<uint64_t> values = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                                    0x7F800001, 0xFF800001, 0x7FBFFFFF, 0x7FA5A5A5, 0x7F7FFFFF, 0xFF7FFFFF,
                                    0x00800000, 0x80800000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF};
    for (int k = -149; k <= 127; ++k) {
        const float p = std::ldexp(1.0f, k);
        for (const float f : {p, std::nextafter(p, 0.0f), std::nextafter(p, INFINITY)}) {
            values.push_back(binary32_bits(f));
            values.push_back(binary32_bits(-f));
        }
    }
    // Integers and half-integers around powers of two: the float -> integer ties and limits.
    for (int k = 0; k <= 64; ++k) {
        for (const Real offset : {-1.5L, -1.0L, -0.5L, 0.0L, 0.5L, 1.0L, 1.5L}) {
            const Real v = std::ldexp(Real{1}, k) + offset;
            if (static_cast<Real>(static_cast<float>(v)) != v) continue;
            values.push_back(binary32_bits(static_cast<float>(v)));
            values.push_back(binary32_bits(static_cast<float>(-v)));
        }
    }
    return values;
}

// Midpoints between neighbouring values of a destination format, and their binary32 neighbours.
std::vector<uint64_t> binary32_midpoints_of(DType dst)
{
    std::vector<uint64_t> values;
    if (!ref::is_float(dst) || dst == DType::F32) return values;
    const ref::FloatTable& table = ref::table_of(dst);
    std::vector<Real> points = table.values;
    points.push_back(table.next_value);
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const Real mid = (points[i] + points[i + 1]) / 2;
        if (mid > static_cast<Real>(FLT_MAX) || static_cast<Real>(static_cast<float>(mid)) != mid) continue;
        const float f = static_cast<float>(mid);
        for (const float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)}) {
            values.push_back(binary32_bits(g));
            values.push_back(binary32_bits(-g));
        }
    }
    return values;
}

std::vector<uint64_t> random_bits(std::size_t n, int width, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> values(n);
    for (auto& v : values) v = width == 64 ? rng() : rng() & ((uint64_t{1} << width) - 1);
    return values;
}

// Random binary32 values of moderate magnitude, where most integer conversions stay in range.
std::vector<uint64_t> random_moderate_binary32(std::size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> exponent(-4, 66);
    std::vector<uint64_t> values(n);
    for (auto& v : values) {
        const auto fraction = static_cast<uint32_t>(rng() & 0x7FFFFF);
        const auto sign = static_cast<uint32_t>(rng() & 1) << 31;
        v = sign | static_cast<uint32_t>(exponent(rng) + 127) << 23 | fraction;
    }
    return values;
}

std::vector<uint64_t> joined(std::initializer_list<std::vector<uint64_t>> parts)
{
    std::vector<uint64_t> all;
    for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
    return all;
}

class Binary32Source : public ::testing::TestWithParam<DType> {};

TEST_P(Binary32Source, ToEveryType)
{
    const DType dst = GetParam();
    ref::expect_conversions_match(dst, DType::F32,
                                  joined({widened_half_and_bfloat16(), binary32_boundaries(),
                                          binary32_midpoints_of(dst), random_bits(20000, 32, 1),
                                          random_moderate_binary32(20000, 2)}));
}

INSTANTIATE_TEST_SUITE_P(Numeric, Binary32Source, ::testing::ValuesIn(ref::kAllTypes),
                         [](const ::testing::TestParamInfo<DType>& info) { return ref::name(info.param); });

TEST(WideSource, RandomBinary32ToHalfAndBfloat16)
{
    const std::vector<uint64_t> patterns = random_bits(600000, 32, 3);
    ref::expect_conversions_match(DType::F16, DType::F32, patterns);
    ref::expect_conversions_match(DType::BF16, DType::F32, patterns);
}

// Integer test values for a source type of the given width and signedness.
class IntegerValues {
public:
    IntegerValues(int width, bool is_signed) : width_(width), signed_(is_signed) {}

    void add(Real v)
    {
        const Real lowest = signed_ ? -std::ldexp(Real{1}, width_ - 1) : 0;
        const Real highest = std::ldexp(Real{1}, signed_ ? width_ - 1 : width_) - 1;
        if (v != std::floor(v) || v < lowest || v > highest) return;
        const bool negative = v < 0;
        uint64_t magnitude = static_cast<uint64_t>(negative ? -v : v);
        uint64_t bits = negative ? ~magnitude + 1 : magnitude;
        if (width_ < 64) bits &= (uint64_t{1} << width_) - 1;
        values_.insert(bits);
    }

    // v and its neighbours, with both signs.
    void add_around(Real v)
    {
        for (const Real d : {-1.0L, 0.0L, 1.0L}) {
            add(v + d);
            add(-(v + d));
        }
    }

    std::vector<uint64_t> values() const { return {values_.begin(), values_.end()}; }

private:
    int width_;
    bool signed_;
    std::set<uint64_t> values_;
};

std::vector<uint64_t> integer_test_values(DType src)
{
    const int width = ref::value_bits(src);
    const bool is_signed = src == DType::I32 || src == DType::I64;
    IntegerValues values(width, is_signed);
    for (int v = -2100; v <= 2100; ++v) values.add(v);
    // Every F16 and BF16 integral value in range, the midpoint to the next one, and their
    // neighbours: the ties of F16 / BF16 destinations.
    for (const DType table_type : {DType::F16, DType::BF16}) {
        const ref::FloatTable& table = ref::table_of(table_type);
        for (std::size_t i = 0; i + 1 < table.values.size(); ++i) {
            const Real v = table.values[i];
            if (v < 2048) continue;
            values.add(v);
            values.add(-v);
            values.add_around((v + table.values[i + 1]) / 2);
        }
    }
    // The ties of binary32 destinations (significand + half an ulp) in every binade past 2^24, and
    // powers of two, their neighbours, and the limits of every integer type.
    std::mt19937_64 rng(width);
    for (int k = 0; k < width; ++k) {
        values.add_around(std::ldexp(Real{1}, k));
        if (k < 24) continue;
        for (int n = 0; n < 16; ++n) {
            const Real significand = static_cast<Real>((rng() & 0x7FFFFF) | 0x800000);
            values.add_around(std::ldexp(significand + 0.5L, k - 23));
        }
    }
    for (const Real limit : {Real{INT8_MAX}, Real{UINT8_MAX}, Real{INT16_MAX}, Real{UINT16_MAX}, Real{INT32_MAX},
                             Real{UINT32_MAX}, static_cast<Real>(INT64_MAX), static_cast<Real>(UINT64_MAX)}) {
        values.add_around(limit);
        values.add_around(limit + 1);
    }
    // Random patterns, uniform and of random magnitude.
    for (const uint64_t bits : random_bits(12000, width, 10 + width)) {
        const Real v = ref::decode(src, bits).signed_value();
        values.add(v);
        values.add(std::trunc(std::ldexp(v, -static_cast<int>(bits % static_cast<uint64_t>(width)))));
    }
    return values.values();
}

class WideIntegerSource : public ::testing::TestWithParam<DType> {};

TEST_P(WideIntegerSource, ToEveryType)
{
    const DType src = GetParam();
    const std::vector<uint64_t> values = integer_test_values(src);
    for (const DType dst : ref::kAllTypes) ref::expect_conversions_match(dst, src, values);
}

INSTANTIATE_TEST_SUITE_P(Numeric, WideIntegerSource, ::testing::Values(DType::I32, DType::U32, DType::I64, DType::U64),
                         [](const ::testing::TestParamInfo<DType>& info) { return ref::name(info.param); });

// A value that double rounding through binary64 would get wrong: int64 -> BF16 and -> F32 must
// round the exact integer once.
TEST(WideSource, Int64RoundsOnceNotThroughDouble)
{
    const int64_t just_above_tie = (int64_t{1} << 62) + (int64_t{1} << 54) + 1;  // BF16 tie at 2^62 + 2^54
    uint16_t bf16 = 0;
    pto::numeric::convert(DType::BF16, &bf16, DType::I64, &just_above_tie, 1, RoundMode::CAST_RINT,
                          SaturationMode::OFF);
    EXPECT_EQ(bf16, 0x5E81);  // rounds up to 2^62 + 2^55; via double it would tie down to 2^62
    const int64_t above_f32_tie = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;  // F32 tie at 2^60 + 2^36
    uint32_t f32 = 0;
    pto::numeric::convert(DType::F32, &f32, DType::I64, &above_f32_tie, 1, RoundMode::CAST_RINT,
                          SaturationMode::OFF);
    EXPECT_EQ(f32, 0x5D800001u);
}

}  // namespace

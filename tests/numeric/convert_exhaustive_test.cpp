// Every bit pattern of every 4-, 8- and 16-bit source type, converted to every element type with
// every RoundMode and both saturation modes, against the independent model in reference.hpp.
#include <gtest/gtest.h>

#include <algorithm>

#include "numeric/conversion_check.hpp"

namespace {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;

std::vector<uint64_t> every_pattern(DType t)
{
    std::vector<uint64_t> patterns(std::size_t{1} << ref::value_bits(t));
    for (std::size_t i = 0; i < patterns.size(); ++i) patterns[i] = i;
    return patterns;
}

class ExhaustiveSource : public ::testing::TestWithParam<DType> {};

TEST_P(ExhaustiveSource, EveryPatternToEveryTypeInEveryMode)
{
    const DType src = GetParam();
    const std::vector<uint64_t> patterns = every_pattern(src);
    for (const DType dst : ref::kAllTypes) ref::expect_conversions_match(dst, src, patterns);
}

INSTANTIATE_TEST_SUITE_P(Numeric, ExhaustiveSource,
                         ::testing::Values(DType::F16, DType::BF16, DType::I16, DType::U16, DType::I8, DType::U8,
                                           DType::F8E4M3, DType::F8E5M2, DType::F8E8M0, DType::HiF8,
                                           DType::F4E2M1x2, DType::F4E1M2x2, DType::I4),
                         [](const ::testing::TestParamInfo<DType>& info) { return ref::name(info.param); });

// The model's value tables: strictly increasing, as many values as each format has, the documented
// extremes.
TEST(ExhaustiveModel, ValueTablesMatchTheFormats)
{
    struct Expected {
        DType type;
        std::size_t values;
        double smallest_positive;
        double largest;
    };
    const Expected formats[] = {
        {DType::F16, 31744, 0x1p-24, 65504.0},         {DType::BF16, 32640, 0x1p-133, 0x1.FEp127},
        {DType::F8E4M3, 127, 0x1p-9, 448.0},           {DType::F8E5M2, 124, 0x1p-16, 57344.0},
        {DType::F8E8M0, 255, 0x1p-127, 0x1p127},       {DType::HiF8, 127, 0x1p-22, 32768.0},
        {DType::F4E2M1x2, 8, 0.5, 6.0},                {DType::F4E1M2x2, 8, 0.25, 1.75},
    };
    for (const Expected& f : formats) {
        const ref::FloatTable& table = ref::table_of(f.type);
        ASSERT_EQ(table.values.size(), f.values) << ref::name(f.type);
        EXPECT_TRUE(std::is_sorted(table.values.begin(), table.values.end()));
        EXPECT_EQ(std::adjacent_find(table.values.begin(), table.values.end()), table.values.end());
        const std::size_t first_positive = table.values.front() == 0 ? 1 : 0;
        EXPECT_EQ(table.values[first_positive], f.smallest_positive) << ref::name(f.type);
        EXPECT_EQ(table.values.back(), f.largest) << ref::name(f.type);
    }
}

// The model must tell the modes and saturation settings apart where they differ.
TEST(ExhaustiveModel, DistinguishesModesAndSaturation)
{
    const uint64_t two_and_a_half = 0x4100;  // f16
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, two_and_a_half, RoundMode::CAST_RINT, SaturationMode::ON), 2u);
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, two_and_a_half, RoundMode::CAST_ROUND, SaturationMode::ON), 3u);
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, two_and_a_half, RoundMode::CAST_ODD, SaturationMode::ON), 3u);
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, two_and_a_half, RoundMode::CAST_FLOOR, SaturationMode::ON), 2u);
    const uint64_t three_hundred = 0x5CB0;  // f16
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, three_hundred, RoundMode::CAST_RINT, SaturationMode::ON), 127u);
    EXPECT_EQ(ref::expected(DType::I8, DType::F16, three_hundred, RoundMode::CAST_RINT, SaturationMode::OFF), 44u);
    const uint64_t largest_half = 0x7BFF;
    EXPECT_EQ(ref::expected(DType::F8E4M3, DType::F16, largest_half, RoundMode::CAST_RINT, SaturationMode::ON), 0x7Eu);
    EXPECT_EQ(ref::expected(DType::F8E4M3, DType::F16, largest_half, RoundMode::CAST_RINT, SaturationMode::OFF), 0x7Fu);
}

}  // namespace

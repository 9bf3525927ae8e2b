// pow against std::pow in double, for every element type and both accuracies: sampled bases and
// exponents over the whole range, and C's special cases (Annex F) exactly.
#include "support.hpp"

using namespace mathtest;

namespace {

// Pairs that exercise pow: random bit patterns (mostly overflow, underflow and NaN), exponents scaled so
// that the result stays within the float range, and integer exponents of negative bases.
void pow_sample(Type t, std::mt19937& rng, int count, std::vector<uint32_t>& base, std::vector<uint32_t>& exponent)
{
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_int_distribution<int> integer(-40, 40);
    const auto bits_of = [t](float f) {
        if (t == Type::F32) return std::bit_cast<uint32_t>(f);
        return uint32_t{t == Type::F16 ? half(f).bits : bfloat16_t(f).bits};
    };
    const double range = t == Type::F16 ? 15.0 : 120.0;  // log2 of the largest result aimed at
    for (int i = 0; i < count; ++i) {
        const uint32_t x = random_bits(t, rng);
        base.push_back(x);
        const double log2_x = std::log2(std::fabs(value(t, x)));
        switch (i % 3) {
            case 0: exponent.push_back(random_bits(t, rng)); break;
            case 1: exponent.push_back(bits_of(static_cast<float>(unit(rng) * range / log2_x))); break;
            default: exponent.push_back(bits_of(static_cast<float>(integer(rng)))); break;
        }
    }
}

}  // namespace

TEST(MathPow, IsWithinItsDocumentedBound)
{
    std::mt19937 rng(77);
    for (Type t : kTypes) {
        std::vector<uint32_t> base, exponent;
        pow_sample(t, rng, 1 << 18, base, exponent);
        for (MathAccuracy a : kAccuracies) {
            const std::vector<uint32_t> out = run_pow_line(t, a, base, exponent);
            int failures = 0;
            for (size_t i = 0; i < base.size(); ++i) {
                const double x = value(t, base[i]), y = value(t, exponent[i]);
                const double error = ulp_error(t, std::pow(x, y), value(t, out[i]));
                if (error > pow_bound(t) && ++failures <= 5) {
                    ADD_FAILURE() << "pow " << name(a) << " " << name(t) << "(" << x << ", " << y << ") is "
                                  << value(t, out[i]) << ", " << error << " ulp from " << std::pow(x, y);
                }
            }
        }
    }
}

TEST(MathPow, SpecialCasesAreThoseOfC)
{
    constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float cases[][2] = {
        {nan, 0.0f},   {nan, -0.0f},  {1.0f, nan},    {1.0f, inf},   {1.0f, -inf},  {-1.0f, inf},  {-1.0f, -inf},
        {0.0f, -3.0f}, {-0.0f, -3.0f}, {0.0f, -2.0f}, {-0.0f, -0.5f}, {-0.0f, -inf}, {0.0f, 3.0f}, {-0.0f, 3.0f},
        {-0.0f, 2.0f}, {-0.0f, 0.5f}, {0.5f, -inf},   {2.0f, -inf},  {0.5f, inf},   {2.0f, inf},   {-inf, -3.0f},
        {-inf, -2.0f}, {-inf, -0.5f}, {-inf, 3.0f},   {-inf, 2.0f},  {-inf, 0.5f},  {inf, -1.0f},  {inf, 0.5f},
        {-2.0f, 0.5f}, {-2.0f, 3.0f}, {-2.0f, -3.0f}, {-2.0f, 0x1p30f}, {2.0f, nan}, {nan, 1.0f},  {-8.0f, 1.0f / 3},
        {2.0f, 128.0f}, {2.0f, -149.0f}, {2.0f, -151.0f}, {-2.0f, 127.0f}, {10.0f, 38.5f},
    };
    for (const auto& c : cases) {
        const float expected = std::pow(c[0], c[1]);
        for (MathAccuracy a : kAccuracies) {
            const float got = ew::pow_element(a, c[0], c[1]);
            if (std::isnan(expected)) {
                EXPECT_TRUE(std::isnan(got)) << "pow(" << c[0] << ", " << c[1] << ") is " << got;
            } else {
                EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(expected))
                    << "pow(" << c[0] << ", " << c[1] << ") is " << got << ", not " << expected;
            }
        }
    }
    // A negative finite base to a finite non-integer power is invalid: the default NaN.
    EXPECT_EQ(std::bit_cast<uint32_t>(ew::pow_element(MathAccuracy::High, -2.0f, 0.5f)), 0xffc00000u);
}

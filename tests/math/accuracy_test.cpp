// Every function, accuracy and element type against the function in double: the error stays within the
// documented bound over every 16-bit input and a large float sample; the special values are IEEE's.
#include "support.hpp"

using namespace mathtest;

namespace {

// Checks fn over `in` on the running target; returns the number of failures (reported up to a few).
int check_accuracy(Type t, MathFn fn, MathAccuracy a, const std::vector<uint32_t>& in, const std::string& where)
{
    const std::vector<uint32_t> out = run_line(t, fn, a, in);
    const double bound = error_bound(t, fn, a);
    int failures = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const double error = ulp_error(t, reference(fn, value(t, in[i])), value(t, out[i]));
        if (error > bound && ++failures <= 5) {
            ADD_FAILURE() << where << ": " << name(fn) << " " << name(a) << " " << name(t) << " of " << std::hexfloat
                          << value(t, in[i]) << " (bits 0x" << std::hex << in[i] << ") is " << value(t, out[i])
                          << std::defaultfloat << ", " << error << " ulp from the reference, bound " << bound;
        }
    }
    return failures;
}

}  // namespace

TEST(MathAccuracy, EveryFunctionIsWithinItsDocumentedBound)
{
    std::mt19937 rng(20240611);
    for (Type t : kTypes) {
        const std::vector<uint32_t> in = sample(t, rng, 1 << 18);
        for (MathFn fn : kFunctions) {
            for (MathAccuracy a : kAccuracies) check_accuracy(t, fn, a, in, "best target");
        }
    }
}

// The bounds are tight enough to mean something: a result two ulps off is outside every one of them.
TEST(MathAccuracy, AResultTwoUlpsOffIsOutsideTheBound)
{
    for (Type t : kTypes) {
        for (MathFn fn : kFunctions) {
            for (MathAccuracy a : kAccuracies) {
                const double exact = reference(fn, 1.75);
                const double ulp = std::ldexp(1.0, std::ilogb(exact) - layout(t).fraction_bits);
                EXPECT_GT(ulp_error(t, exact, exact + 2 * ulp), error_bound(t, fn, a)) << name(fn) << " " << name(t);
            }
        }
    }
}

TEST(MathAccuracy, ANanComesBackQuietedWithItsSignAndPayload)
{
    for (Type t : kTypes) {
        for (uint32_t nan : special_values(t)) {
            if (!is_nan(t, nan)) continue;
            for (MathFn fn : kFunctions) {
                for (MathAccuracy a : kAccuracies) {
                    EXPECT_EQ(run_line(t, fn, a, {nan})[0], quieted(t, nan))
                        << name(fn) << " " << name(a) << " " << name(t) << " of 0x" << std::hex << nan;
                }
            }
        }
    }
}

TEST(MathAccuracy, SpecialValuesAreIeee)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    constexpr uint32_t kDefaultNaN = 0xffc00000;
    struct Case {
        MathFn fn;
        float x;
        uint32_t expected;
    };
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    const Case cases[] = {
        {MathFn::Exp, -inf, bits(0.0f)},         {MathFn::Exp, inf, bits(inf)},
        {MathFn::Exp, 0.0f, bits(1.0f)},         {MathFn::Exp, -0.0f, bits(1.0f)},
        {MathFn::Exp, 89.0f, bits(inf)},         {MathFn::Exp, -104.0f, bits(0.0f)},
        {MathFn::Exp, -103.0f, 0x00000001},      {MathFn::Log, 0.0f, bits(-inf)},
        {MathFn::Log, -0.0f, bits(-inf)},        {MathFn::Log, inf, bits(inf)},
        {MathFn::Log, 1.0f, bits(0.0f)},         {MathFn::Log, -1.0f, kDefaultNaN},
        {MathFn::Log, -inf, kDefaultNaN},        {MathFn::Sqrt, -0.0f, bits(-0.0f)},
        {MathFn::Sqrt, inf, bits(inf)},          {MathFn::Sqrt, -1.0f, kDefaultNaN},
        {MathFn::Rsqrt, 0.0f, bits(inf)},        {MathFn::Rsqrt, -0.0f, bits(-inf)},
        {MathFn::Rsqrt, inf, bits(0.0f)},        {MathFn::Rsqrt, -4.0f, kDefaultNaN},
        {MathFn::Recip, 0.0f, bits(inf)},        {MathFn::Recip, -0.0f, bits(-inf)},
        {MathFn::Recip, inf, bits(0.0f)},        {MathFn::Recip, -inf, bits(-0.0f)},
        {MathFn::Recip, 0x1p-128f, bits(inf)},   {MathFn::Recip, 0x1p127f, bits(0x1p-127f)},
    };
    for (const Case& c : cases) {
        for (MathAccuracy a : kAccuracies) {
            EXPECT_EQ(bits(ew::math_element(c.fn, a, c.x)), c.expected)
                << name(c.fn) << " " << name(a) << " of " << c.x;
        }
    }
}

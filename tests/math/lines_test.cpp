// The line functions and the one-element functions give the same bits; lines of any length (not only
// whole vectors), strided lines that leave the elements between them alone, and lines computed in place.
#include "support.hpp"

using namespace mathtest;

namespace {

// fn over `count` lines of `length` elements, `stride` apart, of random inputs; in place when asked.
// Checks every result against the one-element function and every gap element for being untouched.
void check_lines(Type t, MathFn fn, MathAccuracy a, int64_t count, int64_t length, int64_t stride, bool in_place,
                 std::mt19937& rng)
{
    const std::string where = name(fn) + " " + name(a) + " " + name(t) + ", " + std::to_string(count) + "x" +
                              std::to_string(length) + " stride " + std::to_string(stride) +
                              (in_place ? " in place" : "");
    const size_t size = static_cast<size_t>(count * stride);
    std::vector<uint32_t> in(size), out(size);
    for (auto& e : in) e = random_bits(t, rng);
    for (auto& e : out) e = random_bits(t, rng);
    const std::vector<uint32_t> out_before = in_place ? in : out;
    const ew::LineShape shape{count, length};
    if (t == Type::F32) {
        std::vector<float> x(size), y(size);
        for (size_t i = 0; i < size; ++i) {
            x[i] = std::bit_cast<float>(in[i]);
            y[i] = std::bit_cast<float>(out[i]);
        }
        float* d = in_place ? x.data() : y.data();
        ew::float_math_lines(fn, a, {d, stride}, {x.data(), stride}, shape);
        for (size_t i = 0; i < size; ++i) out[i] = std::bit_cast<uint32_t>(d[i]);
    } else {
        std::vector<uint16_t> x(in.begin(), in.end()), y(out.begin(), out.end());
        uint16_t* d = in_place ? x.data() : y.data();
        (t == Type::F16 ? ew::half_math_lines : ew::bfloat16_math_lines)(fn, a, {d, stride}, {x.data(), stride},
                                                                           shape);
        out.assign(d, d + size);
    }
    for (int64_t i = 0; i < count; ++i) {
        for (int64_t j = 0; j < stride; ++j) {
            const size_t k = static_cast<size_t>(i * stride + j);
            const uint32_t expected = j < length ? element(t, fn, a, in[k]) : out_before[k];
            ASSERT_EQ(out[k], expected) << where << ", line " << i << " element " << j
                                        << (j < length ? "" : " (outside the lines)");
        }
    }
}

}  // namespace

TEST(MathLines, EveryLengthGivesTheBitsOfTheElementFunction)
{
    std::mt19937 rng(5);
    for (Type t : kTypes) {
        for (MathFn fn : kFunctions) {
            for (MathAccuracy a : kAccuracies) {
                for (int64_t length : {1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 100}) {
                    check_lines(t, fn, a, 3, length, length + 5, false, rng);
                }
            }
        }
    }
}

TEST(MathLines, ALineMayBeComputedInPlace)
{
    std::mt19937 rng(6);
    for (Type t : kTypes) {
        for (MathFn fn : kFunctions) {
            for (MathAccuracy a : kAccuracies) check_lines(t, fn, a, 4, 37, 40, true, rng);
        }
    }
}

TEST(MathLines, PowLinesGiveTheBitsOfTheElementFunctionAndMayAliasEitherSource)
{
    std::mt19937 rng(7);
    for (Type t : kTypes) {
        for (MathAccuracy a : kAccuracies) {
            for (int64_t length : {1, 5, 16, 29, 64}) {
                std::vector<uint32_t> base(length), exponent(length);
                for (auto& e : base) e = random_bits(t, rng);
                for (auto& e : exponent) e = random_bits(t, rng) & (t == Type::F32 ? 0xc1ffffffu : 0xc7ffu);  // |y| < 16
                const std::vector<uint32_t> out = run_pow_line(t, a, base, exponent);
                for (int64_t j = 0; j < length; ++j) {
                    ASSERT_EQ(out[j], pow_element(t, a, base[j], exponent[j])) << name(t) << " element " << j;
                }
                if (t != Type::F32) continue;
                std::vector<float> x(length), y(length);
                for (int64_t j = 0; j < length; ++j) {
                    x[j] = std::bit_cast<float>(base[j]);
                    y[j] = std::bit_cast<float>(exponent[j]);
                }
                std::vector<float> x_in_place = x, y_in_place = y;
                ew::float_pow_lines(a, {x_in_place.data(), length}, {x_in_place.data(), length}, {y.data(), length},
                                    {1, length});
                ew::float_pow_lines(a, {y_in_place.data(), length}, {x.data(), length}, {y_in_place.data(), length},
                                    {1, length});
                for (int64_t j = 0; j < length; ++j) {
                    ASSERT_EQ(std::bit_cast<uint32_t>(x_in_place[j]), out[j]) << "dst = base, element " << j;
                    ASSERT_EQ(std::bit_cast<uint32_t>(y_in_place[j]), out[j]) << "dst = exponent, element " << j;
                }
            }
        }
    }
}

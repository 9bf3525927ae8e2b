// The fused element-wise vector instructions (pto.vaddrelu, pto.vsubrelu, pto.vprelu) and the carry
// chains (pto.vaddc, pto.vsubc) from PTO-AS against plain reference loops in double precision, on
// random lanes with special values, masked; and the codes of illegal forms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "vector_lane_support.hpp"
#include "vector_reference.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;
using namespace vector_reference;

// Random float lanes of t with NaN, infinities, zeros of both signs and overflowing sums among them.
std::vector<uint8_t> float_lanes(const Lane& t, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::vector<uint8_t> in(kBytes);
    const FloatFormat f = format_of(t);
    const double big = f.value(f.max_finite());
    const double specials[] = {std::nan(""), INFINITY, -INFINITY, 0.0, -0.0, big, -big, 1.0};
    for (int i = 0; i < 512 / t.bytes; ++i) {
        const double x = i % 7 == 3 ? specials[(i / 7) % 8] : unit(gen) * std::ldexp(1, int(gen() % 12));
        write_lane(in.data() + i * t.bytes, round_to_float(x, f, Mode::R, false), t.bytes);
    }
    return in;
}

// The float a rounded to nearest even into t (a double result of one exact-enough operation: double
// holds 2p + 2 bits of an f32 or f16 result, so rounding it once more is rounding the exact value).
uint64_t to_lane(const Lane& t, double a) { return round_to_float(a, format_of(t), Mode::R, false); }

// max(x, 0) as TRELU: NaN -> +0, -0 -> +0.
double relu(double x) { return x > 0 ? x : 0.0; }

TEST(VectorFused, AddReluSubReluPreluMatchTheReferenceOnF16AndF32)
{
    for (const Lane& t : {kF32, kF16})
        for (const char* op : {"vaddrelu", "vsubrelu", "vprelu"}) {
            const std::vector<uint8_t> in = float_lanes(t, 40 + t.bytes);
            const std::string m = mask_name(t.bytes);
            const std::string body = "    %m = pto.pset_" + m + " \"PAT_M4\" : !pto.mask<" + m + ">\n" +
                                     "    %all = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
                                     "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                     "    %b = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                     "    %r = pto." + op + " %a, %b, %m : " + vreg(t) + ", " + vreg(t) + ", !pto.mask<" + m + "> -> " + vreg(t) + "\n" +
                                     "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
            const std::vector<uint8_t> out = run_body(body, in);
            for (int i = 0; i < 256 / t.bytes; ++i) {
                const double a = float_value(t, read_lane(in.data() + i * t.bytes, t.bytes));
                const double b = float_value(t, read_lane(in.data() + 256 + i * t.bytes, t.bytes));
                uint64_t want = 0;
                if (i % 4 == 0) {
                    const std::string o = op;
                    // The sum or difference rounded into t first, then the ReLU (TADDRELU's order).
                    if (o == "vaddrelu") want = to_lane(t, relu(float_value(t, to_lane(t, a + b))));
                    else if (o == "vsubrelu") want = to_lane(t, relu(float_value(t, to_lane(t, a - b))));
                    else want = a > 0 ? to_lane(t, a) : to_lane(t, a * b);
                }
                const uint64_t got = read_lane(out.data() + i * t.bytes, t.bytes);
                ASSERT_TRUE(same_float(t, got, want)) << op << " " << t.name << " lane " << i << ": " << a << ", " << b << " gave "
                                                      << float_value(t, got) << ", want " << float_value(t, want);
            }
        }
}

// Decision: vmula is fused, add + lhs * rhs rounded once (its page: "not interchangeable with vmul plus
// vadd"); the reference is the exact value rounded to nearest even.
TEST(VectorFused, VmulaRoundsTheExactMultiplyAddOnce)
{
    for (const Lane& t : {kF32, kF16}) {
        // Lanes k * 2^-12 (f32, |k| < 2^24) or k * 2^-6 (f16, |k| < 2^11): exact in the type, and
        // a * b + c is exact in double, so the reference rounds the exact value; every 16th lane special.
        std::mt19937 gen(50 + uint32_t(t.bytes));
        const int bits = t.bytes == 4 ? 24 : 11;
        std::uniform_int_distribution<int64_t> k(-(int64_t(1) << bits) + 1, (int64_t(1) << bits) - 1);
        const double specials[] = {std::nan(""), INFINITY, -INFINITY, 0.0, -0.0};
        std::vector<uint8_t> in(kBytes);
        for (int i = 0; i < 768 / t.bytes; ++i) {
            const double x = i % 16 == 5 ? specials[(i / 16) % 5] : std::ldexp(double(k(gen)), t.bytes == 4 ? -12 : -6);
            write_lane(in.data() + i * t.bytes, to_lane(t, x), t.bytes);
        }
        const std::string m = mask_name(t.bytes);
        const std::string body = "    %m = pto.pset_" + m + " \"PAT_M3\" : !pto.mask<" + m + ">\n" +
                                 "    %all = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
                                 "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %b = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %c = pto.vlds %in_ui8[%c512] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %r = pto.vmula %c, %a, %b, %m : " + vreg(t) + ", " + vreg(t) + ", " + vreg(t) + ", !pto.mask<" + m + "> -> " + vreg(t) + "\n" +
                                 "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int i = 0; i < 256 / t.bytes; ++i) {
            const double a = float_value(t, read_lane(in.data() + i * t.bytes, t.bytes));
            const double b = float_value(t, read_lane(in.data() + 256 + i * t.bytes, t.bytes));
            const double c = float_value(t, read_lane(in.data() + 512 + i * t.bytes, t.bytes));
            const uint64_t want = i % 3 == 0 ? to_lane(t, a * b + c) : 0;
            const uint64_t got = read_lane(out.data() + i * t.bytes, t.bytes);
            ASSERT_TRUE(same_float(t, got, want)) << t.name << " lane " << i << ": " << c << " + " << a << " * " << b << " gave " << float_value(t, got);
        }
    }
}

// vaxpy is vmula with alpha broadcast: alpha * x + y rounded once (alpha = -0.375 keeps the products
// exact in double, so the reference rounds the exact value).
TEST(VectorFused, VaxpyRoundsAlphaTimesXPlusYOnce)
{
    for (const Lane& t : {kF32, kF16}) {
        std::mt19937 gen(80 + uint32_t(t.bytes));
        const int bits = t.bytes == 4 ? 24 : 11;
        std::uniform_int_distribution<int64_t> k(-(int64_t(1) << bits) + 1, (int64_t(1) << bits) - 1);
        std::vector<uint8_t> in(kBytes);
        for (int i = 0; i < 512 / t.bytes; ++i) {
            const double x = i % 16 == 5 ? (i % 32 == 5 ? INFINITY : std::nan("")) : std::ldexp(double(k(gen)), t.bytes == 4 ? -12 : -6);
            write_lane(in.data() + i * t.bytes, to_lane(t, x), t.bytes);
        }
        const std::string m = mask_name(t.bytes);
        const std::string body = "    %alpha = arith.constant -0.375 : " + std::string(t.name) + "\n" +
                                 "    %m = pto.pset_" + m + " \"PAT_M3\" : !pto.mask<" + m + ">\n" +
                                 "    %all = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
                                 "    %x = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %y = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %r = pto.vaxpy %x, %y, %alpha, %m : " + vreg(t) + ", " + vreg(t) + ", " + t.name + ", !pto.mask<" + m + "> -> " + vreg(t) + "\n" +
                                 "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int i = 0; i < 256 / t.bytes; ++i) {
            const double x = float_value(t, read_lane(in.data() + i * t.bytes, t.bytes));
            const double y = float_value(t, read_lane(in.data() + 256 + i * t.bytes, t.bytes));
            const uint64_t want = i % 3 == 0 ? to_lane(t, -0.375 * x + y) : 0;
            const uint64_t got = read_lane(out.data() + i * t.bytes, t.bytes);
            ASSERT_TRUE(same_float(t, got, want)) << t.name << " lane " << i << ": -0.375 * " << x << " + " << y << " gave " << float_value(t, got);
        }
    }
}

// Decision: vexpdif is exp of the difference rounded to the lane type, by TEXP (DEFAULT accuracy:
// within 1.5 ulp in f32, correctly rounded in f16).
TEST(VectorFused, VexpdifIsTexpOfTheRoundedDifference)
{
    for (const Lane& t : {kF32, kF16}) {
        std::mt19937 gen(70);
        std::uniform_real_distribution<double> unit(-1, 1);
        std::vector<uint8_t> in(kBytes);
        for (int i = 0; i < 512 / t.bytes; ++i) write_lane(in.data() + i * t.bytes, to_lane(t, unit(gen) * 8), t.bytes);
        const std::string m = mask_name(t.bytes);
        const std::string body = "    %all = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
                                 "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %b = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %r = pto.vexpdif %a, %b : " + vreg(t) + ", " + vreg(t) + " -> " + vreg(t) + "\n" +
                                 "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
        const std::vector<uint8_t> out = run_body(body, in);
        const FloatFormat f = format_of(t);
        for (int i = 0; i < 256 / t.bytes; ++i) {
            const double a = float_value(t, read_lane(in.data() + i * t.bytes, t.bytes));
            const double b = float_value(t, read_lane(in.data() + 256 + i * t.bytes, t.bytes));
            const double want = std::exp(float_value(t, to_lane(t, a - b)));
            const double got = float_value(t, read_lane(out.data() + i * t.bytes, t.bytes));
            if (std::isinf(float_value(t, to_lane(t, want)))) {
                EXPECT_TRUE(std::isinf(got)) << t.name << " lane " << i << ": exp(" << a << " - " << b << ") overflows";
                continue;
            }
            // An ulp at want's binade, and at the smallest normal one below it (subnormal results).
            const int min_exponent = 2 - (1 << (f.exponent_bits - 1));
            const double ulp = std::ldexp(1.0, std::max(std::ilogb(want), min_exponent) - f.mantissa_bits);
            EXPECT_LE(std::fabs(got - want), (t.bytes == 4 ? 1.5 : 0.5 + 1e-3) * ulp) << t.name << " lane " << i << ": exp(" << a << " - " << b << ")";
        }
    }
}

// Decision: vprelu is TPRELU's a > 0 ? a : a * alpha (the page writes >=): -0 gives -0 * alpha, NaN stays NaN.
TEST(VectorFused, PreluTakesTheSlopeBranchForZeroAndNaN)
{
    std::vector<uint8_t> in(kBytes);
    const float a[] = {-0.0f, 0.0f, NAN, -2.0f}, alpha[] = {-3.0f, -3.0f, 2.0f, 0.5f};
    for (int i = 0; i < 64; ++i) {
        std::memcpy(in.data() + 4 * i, &a[i % 4], 4);
        std::memcpy(in.data() + 256 + 4 * i, &alpha[i % 4], 4);
    }
    const std::string body = R"(    %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %s = pto.vlds %in_f32[%c64] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %r = pto.vprelu %a, %s, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
    pto.vsts %r, %out_f32[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_body(body, in);
    float got[4];
    std::memcpy(got, out.data(), 16);
    EXPECT_EQ(std::bit_cast<uint32_t>(got[0]), std::bit_cast<uint32_t>(0.0f));   // -0 * -3 = +0
    EXPECT_EQ(std::bit_cast<uint32_t>(got[1]), std::bit_cast<uint32_t>(-0.0f));  // +0 * -3 = -0
    EXPECT_TRUE(std::isnan(got[2]));
    EXPECT_EQ(got[3], -1.0f);
}

// Decision: vaddc/vsubc zero the inactive lanes of both results (the page keeps them; SSA results here
// are zero there, as every vector result), and read the lanes as unsigned on every integer type.
TEST(VectorFused, CarriesAndBorrowsOfEveryIntegerTypeZeroInactiveLanes)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 41);
    for (const Lane& t : {kI8, kU8, kI16, kU16, kI32, kU32, kI64})
        for (const char* op : {"vaddc", "vsubc"}) {
            const std::string m = mask_name(t.bytes);
            const std::string body = "    %m = pto.pset_" + m + " \"PAT_M3\" : !pto.mask<" + m + ">\n" +
                                     "    %all = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
                                     "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                     "    %b = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                     "    %r, %c = pto." + op + " %a, %b, %m : " + vreg(t) + ", " + vreg(t) + ", !pto.mask<" + m + "> -> " + vreg(t) +
                                     ", !pto.mask<" + m + ">\n" +
                                     "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n" +
                                     "    pto.vsts %a, %out_ui8[%c256], %c : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
            const std::vector<uint8_t> out = run_body(body, in);
            const int n = 256 / t.bytes;
            const unsigned __int128 modulus = (unsigned __int128)1 << (8 * t.bytes);
            for (int i = 0; i < n; ++i) {
                const uint64_t x = read_lane(in.data() + i * t.bytes, t.bytes), y = read_lane(in.data() + 256 + i * t.bytes, t.bytes);
                // 64-bit lanes take a b32 mask: lane i is b32 lane 2i.
                const bool active = (t.bytes == 8 ? 2 * i : i) % 3 == 0;
                const bool is_add = std::string(op) == "vaddc";
                const unsigned __int128 exact = is_add ? (unsigned __int128)x + y : (unsigned __int128)x + modulus - y;
                const uint64_t want = active ? uint64_t(exact % modulus) : 0;
                const bool carried = active && (is_add ? exact >= modulus : x < y);
                EXPECT_EQ(read_lane(out.data() + i * t.bytes, t.bytes), want) << op << " " << t.name << " lane " << i;
                // Where the carry is set, %a was stored through it; elsewhere the 0xAB fill stays.
                const uint64_t stored = read_lane(out.data() + 256 + i * t.bytes, t.bytes);
                const uint64_t fill = read_lane(std::vector<uint8_t>(8, 0xAB).data(), t.bytes);
                EXPECT_EQ(stored, carried ? x : fill) << op << " carry " << t.name << " lane " << i;
            }
        }
}

TEST(VectorFused, IllegalFormsReportTheirCodes)
{
    const std::string loads = "    %h = pto.vlds %in_bf16[%c0] : !pto.ptr<bf16, ub> -> !pto.vreg<128xbf16>\n"
                              "    %f = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                              "    %m16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n    %m32 = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n";
    const std::pair<std::string, std::string> cases[] = {
        {"    %r = pto.vaddrelu %h, %h, %m16 : !pto.vreg<128xbf16>, !pto.vreg<128xbf16>, !pto.mask<b16> -> !pto.vreg<128xbf16>\n", "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vprelu %f, %f, %m16 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_MASK_WIDTH"},
        {"    %r, %c = pto.vaddc %f, %f, %m32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.mask<b32>\n",
         "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vmula %h, %h, %h, %m16 : !pto.vreg<128xbf16>, !pto.vreg<128xbf16>, !pto.vreg<128xbf16>, !pto.mask<b16> -> !pto.vreg<128xbf16>\n",
         "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vexpdif %f, %h : !pto.vreg<64xf32>, !pto.vreg<128xbf16> -> !pto.vreg<64xf32>\n", "STRUCT_OPERAND_KIND"},
        {"    %a = arith.constant 2.0 : f16\n    %r = pto.vaxpy %f, %f, %a, %m32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, f16, !pto.mask<b32> -> !pto.vreg<64xf32>\n",
         "LEGAL_VECTOR_SCALAR_TYPE"},
        {"    %a = arith.constant 2.0 : bf16\n    %r = pto.vaxpy %h, %h, %a, %m16 : !pto.vreg<128xbf16>, !pto.vreg<128xbf16>, bf16, !pto.mask<b16> -> !pto.vreg<128xbf16>\n",
         "LEGAL_VECTOR_DTYPE"},
        {"    %r, %c = pto.vsubc %f, %f, %m32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.vreg<64xf32>\n",
         "STRUCT_OPERAND_KIND"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = static_codes(loads + body);
        EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << "expected " << code << " for\n" << body;
    }
}

}  // namespace
}  // namespace pto::as::testing

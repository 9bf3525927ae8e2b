// The SFU register operations from PTO-AS against plain reference loops: the widening multiply pto.vmull,
// the converting fused pto.vaddreluconv and pto.vmulconv, and the unary bit counts pto.vbcnt and pto.vcls,
// on random lanes with extremes and special values under partial masks; and the codes of their illegal
// forms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "vector_lane_support.hpp"
#include "vector_reference.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;
using vector_reference::FloatFormat;
using vector_reference::Mode;

using Bytes = std::vector<uint8_t>;

// The register types of the lanes (f32 ... ui64) in the body's own spelling.
std::string load(const std::string& name, const LaneType& t, int at)
{
    return "    %" + name + " = pto.vlds %in_ui8[%c" + std::to_string(at) + "] : !pto.ptr<ui8, ub> -> " + t.vreg() + "\n";
}

std::string store(const std::string& name, const std::string& vreg, const std::string& mask, int at)
{
    return "    pto.vsts %" + name + ", %out_ui8[%c" + std::to_string(at) + "], %all_" + mask + " : " + vreg + ", !pto.ptr<ui8, ub>, !pto.mask<" + mask +
           ">\n";
}

const LaneType& lane_type(const std::string& name)
{
    for (const LaneType& t : all_lane_types())
        if (t.name == name) return t;
    throw std::runtime_error("no lane type " + name);
}

// ---- vbcnt, vcls -------------------------------------------------------------------------------------

// The run of bits equal to the top bit, counted from the top bit itself, one bit at a time.
int leading_sign_bits(uint64_t v, int bits)
{
    const uint64_t top = (v >> (bits - 1)) & 1;
    int n = 0;
    for (int b = bits - 1; b >= 0 && ((v >> b) & 1) == top; --b) ++n;
    return n;
}

TEST(VectorSfu, VbcntAndVclsCountBitsOfEveryIntegerLaneType)
{
    for (const LaneType& t : all_lane_types()) {
        if (t.is_float) continue;
        for (const char* op : {"vbcnt", "vcls"}) {
            const Bytes in = lane_data(t, 60 + uint32_t(t.bytes));
            const std::string m = t.mask_width();
            const std::string body = "    %m = pto.pset_" + m + " \"PAT_M3\" : !pto.mask<" + m + ">\n" + load("a", t, 0) + "    %r = pto." + op +
                                     " %a, %m : " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n" + store("r", t.vreg(), m, 0);
            const Bytes out = run_body(body, in);
            const int mask_lanes = 256 / std::min(t.bytes, 4);
            for (int i = 0; i < t.lanes(); ++i) {
                // 64-bit lanes read the b32 mask's even lanes.
                const bool active = m3(t.bytes == 8 ? 2 * i : i) && (t.bytes == 8 ? 2 * i : i) < mask_lanes;
                const uint64_t v = lane_bits(in.data(), t, i);
                const int bits = 8 * t.bytes;
                uint64_t want = 0;
                if (active) {
                    int n = 0;
                    if (std::string(op) == "vbcnt")
                        for (int b = 0; b < bits; ++b) n += int((v >> b) & 1);
                    else
                        n = leading_sign_bits(v, bits);
                    want = uint64_t(n);
                }
                ASSERT_EQ(lane_bits(out.data(), t, i), want) << op << " " << t.name << " lane " << i << " of " << std::hex << v;
            }
        }
    }
}

// The counts of the extremes: every bit the same (0, -1), one sign bit alone (min), none (max).
TEST(VectorSfu, VclsCountsTheSignBitItself)
{
    const LaneType& t = lane_type("i32");
    Bytes in(kBytes, 0);
    const uint32_t values[] = {0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 1, 0xfffffffeu, 0x00ffffffu};
    for (int i = 0; i < 7; ++i) set_lane_bits(in.data(), t, i, values[i]);
    const Bytes out = run_body(load("a", t, 0) + "    %r = pto.vcls %a, %all_b32 : " + t.vreg() + ", !pto.mask<b32> -> " + t.vreg() + "\n" +
                                   store("r", t.vreg(), "b32", 0),
                               in);
    const uint64_t want[] = {32, 32, 1, 1, 31, 31, 8};
    for (int i = 0; i < 7; ++i) EXPECT_EQ(lane_bits(out.data(), t, i), want[i]) << "lane " << i;
}

// ---- vmull -------------------------------------------------------------------------------------------

TEST(VectorSfu, VmullGivesTheLowAndHighHalvesOfTheFullProduct)
{
    for (const char* name : {"i32", "ui32"}) {
        const LaneType& t = lane_type(name);
        const Bytes in = lane_data(t, 70);
        const std::string body = "    %m = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n" + load("a", t, 0) + load("b", t, 256) +
                                 "    %lo, %hi = pto.vmull %a, %b, %m : " + t.vreg() + ", " + t.vreg() + ", !pto.mask<b32> -> " + t.vreg() + ", " +
                                 t.vreg() + "\n" + store("lo", t.vreg(), "b32", 0) + store("hi", t.vreg(), "b32", 256);
        const Bytes out = run_body(body, in);
        for (int i = 0; i < 64; ++i) {
            const int64_t a = int_of(t, lane_bits(in.data(), t, i)), b = int_of(t, lane_bits(in.data() + 256, t, i));
            // Signed: |a * b| <= 2^62; unsigned: a * b < 2^64; both exact in 128 bits.
            const __int128 product = __int128(a) * __int128(b);
            const uint64_t bits = uint64_t(product);
            const uint64_t lo = m3(i) ? bits & 0xffffffffu : 0, hi = m3(i) ? bits >> 32 : 0;
            ASSERT_EQ(lane_bits(out.data(), t, i), lo) << name << " lane " << i << ": " << a << " * " << b;
            ASSERT_EQ(lane_bits(out.data() + 256, t, i), hi) << name << " lane " << i << ": " << a << " * " << b;
        }
    }
}

// ---- vaddreluconv, vmulconv --------------------------------------------------------------------------

struct ConvCase {
    const char* op;
    const char* from;
    const char* to;
};

// The exact value v (already relu'd or a product) converted as the page's fused conversion: to nearest
// even, saturating (a float overflow to the largest finite value, an integer to its range, NaN to 0).
uint64_t convert_saturating(double v, const LaneType& to)
{
    if (to.is_float) return vector_reference::round_to_float(v, FloatFormat{5, 10}, Mode::R, true);
    if (std::isnan(v)) return 0;
    const double r = std::nearbyint(v);  // the default rounding: to nearest even
    const double lo = to.is_signed ? -std::ldexp(1, 8 * to.bytes - 1) : 0, hi = std::ldexp(1, 8 * to.bytes - (to.is_signed ? 1 : 0)) - 1;
    return wrap_bits(to, uint64_t(int64_t(std::clamp(r, lo, hi))));
}

// Float lanes of t with NaN, infinities, signed zeros, large values (overflowing the narrow type),
// and moderate ones with fractions that exercise rounding, including exact halves.
Bytes conv_lanes(const LaneType& t, uint32_t seed)
{
    std::mt19937 gen(seed);
    Bytes in = lane_data(t, seed);
    if (!t.is_float) return in;
    const double specials[] = {std::nan(""), INFINITY, -INFINITY, 0.0, -0.0, 1e4, -1e4, 127.5, 126.5, -128.5, 0.5, 60000.0, 70000.0};
    for (int i = 0; i < 512 / t.bytes; ++i) {
        const double x = i % 5 == 2 ? specials[gen() % 13] : double(int(gen() % 801) - 400) / double(1 << (gen() % 4));
        set_lane_bits(in.data(), t, i, float_bits(t, x));
    }
    return in;
}

TEST(VectorSfu, VaddreluconvAndVmulconvMatchTheReferenceOnEveryPair)
{
    const ConvCase cases[] = {{"vaddreluconv", "f32", "f16"}, {"vaddreluconv", "f16", "i8"}, {"vaddreluconv", "i16", "i8"}, {"vmulconv", "f16", "i8"}};
    for (const ConvCase& c : cases) {
        const LaneType &from = lane_type(c.from), &to = lane_type(c.to);
        const Bytes in = conv_lanes(from, 80 + uint32_t(from.bytes));
        const std::string m = from.mask_width();
        const std::string body = "    %m = pto.pset_" + m + " \"PAT_M4\" : !pto.mask<" + m + ">\n" + load("a", from, 0) + load("b", from, 256) +
                                 "    %r = pto." + c.op + " %a, %b, %m : " + from.vreg() + ", " + from.vreg() + ", !pto.mask<" + m + "> -> " + to.vreg() +
                                 "\n" + store("r", to.vreg(), to.mask_width(), 0);
        const Bytes out = run_body(body, in);
        for (int i = 0; i < to.lanes(); ++i) {
            uint64_t want = 0;
            std::string operands;
            if (i < from.lanes() && i % 4 == 0) {
                const uint64_t x = lane_bits(in.data(), from, i), y = lane_bits(in.data() + 256, from, i);
                const double a = from.is_float ? float_of(from, x) : double(int_of(from, x));
                const double b = from.is_float ? float_of(from, y) : double(int_of(from, y));
                operands = std::to_string(a) + ", " + std::to_string(b);
                double v = 0;
                if (std::string(c.op) == "vmulconv") {
                    v = a * b;
                } else {
                    // An f32 sum rounds in f32 first (TADDRELUCONV's order); f16 and i16 sums are exact.
                    const double sum = from.dtype == engine::DType::F32 ? double(float(a) + float(b)) : a + b;
                    v = sum > 0 ? sum : 0.0;
                }
                want = convert_saturating(v, to);
            }
            ASSERT_EQ(lane_bits(out.data(), to, i), want) << c.op << " " << c.from << " -> " << c.to << " lane " << i << ": " << operands;
        }
    }
}

// ---- illegal forms -------------------------------------------------------------------------------------

TEST(VectorSfu, IllegalFormsAreReportedWithTheirCodes)
{
    const std::string loads = "    %f = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                              "    %h = pto.vlds %in_f16[%c0] : !pto.ptr<f16, ub> -> !pto.vreg<128xf16>\n"
                              "    %s = pto.vlds %in_i16[%c0] : !pto.ptr<i16, ub> -> !pto.vreg<128xi16>\n"
                              "    %w = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n";
    const std::pair<std::string, std::string> cases[] = {
        {"    %r = pto.vbcnt %f, %all_b32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vcls %h, %all_b16 : !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<128xf16>\n", "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vcls %w, %all_b16 : !pto.vreg<64xi32>, !pto.mask<b16> -> !pto.vreg<64xi32>\n", "LEGAL_VECTOR_MASK_WIDTH"},
        {"    %l, %u = pto.vmull %s, %s, %all_b16 : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>, !pto.vreg<128xi16>\n",
         "LEGAL_VECTOR_DTYPE"},
        {"    %l, %u = pto.vmull %f, %f, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.vreg<64xf32>\n",
         "LEGAL_VECTOR_DTYPE"},
        // The op page's multiply-subtract spelling (a subtrahend, one result) is not the widening multiply.
        {"    %r = pto.vmull %w, %w, %w, %all_b32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n",
         "STRUCT_OPERAND_COUNT"},
        {"    %r = pto.vmull %w, %w, %all_b32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n", "STRUCT_RESULT_COUNT"},
        {"    %r = pto.vaddreluconv %f, %f, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<256xi8>\n", "LEGAL_VCONV_PAIR"},
        {"    %r = pto.vaddreluconv %h, %h, %all_b16 : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf32>\n",
         "LEGAL_VCONV_PAIR"},
        {"    %r = pto.vmulconv %f, %f, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n", "LEGAL_VCONV_PAIR"},
        {"    %r = pto.vmulconv %s, %s, %all_b16 : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<256xi8>\n", "LEGAL_VCONV_PAIR"},
        // The op page's widening example writes 64 halves, which are not a register.
        {"    %r = pto.vaddreluconv %h, %h, %all_b16 : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf16>\n",
         "LEGAL_VREG_SHAPE"},
        {"    %r = pto.vmulconv %h, %h, %all_b32 : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b32> -> !pto.vreg<256xi8>\n",
         "LEGAL_VECTOR_MASK_WIDTH"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = static_codes(loads + body);
        EXPECT_TRUE(has_code(codes, code)) << "expected " << code << " for\n" << body;
    }
}

}  // namespace
}  // namespace pto::as::testing

// The vector-scalar instructions (pto.vadds ... pto.vlrelu) and the carry chains (pto.vaddcs,
// pto.vsubcs) from PTO-AS, on every lane type they take, against a plain reference loop over random
// lanes salted with NaN, infinities, -0 and integer extremes; and the diagnostics of illegal forms.
#include <algorithm>
#include <functional>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

// The element-wise rules of TMAX / TMIN: a NaN loses to a number, +0 > -0.
double max_number(double a, double b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
double min_number(double a, double b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

struct ScalarCase {
    const char* op;
    bool floats, integers;  // the lane kinds it takes
    std::function<double(double, double)> on_float;
    std::function<uint64_t(const LaneType&, uint64_t, uint64_t)> on_integer;  // lane bits, scalar bits -> bits
};

uint64_t shift_left(const LaneType& t, uint64_t x, uint64_t s)
{
    const uint64_t n = wrap_bits(t, s);
    return n >= uint64_t(8 * t.bytes) ? 0 : wrap_bits(t, x << n);
}

uint64_t shift_right(const LaneType& t, uint64_t x, uint64_t s)
{
    const uint64_t n = wrap_bits(t, s);
    const uint64_t width = uint64_t(8 * t.bytes);
    if (t.is_signed) return wrap_bits(t, uint64_t(int_of(t, x) >> std::min<uint64_t>(n, width - 1)));
    return n >= width ? 0 : x >> n;
}

const std::vector<ScalarCase>& scalar_cases()
{
    auto signed_pick = [](const LaneType& t, uint64_t x, uint64_t s, bool max) {
        const bool x_wins = t.is_signed ? (max ? int_of(t, x) > int_of(t, s) : int_of(t, x) < int_of(t, s)) : (max ? x > s : x < s);
        return x_wins ? x : s;
    };
    static const std::vector<ScalarCase> cases = {
        {"vadds", true, true, [](double a, double s) { return a + s; }, [](const LaneType& t, uint64_t x, uint64_t s) { return wrap_bits(t, x + s); }},
        {"vsubs", true, true, [](double a, double s) { return a - s; }, [](const LaneType& t, uint64_t x, uint64_t s) { return wrap_bits(t, x - s); }},
        {"vmuls", true, true, [](double a, double s) { return a * s; }, [](const LaneType& t, uint64_t x, uint64_t s) { return wrap_bits(t, x * s); }},
        {"vmaxs", true, true, max_number, [=](const LaneType& t, uint64_t x, uint64_t s) { return signed_pick(t, x, s, true); }},
        {"vmins", true, true, min_number, [=](const LaneType& t, uint64_t x, uint64_t s) { return signed_pick(t, x, s, false); }},
        {"vands", false, true, nullptr, [](const LaneType&, uint64_t x, uint64_t s) { return x & s; }},
        {"vors", false, true, nullptr, [](const LaneType&, uint64_t x, uint64_t s) { return x | s; }},
        {"vxors", false, true, nullptr, [](const LaneType&, uint64_t x, uint64_t s) { return x ^ s; }},
        {"vshls", false, true, nullptr, shift_left},
        {"vshrs", false, true, nullptr, shift_right},
        {"vlrelu", true, false, [](double a, double s) { return a > 0 ? a : a * s; }, nullptr},
    };
    return cases;
}

// Runs `op` on the lanes of `t` at %in with the scalar `s` under a PAT_M3 mask, and checks every lane.
void check_scalar_op(const ScalarCase& c, const LaneType& t, double scalar_value, uint64_t scalar_bits, uint32_t seed)
{
    const std::vector<uint8_t> in = lane_data(t, seed);
    const std::string body = "    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() + "\n" +
                             "    %v = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                             "    %r = pto." + c.op + " %v, %s, %m : " + t.vreg() + ", " + t.scalar() + ", " + t.mask() + " -> " + t.vreg() + "\n" +
                             "    pto.vsts %r, %out_" + t.name + "[%c0], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
    const std::vector<uint8_t> out = run_body(body, in, ", %s: " + t.scalar(), {scalar_arg("s", scalar_value)});
    for (int i = 0; i < t.lanes(); ++i) {
        const uint64_t got = lane_bits(out.data(), t, i);
        const uint64_t x = lane_bits(in.data(), t, i);
        const std::string where = std::string(c.op) + " " + t.name + " scalar " + std::to_string(scalar_value) + " lane " + std::to_string(i);
        if (!m3(i)) {
            ASSERT_EQ(got, 0u) << where << ": inactive lanes are zero";
        } else if (t.is_float) {
            const double want = c.on_float(float_of(t, x), float_of(t, scalar_bits));
            if (std::isnan(want)) ASSERT_TRUE(std::isnan(float_of(t, got))) << where;
            else ASSERT_EQ(got, float_bits(t, want)) << where << " input " << float_of(t, x) << " got " << float_of(t, got);
        } else {
            ASSERT_EQ(got, c.on_integer(t, x, scalar_bits)) << where << " input " << int_of(t, x);
        }
    }
}

TEST(VectorScalar, EveryOpOnEveryLaneTypeMatchesTheReferenceLoop)
{
    const double inf = std::numeric_limits<double>::infinity();
    uint32_t seed = 100;
    for (const ScalarCase& c : scalar_cases())
        for (const LaneType& t : all_lane_types()) {
            if (t.is_float ? !c.floats : !c.integers) continue;
            if (std::string(c.op) == "vlrelu" && t.dtype == engine::DType::BF16) continue;  // f32 and f16 only
            if (t.is_float) {
                // The interpreter rounds an f16 / bf16 scalar saturating (infinities to the largest
                // finite value, NaN to 0), so only f32 scalars bring the special values in; the lanes
                // bring them for every type.
                std::vector<double> scalars = {1.5, -0.75, 3.0, -0.0, 0.0};
                if (t.dtype == engine::DType::F32) scalars.insert(scalars.end(), {inf, -inf, std::nan("")});
                for (double s : scalars) check_scalar_op(c, t, s, float_bits(t, s), ++seed);
            } else {
                const int width = 8 * t.bytes;
                const bool shift = std::string(c.op) == "vshls" || std::string(c.op) == "vshrs";
                std::vector<int64_t> scalars = shift ? std::vector<int64_t>{0, 1, 3, width - 1, width, width + 5}
                                                     : std::vector<int64_t>{3, -5, 0x5a, -1, 0, int64_t(1) << (width - 2)};
                for (int64_t s : scalars) check_scalar_op(c, t, double(s), wrap_bits(t, uint64_t(s)), ++seed);
            }
        }
}

TEST(VectorScalar, CarryChainsAddAndSubtractWithCarryInAndOut)
{
    uint32_t seed = 500;
    for (const LaneType& t : all_lane_types()) {
        if (t.is_float) continue;
        for (const char* op : {"vaddcs", "vsubcs"}) {
            const std::vector<uint8_t> in = lane_data(t, ++seed);
            const int n = t.lanes();
            // lhs at byte 0, rhs at byte 256; carry-in PAT_M4 (every fourth lane), mask PAT_M3. The result
            // at byte 0, the carry-out seen through a zero register stored under it at byte 256.
            const std::string w = t.mask_width(), mask = t.mask();
            const std::string uw = "ui" + std::to_string(t.bytes == 8 ? 32 : t.bytes * 8);
            const std::string zreg = "!pto.vreg<" + std::to_string(t.bytes == 8 ? 64 : n) + "x" + uw + ">";
            const std::string zscalar = "i" + std::to_string(t.bytes == 8 ? 32 : t.bytes * 8);
            const std::string body =
                "    %cin = pto.pset_" + w + " \"PAT_M4\" : " + mask + "\n" +
                "    %m = pto.pset_" + w + " \"PAT_M3\" : " + mask + "\n" +
                "    %rhs_at = arith.constant " + std::to_string(256 / t.bytes) + " : index\n" +
                "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                "    %b = pto.vlds %in_" + t.name + "[%rhs_at] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                "    %r, %cout = pto." + op + " %a, %b, %cin, %m : " + t.vreg() + ", " + t.vreg() + ", " + mask + ", " + mask + " -> " + t.vreg() + ", " + mask + "\n" +
                "    pto.vsts %r, %out_" + t.name + "[%c0], %all_" + w + " : " + t.vreg() + ", " + t.ptr() + ", " + mask + "\n" +
                "    %z = arith.constant 0 : " + zscalar + "\n" +
                "    %zero = pto.vbr %z : " + zscalar + " -> " + zreg + "\n" +
                "    %carry_at = arith.constant " + std::to_string(t.bytes == 8 ? 64 : 256 / t.bytes) + " : index\n" +
                "    pto.vsts %zero, %out_" + uw + "[%carry_at], %cout : " + zreg + ", !pto.ptr<" + uw + ", ub>, " + mask + "\n";
            const std::vector<uint8_t> out = run_body(body, in);
            for (int i = 0; i < n; ++i) {
                const uint64_t a = lane_bits(in.data(), t, i), b = lane_bits(in.data() + 256, t, i);
                const bool on = m3(t.bytes == 8 ? 2 * i : i), carry_in = (t.bytes == 8 ? 2 * i : i) % 4 == 0;
                const bool add = std::string(op) == "vaddcs";
                const uint64_t r = wrap_bits(t, add ? a + b + carry_in : a - b - carry_in);
                // The carry is the bit past the width; the borrow is a < b + borrow_in, both exactly.
                const bool out_bit = add ? (wrap_bits(t, a + b) < a || r < wrap_bits(t, a + b)) : (a < b || (a == b && carry_in));
                ASSERT_EQ(lane_bits(out.data(), t, i), on ? r : 0) << op << " " << t.name << " lane " << i;
                const bool carry_seen = lane_bits(out.data() + 256, t, i) == 0;
                ASSERT_EQ(carry_seen, on && out_bit) << op << " " << t.name << " carry lane " << i;
            }
        }
    }
}

TEST(VectorScalar, IllegalFormsAreRefusedWithTheirCodes)
{
    auto body = [](const std::string& op, const std::string& vreg, const std::string& scalar, const std::string& mask) {
        return "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + vreg + "\n" +
               "    %m = pto.pset_" + mask.substr(10, mask.size() - 11) + " \"PAT_ALL\" : " + mask + "\n" +
               "    %r = pto." + op + " %v, %s, %m : " + vreg + ", " + scalar + ", " + mask + " -> " + vreg + "\n";
    };
    // bitwise and shift forms are integer-only; vlrelu is f32 / f16 only
    EXPECT_TRUE(has_code(static_codes(body("vands", "!pto.vreg<64xf32>", "f32", "!pto.mask<b32>"), ", %s: f32"), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(body("vshls", "!pto.vreg<64xf32>", "f32", "!pto.mask<b32>"), ", %s: f32"), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(body("vlrelu", "!pto.vreg<64xi32>", "i32", "!pto.mask<b32>"), ", %s: i32"), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(body("vlrelu", "!pto.vreg<128xbf16>", "bf16", "!pto.mask<b16>"), ", %s: bf16"), "LEGAL_VECTOR_DTYPE"));
    // the scalar has the lane type; the mask the lanes' width
    EXPECT_TRUE(has_code(static_codes(body("vadds", "!pto.vreg<64xf32>", "f16", "!pto.mask<b32>"), ", %s: f16"), "LEGAL_VECTOR_SCALAR_TYPE"));
    EXPECT_TRUE(has_code(static_codes(body("vadds", "!pto.vreg<64xi32>", "i16", "!pto.mask<b32>"), ", %s: i16"), "LEGAL_VECTOR_SCALAR_TYPE"));
    EXPECT_TRUE(has_code(static_codes(body("vmuls", "!pto.vreg<64xf32>", "f32", "!pto.mask<b16>"), ", %s: f32"), "LEGAL_VECTOR_MASK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes("    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                                      "    %r = pto.vadds %v, %v, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"),
                         "STRUCT_OPERAND_KIND"));
    // carry chains are integer-only
    const std::string carry = "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                              "    %r, %c = pto.vaddcs %v, %v, %all_b32, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.mask<b32>\n";
    EXPECT_TRUE(has_code(static_codes(carry), "LEGAL_VECTOR_DTYPE"));
    // the scalar of a legal form is fine
    EXPECT_TRUE(static_codes(body("vadds", "!pto.vreg<64xui32>", "i32", "!pto.mask<b32>"), ", %s: i32").empty());
}

}  // namespace
}  // namespace pto::as::testing
